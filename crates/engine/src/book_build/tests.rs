//! Tests of building (determinism, resuming) and of the Edax format.

use super::*;
use crate::book::tests::searched_book;
use crate::book::*;
use std::path::PathBuf;
use virada_rules::Position;

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("virada-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A small build, fast on 2 cores: depth 3, 5 plies.
fn small_config(threads: usize) -> BuildConfig {
    BuildConfig {
        depth: 3,
        max_ply: 5,
        move_window: 2.5,
        line_window: 4.0,
        threads,
        tt_mb: 1,
        seed: 7,
        ..BuildConfig::default()
    }
}

#[test]
fn build_is_negamax_consistent_and_keeps_to_its_windows() {
    let mut b = Builder::new(Book::new(), small_config(2));
    let report = b.grow(&mut Quiet).unwrap();
    assert_eq!(report.reason, StopReason::Complete);
    let book = b.into_book();
    assert!(book.len() > 10, "{} positions", book.len());
    assert_eq!(book.check_negamax(), vec![]);
    for (key, e) in book.iter() {
        assert!(60 - key.empty_count() <= 5, "ply within --max-ply");
        assert!(e.search_depth() >= 3 || e.leaf_moves().iter().all(|m| m.exact));
        assert_eq!(
            e.leaf_moves().len() as u32,
            key.moves().count_ones(),
            "every move searched"
        );
    }
    assert!(book.meta().contains("depth=3"));
}

#[test]
fn build_is_deterministic_across_threads_and_budgets_keep_the_same_prefix() {
    let one = {
        let mut b = Builder::new(Book::new(), small_config(1));
        b.grow(&mut Quiet).unwrap();
        b.into_book()
    };
    let two = {
        let mut b = Builder::new(Book::new(), small_config(2));
        b.grow(&mut Quiet).unwrap();
        b.into_book()
    };
    assert_eq!(one, two);
    let budget = |threads| {
        let cfg = BuildConfig {
            max_positions: Some(12),
            ..small_config(threads)
        };
        let mut b = Builder::new(Book::new(), cfg);
        let r = b.grow(&mut Quiet).unwrap();
        assert_eq!(r.reason, StopReason::PositionBudget);
        b.into_book()
    };
    let a = budget(1);
    assert_eq!(a.len(), 12);
    assert_eq!(a, budget(2));
    assert_eq!(a.check_negamax(), vec![]);
}

#[test]
fn an_interrupted_build_resumed_from_its_journal_gives_the_same_book() {
    let dir = scratch("resume");
    let uninterrupted = {
        let mut b = Builder::new(Book::new(), small_config(2));
        b.journal(&dir.join("full.journal")).unwrap();
        b.grow(&mut Quiet).unwrap();
        b.into_book()
    };
    let journal = dir.join("cut.journal");
    // Interrupted in the middle of a round (after 9 searches), its last line half written.
    let first = {
        let cfg = BuildConfig {
            max_searches: Some(9),
            ..small_config(2)
        };
        let mut b = Builder::new(Book::new(), cfg);
        b.journal(&journal).unwrap();
        let r = b.grow(&mut Quiet).unwrap();
        assert_eq!(r.reason, StopReason::SearchBudget);
        assert_eq!(r.searched, 9);
        b.into_book()
    };
    assert!(first.len() < uninterrupted.len());
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .unwrap();
    std::io::Write::write_all(&mut f, b"0000000810000000 00000010").unwrap();
    drop(f);
    let mut b = Builder::new(Book::new(), small_config(2));
    assert_eq!(
        b.journal(&journal).unwrap(),
        9,
        "the 9 finished searches are reused"
    );
    let r = b.grow(&mut Quiet).unwrap();
    assert_eq!(r.from_journal, 9);
    assert_eq!(r.searched + 9, uninterrupted.len());
    assert_eq!(b.into_book(), uninterrupted);
    // The journal now holds the whole build: a third run searches nothing.
    let mut b = Builder::new(Book::new(), small_config(1));
    b.journal(&journal).unwrap();
    assert_eq!(b.grow(&mut Quiet).unwrap().searched, 0);
    assert_eq!(b.into_book(), uninterrupted);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_journal_of_another_evaluation_or_damaged_is_refused() {
    let dir = scratch("journal");
    let path = dir.join("j");
    std::fs::write(&path, "virada-book-journal 1 evaluator=someone-else\n").unwrap();
    let err = Builder::new(Book::new(), small_config(1))
        .journal(&path)
        .expect_err("refused");
    assert!(err.to_string().contains("another evaluation"), "{err}");
    let header = format!(
        "virada-book-journal 1 evaluator={}\n",
        crate::default_evaluator().name()
    );
    std::fs::write(
        &path,
        format!("{header}0000000810000000 0000001008000000 3 a1:5:3:0\n"),
    )
    .unwrap();
    let err = Builder::new(Book::new(), small_config(1))
        .journal(&path)
        .expect_err("refused");
    let text = err.to_string();
    assert!(
        text.contains("line 2") && text.contains("a1 is not legal"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn extend_searches_shallow_positions_again_and_grows() {
    let mut b = Builder::new(Book::new(), small_config(2));
    b.grow(&mut Quiet).unwrap();
    let small = b.into_book();
    let cfg = BuildConfig {
        depth: 4,
        max_ply: 6,
        ..small_config(2)
    };
    let mut b = Builder::new(small.clone(), cfg);
    let r = b.grow(&mut Quiet).unwrap();
    let big = b.into_book();
    assert!(r.researched > 0 && r.added > 0, "{r:?}");
    assert!(big.len() > small.len());
    assert_eq!(big.check_negamax(), vec![]);
    let start = big.entry(Board::start()).unwrap().0;
    assert!(
        start.search_depth() >= 4,
        "the root was searched again at depth 4"
    );
}

#[test]
fn add_searches_the_positions_of_game_lines() {
    let game: virada_rules::formats::transcript::Transcript =
        "f5d6c3d3c4f4f6f3e6e7".parse().unwrap();
    let game = game.replay(Position::start()).unwrap();
    let boards: Vec<Board> = game.positions().iter().map(|p| p.board()).collect();
    let mut b = Builder::new(Book::new(), small_config(2));
    let r = b.add_positions(&boards, &mut Quiet).unwrap();
    let book = b.into_book();
    assert_eq!(r.added, book.len());
    for p in game.positions() {
        assert!(book.contains(p.board()), "{p} added");
    }
    assert_eq!(book.check_negamax(), vec![]);
    // The played moves are linked: the line's values come from the searches, not the game.
    let probe = book.probe(&game.positions()[0]).unwrap();
    assert!(probe.value_of("f5".parse().unwrap()).unwrap().in_book);
}

#[test]
fn edax_reader_reads_what_our_edax_writer_wrote() {
    let book = searched_book(3, 3, 3.0);
    let bytes = write_edax(&book);
    let back = read_edax(&bytes).unwrap();
    assert_eq!(back.len(), book.len());
    let round = |v: f32| v.round();
    for (key, _) in book.iter() {
        let ours = book.probe_board(*key).unwrap();
        let theirs = back.probe_board(*key).expect("same positions");
        assert_eq!(round(theirs.value), round(ours.value), "value of {key:?}");
        for m in ours.moves.iter().filter(|m| m.in_book) {
            let t = theirs.value_of(m.square).expect("links kept");
            assert!(t.in_book);
            assert_eq!(t.value, round(m.value));
        }
        // The leaf Edax keeps is our best move outside the book.
        let leaf = ours.moves.iter().find(|m| !m.in_book);
        if let Some(leaf) = leaf {
            assert_eq!(
                theirs.value_of(leaf.square).unwrap().value,
                round(leaf.value)
            );
        }
    }
    assert_eq!(back.check_negamax(), vec![]);
    // Book::open recognises the format.
    let dir = scratch("edax");
    std::fs::write(dir.join("book.dat"), &bytes).unwrap();
    assert_eq!(Book::open(dir.join("book.dat")).unwrap(), back);
    // Damage is refused with a reason.
    assert!(matches!(
        read_edax(&bytes[..bytes.len() - 1]),
        Err(BookError::Truncated { .. })
    ));
    let mut extra = bytes.clone();
    extra.extend_from_slice(&[0; 3]);
    assert!(matches!(
        read_edax(&extra),
        Err(BookError::TrailingBytes { .. })
    ));
    let mut overlap = bytes.clone();
    // The first position's both sides on a1..h1.
    overlap[39] = 0xFF;
    overlap[39 + 8] = 0xFF;
    let err = read_edax(&overlap).unwrap_err();
    assert!(matches!(err, BookError::BadEntry { index: 0, .. }), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Damage past the checksum (the checksum recomputed after each change), and damage to Edax
/// files (no checksum at all), reaches every check of the readers: they answer with a book or
/// an error, never a panic, and a book they accept writes back to the same bytes.
#[test]
fn readers_survive_random_damage() {
    let book = searched_book(2, 3, 3.0);
    let ours = book.to_bytes();
    let edax = write_edax(&book);
    let mut rng = 0x1234_5678u64;
    let mut next = || {
        rng = crate::random::splitmix64(rng);
        rng
    };
    let mut accepted = 0;
    for round in 0..3000 {
        let base = if round % 2 == 0 { &ours } else { &edax };
        let mut b = base.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % b.len() as u64) as usize;
            b[at] = next() as u8;
        }
        if next() % 8 == 0 {
            b.truncate((next() % b.len() as u64) as usize);
        }
        if round % 2 == 0 {
            if b.len() >= 32 {
                let sum = crate::checksum::fnv1a64(&b[32..]);
                b[24..32].copy_from_slice(&sum.to_le_bytes());
            }
            if let Ok(read) = Book::from_bytes(&b) {
                accepted += 1;
                assert_eq!(read.to_bytes(), b, "an accepted file is what it says");
            }
        } else if let Ok(read) = read_edax(&b) {
            accepted += 1;
            assert!(read.iter().all(|(k, _)| k.is_valid()));
        }
    }
    // Some damage is harmless (a value changed within range): the readers are not refusing
    // everything.
    assert!(accepted > 0);
}

#[test]
fn every_round_checkpoint_says_how_it_was_made() {
    struct Checkpoints(Vec<String>);
    impl BuildProgress for Checkpoints {
        fn round_done(&mut self, _: &BuildStatus, book: &Book) -> Result<(), BookError> {
            self.0.push(book.meta().to_string());
            Ok(())
        }
    }
    let cfg = small_config(1);
    let expected = cfg.describe();
    let mut seen = Checkpoints(Vec::new());
    Builder::new(Book::new(), cfg).grow(&mut seen).unwrap();
    assert!(seen.0.len() >= 2, "{} rounds", seen.0.len());
    assert!(seen.0.iter().all(|m| *m == expected), "{:?}", seen.0);
}
