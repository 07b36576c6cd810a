//! Tests of the book's core: lookups under symmetry, negamax, the file format.

use super::*;
use crate::{Engine, EngineConfig, Limits};
use virada_rules::formats::transcript::Transcript;

/// A small book made by real searches: the start and every position within `plies` of it
/// along the moves within `window` discs of the best, each analysed at `depth`.
pub(crate) fn searched_book(plies: usize, depth: u32, window: f32) -> Book {
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 4,
        threads: 1,
        ..EngineConfig::default()
    });
    let mut book = Book::new();
    let mut frontier = vec![Board::start()];
    for _ in 0..=plies {
        let mut next = Vec::new();
        for board in frontier {
            if book.contains(board) {
                continue;
            }
            engine.clear();
            let a = engine.analyze(board, &Limits::depth(depth), None);
            let best = a.best().expect("moves").value;
            let moves = a
                .moves
                .iter()
                .filter_map(|m| {
                    Some(LeafMove::new(
                        m.mv.square()?,
                        m.value,
                        m.depth as u8,
                        m.exact,
                    ))
                })
                .collect();
            book.insert(board, moves);
            for m in &a.moves {
                if m.value >= best - window {
                    if let Child::Node { board: c, .. } = child_of(board, m.mv.square().unwrap()) {
                        next.push(c);
                    }
                }
            }
        }
        frontier = next;
    }
    book.fix();
    book
}

fn position_after(moves: &str) -> Position {
    let t: Transcript = moves.parse().unwrap();
    t.replay(Position::start()).unwrap().position()
}

#[test]
fn probe_answers_all_eight_images_with_the_moves_transformed() {
    let book = searched_book(2, 4, 3.0);
    assert!(book.len() >= 3, "{} positions", book.len());
    assert!(book.contains(position_after("f5d6").board()));
    for (key, _) in book.iter() {
        let p = Position::from_board(*key, virada_rules::Color::Black);
        let line = p.to_string();
        let base = book.probe(&p).expect("a book position is found");
        for sym in Symmetry::ALL {
            let img = sym.apply_board(p.board());
            let probe = book.probe_board(img).expect("every image is found");
            assert_eq!(probe.value, base.value, "{line:?} under {sym:?}");
            assert_eq!(probe.moves.len(), base.moves.len());
            for m in &base.moves {
                let t = probe
                    .value_of(sym.apply_square(m.square))
                    .expect("transformed move");
                assert_eq!((t.value, t.depth, t.in_book), (m.value, m.depth, m.in_book));
                assert!(img.is_legal(t.square), "{} legal in the image", t.square);
            }
            // The chooser draws in the canonical orientation: same seed, same (moved) square.
            // (Equal up to the position's own symmetries: in the start position f5 and e6 are
            // the same move.)
            let pick = book.choose_board(img, 1.0, 42).unwrap();
            let base_pick = book.choose(&p, 1.0, 42).unwrap();
            assert_eq!(
                canonical(img.play_unchecked(pick)).0,
                canonical(img.play_unchecked(sym.apply_square(base_pick))).0
            );
        }
    }
}

#[test]
fn built_book_is_negamax_consistent() {
    let book = searched_book(3, 4, 4.0);
    assert!(book.len() > 5, "{} positions", book.len());
    assert_eq!(book.check_negamax(), vec![]);
    // And the check can fail: spoil one value.
    let mut spoilt = book.clone();
    let key = canonical(Board::start()).0; // the root: nothing links to it
    spoilt.entries.get_mut(&key).unwrap().value += 150;
    assert_eq!(spoilt.check_negamax().len(), 1);
    spoilt.fix();
    assert_eq!(spoilt, book);
    // The start value is the best of its moves, its moves the negated values of the children.
    let probe = book.probe(&Position::start()).unwrap();
    assert_eq!(probe.value, probe.best().unwrap().value);
    for m in probe.moves.iter().filter(|m| m.in_book) {
        let child = Position::start().play_unchecked(m.square.into());
        assert_eq!(book.probe(&child).unwrap().value, -m.value);
    }
}

#[test]
fn chooser_keeps_to_the_tolerance_and_varies() {
    let book = searched_book(1, 4, 10.0);
    let p = position_after("f5");
    let probe = book.probe(&p).unwrap();
    let best = probe.best().unwrap().value;
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let sq = book.choose(&p, 0.0, seed).unwrap();
        assert_eq!(
            probe.value_of(sq).unwrap().value,
            best,
            "tolerance 0 plays a best move"
        );
        let wide = book.choose(&p, 64.0, seed).unwrap();
        seen.insert(wide);
    }
    assert_eq!(
        seen.len(),
        probe.moves.len(),
        "a wide tolerance uses every move"
    );
    let outside = position_after("f5d6c3d3c4f4");
    assert!(!book.contains(outside.board()));
    assert_eq!(book.choose(&outside, 1.0, 1), None);
    assert_eq!(book.probe(&outside), None);
}

#[test]
fn file_round_trip_keeps_everything() {
    let mut book = searched_book(2, 3, 2.0);
    book.set_meta("evaluator=test\ndepth=3\n");
    let bytes = book.to_bytes();
    let back = Book::from_bytes(&bytes).unwrap();
    assert_eq!(back, book);
    assert_eq!(back.to_bytes(), bytes, "writing is deterministic");
    assert_eq!(
        Book::from_bytes(&Book::new().to_bytes()).unwrap(),
        Book::new()
    );
}

#[test]
fn damaged_files_are_refused_with_a_reason() {
    let bytes = searched_book(1, 3, 2.0).to_bytes();
    // Any single flipped bit is caught (the checksum covers the payload, the header checks
    // the rest).
    for at in (0..bytes.len()).step_by(7) {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        let err = Book::from_bytes(&b).expect_err("a damaged byte is refused");
        assert!(!err.to_string().is_empty());
    }
    let mut b = bytes.clone();
    b[40] ^= 1;
    let err = Book::from_bytes(&b).unwrap_err();
    assert!(matches!(err, BookError::BadChecksum { .. }), "{err}");
    assert!(err.to_string().contains("corrupt"), "{err}");
    let err = Book::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err();
    assert!(err.to_string().contains("truncated"), "{err}");
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Book::from_bytes(&longer).unwrap_err(),
        BookError::TrailingBytes { .. }
    ));
    let mut v2 = bytes.clone();
    v2[8] = 2;
    assert_eq!(
        Book::from_bytes(&v2).unwrap_err(),
        BookError::UnsupportedVersion(2)
    );
    assert_eq!(
        Book::from_bytes(b"hello world, not a book at all").unwrap_err(),
        BookError::BadMagic
    );
}

#[test]
fn shipped_book_parses() {
    // The embedded file is valid whether or not it holds positions yet.
    Book::from_bytes(Book::shipped_bytes()).unwrap();
    if let Some(book) = Book::shipped() {
        assert!(book.contains(Board::start()));
        assert_eq!(book.check_negamax(), vec![]);
    }
}
