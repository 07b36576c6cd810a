//! `GET /api/explorer?line=f5d6c3`: the opening explorer (docs/EXPLORER.md). For the position
//! a line of moves from the standard start reaches (at most [`virada_engine::explorer::MAX_PLIES`]
//! moves), the moves tournament players chose there (`virada_engine::explorer`, built from
//! WTHOR), with the book's values and the opening names. Nothing is stored; no engine search
//! runs: the answer is a few lookups in tables held in memory.

use crate::error::{AppError, AppResult};
use crate::view::{board_string, opening_name_view, OpeningNameView, Text};
use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::Json;
use serde::{Deserialize, Serialize};
use virada_engine::explorer::{Explorer, ExplorerMove, Stats, MAX_PLIES};
use virada_engine::opening_names;
use virada_engine::Book;
use virada_rules::formats::transcript::Transcript;
use virada_rules::{Color, Move, Position, Square};

/// Longest `line` read, in characters: 20 moves are 40; room for separators or "pass".
pub const MAX_LINE_CHARS: usize = 200;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ExplorerQuery {
    /// Moves from the standard start (`f5d6c3`; empty for the start itself).
    #[serde(default)]
    line: String,
}

/// What the tournament games did from one position (Black's view).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ResultsView {
    pub games: u32,
    pub black_wins: u32,
    pub draws: u32,
    pub white_wins: u32,
    /// Black's average final disc difference (empties to the winner), to 0.01.
    pub black_average: f64,
    /// Black's score in percent (a draw half a win), to 0.1.
    pub black_score: f64,
}

impl From<&Stats> for ResultsView {
    fn from(s: &Stats) -> ResultsView {
        ResultsView {
            games: s.games,
            black_wins: s.black_wins,
            draws: s.draws,
            white_wins: s.white_wins(),
            black_average: (s.black_average() * 100.0).round() / 100.0,
            black_score: (s.black_score_percent() * 10.0).round() / 10.0,
        }
    }
}

/// A player of the database with the Elo computed over it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ExplorerPlayerView {
    pub name: String,
    pub elo: u16,
    /// Games of theirs in the database (rated).
    pub games: u32,
}

/// The book's value of a move or position, for Black (final disc difference).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct BookValueView {
    pub black_value: f32,
    pub depth: u8,
    pub exact: bool,
}

/// A move of the position.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ExplorerMoveView {
    pub square: Square,
    /// Squares that lead to the same position by the position's own symmetry.
    pub same_as: Vec<Square>,
    /// The tournament games that played it here (`games` 0: a move only the book has).
    pub results: ResultsView,
    /// The strongest players who chose it (by the Elo computed over the database), at most 3.
    pub players: Vec<ExplorerPlayerView>,
    pub book: Option<BookValueView>,
    /// The name of the position the move reaches, if it has one.
    pub opening: Option<MoveOpeningView>,
}

/// The name of a position (no ply: it is the position after the move).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct MoveOpeningView {
    pub id: &'static str,
    pub name: Text,
}

/// `GET /api/explorer`.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ExplorerView {
    /// The line as read, compact (`f5d6c3`).
    pub line: String,
    /// Its moves, passes included.
    pub ply: usize,
    pub board: String,
    /// `null` when the game is over.
    pub side_to_move: Option<Color>,
    /// The legal moves of the position (the board's clickable squares).
    pub legal_moves: Vec<Square>,
    /// Whether the explorer holds this position (reached by at least `min_games` games of the
    /// first `max_plies` moves).
    pub known: bool,
    pub min_games: u32,
    pub max_plies: u32,
    /// The games through this position (all zero when not `known`).
    pub results: ResultsView,
    /// The deepest named opening of the line.
    pub opening: Option<OpeningNameView>,
    pub book: Option<BookValueView>,
    /// Played moves, most played first, then moves only the book has (best first).
    pub moves: Vec<ExplorerMoveView>,
    /// Where the data comes from (`WTHOR, 137135 games`).
    pub source: String,
}

fn bad(message: String) -> AppError {
    AppError::BadRequest(message)
}

/// The position of a line from the standard start, with its positions. Forced passes are played
/// when the next move needs them; an illegal move is 422 `illegal_move` naming it.
pub fn replay_line(line: &str) -> AppResult<(Transcript, Vec<Position>)> {
    if line.chars().count() > MAX_LINE_CHARS {
        return Err(bad(format!(
            "line: more than {MAX_LINE_CHARS} characters; the explorer covers the first \
             {MAX_PLIES} moves"
        )));
    }
    let t: Transcript = line.parse().map_err(|e| bad(format!("line: {e}")))?;
    let moves = t.moves().iter().filter(|m| **m != Move::Pass).count();
    if moves > MAX_PLIES as usize {
        return Err(bad(format!(
            "line: {moves} moves; the explorer covers the positions of the first {MAX_PLIES}"
        )));
    }
    let mut pos = Position::start();
    let mut positions = vec![pos];
    let mut played = Vec::new();
    for (i, &mv) in t.moves().iter().enumerate() {
        if let Move::Play(_) = mv {
            if pos.must_pass() && !pos.is_game_over() {
                pos = pos.play(Move::Pass).expect("a forced pass is legal");
                positions.push(pos);
                played.push(Move::Pass);
            }
        }
        pos = pos.play(mv).map_err(|reason| AppError::IllegalMove {
            square: match mv {
                Move::Play(sq) => Some(sq.to_string()),
                Move::Pass => None,
            },
            message: format!("line: move {}: {reason}", i + 1),
        })?;
        positions.push(pos);
        played.push(mv);
    }
    Ok((Transcript::new(played), positions))
}

fn book_value(value_for_mover: f32, mover: Color, depth: u8, exact: bool) -> BookValueView {
    let v = if mover == Color::Black {
        value_for_mover
    } else {
        -value_for_mover
    };
    BookValueView {
        black_value: (v * 100.0).round() / 100.0,
        depth,
        exact,
    }
}

fn move_opening(pos: &Position, sq: Square) -> Option<MoveOpeningView> {
    let after = pos.play(Move::Play(sq)).ok()?;
    opening_names::name_of(&after).map(|n| MoveOpeningView {
        id: n.id,
        name: Text {
            en: n.en.to_string(),
            pt: n.pt.to_string(),
        },
    })
}

/// The answer for a line, from `explorer` and `book`.
pub fn explore(line: &str, explorer: &Explorer, book: Option<&Book>) -> AppResult<ExplorerView> {
    let (transcript, positions) = replay_line(line)?;
    let pos = *positions.last().expect("the start is always there");
    let mover = pos.side_to_move();
    let played: Vec<ExplorerMove> = explorer.moves_at(&pos).unwrap_or_default();
    let probe = book.and_then(|b| b.probe(&pos));
    let mut results = Stats::default();
    for m in &played {
        results.merge(&m.stats);
    }
    let mut moves: Vec<ExplorerMoveView> = played
        .iter()
        .map(|m| ExplorerMoveView {
            square: m.square,
            same_as: m.same_as.clone(),
            results: ResultsView::from(&m.stats),
            players: m
                .players
                .iter()
                .map(|p| ExplorerPlayerView {
                    name: p.name.clone(),
                    elo: p.elo,
                    games: p.games,
                })
                .collect(),
            book: probe
                .as_ref()
                .and_then(|b| b.value_of(m.square))
                .map(|b| book_value(b.value, mover, b.depth, b.exact)),
            opening: move_opening(&pos, m.square),
        })
        .collect();
    if let Some(probe) = &probe {
        let covered = |sq: Square| {
            played
                .iter()
                .any(|m| m.square == sq || m.same_as.contains(&sq))
        };
        for b in &probe.moves {
            if !covered(b.square) && !pos.is_game_over() {
                moves.push(ExplorerMoveView {
                    square: b.square,
                    same_as: Vec::new(),
                    results: ResultsView::from(&Stats::default()),
                    players: Vec::new(),
                    book: Some(book_value(b.value, mover, b.depth, b.exact)),
                    opening: move_opening(&pos, b.square),
                });
            }
        }
    }
    let meta = |key: &str| {
        explorer
            .meta
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
            .map(str::to_string)
    };
    let over = pos.is_game_over();
    Ok(ExplorerView {
        line: transcript.to_string(),
        ply: positions.len() - 1,
        board: board_string(&pos),
        side_to_move: (!over).then_some(mover),
        legal_moves: pos.legal_moves().iter().collect(),
        known: !played.is_empty(),
        min_games: meta("min_games").and_then(|v| v.parse().ok()).unwrap_or(1),
        max_plies: MAX_PLIES,
        results: ResultsView::from(&results),
        opening: opening_name_view(&positions),
        book: probe
            .as_ref()
            .map(|b| book_value(b.value, mover, b.depth, b.exact)),
        moves,
        source: format!(
            "{}, {} games",
            meta("source").unwrap_or_default(),
            meta("games_used").unwrap_or_default()
        ),
    })
}

/// The handler: the shipped explorer and book.
pub async fn get(q: Result<Query<ExplorerQuery>, QueryRejection>) -> AppResult<Json<ExplorerView>> {
    let Query(q) = q.map_err(|e| bad(format!("query string: {}", e.body_text())))?;
    let Some(explorer) = Explorer::shipped() else {
        return Err(AppError::NotFound(
            "this build ships no opening explorer".into(),
        ));
    };
    Ok(Json(explore(&q.line, explorer, Book::shipped())?))
}
