//! Property tests of the one position reader (`formats::position_input`) and of the game's
//! turn logic (forced passes, undo to a side's turn): every kind of input written from a random
//! game reads back as that kind and that position, and every broken board is a board error.

use crate::common::{random_game, random_position};
use proptest::prelude::*;
use virada_rules::formats::ggf::GgfGame;
use virada_rules::formats::obf::{ObfEntry, ObfMove};
use virada_rules::formats::position_input::{parse, InputKind, ParseInputError, PositionInput};
use virada_rules::formats::transcript::Transcript;
use virada_rules::formats::Format;
use virada_rules::{Color, Game, Move, Position, Square};

/// `1. f5 d6 2. c3 ...`: the numbered layout people copy from books.
fn numbered(game: &Game) -> String {
    let squares: Vec<String> = Transcript::from_game(game)
        .moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    squares
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn kind_of_error(text: &str) -> (InputKind, virada_rules::formats::FormatError) {
    match parse(text) {
        Err(ParseInputError::Invalid { kind, error }) => (kind, error),
        other => panic!("{text:?}: expected an error, got {other:?}"),
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(300))]

    #[test]
    fn board_strings_read_back(seed in any::<u64>()) {
        let p = random_position(seed);
        let input = parse(&p.to_string()).unwrap();
        prop_assert_eq!(input.kind(), InputKind::BoardString);
        prop_assert_eq!(input.position(), p);
    }

    #[test]
    fn obf_lines_read_back(seed in any::<u64>(), score in -64i32..=64) {
        let p = random_position(seed);
        let mut entry = ObfEntry::new(p);
        if let Some(sq) = p.legal_moves().first() {
            entry.moves.push(ObfMove { mv: Move::Play(sq), score: Some(score) });
        } else {
            entry.moves.push(ObfMove { mv: Move::Pass, score: Some(score) });
        }
        let input = parse(&entry.to_string()).unwrap();
        prop_assert_eq!(input, PositionInput::Obf(entry));
    }

    #[test]
    fn transcripts_of_both_layouts_read_back(seed in any::<u64>()) {
        let mut game = random_game(seed);
        game.play_forced_passes();
        prop_assume!(game.ply() > 0);
        let compact = parse(&Transcript::from_game(&game).to_string()).unwrap();
        prop_assert_eq!(compact.kind(), InputKind::Transcript);
        prop_assert_eq!(compact.game().unwrap(), &game);
        let spaced = numbered(&game);
        let input = parse(&spaced).unwrap();
        prop_assert_eq!(input.kind(), InputKind::NumberedTranscript, "{}", spaced);
        prop_assert_eq!(input.into_game(), game);
    }

    #[test]
    fn ggf_records_read_back(seed in any::<u64>()) {
        let mut game = random_game(seed);
        game.play_forced_passes();
        let text = GgfGame::from_game(&game).to_string();
        let input = parse(&text).unwrap();
        prop_assert_eq!(input.kind(), InputKind::Ggf);
        prop_assert_eq!(input.into_game(), game);
    }

    #[test]
    fn a_board_missing_a_square_is_never_a_board(seed in any::<u64>(), at in 0usize..64) {
        let p = random_position(seed);
        let mut text = p.to_string();
        text.remove(at);
        let (kind, e) = kind_of_error(&text);
        prop_assert_eq!(kind, InputKind::BoardString);
        prop_assert_eq!(e.format, Format::BoardString);
        prop_assert!(e.message.contains("found 63"), "{}", e);
        // The same as an OBF line.
        let (kind, e) = kind_of_error(&format!("{text}; A1:+2;"));
        prop_assert_eq!(kind, InputKind::Obf);
        prop_assert!(e.message.contains("found 63"), "{}", e);
    }

    #[test]
    fn a_bad_square_is_named(
        seed in any::<u64>(),
        at in 0u8..64,
        bad in prop::sample::select(vec!['Z', '?', '#', 'q', 'k', 'y', '@']),
    ) {
        let p = random_position(seed);
        let mut text = p.to_string();
        text.replace_range(at as usize..at as usize + 1, &bad.to_string());
        let (kind, e) = kind_of_error(&text);
        prop_assert_eq!(kind, InputKind::BoardString);
        let square = Square::from_index(at).unwrap();
        prop_assert_eq!(e.location.square, Some(square));
        let expected = format!("square {square}: {bad:?} is not X, O or -");
        prop_assert!(e.to_string().contains(&expected), "{}", e);
    }

    #[test]
    fn forced_passes_leave_a_move_or_the_end(seed in any::<u64>()) {
        let mut game = random_game(seed);
        let before = game.ply();
        let passes = game.play_forced_passes();
        prop_assert!(passes <= 1);
        prop_assert_eq!(game.ply(), before + passes);
        prop_assert!(game.is_over() || !game.position().must_pass());
    }

    #[test]
    fn undo_to_a_turn_and_back(seed in any::<u64>(), black in any::<bool>()) {
        let side = if black { Color::Black } else { Color::White };
        let mut game = random_game(seed);
        game.play_forced_passes();
        let full = game.clone();
        if game.undo_to_turn(side) {
            let pos = game.position();
            prop_assert_eq!(pos.side_to_move(), side);
            prop_assert!(!pos.must_pass());
            prop_assert!(game.ply() < full.ply());
            // Nothing played by `side` after this point.
            for (i, mv) in full.moves().iter().enumerate().skip(game.ply() + 1) {
                prop_assert!(
                    *mv == Move::Pass || full.positions()[i].side_to_move() != side,
                    "{} was played by {} after the undo point", mv, side
                );
            }
            while game.redo_to_turn(side) {}
            prop_assert_eq!(game.moves(), full.moves());
            prop_assert_eq!(game.position(), full.position());
        } else {
            prop_assert_eq!(&game, &full);
            let played_by_side = full.moves().iter().enumerate().any(|(i, m)| {
                *m != Move::Pass && full.positions()[i].side_to_move() == side
            });
            prop_assert!(!played_by_side);
        }
    }

    #[test]
    fn undo_turn_then_redo_turn_is_the_identity(seed in any::<u64>()) {
        let mut game = random_game(seed);
        game.play_forced_passes();
        let full = game.clone();
        if game.undo_turn() {
            prop_assert!(game.ply() < full.ply());
            prop_assert_ne!(full.moves()[game.ply()], Move::Pass);
            prop_assert!(game.redo_turn());
            prop_assert_eq!(game.position(), full.position());
            prop_assert_eq!(game.moves(), full.moves());
        } else {
            prop_assert!(full.moves().iter().all(|m| *m == Move::Pass));
        }
    }
}

#[test]
fn the_start_is_read_as_each_kind() {
    let start = Position::start().to_string();
    assert_eq!(parse(&start).unwrap().position(), Position::start());
    let after = parse("f5").unwrap().position();
    assert_eq!(after.side_to_move(), Color::White);
}
