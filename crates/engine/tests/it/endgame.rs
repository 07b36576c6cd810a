//! Endgame solver correctness: FFO positions with known exact scores, every move's score,
//! WLD mode, thread independence, interruption, and agreement with a plain minimax written
//! here (independent of the solver's code) on random positions.

use crate::common::{assert_same, random_position, Rng};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use virada_engine::endgame::{solve, ScoreBound, SolveMode, SolveOptions, SolveResult};
use virada_engine::time::TimeSource;
use virada_rules::formats::obf::{read_obf, ObfEntry};
use virada_rules::movegen::{flips, legal_moves};
use virada_rules::{Board, Move, Position};

/// FFO positions numbered from 1 (all four files in order), or `None` if the data is absent.
fn ffo() -> Option<Vec<ObfEntry>> {
    let mut all = Vec::new();
    for name in ["fforum-1-19.obf", "fforum-20-39.obf"] {
        let path = virada_testdata::file(&format!("ffo/{name}"))?;
        let text = std::fs::read_to_string(path).expect("readable FFO file");
        all.extend(read_obf(&text).expect("FFO files are valid OBF"));
    }
    assert_eq!(all.len(), 39);
    Some(all)
}

fn opts(threads: usize) -> SolveOptions {
    SolveOptions {
        threads,
        tt_mib: 32,
        ..SolveOptions::default()
    }
}

fn expected_score(e: &ObfEntry, mv: Move) -> Option<i32> {
    e.moves.iter().find(|m| m.mv == mv).and_then(|m| m.score)
}

/// Checks a complete exact result against an FFO entry.
fn check_exact(n: usize, e: &ObfEntry, r: &SolveResult) {
    let best = e.best_score().expect("FFO lines are scored");
    assert!(r.complete, "#{n} incomplete");
    assert_eq!(r.score, ScoreBound::exact(best), "#{n} score");
    assert_eq!(r.best_moves.len(), 1, "#{n}");
    assert!(
        e.best_moves().contains(&r.best_moves[0]),
        "#{n}: {} is not a best move",
        r.best_moves[0]
    );
    check_pv(n, e.position.board(), r);
}

/// The PV is legal, starts with the best move and ends in a finished game with the score.
fn check_pv(n: usize, start: Board, r: &SolveResult) {
    assert_eq!(r.pv.first(), r.best_moves.first(), "#{n} pv");
    let mut b = start;
    let mut sign = 1;
    for mv in &r.pv {
        match mv {
            Move::Pass => {
                assert_eq!(b.moves(), 0, "#{n}: pass with moves in pv");
                b = b.pass();
            }
            Move::Play(sq) => {
                assert!(b.is_legal(*sq), "#{n}: illegal {sq} in pv");
                b = b.play_unchecked(*sq);
            }
        }
        sign = -sign;
    }
    assert!(b.is_game_over(), "#{n}: pv does not reach the end");
    assert_eq!(
        sign * b.final_score(),
        r.score.value().unwrap(),
        "#{n}: pv ends with another score"
    );
}

#[test]
fn ffo_1_to_25_exact_scores_and_best_moves() {
    let Some(ffo) = ffo() else { return };
    for (i, e) in ffo.iter().enumerate().take(25) {
        let r = solve(e.position.board(), &opts(1));
        check_exact(i + 1, e, &r);
    }
}

#[test]
fn ffo_every_move_scored() {
    let Some(ffo) = ffo() else { return };
    for n in [1, 5, 9, 17, 20] {
        let e = &ffo[n - 1];
        let r = solve(
            e.position.board(),
            &SolveOptions {
                all_moves: true,
                ..opts(2)
            },
        );
        assert!(r.complete);
        assert_eq!(r.move_scores.len(), e.moves.len(), "#{n}: every legal move");
        for (mv, bound) in &r.move_scores {
            assert_eq!(
                Some(bound.value().expect("exact")),
                expected_score(e, *mv),
                "#{n} move {mv}"
            );
        }
        let mut best = e.best_moves();
        best.sort_by_key(|m| m.square());
        assert_eq!(r.best_moves, best, "#{n}: all best moves, square order");
        check_pv(n, e.position.board(), &r);
    }
}

#[test]
fn wld_agrees_with_exact_sign() {
    let Some(ffo) = ffo() else { return };
    for (i, e) in ffo.iter().enumerate().take(21) {
        let best = e.best_score().unwrap();
        let r = solve(
            e.position.board(),
            &SolveOptions {
                mode: SolveMode::Wld,
                ..opts(1)
            },
        );
        assert!(r.complete);
        assert_eq!(r.score.wld(), Some(best.signum()), "#{}", i + 1);
        let mv = r.best_moves[0];
        assert_eq!(
            expected_score(e, mv).map(i32::signum),
            Some(best.signum()),
            "#{}: WLD best move {mv}",
            i + 1
        );
    }
}

#[test]
fn one_and_two_threads_give_identical_results() {
    let Some(ffo) = ffo() else { return };
    // #28 and #33 have 20 empties (selective passes first, whose best root move is searched
    // first) and two best moves each: the reported one must not depend on the threads.
    for n in [3, 12, 16, 22, 28, 33] {
        let e = &ffo[n - 1];
        for all_moves in [false, true] {
            let mode = if n == 16 {
                SolveMode::Wld
            } else {
                SolveMode::Exact
            };
            let o = |threads| SolveOptions {
                all_moves,
                mode,
                ..opts(threads)
            };
            let a = solve(e.position.board(), &o(1));
            let b = solve(e.position.board(), &o(2));
            assert!(a.complete && b.complete);
            assert_same(&a, &b, &format!("#{n}"));
        }
    }
}

#[test]
fn interrupted_solves_report_only_proven_bounds() {
    let Some(ffo) = ffo() else { return };
    let e = &ffo[37]; // #38, 24 empties, +4
    let truth = e.best_score().unwrap();
    for limit in [1_000u64, 200_000, 3_000_000] {
        let r = solve(
            e.position.board(),
            &SolveOptions {
                node_limit: Some(limit),
                ..opts(2)
            },
        );
        assert!(!r.complete, "{limit} nodes cannot solve #38");
        assert!(
            r.score.lower <= truth && truth <= r.score.upper,
            "{:?}",
            r.score
        );
        assert!(!r.score.is_exact());
    }
    let stop = Arc::new(AtomicBool::new(true));
    let r = solve(
        e.position.board(),
        &SolveOptions {
            stop: Some(stop),
            ..opts(1)
        },
    );
    assert!(!r.complete);
    assert!(r.score.lower <= truth && truth <= r.score.upper);
    // A time limit, on simulated time (1 µs a node): 30 ms is 30,000 nodes, and the solver
    // looks at its limits every 65,536 nodes, so it stops at its first look.
    let r = solve(
        e.position.board(),
        &SolveOptions {
            time_limit: Some(Duration::from_millis(30)),
            time_source: TimeSource::PerNode(Duration::from_micros(1)),
            ..opts(1)
        },
    );
    assert!(!r.complete);
    assert!(r.score.lower <= truth && truth <= r.score.upper);
    assert!(
        r.nodes >= 30_000 && r.nodes < 2 * 65_536,
        "{} nodes",
        r.nodes
    );
    assert_eq!(r.elapsed, Duration::from_micros(r.nodes));
}

// ---- Independent reference: plain minimax and a simple alpha-beta ----

/// Final WOF score of a finished game for the side to move.
fn final_wof(b: &Board) -> i32 {
    let (p, o) = (b.player.count_ones() as i32, b.opponent.count_ones() as i32);
    let e = 64 - p - o;
    match p.cmp(&o) {
        std::cmp::Ordering::Greater => p - o + e,
        std::cmp::Ordering::Less => p - o - e,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Calls `f` on every child of a position (a forced pass is a child); false if the game is over.
fn for_each_child(b: &Board, mut f: impl FnMut(Board) -> bool) -> bool {
    let m = legal_moves(b.player, b.opponent);
    if m == 0 {
        if legal_moves(b.opponent, b.player) == 0 {
            return false;
        }
        f(Board::new(b.opponent, b.player));
        return true;
    }
    let mut mm = m;
    while mm != 0 {
        let i = mm.trailing_zeros() as usize;
        mm &= mm - 1;
        let fl = flips(b.player, b.opponent, i);
        if !f(Board::new(b.opponent & !fl, b.player | fl | 1 << i)) {
            break;
        }
    }
    true
}

/// Unpruned negamax.
fn minimax(b: &Board) -> i32 {
    let mut best = -65;
    if !for_each_child(b, |c| {
        best = best.max(-minimax(&c));
        true
    }) {
        return final_wof(b);
    }
    best
}

/// Fail-hard alpha-beta without any ordering (for more empties than minimax can afford).
fn alphabeta(b: &Board, alpha: i32, beta: i32) -> i32 {
    let mut alpha = alpha;
    let mut cut = false;
    if !for_each_child(b, |c| {
        let v = -alphabeta(&c, -beta, -alpha);
        if v >= beta {
            cut = true;
            return false;
        }
        alpha = alpha.max(v);
        true
    }) {
        return final_wof(b).clamp(alpha, beta);
    }
    if cut {
        beta
    } else {
        alpha
    }
}

#[test]
fn random_positions_agree_with_minimax() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut passes_seen = 0;
    let targets = [
        10, 10, 10, 10, 11, 11, 11, 12, 12, 12, 13, 13, 14, 14, 15, 16,
    ];
    for (i, &empties) in targets.iter().chain(&targets).enumerate() {
        let b = random_position(&mut rng, empties);
        let reference = if b.empty_count() <= 10 {
            minimax(&b)
        } else {
            alphabeta(&b, -65, 65)
        };
        let r = solve(b, &opts(1 + i % 2));
        assert!(r.complete);
        assert_eq!(r.empties, b.empty_count());
        assert_eq!(
            r.score.value(),
            Some(reference),
            "{}",
            Position::from_board(b, virada_rules::Color::Black)
        );
        if r.pv.contains(&Move::Pass) {
            passes_seen += 1;
        }
        if !r.pv.is_empty() {
            check_pv(i, b, &r);
        }
        let w = solve(
            b,
            &SolveOptions {
                mode: SolveMode::Wld,
                ..opts(1)
            },
        );
        assert_eq!(w.score.wld(), Some(reference.signum()));
    }
    assert!(
        passes_seen > 0,
        "no pass in any PV: the test lost its pass coverage"
    );
    eprintln!("{passes_seen} PVs with a pass");
}

#[test]
fn every_move_scored_on_random_positions() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..8 {
        let b = random_position(&mut rng, 9 + i % 3);
        let r = solve(
            b,
            &SolveOptions {
                all_moves: true,
                ..opts(1)
            },
        );
        for (mv, bound) in &r.move_scores {
            let child = match mv {
                Move::Play(sq) => b.play_unchecked(*sq),
                Move::Pass => b.pass(),
            };
            assert_eq!(bound.value(), Some(-minimax(&child)), "move {mv}");
        }
    }
}

#[test]
fn passes_and_early_endings() {
    // Wipe-out: c1 captures White's only disc; 61 empties go to Black: +64.
    let b = Board::new(1 << 0, 1 << 1);
    let r = solve(b, &opts(1));
    assert_eq!(r.score, ScoreBound::exact(64));
    assert_eq!(r.best_moves, vec![Move::Play("c1".parse().unwrap())]);
    assert_eq!(r.pv, r.best_moves);

    // Finished game with empties: 3 vs 1 discs, nobody can move: +62 under WOF.
    let b = Board::new(0b111, 1 << 63);
    assert!(b.is_game_over());
    let r = solve(b, &opts(1));
    assert!(r.complete && r.best_moves.is_empty());
    assert_eq!(r.score, ScoreBound::exact(62));

    // The side to move must pass at the root: the solver answers for the pass.
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    let mut found = 0;
    for _ in 0..20_000 {
        let target = 8 + (rng.next_u64() % 5) as u32;
        let b = random_position(&mut rng, target);
        if !b.must_pass() {
            continue;
        }
        let r = solve(b, &opts(1));
        assert_eq!(r.score, ScoreBound::exact(minimax(&b)));
        assert_eq!(r.best_moves, vec![Move::Pass]);
        assert_eq!(r.pv.first(), Some(&Move::Pass));
        check_pv(found, b, &r);
        found += 1;
        if found == 5 {
            break;
        }
    }
    assert_eq!(found, 5, "no forced pass found among random positions");
}
