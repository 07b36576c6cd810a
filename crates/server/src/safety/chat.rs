//! Chat off and blocked players' chat: which chat lines a browser gets.
//!
//! Chat is off for a seat when its player turned it off for the game (`PUT
//! /api/games/{id}/chat`) or in their account's settings (`PUT /api/account/settings`); a
//! guest's browser keeps its own setting and turns chat off in each game it plays. A player
//! with chat off gets no chat line, and every game message of that game says which seats have
//! chat off (`online.chat_off`), so the opponent sees it. A player who blocks an account gets
//! none of its lines. The live channel applies this per socket ([`ChatFilter`]).

use super::signed_in;
use crate::error::{AppError, AppResult};
use crate::http::extract::JsonBody;
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::identity::layer::Identity;
use crate::identity::BrowserId;
use crate::runtime::state::AppState;
use crate::view::GameView;
use axum::extract::{Path, State};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::borrow::Cow;
use std::time::{Duration, Instant};
use virada_rules::Color;
use virada_store::safety::ChatSides;

/// How long a socket keeps what it read of the chat settings before a game message reads them
/// again (a chat line always reads them again).
pub const FILTER_REFRESH: Duration = Duration::from_secs(2);

/// `GET /api/account/settings`: `{"chat_off"}`.
pub async fn settings(State(state): State<AppState>, identity: Identity) -> AppResult<Json<Value>> {
    let me = signed_in(&identity)?;
    let flags = state
        .shared
        .store
        .safety()
        .flags(me.holder)
        .await?
        .unwrap_or_default();
    Ok(Json(json!({ "chat_off": flags.chat_off })))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    chat_off: bool,
}

/// `PUT /api/account/settings` `{"chat_off"}`: 200 with the settings.
pub async fn put_settings(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    JsonBody(req): JsonBody<Settings>,
) -> AppResult<Json<Value>> {
    let me = signed_in(&identity)?;
    state.limits.check(asker.ip, Kind::Seat)?;
    state
        .shared
        .store
        .safety()
        .set_chat_off(me.holder, req.chat_off)
        .await?;
    Ok(Json(json!({ "chat_off": req.chat_off })))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GameChat {
    off: bool,
}

/// `PUT /api/games/{id}/chat` `{"off"}`: chat off (or on) for the asker's seat in this game;
/// 200 `{"off"}`. 409 `not_allowed` for anyone holding no seat.
pub async fn put_game_chat(
    State(state): State<AppState>,
    asker: Asker,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<GameChat>,
) -> AppResult<Json<Value>> {
    state.limits.check(asker.ip, Kind::Seat)?;
    // 404 unless the game exists and is the asker's to see.
    state.view(&asker, &id).await?;
    let safety = state.shared.store.safety();
    let sides = safety.chat_sides(&id, asker.browser).await?;
    let Some(seat) = sides.seat else {
        return Err(AppError::NotAllowed(
            "only a player of this game can turn its chat off".into(),
        ));
    };
    safety.set_game_chat_off(&id, seat, req.off).await?;
    Ok(Json(json!({ "off": req.off })))
}

fn index(c: Color) -> usize {
    usize::from(c == Color::White)
}

/// What one socket lets through of a game's chat.
pub struct ChatFilter {
    game: String,
    who: BrowserId,
    sides: ChatSides,
    read_at: Instant,
}

impl ChatFilter {
    /// Reads what `who` may get of game `game`'s chat.
    pub async fn new(state: &AppState, game: &str, who: BrowserId) -> AppResult<ChatFilter> {
        let sides = state.shared.store.safety().chat_sides(game, who).await?;
        Ok(ChatFilter {
            game: game.to_string(),
            who,
            sides,
            read_at: Instant::now(),
        })
    }

    /// Reads the settings again (always, or only when older than [`FILTER_REFRESH`]).
    pub async fn refresh(&mut self, state: &AppState, always: bool) {
        if always || self.read_at.elapsed() >= FILTER_REFRESH {
            if let Ok(sides) = state
                .shared
                .store
                .safety()
                .chat_sides(&self.game, self.who)
                .await
            {
                self.sides = sides;
            }
            self.read_at = Instant::now();
        }
    }

    /// Whether lines from seat `from` are kept from this browser.
    fn hides(&self, from: Color) -> bool {
        let own_off =
            self.sides.own_setting_off || self.sides.seat.is_some_and(|s| self.sides.off[index(s)]);
        own_off || self.sides.blocked[index(from)]
    }

    fn changes_nothing(&self) -> bool {
        !self.hides(Color::Black) && !self.hides(Color::White) && self.sides.off == [false, false]
    }

    /// A server message as this browser gets it: `None` to drop it (a chat line it does not
    /// get), else the text (game messages without the lines it does not get, and with
    /// `online.chat_off`).
    pub fn apply<'a>(&self, text: &'a str) -> Option<Cow<'a, str>> {
        if self.changes_nothing() {
            return Some(Cow::Borrowed(text));
        }
        let Ok(mut msg) = serde_json::from_str::<Value>(text) else {
            return Some(Cow::Borrowed(text));
        };
        match msg["type"].as_str() {
            Some("chat") => {
                let from = color_of(&msg["line"]["from"])?;
                (!self.hides(from)).then_some(Cow::Borrowed(text))
            }
            Some("game") => {
                self.apply_to_game(&mut msg["game"]);
                Some(Cow::Owned(msg.to_string()))
            }
            _ => Some(Cow::Borrowed(text)),
        }
    }

    /// Takes the lines this browser does not get out of a game object's chat, and says which
    /// seats have chat off.
    pub fn apply_to_game(&self, game: &mut Value) {
        let Some(online) = game.get_mut("online").and_then(Value::as_object_mut) else {
            return;
        };
        if let Some(Value::Array(lines)) = online.get_mut("chat") {
            lines.retain(|l| color_of(&l["from"]).is_some_and(|c| !self.hides(c)));
        }
        online.insert(
            "chat_off".into(),
            json!({"black": self.sides.off[0], "white": self.sides.off[1]}),
        );
    }
}

/// A game object from HTTP (`GET /api/games/{id}`) without the chat lines `who` does not get.
pub async fn filter_view(state: &AppState, who: BrowserId, view: &mut GameView) -> AppResult<()> {
    let id = view.id.clone();
    let Some(online) = view.online.as_mut() else {
        return Ok(());
    };
    if online.chat.is_empty() {
        return Ok(());
    }
    let filter = ChatFilter::new(state, &id, who).await?;
    online.chat.retain(|l| !filter.hides(l.from));
    Ok(())
}

fn color_of(v: &Value) -> Option<Color> {
    match v.as_str()? {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}
