//! Arbitrary and mutated inputs never make a parser panic (the in-suite stand-in for the
//! cargo-fuzz targets in /fuzz, which need a nightly toolchain).

use proptest::prelude::*;
use virada_rules::formats::{ggf, obf, position_input, transcript::Transcript, wthor, xot};
use virada_rules::Position;

const START: &str = "---------------------------OX------XO--------------------------- X";

/// Valid samples of every text format, to mutate.
fn samples() -> Vec<String> {
    vec![
        "f5d6c3d3c4f4f6f3e6e7d7c5".into(),
        "1. f5 2. d6 3. c3 pa 4.--".into(),
        START.into(),
        format!("{START}; F5:+0; D3:+0; C4:+0; E6:-2;"),
        format!(
            "(;GM[Othello]PB[a]PW[b]TY[8]BO[8 {} *]B[f5/1.2/3]W[d6];)\n(;B[d3];)",
            &START[..64]
        ),
        "f5d6c4d3c2b3b4b5\nf5f4g3g6f3g4e3e2\n".into(),
    ]
}

/// Feeds `text` to every text parser and replays what parses.
fn parse_all_text(text: &str) {
    if let Ok(t) = text.parse::<Transcript>() {
        let _ = t.replay(Position::start());
        let _ = t.to_string();
    }
    let _ = text.parse::<Position>();
    if let Ok(entries) = obf::read_obf(text) {
        let _ = obf::write_obf(&entries);
    }
    let _ = text.parse::<obf::ObfEntry>();
    if let Ok(games) = ggf::read_ggf(text) {
        for g in &games {
            let _ = g.replay();
        }
        let _ = ggf::write_ggf(&games);
    }
    let _ = text.parse::<ggf::GgfGame>();
    let _ = xot::read_xot(text);
    if let Ok(input) = position_input::parse(text) {
        let _ = input.position();
        let _ = input.into_game();
    }
}

/// Feeds `bytes` to the WTHOR readers and replays every record.
fn parse_all_bytes(bytes: &[u8]) {
    if let Ok(file) = wthor::read_wtb(bytes) {
        for g in &file.games {
            let _ = g.replay();
        }
    }
    let _ = wthor::read_players(bytes);
    let _ = wthor::read_tournaments(bytes);
    let _ = wthor::read_names(bytes, 0);
}

/// Applies `edits` (position, byte, kind) to `base`: replace, insert or delete a byte.
fn mutate(base: &[u8], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut v = base.to_vec();
    for &(at, byte, kind) in edits {
        let i = if v.is_empty() { 0 } else { at % (v.len() + 1) };
        match kind % 3 {
            0 if i < v.len() => v[i] = byte,
            1 => v.insert(i, byte),
            _ if i < v.len() => {
                v.remove(i);
            }
            _ => v.push(byte),
        }
    }
    v
}

fn wthor_sample() -> Vec<u8> {
    let game = crate::common::random_game(5);
    let record = wthor::WthorGame::from_game(&game, 1, 2, 3, 40).unwrap();
    wthor::write_wtb(&wthor::WthorFile {
        header: wthor::WthorHeader::for_games(2001, 1),
        games: vec![record, record],
    })
}

proptest! {
    #![proptest_config(crate::common::proptest_config(2000))]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        parse_all_text(&text);
    }

    #[test]
    fn format_alphabet_text_never_panics(text in "[a-hA-H1-9pPsSX*O\\-.;:+%()\\[\\]/\\\\ \n0BWGMTYDR]{0,300}") {
        parse_all_text(&text);
    }

    #[test]
    fn mutated_samples_never_panic(
        which in 0usize..6,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..8),
    ) {
        let base = samples()[which].clone();
        let mutated = mutate(base.as_bytes(), &edits);
        parse_all_text(&String::from_utf8_lossy(&mutated));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        parse_all_bytes(&bytes);
    }

    #[test]
    fn mutated_wthor_never_panics(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..12),
    ) {
        parse_all_bytes(&mutate(&wthor_sample(), &edits));
    }
}
