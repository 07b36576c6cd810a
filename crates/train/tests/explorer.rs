//! The opening explorer built from the WTHOR games, checked against a direct scan of the files
//! that shares no code with the builder's keying, symmetries or counting, and the shipped file
//! checked against a fresh build.

use std::path::Path;
use virada_engine::explorer::{Explorer, Stats};
use virada_rules::{Move, Position, Square};

/// Black's WOF disc difference at the end of a raw 60-byte move list, replayed by hand with
/// passes, or `None` when the record stops before the end. No WTHOR reader of ours is used.
fn replay_raw(moves: &[u8]) -> Option<(Vec<(u8, u8)>, i32)> {
    let mut pos = Position::start();
    let mut squares = Vec::new();
    for &b in moves {
        if b == 0 {
            break;
        }
        let (col, row) = (b % 10, b / 10);
        let sq = Square::from_coords(col - 1, row - 1).unwrap();
        if pos.legal_moves().0 == 0 {
            pos = pos.play(Move::Pass).unwrap();
        }
        pos = pos.play(Move::Play(sq)).unwrap();
        squares.push((col, row));
    }
    if pos.legal_moves().0 == 0 && !pos.is_game_over() {
        pos = pos.play(Move::Pass).unwrap();
    }
    if !pos.is_game_over() {
        return None;
    }
    let b = pos.black().count() as i32;
    let w = pos.white().count() as i32;
    let empties = 64 - b - w;
    let diff = b - w;
    Some((
        squares,
        diff + empties * diff.signum(), // empties to the winner
    ))
}

/// The second move of a game whose first move is turned to f5, as text.
fn second_move_from_f5(first: (u8, u8), second: (u8, u8)) -> String {
    let (c, r) = second;
    let (c, r) = match first {
        (6, 5) => (c, r),         // f5
        (5, 6) => (r, c),         // e6: mirror in the a1-h8 diagonal
        (4, 3) => (9 - r, 9 - c), // d3: mirror in the h1-a8 diagonal
        (3, 4) => (9 - c, 9 - r), // c4: half turn
        other => panic!("first move {other:?}"),
    };
    format!("{}{}", (b'a' + c - 1) as char, r)
}

fn after(line: &[&str]) -> Position {
    line.iter().fold(Position::start(), |p, m| {
        p.play(Move::Play(m.parse().unwrap())).unwrap()
    })
}

#[test]
fn first_moves_and_results_match_a_direct_scan() {
    let Some(dir) = virada_testdata::dir("wthor") else {
        return;
    };
    // The direct scan: the raw records of every WTH_*.wtb file.
    let mut total = Stats::default();
    let mut by_reply: std::collections::BTreeMap<String, Stats> = Default::default();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            n.starts_with("WTH_") && n.to_ascii_lowercase().ends_with(".wtb")
        })
        .collect();
    files.sort();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        for rec in bytes[16..].chunks_exact(68) {
            let Some((squares, diff)) = replay_raw(&rec[8..68]) else {
                continue;
            };
            total.add(diff);
            by_reply
                .entry(second_move_from_f5(squares[0], squares[1]))
                .or_default()
                .add(diff);
        }
    }
    let (explorer, report) = virada_train::explorer_build::build_from_dir(Path::new(&dir), 2)
        .expect("the explorer builds");
    assert_eq!(report.games_used as u32, total.games);
    assert!(total.games > 100_000, "{} games", total.games);

    let start = explorer.moves_at(&Position::start()).unwrap();
    assert_eq!(start.len(), 1, "f5, d3, c4 and e6 are one move");
    assert_eq!(start[0].stats, total);
    let mut firsts: Vec<String> = start[0].same_as.iter().map(|s| s.to_string()).collect();
    firsts.push(start[0].square.to_string());
    firsts.sort();
    assert_eq!(firsts, ["c4", "d3", "e6", "f5"]);

    let replies = explorer.moves_at(&after(&["f5"])).unwrap();
    assert_eq!(replies.len(), by_reply.len());
    for m in &replies {
        assert_eq!(m.stats, by_reply[&m.square.to_string()], "f5 {}", m.square);
    }
    // The perpendicular opening is the most played, as every opening book says.
    assert_eq!(replies[0].square.to_string(), "d6");
    let d6 = &by_reply["d6"];
    assert_eq!(
        replies[0].stats.black_average(),
        d6.black_disc_sum as f64 / f64::from(d6.games)
    );
    // Every listed player is rated from at least 20 games and listed strongest first.
    for m in &replies {
        assert!(!m.players.is_empty());
        assert!(m.players.windows(2).all(|w| w[0].elo >= w[1].elo));
        assert!(m.players.iter().all(|p| p.games >= 20 && p.name != "???"));
        assert!(m.stats.white_wins() + m.stats.black_wins <= m.stats.games);
    }
}

#[test]
fn the_shipped_file_is_what_the_command_builds() {
    let shipped = Explorer::shipped_bytes();
    let read = Explorer::from_bytes(shipped).expect("the shipped file reads");
    assert_eq!(read.to_bytes(), shipped, "round trip");
    let Some(dir) = virada_testdata::dir("wthor") else {
        return;
    };
    let (built, report) = virada_train::explorer_build::build_from_dir(Path::new(&dir), 2).unwrap();
    assert_eq!(report.nodes_kept, read.nodes.len());
    assert!(
        built == read,
        "crates/engine/data/explorer.vex is stale: run `virada openings explorer build --out \
         crates/engine/data/explorer.vex`"
    );
}
