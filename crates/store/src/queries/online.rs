//! The online tables: seats and their holders, clocks, offers, chat, device links, the
//! server's heartbeat. Every function writes inside its caller's transaction.

use super::super::columns::{
    color_from, color_text, opt_color_from, phase_columns, phase_from_columns, time_control_from,
    time_control_text,
};
use super::super::{Change, LinkRow, SweptRows};
use crate::backend::Backend;
use crate::error::{StoreError, StoreResult};
use crate::exec::{args, Db};
use crate::online::OnlineStore;
use crate::queries;
use crate::StoreFuture;
use virada_domain::identity::BrowserId;
use virada_domain::model::online::{
    flag_at, ChatLine, Offers, OnlineGame, Phase, SeatState, CHAT_SHOWN,
};
use virada_domain::model::GameRecord;
use virada_rules::Color;

/// Schema version 3 (online play).
pub const MIGRATION: &str = "
    CREATE TABLE online_games (
        game_id         TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        time_control    TEXT NOT NULL,
        phase           TEXT NOT NULL,
        turn_started_at BIGINT,
        end_reason      TEXT,
        end_loser       TEXT,
        black_name      TEXT,
        white_name      TEXT,
        black_ms        BIGINT NOT NULL,
        white_ms        BIGINT NOT NULL,
        takeback_offer  TEXT,
        rematch_offer   TEXT,
        rematch_game    TEXT,
        chat_count      BIGINT NOT NULL
    );
    CREATE TABLE online_holders (
        game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        color     TEXT NOT NULL,
        browser   TEXT NOT NULL,
        added_at  BIGINT NOT NULL,
        PRIMARY KEY (game_id, browser)
    );
    CREATE INDEX online_holders_browser ON online_holders(browser);
    CREATE TABLE online_chat (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n       BIGINT NOT NULL,
        color   TEXT NOT NULL,
        text    TEXT NOT NULL,
        at      BIGINT NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE device_links (
        token_hash TEXT PRIMARY KEY,
        game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        color      TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        used_at    BIGINT
    );
    CREATE TABLE server_alive (
        id BIGINT PRIMARY KEY CHECK (id = 1),
        at BIGINT NOT NULL
    );";

/// Adds the online row and holders of the new game `rec` (its game row is written already).
pub async fn insert_online(db: &Db<'_>, rec: &GameRecord, online: &OnlineGame) -> StoreResult<()> {
    ensure_row(db, &rec.meta.id).await?;
    write_online(db, rec, online).await?;
    for c in [Color::Black, Color::White] {
        if let SeatState::Taken { holders, .. } = online.seat(c) {
            for h in holders {
                add_holder(db, &rec.meta.id, c, *h, rec.meta.created_at).await?;
            }
        }
    }
    Ok(())
}

/// Adds a blank online row for game `id` if it has none (it is filled by [`write_online`]).
pub async fn ensure_row(db: &Db<'_>, id: &str) -> StoreResult<()> {
    db.execute(
        "INSERT INTO online_games (game_id, time_control, phase, black_ms, white_ms, chat_count)
         VALUES ($1, '', '', 0, 0, 0) ON CONFLICT DO NOTHING",
        args![id],
    )
    .await?;
    Ok(())
}

async fn add_holder(db: &Db<'_>, id: &str, c: Color, who: BrowserId, at: i64) -> StoreResult<()> {
    db.execute(
        "INSERT INTO online_holders (game_id, color, browser, added_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING",
        args![id, color_text(c), who.to_string(), at],
    )
    .await?;
    Ok(())
}

/// Writes the online row of game `rec` (its clocks, phase, offers, names, deadline).
pub async fn write_online(db: &Db<'_>, rec: &GameRecord, o: &OnlineGame) -> StoreResult<()> {
    let tc = time_control_text(&o.time_control).map_err(StoreError::Db)?;
    let (turn_started_at, reason, loser) = phase_columns(o.phase);
    let n = db
        .execute(
            "UPDATE online_games SET time_control = $2, phase = $3, turn_started_at = $4,
                end_reason = $5, end_loser = $6, black_name = $7, white_name = $8,
                black_ms = $9, white_ms = $10, takeback_offer = $11, rematch_offer = $12,
                rematch_game = $13, chat_count = $14, flag_at = $15, rated = $16
             WHERE game_id = $1",
            args![
                rec.meta.id,
                tc,
                o.phase.name(),
                turn_started_at,
                reason,
                loser,
                o.black.name(),
                o.white.name(),
                o.black_ms,
                o.white_ms,
                o.offers.takeback.map(color_text),
                o.offers.rematch.map(color_text),
                o.rematch_game,
                i64::from(o.chat_count),
                flag_at(rec, o),
                o.rated,
            ],
        )
        .await?;
    if n != 1 {
        return Err(StoreError::NoGame(rec.meta.id.clone()));
    }
    // The list's status column: a resigned or timed-out game is finished whatever the board.
    if matches!(o.phase, Phase::Finished(_)) {
        db.execute(
            "UPDATE games SET status = 'finished' WHERE id = $1",
            args![rec.meta.id],
        )
        .await?;
    }
    Ok(())
}

/// Writes what `change` adds to game `id` (a new game is written by the caller).
pub async fn apply_change(db: &Db<'_>, id: &str, at: i64, change: &Change) -> StoreResult<()> {
    match change {
        Change::Holder(c, who) => add_holder(db, id, *c, *who, at).await?,
        Change::Chat(line) => {
            db.execute(
                "INSERT INTO online_chat (game_id, n, color, text, at) VALUES ($1, $2, $3, $4, $5)",
                args![
                    id,
                    i64::from(line.n),
                    color_text(line.from),
                    line.text,
                    line.at,
                ],
            )
            .await?;
        }
        Change::LinkUsed(hash) => {
            let n = db
                .execute(
                    "UPDATE device_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL",
                    args![hash, at],
                )
                .await?;
            if n != 1 {
                return Err(StoreError::NotFound(
                    "no such device link (or it was used)".into(),
                ));
            }
        }
        Change::NewGame(_) => {}
    }
    Ok(())
}

/// The online part of game `id`; `Ok(None)` if it has none (a local game).
pub async fn load(db: &Db<'_>, id: &str) -> StoreResult<Option<OnlineGame>> {
    let corrupt = |e: String| StoreError::CorruptGame {
        id: id.to_string(),
        why: format!("its online part: {e}"),
    };
    let row = db
        .query_opt(
            "SELECT time_control, phase, turn_started_at, end_reason, end_loser, black_name,
                white_name, black_ms, white_ms, takeback_offer, rematch_offer, rematch_game,
                chat_count, rated
             FROM online_games WHERE game_id = $1",
            args![id],
        )
        .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    let time_control = time_control_from(&r.get::<String>(0)?).map_err(corrupt)?;
    let phase = phase_from_columns(
        &r.get::<String>(1)?,
        r.get(2)?,
        r.get::<Option<String>>(3)?.as_deref(),
        r.get::<Option<String>>(4)?.as_deref(),
    )
    .map_err(corrupt)?;
    let names: [Option<String>; 2] = [r.get(5)?, r.get(6)?];
    let takeback: Option<String> = r.get(9)?;
    let rematch_offer: Option<String> = r.get(10)?;
    let chats: i64 = r.get(12)?;

    let mut holders: [Vec<BrowserId>; 2] = [Vec::new(), Vec::new()];
    let rows = db
        .query(
            "SELECT color, browser FROM online_holders WHERE game_id = $1
             ORDER BY added_at, browser COLLATE \"C\"",
            args![id],
        )
        .await?;
    for h in &rows {
        let (c, b): (String, String) = (h.get(0)?, h.get(1)?);
        let who = BrowserId::from_hex(&b).ok_or_else(|| corrupt(format!("holder {b:?}")))?;
        match color_from(&c).map_err(corrupt)? {
            Color::Black => holders[0].push(who),
            Color::White => holders[1].push(who),
        }
    }
    let seat = |name: &Option<String>, holders: Vec<BrowserId>| match name {
        Some(name) => SeatState::Taken {
            name: name.clone(),
            holders,
        },
        None => SeatState::Free,
    };
    let [black_holders, white_holders] = holders;

    let mut chat = Vec::new();
    let rows = db
        .query(
            "SELECT n, color, text, at FROM online_chat WHERE game_id = $1
             ORDER BY n DESC LIMIT $2",
            args![id, CHAT_SHOWN as i64],
        )
        .await?;
    for c in &rows {
        let n: i64 = c.get(0)?;
        chat.push(ChatLine {
            n: u32::try_from(n).map_err(|_| corrupt(format!("chat line {n}")))?,
            from: color_from(&c.get::<String>(1)?).map_err(corrupt)?,
            text: c.get(2)?,
            at: c.get(3)?,
        });
    }
    chat.reverse();
    Ok(Some(OnlineGame {
        time_control,
        black: seat(&names[0], black_holders),
        white: seat(&names[1], white_holders),
        phase,
        black_ms: r.get(7)?,
        white_ms: r.get(8)?,
        offers: Offers {
            takeback: opt_color_from(takeback.as_deref()).map_err(corrupt)?,
            rematch: opt_color_from(rematch_offer.as_deref()).map_err(corrupt)?,
        },
        rematch_game: r.get(11)?,
        chat,
        chat_count: u32::try_from(chats).map_err(|_| corrupt(format!("chat count {chats}")))?,
        rated: r.get(13)?,
    }))
}

/// Stores a device link (its token's hash), keeping at most `per_seat` unused ones for the seat
/// (the oldest go), and drops expired links.
pub async fn insert_link(db: &Db<'_>, link: &LinkRow, per_seat: usize) -> StoreResult<()> {
    let color = color_text(link.color);
    db.execute(
        "INSERT INTO device_links (token_hash, game_id, color, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)",
        args![
            link.hash,
            link.game,
            color,
            link.created_at,
            link.expires_at,
        ],
    )
    .await?;
    db.execute(
        "DELETE FROM device_links
         WHERE game_id = $1 AND color = $2 AND used_at IS NULL AND token_hash NOT IN (
            SELECT token_hash FROM device_links
            WHERE game_id = $1 AND color = $2 AND used_at IS NULL
            ORDER BY created_at DESC, token_hash COLLATE \"C\" LIMIT $3)",
        args![link.game, color, per_seat.min(i64::MAX as usize) as i64,],
    )
    .await?;
    db.execute(
        "DELETE FROM device_links WHERE expires_at <= $1",
        args![link.created_at],
    )
    .await?;
    Ok(())
}

/// Drops the device links expired at `now` and the chat of online games finished before
/// `chat_before`.
pub async fn sweep_links_and_chat(
    db: &Db<'_>,
    now: i64,
    chat_before: i64,
) -> StoreResult<SweptRows> {
    let links = db
        .execute(
            "DELETE FROM device_links WHERE expires_at <= $1",
            args![now],
        )
        .await?;
    let chat = db
        .execute(
            "DELETE FROM online_chat WHERE game_id IN (
                SELECT id FROM games
                WHERE mode = 'online' AND status = 'finished' AND updated_at < $1)",
            args![chat_before],
        )
        .await?;
    Ok(SweptRows {
        device_links: links as usize,
        chat_lines: chat as usize,
    })
}

/// The game and seat of an unused, unexpired device link.
pub async fn find_link(db: &Db<'_>, hash: &str, now: i64) -> StoreResult<Option<(String, Color)>> {
    let row = db
        .query_opt(
            "SELECT game_id, color FROM device_links
             WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
            args![hash, now],
        )
        .await?;
    match row {
        None => Ok(None),
        Some(r) => {
            let c: String = r.get(1)?;
            Ok(Some((r.get(0)?, color_from(&c).map_err(StoreError::Db)?)))
        }
    }
}

/// Records that the server is alive at `at` (never moving the heartbeat back).
pub async fn beat(db: &Db<'_>, at: i64) -> StoreResult<()> {
    db.execute(
        "INSERT INTO server_alive (id, at) VALUES (1, $1)
         ON CONFLICT (id) DO UPDATE SET
             at = CASE WHEN excluded.at > server_alive.at THEN excluded.at ELSE server_alive.at END",
        args![at],
    )
    .await?;
    Ok(())
}

/// On PostgreSQL, a heartbeat younger than this at start-up was another instance's (they beat
/// every 2 s): the service was not down, so no clock is moved. A SQLite file has one process:
/// any time since its last heartbeat was downtime.
pub const OTHERS_ALIVE_MS: i64 = 5_000;

/// After a restart: the running clocks of playing games are moved on by the downtime since the
/// last heartbeat (none while other instances were beating). Returns the games changed.
pub async fn forgive_downtime(db: &Db<'_>, now: i64) -> StoreResult<usize> {
    let last: Option<i64> = db
        .query_opt("SELECT at FROM server_alive WHERE id = 1", &[])
        .await?
        .map(|r| r.get(0))
        .transpose()?;
    let Some(last) = last else {
        beat(db, now).await?;
        return Ok(0);
    };
    let others_alive = if db.is_postgres() { OTHERS_ALIVE_MS } else { 0 };
    let n = db
        .execute(
            "UPDATE online_games SET
                turn_started_at = CAST($2 AS BIGINT) - CASE WHEN CAST($1 AS BIGINT) > turn_started_at
                    THEN CAST($1 AS BIGINT) - turn_started_at ELSE 0 END,
                flag_at = flag_at + (CAST($2 AS BIGINT) - CASE WHEN CAST($1 AS BIGINT) > turn_started_at
                    THEN CAST($1 AS BIGINT) - turn_started_at ELSE 0 END - turn_started_at)
             WHERE phase = 'playing' AND CAST($2 AS BIGINT) - CAST($1 AS BIGINT) > CAST($3 AS BIGINT)",
            args![last, now, others_alive],
        )
        .await?;
    beat(db, now).await?;
    Ok(n as usize)
}

/// Playing timed games without a stored deadline: their ids.
pub async fn missing_flags(db: &Db<'_>) -> StoreResult<Vec<String>> {
    let rows = db
        .query(
            "SELECT game_id FROM online_games
             WHERE phase = 'playing' AND flag_at IS NULL AND time_control NOT LIKE '%\"none\"%'",
            &[],
        )
        .await?;
    rows.iter().map(|r| r.get(0)).collect()
}

/// Stores the deadline of game `id`.
pub async fn set_flag(db: &Db<'_>, id: &str, at: Option<i64>) -> StoreResult<usize> {
    Ok(db
        .execute(
            "UPDATE online_games SET flag_at = $2 WHERE game_id = $1",
            args![id, at],
        )
        .await? as usize)
}

/// Games whose stored deadline is at or before `now`, earliest first (at most `limit`).
pub async fn due_flags(
    db: &Db<'_>,
    instance: &str,
    now: i64,
    limit: usize,
) -> StoreResult<Vec<String>> {
    let limit = limit.min(i64::MAX as usize) as i64;
    let rows = if db.is_postgres() {
        // Several instances: a game whose lease another live instance holds is flagged there
        // (its owner stored the deadline and watches it); the rest, dead owners' games and
        // games nobody has in memory, by whichever instance looks first.
        db.query(
            "SELECT game_id FROM online_games o WHERE flag_at <= $1
               AND NOT EXISTS (SELECT 1 FROM game_leases l
                   WHERE l.game_id = o.game_id AND l.instance <> $3
                     AND l.expires_at >= (extract(epoch from clock_timestamp()) * 1000)::BIGINT)
             ORDER BY flag_at, game_id COLLATE \"C\" LIMIT $2",
            args![now, limit, instance],
        )
        .await?
    } else {
        db.query(
            "SELECT game_id FROM online_games WHERE flag_at <= $1
             ORDER BY flag_at, game_id COLLATE \"C\" LIMIT $2",
            args![now, limit],
        )
        .await?
    };
    rows.iter().map(|r| r.get(0)).collect()
}

/// The earliest stored deadline after `now`.
pub async fn next_flag_after(db: &Db<'_>, now: i64) -> StoreResult<Option<i64>> {
    db.value(
        "SELECT MIN(flag_at) FROM online_games WHERE flag_at > $1",
        args![now],
    )
    .await
}

impl<B: Backend> OnlineStore for B {
    fn sweep_links_and_chat(&self, now: i64, chat_before: i64) -> StoreFuture<'_, SweptRows> {
        self.write(move |db| {
            Box::pin(async move { sweep_links_and_chat(db, now, chat_before).await })
        })
    }

    fn insert_link(&self, link: LinkRow, per_seat: usize) -> StoreFuture<'_, ()> {
        self.write(move |db| Box::pin(async move { insert_link(db, &link, per_seat).await }))
    }

    fn find_link(&self, hash: &str, now: i64) -> StoreFuture<'_, Option<(String, Color)>> {
        let hash = hash.to_string();
        self.read(move |db| Box::pin(async move { find_link(db, &hash, now).await }))
    }

    fn beat(&self, at: i64) -> StoreFuture<'_, ()> {
        self.write(move |db| Box::pin(async move { beat(db, at).await }))
    }

    fn forgive_downtime(&self, now: i64) -> StoreFuture<'_, usize> {
        self.write(move |db| {
            Box::pin(async move {
                queries::games::fill_missing_flags(db).await?;
                forgive_downtime(db, now).await
            })
        })
    }

    fn due_flags(
        &self,
        instance: &str,
        now: i64,
        limit: usize,
    ) -> StoreFuture<'_, (Vec<String>, Option<i64>)> {
        let instance = instance.to_string();
        self.read(move |db| {
            Box::pin(async move {
                Ok({
                    let due = due_flags(db, &instance, now, limit).await?;
                    let next = next_flag_after(db, now).await?;
                    (due, next)
                })
            })
        })
    }
}
