use super::*;
use virada_rules::Move;

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn after(line: &[&str]) -> Position {
    line.iter()
        .fold(Position::start(), |p, m| p.play(Move::Play(sq(m))).unwrap())
}

/// An explorer with one game's moves stored from each of its positions.
fn one_line(line: &[&str], diff: i32) -> Explorer {
    let mut nodes: Vec<Node> = Vec::new();
    let mut pos = Position::start();
    for m in line {
        let mut stats = Stats::default();
        stats.add(diff);
        nodes.push(Node {
            key: key_of(&pos).0,
            edges: vec![Edge {
                square: representative(&pos, sq(m)),
                stats,
                players: vec![0],
            }],
        });
        pos = pos.play(Move::Play(sq(m))).unwrap();
    }
    nodes.sort_by_key(|n| n.key);
    Explorer {
        meta: "test".into(),
        players: vec![Player {
            name: "Ana Émilie".into(),
            elo: 2100,
            games: 40,
        }],
        nodes,
    }
}

#[test]
fn round_trip_and_damage_is_reported() {
    let e = one_line(&["f5", "d6", "c3", "d3"], -6);
    let bytes = e.to_bytes();
    assert_eq!(Explorer::from_bytes(&bytes).unwrap(), e);
    let mut bad = bytes.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 1;
    let err = Explorer::from_bytes(&bad).unwrap_err();
    assert!(err.message.contains("checksum"), "{err}");
    let err = Explorer::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err();
    assert!(err.message.contains("checksum"), "{err}");
    assert!(Explorer::from_bytes(b"VIRADABK").is_err());
}

#[test]
fn the_four_first_moves_are_one_move() {
    let e = one_line(&["d3"], 4);
    let moves = e.moves_at(&Position::start()).unwrap();
    assert_eq!(moves.len(), 1);
    let mut all: Vec<Square> = moves[0].same_as.clone();
    all.push(moves[0].square);
    all.sort_by_key(|s| s.index());
    assert_eq!(all, vec![sq("d3"), sq("c4"), sq("f5"), sq("e6")]);
    assert_eq!(moves[0].stats.games, 1);
    assert_eq!(moves[0].stats.black_average(), 4.0);
    assert_eq!(moves[0].players[0].name, "Ana Émilie");
}

#[test]
fn a_line_is_found_in_every_orientation() {
    // Stored as played after f5 (perpendicular d6, then c3); asked after d3 c5 (the same
    // position turned), the answer names the turned square.
    let e = one_line(&["f5", "d6", "c3"], 2);
    let start = Position::start().board();
    let start_symmetries: Vec<Symmetry> = Symmetry::ALL
        .into_iter()
        .filter(|s| s.apply_board(start) == start)
        .collect();
    assert_eq!(start_symmetries.len(), 4);
    for s in start_symmetries {
        let turned: Vec<String> = ["f5", "d6"]
            .iter()
            .map(|m| s.apply_square(sq(m)).to_string())
            .collect();
        let refs: Vec<&str> = turned.iter().map(String::as_str).collect();
        let pos = after(&refs);
        let moves = e.moves_at(&pos).unwrap();
        assert_eq!(moves.len(), 1, "{s:?}");
        assert_eq!(moves[0].square, s.apply_square(sq("c3")), "{s:?}");
        assert!(moves[0].same_as.is_empty());
    }
    // A transposition: the same discs by another order is the same node.
    assert!(e.moves_at(&after(&["f5", "d6"])).is_some());
    assert!(e.moves_at(&after(&["f5", "f6"])).is_none());
}

#[test]
fn stats_count_results() {
    let mut s = Stats::default();
    for d in [10, 0, -4, 2] {
        s.add(d);
    }
    assert_eq!(
        (s.games, s.black_wins, s.draws, s.white_wins()),
        (4, 2, 1, 1)
    );
    assert_eq!(s.black_average(), 2.0);
    assert_eq!(s.black_score_percent(), 62.5);
}
