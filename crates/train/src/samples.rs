//! Labelled positions and where their labels come from ([`Source`], also the source code of a
//! data-set record, `crate::dataset`). (The retired gen2 pipeline also stored samples in `.vsp`
//! files; the gen3 data sets replaced them.)

use virada_rules::Board;

/// Where a label comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Source {
    /// WTHOR game: the theoretical score at 24 empties (perfect play from there on), given to the
    /// earlier positions of the game.
    WthorTheoretical = 0,
    /// Exact value from our endgame solver.
    Exact = 1,
    /// WTHOR game: the final result of the game as played.
    WthorResult = 2,
    /// Self-play game of our engine: its final result.
    SelfPlay = 3,
    /// Value of a search that used a previous generation of weights.
    Search = 4,
    /// WTHOR game position: value of a search that used a previous generation of weights
    /// (held out by the WTHOR game split).
    WthorSearch = 5,
}

impl Source {
    /// The source with this code, if any.
    pub fn from_code(c: u8) -> Option<Source> {
        Some(match c {
            0 => Source::WthorTheoretical,
            1 => Source::Exact,
            2 => Source::WthorResult,
            3 => Source::SelfPlay,
            4 => Source::Search,
            5 => Source::WthorSearch,
            _ => return None,
        })
    }
}

/// One labelled position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sample {
    pub board: Board,
    /// WOF final disc difference for the side to move.
    pub label: i8,
    pub source: Source,
}
