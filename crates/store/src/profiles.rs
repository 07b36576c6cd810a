//! What the stores read for players' profiles and "my games" (the [`super::Store`] methods
//! under "profiles"): an account's online games, found by the seats its identity holds, and
//! the finished ones' results. Both stores read the same columns into [`RawGame`], decoded
//! here once.

use super::columns::color_from;
use super::StoreFuture;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::{End, TimeControl};
use virada_rules::Color;

/// Which of an account's online games a query wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phases {
    /// Waiting for an opponent or being played.
    Running,
    /// Being played (both seats taken).
    Playing,
    /// Finished (aborted ones included).
    Finished,
    /// Being played or finished: what a profile shows (a game waiting for its second player
    /// is not).
    Public,
}

impl Phases {
    /// The SQL list of `online_games.phase` values (constants, never user text).
    pub fn sql_list(self) -> &'static str {
        match self {
            Phases::Running => "('waiting', 'playing')",
            Phases::Playing => "('playing')",
            Phases::Finished => "('finished')",
            Phases::Public => "('playing', 'finished')",
        }
    }
}

/// A page of an account's online games, the most recently changed first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesQuery {
    /// The account's identity (the holder of its seats).
    pub holder: BrowserId,
    pub phases: Phases,
    /// Only games whose other seat's name is this (lower case; names compare without case).
    pub opponent: Option<String>,
    /// Only games changed before this `(updated_at, id)` (the previous page's last).
    pub before: Option<(i64, String)>,
    pub limit: usize,
}

/// One of an account's online games as its row says.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountGame {
    pub id: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub ply_count: u32,
    pub black_discs: u8,
    pub white_discs: u8,
    pub transcript: String,
    /// The start position (its text).
    pub start: String,
    pub time_control: TimeControl,
    /// `waiting`, `playing` or `finished`.
    pub phase: String,
    /// How it ended (finished games).
    pub end: Option<End>,
    pub rated: bool,
    /// The account's seat.
    pub color: Color,
    /// The names in the seats (a deleted account's is [`super::accounts::ANONYMOUS`]).
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    /// The seats' accounts (their usernames), when an account holds them.
    pub black_account: Option<String>,
    pub white_account: Option<String>,
    /// When the side to move loses on time or by the days-per-move deadline (Unix ms).
    pub deadline: Option<i64>,
    /// A rated game's effect on the account's rating: before and after it (none for a game
    /// that moved no rating). `before` is the account's previous rating in the category, or
    /// the new player's rating for a first rated game.
    pub rating: Option<RatingChange>,
}

/// A rating before and after one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub before: f64,
    pub after: f64,
}

/// The columns both stores read (in this order: see `ACCOUNT_GAME_COLUMNS` in each store).
#[derive(Clone, Debug, Default)]
pub struct RawGame {
    pub id: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub ply_count: i64,
    pub black_discs: i64,
    pub white_discs: i64,
    pub transcript: String,
    pub start: String,
    pub time_control: String,
    pub phase: String,
    pub end_reason: Option<String>,
    pub end_loser: Option<String>,
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    pub rated: bool,
    pub flag_at: Option<i64>,
    pub color: String,
    pub black_account: Option<String>,
    pub white_account: Option<String>,
    /// The account's rating after this game, and before it (none: its first rated game).
    pub rating_after: Option<f64>,
    pub rating_before: Option<f64>,
}

impl RawGame {
    /// The row decoded; a row that does not decode says why (it is left out and logged).
    pub fn decode(self) -> Result<AccountGame, String> {
        let corrupt = |e: String| format!("stored game {} is corrupt: {e}", self.id);
        let time_control: TimeControl = serde_json::from_str(&self.time_control)
            .map_err(|e| corrupt(format!("time control: {e}")))?;
        let end = match &self.end_reason {
            Some(reason) => {
                let loser = self
                    .end_loser
                    .as_deref()
                    .map(color_from)
                    .transpose()
                    .map_err(corrupt)?;
                Some(
                    End::from_columns(reason, loser)
                        .ok_or_else(|| corrupt(format!("end {reason:?}")))?,
                )
            }
            None => None,
        };
        let color = color_from(&self.color).map_err(corrupt)?;
        Ok(AccountGame {
            created_at: self.created_at,
            updated_at: self.updated_at,
            ply_count: self.ply_count.max(0) as u32,
            black_discs: self.black_discs.clamp(0, 64) as u8,
            white_discs: self.white_discs.clamp(0, 64) as u8,
            transcript: self.transcript,
            start: self.start,
            time_control,
            phase: self.phase,
            end,
            rated: self.rated,
            color,
            black_name: self.black_name,
            white_name: self.white_name,
            black_account: self.black_account,
            white_account: self.white_account,
            deadline: self.flag_at,
            rating: self.rating_after.map(|after| RatingChange {
                before: self
                    .rating_before
                    .unwrap_or(virada_domain::rating::PlayerRating::NEW.rating.rating),
                after,
            }),
            id: self.id,
        })
    }
}

/// Decodes rows, leaving out (and logging) the ones that do not decode.
pub fn decode_all(rows: Vec<RawGame>) -> Vec<AccountGame> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        match row.decode() {
            Ok(g) => out.push(g),
            Err(e) => tracing::error!(error = %e, "a stored game is left out of a profile"),
        }
    }
    out
}

/// The SQL both stores share for an account's games (`{phases}` is [`Phases::sql_list`]): the
/// account's seat per game (the first colour if it held both), the game's row and online row,
/// and the seats' accounts.
pub fn account_games_sql(phases: Phases) -> String {
    format!(
        "SELECT g.id, g.created_at, g.updated_at, g.ply_count, g.black_discs, g.white_discs,
            g.transcript, g.start_pos, o.time_control, o.phase, o.end_reason, o.end_loser,
            o.black_name, o.white_name, o.rated, o.flag_at, m.color,
            (SELECT a.username FROM online_holders x JOIN accounts a ON a.holder = x.browser
                WHERE x.game_id = g.id AND x.color = 'black' LIMIT 1),
            (SELECT a.username FROM online_holders x JOIN accounts a ON a.holder = x.browser
                WHERE x.game_id = g.id AND x.color = 'white' LIMIT 1),
            (SELECT h.rating FROM rating_history h WHERE h.game_id = g.id AND h.holder = $1),
            (SELECT p.rating FROM rating_history h JOIN rating_history p
                ON p.holder = h.holder AND p.category = h.category
                AND (p.at < h.at OR (p.at = h.at AND p.game_id COLLATE \"C\" < h.game_id COLLATE \"C\"))
                WHERE h.game_id = g.id AND h.holder = $1
                ORDER BY p.at DESC, p.game_id COLLATE \"C\" DESC LIMIT 1)
         FROM (SELECT game_id, MIN(color) AS color FROM online_holders
                WHERE browser = $1 GROUP BY game_id) m
         JOIN games g ON g.id = m.game_id
         JOIN online_games o ON o.game_id = g.id
         WHERE g.mode = 'online' AND o.phase IN {phases}
           AND (CAST($2 AS TEXT) IS NULL OR lower(CASE WHEN m.color = 'black'
                THEN o.white_name ELSE o.black_name END) = CAST($2 AS TEXT))
           AND (CAST($3 AS BIGINT) IS NULL OR g.updated_at < CAST($3 AS BIGINT)
                OR (g.updated_at = CAST($3 AS BIGINT)
                    AND g.id COLLATE \"C\" < CAST($4 AS TEXT)))
         ORDER BY g.updated_at DESC, g.id COLLATE \"C\" DESC
         LIMIT $5",
        phases = phases.sql_list()
    )
}

/// A finished game's outcome for the account, as its row says (the record's counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinishedRow {
    pub color: Color,
    pub end: End,
    pub black_discs: u8,
    pub white_discs: u8,
    pub rated: bool,
}

/// The SQL both stores share for the outcomes of an account's finished online games.
pub const FINISHED_SQL: &str =
    "SELECT m.color, o.end_reason, o.end_loser, g.black_discs, g.white_discs, o.rated
     FROM (SELECT game_id, MIN(color) AS color FROM online_holders
            WHERE browser = $1 GROUP BY game_id) m
     JOIN games g ON g.id = m.game_id
     JOIN online_games o ON o.game_id = g.id
     WHERE g.mode = 'online' AND o.phase = 'finished'";

/// A [`FinishedRow`] from its columns (`None`, logged: a row that does not decode).
pub fn finished_row(
    color: &str,
    reason: Option<&str>,
    loser: Option<&str>,
    black_discs: i64,
    white_discs: i64,
    rated: bool,
) -> Option<FinishedRow> {
    let decoded = (|| {
        let loser = loser.map(color_from).transpose()?;
        let reason = reason.ok_or("a finished game without its end")?;
        let end = End::from_columns(reason, loser).ok_or(format!("end {reason:?}"))?;
        Ok::<_, String>(FinishedRow {
            color: color_from(color)?,
            end,
            black_discs: black_discs.clamp(0, 64) as u8,
            white_discs: white_discs.clamp(0, 64) as u8,
            rated,
        })
    })();
    match decoded {
        Ok(row) => Some(row),
        Err(e) => {
            tracing::error!(error = %e, "a finished game is left out of a record");
            None
        }
    }
}

/// An account's games as its profile and "my games" read them.
pub trait ProfileStore: Send + Sync {
    /// A page of an account's online games (the seats its identity holds), the most recently
    /// changed first.
    fn account_games(&self, q: GamesQuery) -> StoreFuture<'_, Vec<AccountGame>>;
    /// The outcomes of all of an account's finished online games (its record).
    fn finished_games(&self, holder: BrowserId) -> StoreFuture<'_, Vec<FinishedRow>>;
}
