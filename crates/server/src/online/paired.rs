//! Paired games: an online game made by the server for two players it has matched (a lobby
//! seek accepted, quick pairing, an arena round), with both seats already held and the clock
//! running. It goes the one way every online game goes: [`super::http::create`] stores it
//! with White's seat taken and starts its actor, then the actor seats Black
//! (`GameHandle::take_seat`), which starts play. Nobody else knows the game's id in between.

use crate::error::{AppError, AppResult};
use crate::http::ownership::Asker;
use crate::identity::layer::Identity;
use crate::identity::BrowserId;
use crate::model::online::TimeControl;
use crate::model::{GameMeta, GameRecord, Mode, Owner, StartKind};
use crate::runtime::state::AppState;
use crate::util::{new_game_id, now_millis, random_u64};
use std::net::IpAddr;
use virada_rules::{Color, Game};

/// One side of a paired game: who holds the seat and under which name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The identity that holds the seat: an account's identity for a signed-in player (its
    /// games and rating follow the account), else the guest browser's.
    pub holder: BrowserId,
    /// The name shown on the seat (a signed-in player's username).
    pub name: String,
    /// Whether `holder` is an account (a rated game needs two).
    pub account: bool,
    /// The address the player came from: the game counts against its per-address quota of
    /// stored and unfinished online games (White's) as any game its creator makes.
    pub ip: IpAddr,
}

impl Seat {
    /// The seat of the player `identity` from `ip`: a signed-in player's account and username,
    /// else the guest browser and `name` (checked as a display name).
    pub fn of(identity: &Identity, name: Option<String>, ip: IpAddr) -> AppResult<Seat> {
        let display = super::http::seat_name(identity, name)?;
        Ok(match &identity.account {
            Some(account) => Seat {
                holder: account.holder,
                name: display,
                account: true,
                ip,
            },
            None => Seat {
                holder: identity.guest,
                name: display,
                account: false,
                ip,
            },
        })
    }

    fn asker(&self) -> Asker {
        Asker {
            browser: self.holder,
            ip: self.ip,
            local: false,
        }
    }
}

/// Where a paired game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Start {
    /// The standard four discs.
    #[default]
    Standard,
    /// A random opening of the XOT list (chosen as `POST /api/games` with `"start": "xot"`).
    Xot,
}

/// Makes an online game with `white` and `black` seated, playing at once, rated or casual, and
/// returns its id. A rated game needs two accounts and a timed category (the checks of
/// `check_rated`); the same identity cannot hold both seats.
pub async fn start_paired(
    state: &AppState,
    white: Seat,
    black: Seat,
    time_control: TimeControl,
    rated: bool,
    start: Start,
) -> AppResult<String> {
    if white.holder == black.holder {
        return Err(AppError::BadRequest(
            "a paired game needs two different players".into(),
        ));
    }
    if rated {
        if !(white.account && black.account) {
            return Err(crate::accounts::sign_in_required());
        }
        if crate::rating::Category::of(time_control).is_none() {
            return Err(AppError::account(
                axum::http::StatusCode::BAD_REQUEST,
                "rated_needs_time_control",
                "a rated game needs a clock or days per move",
                &[],
            ));
        }
    }
    let (start_kind, mut game, opening) = match start {
        Start::Standard => (StartKind::Standard, Game::new(), None),
        Start::Xot => {
            let (opening, after) = crate::runtime::engine_port::xot_opening(random_u64())
                .map_err(AppError::Internal)?;
            (StartKind::Xot, Game::from_position(after), Some(opening))
        }
    };
    game.play_forced_passes();
    let now = now_millis();
    let rec = GameRecord {
        meta: GameMeta {
            id: new_game_id(),
            created_at: now,
            updated_at: now,
            mode: Mode::Online,
            start_kind,
            opening,
            seed: random_u64(),
            owner: Owner::Browser(white.holder),
            record: None,
        },
        game,
    };
    let id = rec.meta.id.clone();
    super::http::create(
        state,
        &white.asker(),
        rec,
        (time_control, rated),
        Color::White,
        white.name,
    )
    .await?;
    let who = black.holder;
    state
        .with_game(&black.asker(), &id, |h| {
            let name = black.name.clone();
            async move { h.take_seat(who, name).await }
        })
        .await?;
    Ok(id)
}
