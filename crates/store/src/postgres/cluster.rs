//! Several instances on one database (the server's `runtime::cluster`): game leases, change notifications
//! (`NOTIFY` right after the transaction of the change commits, so only a stored change is
//! announced) and the listener that hears them (`LISTEN` on a connection of its own). The
//! listener's connection also keeps the instance's leases: once every `LEASE_RENEW_MS` it
//! renews them all in one statement and reports the games whose lease expired, away from the
//! pool, so a busy pool cannot delay a renewal.
//!
//! The same connection keeps the process's claim on its instance id (`live_instances`, one row
//! per id with the process's random token): an id whose claim has not expired is live, and a
//! second process started with it is refused (the server's `runtime::cluster`); a process that
//! finds its claim taken by another stops (`BusMessage::Displaced`).
//!
//! Why the notice is not sent inside the change's transaction: PostgreSQL takes one lock for the
//! whole database from a notifying transaction's commit until its end, flush to disk included,
//! so every move of every game would be committed one after another, one flush each (the
//! largest wait at one instance under load: docs/SERVER.md, "Load with two instances"). Sent
//! after the commit, the notice's own statement writes nothing and holds that lock a moment. A
//! notice lost between the two (the instance died, or lost its connection) delays what the
//! followers show, never what is stored: they read the game again when the owner answers their
//! next request, when their listener reconnects, and when they take a dead owner's game over.
//!
//! Lease times are on the database's clock (`clock_timestamp()`), so the instances' own clocks
//! do not decide who owns a game.

use crate::error::{StoreError, StoreResult};
use crate::exec::{args, Db};
use crate::{BusMessage, INSTANCE_MS, LEASE_MS, LEASE_RENEW_MS};
use futures_util::StreamExt;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

/// The database's clock in Unix ms.
const DB_NOW: &str = "(extract(epoch from clock_timestamp()) * 1000)::BIGINT";

/// How long the listener waits before connecting again after losing its connection.
const RECONNECT_PAUSE: Duration = Duration::from_millis(500);

/// The channel of change notifications for tables in `schema` (`None`: the search path's).
pub fn changes_channel(schema: Option<&str>) -> String {
    match schema {
        // Schema names are checked to be lower-case letters, digits and `_` (`PgStore::open`),
        // and channel names may have 63 bytes.
        Some(s) => format!("virada_changes_{}", &s[..s.len().min(40)]),
        None => "virada_changes".to_string(),
    }
}

/// The channel of messages to instance `instance` (its id: `config::is_valid_instance_id`).
pub fn direct_channel(instance: &str) -> String {
    format!("virada_to_{instance}")
}

/// Takes or renews `instance`'s lease on game `id`; `None` if it holds it now, else the holder.
pub async fn lease(db: &Db<'_>, id: &str, instance: &str) -> StoreResult<Option<String>> {
    let taken = db
        .query_opt(
            &format!(
                "INSERT INTO game_leases (game_id, instance, expires_at)
                 VALUES ($1, $2, {DB_NOW} + $3)
                 ON CONFLICT (game_id) DO UPDATE
                    SET instance = excluded.instance, expires_at = excluded.expires_at
                    WHERE game_leases.instance = excluded.instance
                       OR game_leases.expires_at < {DB_NOW}
                 RETURNING instance"
            ),
            args![id, instance, LEASE_MS],
        )
        .await?;
    if taken.is_some() {
        return Ok(None);
    }
    let holder = db
        .query_opt(
            "SELECT instance FROM game_leases WHERE game_id = $1",
            args![id],
        )
        .await?;
    match holder {
        Some(row) => Ok(Some(row.get(0)?)),
        // Released between the two statements: nobody holds it; the next try takes it.
        None => Ok(Some(String::new())),
    }
}

/// Takes or renews `token`'s claim on instance id `$1` (`$2`: the token, `$3`: how long): a row
/// back if `token` holds it now.
fn claim_sql() -> String {
    format!(
        "INSERT INTO live_instances (id, token, expires_at) VALUES ($1, $2, {DB_NOW} + $3)
         ON CONFLICT (id) DO UPDATE
            SET token = excluded.token, expires_at = excluded.expires_at
            WHERE live_instances.token = excluded.token
               OR live_instances.expires_at < {DB_NOW}
         RETURNING id"
    )
}

/// [`crate::ClusterStore::claim_instance`].
pub async fn claim_instance(db: &Db<'_>, instance: &str, token: &str) -> StoreResult<Option<i64>> {
    let taken = db
        .query_opt(&claim_sql(), args![instance, token, INSTANCE_MS])
        .await?;
    if taken.is_some() {
        return Ok(None);
    }
    let left: Option<i64> = db
        .query_opt(
            &format!("SELECT expires_at - {DB_NOW} FROM live_instances WHERE id = $1"),
            args![instance],
        )
        .await?
        .map(|r| r.get(0))
        .transpose()?;
    // Released between the two statements: free now, the next try takes it.
    Ok(Some(left.unwrap_or(0).max(0)))
}

/// [`crate::ClusterStore::release_instance`].
pub async fn release_instance(db: &Db<'_>, instance: &str, token: &str) -> StoreResult<()> {
    // The games' leases first, while the id is still this process's: a game actor gives its
    // lease up as it stops, but a process may exit before every actor has, and a lease left
    // behind keeps the game from the other instances until it lapses.
    db.execute(
        "DELETE FROM game_leases WHERE instance = $1
           AND EXISTS (SELECT 1 FROM live_instances WHERE id = $1 AND token = $2)",
        args![instance, token],
    )
    .await?;
    db.execute(
        "DELETE FROM live_instances WHERE id = $1 AND token = $2",
        args![instance, token],
    )
    .await?;
    Ok(())
}

/// What one look of the listener found.
struct Kept {
    /// Games whose lease expired.
    expired: Vec<String>,
    /// Another process holds the instance id now.
    displaced: bool,
}

/// Renews `token`'s claim on `instance` and every lease `instance` holds (not the leases once
/// the claim is lost: they may be the other process's), and returns the games whose lease
/// expired.
async fn keep_leases(
    client: &tokio_postgres::Client,
    instance: &str,
    token: &str,
) -> StoreResult<Kept> {
    let claimed = client
        .query_opt(&claim_sql(), &[&instance, &token, &INSTANCE_MS])
        .await?;
    if claimed.is_none() {
        return Ok(Kept {
            expired: Vec::new(),
            displaced: true,
        });
    }
    client
        .execute(
            &format!("UPDATE game_leases SET expires_at = {DB_NOW} + $2 WHERE instance = $1"),
            &[&instance, &LEASE_MS],
        )
        .await?;
    let rows = client
        .query(
            &format!("SELECT game_id FROM game_leases WHERE expires_at < {DB_NOW}"),
            &[],
        )
        .await?;
    let expired = rows
        .iter()
        .map(|r| r.try_get(0).map_err(StoreError::from))
        .collect::<StoreResult<_>>()?;
    Ok(Kept {
        expired,
        displaced: false,
    })
}

/// Gives up `instance`'s lease on game `id`.
pub async fn release(db: &Db<'_>, id: &str, instance: &str) -> StoreResult<()> {
    db.execute(
        "DELETE FROM game_leases WHERE game_id = $1 AND instance = $2",
        args![id, instance],
    )
    .await?;
    Ok(())
}

/// Renews `instance`'s lease on game `id` for the rest of the transaction and beyond; refuses
/// (`not_owner`) if another instance holds it. The row stays locked until the transaction
/// ends, so nobody takes the game over while its change is being stored.
pub async fn renew_or_refuse(db: &Db<'_>, id: &str, instance: &str) -> StoreResult<()> {
    let n = db
        .execute(
            &format!(
                "UPDATE game_leases SET expires_at = {DB_NOW} + $3
                 WHERE game_id = $1 AND instance = $2"
            ),
            args![id, instance, LEASE_MS],
        )
        .await?;
    if n == 1 {
        Ok(())
    } else {
        Err(StoreError::NotOwner(id.to_string()))
    }
}

/// `NOTIFY channel, payload` at once, outside any transaction: a change's notice after its
/// commit, a request or an answer between instances.
pub async fn notify_now(
    client: &deadpool_postgres::Object,
    channel: &str,
    payload: &str,
) -> StoreResult<()> {
    let statement = client.prepare_cached("SELECT pg_notify($1, $2)").await?;
    client.execute(&statement, &[&channel, &payload]).await?;
    Ok(())
}

/// Starts the listener task: `LISTEN` on `changes` and `direct`, reconnecting whenever the
/// connection is lost, until the receiver is dropped or the instance id is lost.
pub fn listen(
    config: tokio_postgres::Config,
    changes: String,
    instance: String,
    token: String,
) -> mpsc::Receiver<BusMessage> {
    let (tx, rx) = mpsc::channel(4096);
    tokio::spawn(async move {
        loop {
            match listen_once(&config, &changes, &instance, &token, &tx).await {
                Err(e) => {
                    tracing::warn!(error = %e, "the change listener lost its database connection")
                }
                Ok(Ended::Displaced) => return,
                Ok(Ended::Closed) => {}
            }
            if tx.is_closed() {
                return;
            }
            tokio::time::sleep(RECONNECT_PAUSE).await;
        }
    });
    rx
}

/// Why a connection of the listener ended without an error.
enum Ended {
    /// The receiver is gone.
    Closed,
    /// Another process holds the instance id: said, and nothing more is renewed.
    Displaced,
}

/// One connection of the listener: returns when it is lost (or the receiver is gone, or the
/// instance id was taken).
async fn listen_once(
    config: &tokio_postgres::Config,
    changes: &str,
    instance: &str,
    token: &str,
    out: &mpsc::Sender<BusMessage>,
) -> StoreResult<Ended> {
    let direct = &direct_channel(instance);
    let (client, mut connection) = config.connect(NoTls).await?;
    let (heard_tx, mut heard) = mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(m) = messages.next().await {
            match m {
                Ok(AsyncMessage::Notification(n)) => {
                    if heard_tx
                        .send((n.channel().to_string(), n.payload().to_string()))
                        .is_err()
                    {
                        break;
                    }
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    });
    let listening = client
        .batch_execute(&format!("LISTEN \"{changes}\"; LISTEN \"{direct}\";"))
        .await;
    if let Err(e) = listening {
        driver.abort();
        return Err(e.into());
    }
    // From here on nothing is missed: whoever reads the store now sees every change made
    // before, and hears of every later one.
    if out.send(BusMessage::Listening).await.is_err() {
        driver.abort();
        return Ok(Ended::Closed);
    }
    let mut tick = tokio::time::interval(Duration::from_millis(LEASE_RENEW_MS));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let ended = loop {
        let msg = tokio::select! {
            heard = heard.recv() => match heard {
                None => break Ok(Ended::Closed),
                Some((channel, payload)) if channel == *direct => BusMessage::Direct(payload),
                Some((_, payload)) => match parse_change(&payload) {
                    Some(m) => m,
                    None => continue,
                },
            },
            _ = tick.tick() => match keep_leases(&client, instance, token).await {
                Ok(kept) if kept.displaced => {
                    let _ = out.send(BusMessage::Displaced).await;
                    break Ok(Ended::Displaced);
                }
                Ok(kept) if kept.expired.is_empty() => continue,
                Ok(kept) => BusMessage::Expired(kept.expired),
                Err(e) => break Err(e),
            },
        };
        if out.send(msg).await.is_err() {
            break Ok(Ended::Closed);
        }
    };
    driver.abort();
    drop(client);
    ended
}

/// `game version instance`.
fn parse_change(payload: &str) -> Option<BusMessage> {
    let mut parts = payload.split(' ');
    let game = parts.next()?.to_string();
    let version = parts.next()?.parse().ok()?;
    let by = parts.next()?.to_string();
    Some(BusMessage::Changed { game, version, by })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_payloads_read_back() {
        assert_eq!(
            parse_change("g_1a 17 i2"),
            Some(BusMessage::Changed {
                game: "g_1a".into(),
                version: 17,
                by: "i2".into()
            })
        );
        assert_eq!(parse_change("g_1a x i2"), None);
        assert_eq!(parse_change("g_1a"), None);
        assert!(changes_channel(Some(&"s".repeat(63))).len() <= 63);
        assert!(direct_channel(&"a".repeat(32)).len() <= 63);
    }
}
