//! The stored accuracy benchmark must stay a valid, complete OBF file: every position lists
//! every legal move exactly once with a score, best first.

use std::path::Path;
use virada_rules::formats::obf::{read_obf, ObfEntry};

/// Every listed move of entry `i` is legal, listed once and scored (an even score in -64..=64),
/// best first.
fn check_listed_moves(i: usize, e: &ObfEntry) {
    let legal = e.position.board().legal_moves();
    let mut seen = 0u64;
    for m in &e.moves {
        let sq = m.mv.square().expect("a square, not a pass");
        assert!(legal.contains(sq), "entry {i}: {sq} is not legal");
        assert_eq!(seen & sq.bit(), 0, "entry {i}: {sq} twice");
        seen |= sq.bit();
        let s = m.score.expect("scored");
        assert!(
            (-64..=64).contains(&s) && s % 2 == 0,
            "entry {i}: score {s}"
        );
    }
    assert!(
        e.moves.windows(2).all(|w| w[0].score >= w[1].score),
        "entry {i}"
    );
}

#[test]
fn stored_benchmark_lists_every_legal_move_best_first() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/wthor-heldout-20.obf");
    let text = std::fs::read_to_string(&path).expect("benchmark file is committed");
    let entries = read_obf(&text).expect("valid OBF");
    assert_eq!(entries.len(), 60);
    for (i, e) in entries.iter().enumerate() {
        let board = e.position.board();
        assert_eq!(board.empty_count(), 20, "entry {i}");
        let legal = board.legal_moves();
        assert_eq!(e.moves.len(), legal.count() as usize, "entry {i}");
        check_listed_moves(i, e);
    }
}

/// The 30-empty benchmark (best move and close rivals solved, see docs/TRAINING.md): every
/// listed move is legal, listed once, scored, best first, and the file says how it was made.
#[test]
fn stored_30_empty_benchmark_is_valid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/wthor-heldout-30.obf");
    let text = std::fs::read_to_string(&path).expect("benchmark file is committed");
    assert!(
        text.starts_with("% The 30-empty position"),
        "header comment"
    );
    let entries = read_obf(&text).expect("valid OBF");
    assert!(!entries.is_empty());
    for (i, e) in entries.iter().enumerate() {
        let board = e.position.board();
        assert_eq!(board.empty_count(), 30, "entry {i}");
        let legal = board.legal_moves();
        assert!(!e.moves.is_empty() && e.moves.len() <= legal.count() as usize);
        check_listed_moves(i, e);
    }
}
