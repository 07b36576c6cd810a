//! The JSON of online games: the game object's `online` field and the WebSocket messages
//! (docs/API.md, "Online games"); the clocks and end of every game (a game on one device may
//! have a clock and be resigned too).

use crate::dates::iso8601;
use crate::model::online::{
    abort_at, forfeit_score_of_counts, running_clock, ChatLine, End, OnlineGame, Phase, TimeControl,
};
use crate::model::{GameRecord, Status};
use crate::view::{game_view, GameView, ResultView};
use serde::Serialize;
use virada_rules::Color;

/// A seat's connection state.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Presence {
    /// A socket of a holder is open.
    Online,
    /// The last one closed less than 30 s ago.
    Reconnecting,
    Left,
    /// The seat is free.
    None,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct SeatView {
    pub name: Option<String>,
    pub taken: bool,
    pub presence: Presence,
    pub since: Option<String>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct SeatsView {
    pub black: SeatView,
    pub white: SeatView,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ClocksView {
    pub black_ms: i64,
    pub white_ms: i64,
    pub running: Option<Color>,
    pub server_time_ms: i64,
    pub deadline_ms: Option<i64>,
    /// When the game is aborted if the side to move, which has not made its first move (its
    /// clock does not run yet), makes none (games between two seated players).
    pub abort_at_ms: Option<i64>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct OffersView {
    pub takeback: Option<Color>,
    pub rematch: Option<Color>,
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ChatLineView {
    pub n: u32,
    pub from: Color,
    pub text: String,
    pub at: String,
}

impl From<&ChatLine> for ChatLineView {
    fn from(l: &ChatLine) -> Self {
        ChatLineView {
            n: l.n,
            from: l.from,
            text: l.text.clone(),
            at: iso8601(l.at),
        }
    }
}

#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct EndView {
    pub reason: &'static str,
    pub loser: Option<Color>,
}

/// The game object's `online` field.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct OnlineView {
    pub time_control: TimeControl,
    /// A rated game (its end moves the players' ratings).
    pub rated: bool,
    pub seats: SeatsView,
    pub you: Option<Color>,
    pub phase: &'static str,
    pub clocks: Option<ClocksView>,
    pub spectators: usize,
    pub offers: OffersView,
    pub rematch_game: Option<String>,
    pub chat: Vec<ChatLineView>,
    pub end: Option<EndView>,
}

/// `{"type":"presence",...}`.
#[derive(Serialize, Clone, Debug)]
pub struct PresenceMessage<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub seats: &'a SeatsView,
    pub spectators: usize,
}

/// `{"type":"chat","line":...}`.
#[derive(Serialize, Clone, Debug)]
pub struct ChatMessage {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub line: ChatLineView,
}

/// `{"type":"game","game":...}`.
#[derive(Serialize, Clone, Debug)]
pub struct GameMessage<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub game: &'a GameView,
}

/// `{"type":"error",...}`.
#[derive(Serialize, Clone, Debug)]
pub struct ErrorMessage {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub code: &'static str,
    pub message: String,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<u64>,
    /// The error's params, as in HTTP error bodies (`invisible_character`: `field`, `char`).
    #[serde(skip_serializing_if = "Option::is_none")]
    // The same map as `error::ErrorParams` (named here so views do not depend on errors).
    pub params: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The game object of an online game as the holder of `you` (or a spectator) sees it at `now`.
pub fn online_game_view(
    rec: &GameRecord,
    online: &OnlineGame,
    version: u64,
    you: Option<Color>,
    seats: SeatsView,
    spectators: usize,
    now: i64,
) -> GameView {
    let mut view = game_view(rec, false, version);
    apply_clocks_and_end(&mut view, rec, online, now);
    view.rated = online.rated;
    view.online = Some(Box::new(OnlineView {
        time_control: online.time_control,
        rated: online.rated,
        seats,
        you,
        phase: online.phase.name(),
        clocks: view.clocks.clone(),
        spectators,
        offers: OffersView {
            takeback: online.offers.takeback,
            rematch: online.offers.rematch,
        },
        rematch_game: online.rematch_game.clone(),
        chat: online.chat.iter().map(ChatLineView::from).collect(),
        end: match online.phase {
            Phase::Finished(_) => view.end.clone(),
            _ => None,
        },
    }));
    view
}

/// The game object of a game on one device (computer, friend) at `now`: with its clocks and
/// how it ended when it has them (`online`: a clock, or a resignation).
pub fn local_game_view(
    rec: &GameRecord,
    online: Option<&OnlineGame>,
    thinking: bool,
    version: u64,
    now: i64,
) -> GameView {
    let mut view = game_view(rec, thinking, version);
    if let Some(online) = online {
        apply_clocks_and_end(&mut view, rec, online, now);
        view.rated = online.rated;
    }
    view
}

/// Puts a game's time control, clocks at `now` and end into its view: a game that ended on
/// time or by resignation is finished whatever the board, and scored by the 33-31 rule.
fn apply_clocks_and_end(view: &mut GameView, rec: &GameRecord, online: &OnlineGame, now: i64) {
    let pos = rec.game.position();
    let to_move = match online.phase {
        Phase::Playing { .. } if !pos.is_game_over() => Some(pos.side_to_move()),
        _ => None,
    };
    if let Phase::Finished(end) = online.phase {
        view.status = Status::Finished;
        view.side_to_move = None;
        view.legal_moves.clear();
        view.result = end_result(end, pos.black().count() as u8, pos.white().count() as u8);
        view.end = Some(EndView {
            reason: end.reason(),
            loser: end.loser(),
        });
    } else if !matches!(online.phase, Phase::Playing { .. }) {
        // Waiting: nobody may move yet.
        view.legal_moves.clear();
    }
    view.time_control = online.time_control;
    // The side to move's clock runs only once it has made its first move.
    let running = to_move.and(running_clock(rec, online));
    view.clocks = online.time_control.allowance_ms().map(|_| ClocksView {
        black_ms: online.remaining_at(Color::Black, running, now),
        white_ms: online.remaining_at(Color::White, running, now),
        running,
        server_time_ms: now,
        deadline_ms: running.and_then(|c| online.deadline(c)),
        abort_at_ms: to_move.and(abort_at(rec, online)),
    });
}

/// The result of an online game that ended by `end` with `black_discs` and `white_discs` on
/// the board: the board's (empties to the winner) when neither side could move, at least
/// 33-31 for the winner on time, resignation or deadline, none when aborted. The game view and
/// the saved-games list both use it.
pub fn end_result(end: End, black_discs: u8, white_discs: u8) -> Option<ResultView> {
    match end {
        End::Abort => None,
        End::Normal => Some(virada_rules::GameResult::new(black_discs, white_discs).into()),
        End::Time(loser) | End::Resign(loser) | End::Deadline(loser) => {
            let (black_score, white_score) =
                forfeit_score_of_counts(black_discs, white_discs, loser);
            Some(ResultView {
                winner: Some(!loser),
                black_score,
                white_score,
                black_discs,
                white_discs,
                wof_differs: (black_score, white_score) != (black_discs, white_discs),
            })
        }
    }
}
