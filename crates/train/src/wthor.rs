//! Labelled positions from the WTHOR tournament database.
//!
//! Every position of every game becomes a sample (positions where the side to move must pass
//! are skipped: they repeat the previous discs). The label is, from the side to move's view:
//! - with at least [`THEORETICAL_MIN_EMPTIES`] empties: the game's *theoretical score* (record
//!   byte 7, perfect play from the 24-empty position the game reached), which removes the
//!   players' endgame mistakes from the label; it is exact at 24 empties;
//! - with fewer empties: the final result of the game as played (later replaced by exact solver
//!   values where the solver labels them, see `pipeline`).
//!
//! The threshold is measured: against exact values of WTHOR positions (examples/labelcheck.rs),
//! the final result errs by 4.0 / 5.7 / 10.4 / 14.5 discs on average at 10 / 14 / 16 / 18
//! empties and the theoretical score by 12.9 / 10.0 / 10.1 / 7.1, so the theoretical score is
//! the better label from 17 empties up.
//!
//! Games are split into training and held-out sets by a seeded hash of their number, so the
//! held-out games never contribute a position to the fit.

use crate::samples::{Sample, Source};
use std::path::{Path, PathBuf};
use virada_rules::formats::wthor::{read_wtb, WthorGame};
use virada_rules::{Board, Color};

/// Positions with at least this many empties are labelled with the theoretical score.
pub const THEORETICAL_MIN_EMPTIES: u32 = 17;

/// The games of a WTHOR directory, file by file in name order.
pub struct WthorDatabase {
    /// (game, empties at which its theoretical score was computed)
    pub games: Vec<(WthorGame, u8)>,
    pub files: Vec<PathBuf>,
}

/// Reads every `WTH_*.wtb` file in `dir`.
pub fn load(dir: &Path) -> Result<WthorDatabase, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("WTH_") && n.to_ascii_lowercase().ends_with(".wtb"))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no WTH_*.wtb files", dir.display()));
    }
    let mut games = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let file = read_wtb(&bytes).map_err(|e| format!("{}: {e}", f.display()))?;
        let depth = file.header.theoretical_empties();
        games.extend(file.games.into_iter().map(|g| (g, depth)));
    }
    Ok(WthorDatabase { games, files })
}

/// Whether game number `index` belongs to the held-out set (1 game in `one_in`).
pub fn is_held_out(index: usize, seed: u64, one_in: u64) -> bool {
    let mut h = (index as u64) ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (h ^ (h >> 31)).checked_rem(one_in) == Some(0)
}

/// A game's positions with their labels, or `None` if the record does not replay.
pub fn game_samples(game: &WthorGame, theoretical_empties: u8) -> Option<Vec<Sample>> {
    let played = game.replay().ok()?;
    let end = played.position();
    let final_black = end.result()?.difference_for(Color::Black);
    let theoretical_black = 2 * game.theoretical_score as i32 - 64;
    let reached_depth = played
        .positions()
        .iter()
        .any(|p| p.board().empty_count() == theoretical_empties as u32);
    let threshold = THEORETICAL_MIN_EMPTIES.min(theoretical_empties as u32);
    let mut out = Vec::with_capacity(61);
    for pos in played.positions() {
        let board = pos.board();
        let empties = board.empty_count();
        if empties == 0 || board.moves() == 0 {
            continue;
        }
        let (black_view, source) = if empties >= threshold && reached_depth {
            (theoretical_black, Source::WthorTheoretical)
        } else {
            (final_black, Source::WthorResult)
        };
        let label = if pos.side_to_move() == Color::Black {
            black_view
        } else {
            -black_view
        };
        out.push(Sample {
            board,
            label: label.clamp(-64, 64) as i8,
            source,
        });
    }
    Some(out)
}

/// The position at the theoretical depth of a game and its exact score for the side to move
/// (the free held-out test set of exact values), if the game reached that depth.
pub fn theoretical_position(game: &WthorGame, theoretical_empties: u8) -> Option<(Board, i8)> {
    let played = game.replay().ok()?;
    let pos = played.positions().iter().find(|p| {
        p.board().empty_count() == theoretical_empties as u32 && p.board().moves() != 0
    })?;
    let black = 2 * game.theoretical_score as i32 - 64;
    let v = if pos.side_to_move() == Color::Black {
        black
    } else {
        -black
    };
    Some((pos.board(), v as i8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_of_one_year_are_consistent() {
        let Some(path) = virada_testdata::file("wthor/WTH_2004.wtb") else {
            return;
        };
        let bytes = std::fs::read(path).unwrap();
        let file = read_wtb(&bytes).unwrap();
        let depth = file.header.theoretical_empties();
        assert_eq!(depth, 24);
        let mut n = 0;
        for g in file.games.iter().take(300) {
            let s = game_samples(g, depth).expect("WTHOR games replay");
            assert!(s.len() >= 40);
            let (b, v) = theoretical_position(g, depth).unwrap();
            assert_eq!(b.empty_count(), 24);
            let at24 = s.iter().find(|x| x.board == b).unwrap();
            assert_eq!(at24.label, v);
            assert_eq!(at24.source, Source::WthorTheoretical);
            // The last sample is labelled with the replayed final result.
            let last = s.last().unwrap();
            assert_eq!(last.source, Source::WthorResult);
            n += s.len();
        }
        assert!(n > 300 * 40);
    }

    #[test]
    fn split_is_seeded_and_about_one_in_twenty() {
        let held: usize = (0..20_000).filter(|&i| is_held_out(i, 1, 20)).count();
        assert!((800..1200).contains(&held), "{held}");
        let other: Vec<bool> = (0..100).map(|i| is_held_out(i, 2, 20)).collect();
        let same: Vec<bool> = (0..100).map(|i| is_held_out(i, 1, 20)).collect();
        assert_ne!(other, same);
    }
}
