//! Several instances (`crate::runtime::cluster`): the owner's lease, and an actor that follows the
//! owner from another instance.
//!
//! A follower keeps its own sockets and a copy of the game, read again from the store whenever
//! the owner says the game changed ([`Msg::Refresh`]); what its players do that changes the
//! game goes to the owner ([`Actor::forward`]) and is answered from the copy once it shows the
//! owner's change. Every [`LEASE_RENEW_MS`](virada_store::LEASE_RENEW_MS) each instance renews
//! all its leases at once and looks for expired ones (`crate::runtime::relay`): a follower whose
//! owner's lease expired (it was not renewed for [`LEASE_MS`](virada_store::LEASE_MS): the
//! owner died) takes it, and then runs the game from the store. So does one whose request the
//! owner does not answer in time.

use super::Actor;
use crate::error::{AppError, AppResult, WireError};
use crate::model::online::Phase;
use crate::runtime::cluster::Answer;
use crate::runtime::game::{Forward, Msg};
use crate::view::online::{ChatLineView, ChatMessage};

/// Tries before a request is refused (503 `not_owner`, try again): with the answer's wait
/// (`ServerConfig::forward_wait`, 1 s) together longer than a lease, so a dead owner's game is
/// taken over first.
const FORWARD_TRIES: u32 = 6;

/// Whether `msg` changes the game (only the owner does that).
pub(super) fn needs_owner(msg: &Msg) -> bool {
    matches!(
        msg,
        Msg::Act { .. } | Msg::TakeSeat { .. } | Msg::UseLink { .. } | Msg::CheckFlag(_)
    )
}

/// The request `msg` asks of the owner.
fn forward_of(msg: &Msg) -> Option<Forward> {
    Some(match msg {
        Msg::Act {
            who,
            action,
            arrived_ms,
            ..
        } => Forward::Act {
            who: who.to_string(),
            action: action.clone(),
            arrived_ms: *arrived_ms,
        },
        Msg::TakeSeat { who, name, .. } => Forward::TakeSeat {
            who: who.to_string(),
            name: name.clone(),
        },
        Msg::UseLink {
            who, color, hash, ..
        } => Forward::UseLink {
            who: who.to_string(),
            color: *color,
            hash: hash.clone(),
        },
        Msg::CheckFlag(_) => Forward::CheckFlag,
        _ => return None,
    })
}

/// Answers `msg` with `e`.
fn fail(msg: Msg, e: AppError) {
    match msg {
        Msg::Act { reply, .. } | Msg::TakeSeat { reply, .. } => drop(reply.send(Err(e))),
        Msg::UseLink { reply, .. } => drop(reply.send(Err(e))),
        Msg::CheckFlag(reply) => drop(reply.send(Err(e))),
        _ => {}
    }
}

fn value<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> AppResult<T> {
    serde_json::from_value(v).map_err(|e| AppError::Internal(format!("the owner's answer: {e}")))
}

impl Actor {
    /// What a follower shows while the owner's computer thinks: that the computer is to move.
    pub(super) fn shows_thinking(&self) -> bool {
        if self.leader {
            return self.thinking.is_some();
        }
        let playing = self
            .online
            .as_ref()
            .is_none_or(|o| matches!(o.phase, Phase::Playing { .. }));
        playing && self.rec.computer_to_move()
    }

    /// Renews the lease (owner) or tries to take it (follower); takes the game over, or
    /// steps down, when that changed.
    pub(super) async fn look_at_lease(&mut self) {
        let id = self.rec.meta.id.clone();
        let held = self
            .shared
            .store
            .cluster()
            .lease(&id, &self.shared.cluster.instance)
            .await;
        match held {
            Ok(None) if !self.leader => self.take_over().await,
            Ok(None) => {}
            Ok(Some(other)) => {
                self.owner = Some(other).filter(|o| !o.is_empty());
                if self.leader {
                    self.step_down().await;
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot look at the game's lease"),
        }
    }

    /// This instance now holds the lease: the game as stored is the game (nobody else can
    /// store a change now); its flag and the computer's turn are seen to.
    async fn take_over(&mut self) {
        tracing::info!("taking the game over");
        self.leader = true;
        self.owner = None;
        self.reload(None).await;
        if let Err(e) = self.check_flag().await {
            tracing::error!(error = %e, "cannot store the flag fall");
        }
        self.maybe_start_thinking();
        self.broadcast_game();
    }

    /// Another instance holds the lease now: stop searching and follow it.
    pub(super) async fn step_down(&mut self) {
        tracing::info!("another instance owns the game now");
        self.leader = false;
        self.cancel_thinking();
        self.reload(None).await;
    }

    /// Another instance stored a change (at `version`; 0: maybe).
    pub(super) async fn refresh(&mut self, version: u64) {
        if self.leader {
            // Only the lease's holder stores changes: see whether it is still this instance.
            return self.look_at_lease().await;
        }
        // Always read again: a version is the wall clock's millisecond of a change, and this
        // copy's own version (from its last read) can equal or pass the owner's next change
        // made in the same millisecond, which a comparison would then skip.
        self.reload(Some(version)).await;
    }

    /// Reads the game again from the store and shows it to the sockets, with the chat lines
    /// that came meanwhile. The version becomes `version` when that is later than this copy's.
    pub(super) async fn reload(&mut self, version: Option<u64>) {
        let loaded = self.shared.store.games().load_game(&self.rec.meta.id).await;
        let game = match loaded {
            Ok(Some(g)) => g,
            Ok(None) => {
                self.gone = true;
                return;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the game again");
                return;
            }
        };
        let seen = self.online.as_ref().map_or(0, |o| o.chat_count);
        self.rec = game.rec;
        self.online = game.online;
        match version {
            Some(v) if v > self.version => self.version = v,
            _ => self.bump(),
        }
        self.broadcast_game();
        let new_lines: Vec<_> = self
            .online
            .iter()
            .flat_map(|o| o.chat.iter().filter(move |l| l.n > seen))
            .map(|l| ChatMessage {
                kind: "chat",
                line: ChatLineView::from(l),
            })
            .collect();
        for line in &new_lines {
            self.broadcast_same(line);
        }
    }

    /// Sends what `msg` asks to the owner; its answer comes back as [`Msg::Forwarded`].
    ///
    /// A retry keeps the request's `id`: the owner runs a request once, however often it
    /// arrives, and answers every copy (`crate::runtime::relay`).
    pub(super) fn forward(&mut self, msg: Msg, tries: u32, id: u64) {
        let Some(op) = forward_of(&msg) else { return };
        let op = match serde_json::to_value(&op) {
            Ok(v) => v,
            Err(e) => return fail(msg, AppError::Internal(e.to_string())),
        };
        let (shared, tx) = (self.shared.clone(), self.self_tx.clone());
        let (owner, game) = (self.owner.clone(), self.rec.meta.id.clone());
        tokio::spawn(async move {
            let wait = shared.config.forward_wait;
            let answer = match owner {
                Some(owner) => shared.cluster.request(&owner, &game, op, wait, id).await,
                // Nobody known to own it (the lease was free when this actor looked): no answer
                // to wait for; the look at the lease that follows says who owns it now.
                None => Ok(None),
            };
            let msg = Box::new(msg);
            let _ = tx
                .send(Msg::Forwarded {
                    msg,
                    answer,
                    tries,
                    id,
                })
                .await;
        });
    }

    /// The owner answered `msg` (or did not in time: then this instance may take over).
    pub(super) async fn forwarded(
        &mut self,
        msg: Msg,
        answer: AppResult<Option<Answer>>,
        tries: u32,
        id: u64,
    ) {
        let answer = match answer {
            Err(e) => return fail(msg, e),
            Ok(Some(a)) => a,
            Ok(None) => {
                self.look_at_lease().await;
                if self.leader {
                    // Taken over: the message is this actor's to handle now, in turn.
                    let tx = self.self_tx.clone();
                    tokio::spawn(async move {
                        let _ = tx.send(msg).await;
                    });
                    return;
                }
                if tries + 1 < FORWARD_TRIES {
                    return self.forward(msg, tries + 1, id);
                }
                return fail(msg, AppError::not_owner(&self.rec.meta.id));
            }
        };
        // The copy is read again after every answer: a version says when a copy was made (the
        // wall clock's millisecond, `Actor::bump`), not what it holds, so this copy, loaded in
        // the same millisecond as the owner's change, can carry the answer's version without
        // the change (seen: a seat answered 200 with the seat still free).
        self.reload(Some(answer.version)).await;
        self.reply_from_owner(msg, answer.result);
    }

    fn reply_from_owner(&self, msg: Msg, result: Result<serde_json::Value, WireError>) {
        let error = |w: WireError, who| AppError::from_wire(w, || self.view_for(who));
        match msg {
            Msg::Act { who, reply, .. } | Msg::TakeSeat { who, reply, .. } => {
                let r = match result {
                    Ok(_) => Ok(self.view_for(Some(who))),
                    Err(w) => Err(error(w, Some(who))),
                };
                let _ = reply.send(r);
            }
            Msg::UseLink { who, reply, .. } => {
                let _ = reply.send(result.map_err(|w| error(w, Some(who))).and_then(value));
            }
            Msg::CheckFlag(reply) => {
                let _ = reply.send(result.map_err(|w| error(w, None)).and_then(value));
            }
            _ => {}
        }
    }
}
