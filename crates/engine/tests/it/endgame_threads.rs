//! The exact solver's thread pool: the same results with any number of threads, interrupted
//! multi-threaded solves that claim only proven bounds, and prompt stops.
//!
//! Positions come from random games (no test data needed); with 12 or more empties the solver
//! shares nodes between threads, so every position here exercises the split points.

use crate::common::{assert_same, random_position, Rng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use virada_engine::endgame::{solve, ScoreBound, SolveMode, SolveOptions};
use virada_engine::time::TimeSource;
use virada_rules::movegen::legal_moves;
use virada_rules::{Board, Color, Position};

fn opts(threads: usize) -> SolveOptions {
    SolveOptions {
        threads,
        tt_mib: 16,
        ..SolveOptions::default()
    }
}

fn show(b: &Board) -> String {
    Position::from_board(*b, Color::Black).to_string()
}

#[test]
fn random_positions_give_identical_results_with_1_to_4_threads() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..18u32 {
        let b = random_position(&mut rng, 14 + i % 6);
        let mode = if i % 4 == 3 {
            SolveMode::Wld
        } else {
            SolveMode::Exact
        };
        let all_moves = i % 3 == 1;
        let o = |threads| SolveOptions {
            mode,
            all_moves,
            ..opts(threads)
        };
        let one = solve(b, &o(1));
        assert!(one.complete);
        for threads in 2..=4 {
            let many = solve(b, &o(threads));
            let what = format!("{} {mode:?} all={all_moves} threads={threads}", show(&b));
            assert_same(&one, &many, &what);
        }
    }
}

#[test]
fn repeated_multithread_solves_of_one_position_agree() {
    // The same position many times: thread timing differs from run to run, the results not.
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let b = random_position(&mut rng, 18);
    let one = solve(
        b,
        &SolveOptions {
            all_moves: true,
            ..opts(1)
        },
    );
    for run in 0..4 {
        let many = solve(
            b,
            &SolveOptions {
                all_moves: true,
                ..opts(2 + run % 3)
            },
        );
        assert_same(&one, &many, &format!("{} run {run}", show(&b)));
    }
}

#[test]
fn interrupted_multithread_solves_claim_only_proven_bounds() {
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    for i in 0..2 {
        let b = random_position(&mut rng, 19 + i);
        let all = |o: SolveOptions| SolveOptions {
            all_moves: true,
            ..o
        };
        let truth = solve(b, &all(opts(1)));
        assert!(truth.complete);
        let true_score = |mv| {
            truth
                .move_scores
                .iter()
                .find(|(m, _)| *m == mv)
                .map(|(_, s)| s.lower)
        };
        for limit in [20_000u64, 200_000, 1_000_000] {
            for threads in [2, 3] {
                let what = format!("{} limit {limit} threads {threads}", show(&b));
                for all_moves in [false, true] {
                    let r = solve(
                        b,
                        &SolveOptions {
                            node_limit: Some(limit),
                            all_moves,
                            ..opts(threads)
                        },
                    );
                    let s = truth.score.lower;
                    assert!(
                        r.score.lower <= s && s <= r.score.upper,
                        "{what}: {:?} vs {s}",
                        r.score
                    );
                    if r.complete {
                        assert_eq!(r.score, truth.score, "{what}");
                    } else {
                        assert!(!r.score.is_exact() || r.score.lower == 64, "{what}");
                    }
                    for (mv, bound) in &r.move_scores {
                        let t = true_score(*mv).expect("a legal move");
                        assert!(bound.lower <= t && t <= bound.upper, "{what}: {mv}");
                    }
                }
            }
        }
    }
}

/// A position whose exact solve takes far longer than the tests below wait.
fn hard_position() -> Board {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    loop {
        let b = random_position(&mut rng, 30);
        if b.empty_count() == 30 && legal_moves(b.player, b.opponent).count_ones() >= 6 {
            return b;
        }
    }
}

#[test]
fn stop_flag_ends_a_multithread_solve_promptly() {
    let b = hard_position();
    for threads in [2, 4] {
        let stop = Arc::new(AtomicBool::new(false));
        let setter = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                stop.store(true, Ordering::Relaxed);
            })
        };
        let r = solve(
            b,
            &SolveOptions {
                stop: Some(stop),
                all_moves: threads == 4,
                ..opts(threads)
            },
        );
        setter.join().unwrap();
        assert!(!r.complete, "{} threads {threads}", show(&b));
        // Without the flag this solve runs for minutes: returning unsolved is the proof.
        assert!(!r.score.is_exact());
    }
}

#[test]
fn time_limit_ends_a_multithread_solve() {
    let b = hard_position();
    // Simulated time, 1 µs a node: 200 ms is 200,000 nodes of all threads together. Each
    // thread looks at the limits every 65,536 of its nodes, so the three threads together can
    // overrun by at most twice that each (the look that stops it and the nodes unflushed).
    let threads = 3;
    let r = solve(
        b,
        &SolveOptions {
            time_limit: Some(Duration::from_millis(200)),
            time_source: TimeSource::PerNode(Duration::from_micros(1)),
            ..opts(threads)
        },
    );
    assert!(!r.complete);
    assert!(r.score == ScoreBound::UNKNOWN || !r.score.is_exact());
    assert!(r.nodes >= 200_000, "{} nodes", r.nodes);
    assert!(
        r.nodes < 200_000 + 2 * threads as u64 * 65_536,
        "{} nodes",
        r.nodes
    );
    assert_eq!(r.elapsed, Duration::from_micros(r.nodes));
}
