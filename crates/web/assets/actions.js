// @ts-check
// What the person does to a game: open one, play a move, undo, redo, look at an earlier position.
// Moves and the rest go over the game's live channel (live.js), whatever the mode; the change
// itself arrives on it too. Input waits until the channel has shown a newer version (or an
// error), so a second click never answers a position the person has not seen.

import { api } from './api.js';
import * as store from './store.js';
import * as live from './live.js';
import { START_LEGAL } from './board.js';
import { t, safeGet, safeSet } from './i18n.js';
import { setNotice, clearNotice, showError } from './notice.js';

/** Shows game `id` (null: the empty start page) and follows its live channel. */
export function showGame(id) {
  store.showGame(id);
  live.follow(id, { gone });
  if (id) safeSet('virada.lastGame', id);
}

/** The game was deleted (elsewhere, or before this page opened it). */
function gone(id) {
  const shown = !!store.get().game;
  safeSet('virada.lastGame', null);
  if (store.get().gameId === id) store.showGame(null);
  if (shown) setNotice(t('error.not_found'), true);
}

/** Game `id` was deleted from this page: it is no longer shown nor reopened. */
export function forget(id) {
  if (safeGet('virada.lastGame') === id) safeSet('virada.lastGame', null);
  if (store.get().gameId === id) showGame(null);
}

/** Creates a game with `options` (as POST /api/games takes them) and shows it. */
export async function createGame(options) {
  const game = await api.createGame(options);
  showGame(game.id);
  return game.id;
}

/**
 * Plays `square`. On the empty start page, the first click starts a game with `newOptions()`
 * and plays it once the game has arrived.
 */
export async function play(square, newOptions) {
  let s = store.get();
  if (!s.gameId) {
    if (!START_LEGAL.includes(square) || s.awaiting !== null) return;
    store.update({ awaiting: true });
    let id;
    try {
      id = await createGame(newOptions());
    } catch (e) {
      store.update({ awaiting: null });
      showError(e);
      return;
    }
    s = await store.when((x) => x.gameId !== id || !!x.game);
    if (s.gameId !== id) return;
  }
  if (!store.canPlay(s)) return;
  if (!s.game.legal_moves.includes(square)) {
    setNotice(t('error.illegal_move') + ' (' + square + ')', true);
    return;
  }
  clearNotice();
  live.send({ type: 'move', square, ply: s.game.plies.length }, { lock: true });
}

/** `which`: 'undo' or 'redo' (local games). */
export function undoRedo(which) {
  const s = store.get();
  if (!s.game || s.awaiting !== null || s.connection !== 'live') return;
  clearNotice();
  store.update({ viewPly: null });
  live.send({ type: which, ply: s.game.plies.length }, { lock: true });
}

/** Shows the position after `p` plies (null or the last ply: the live position). */
export function viewPly(p) {
  const g = store.get().game;
  if (!g) return;
  store.update({ viewPly: p === null || p >= g.plies.length ? null : Math.max(0, p) });
}

/** Resigns the game shown (every mode: against the computer the person resigns, between
 * friends on one device the side to move, online the seat held). */
export function resign() {
  const g = store.get().game;
  if (!g || g.status !== 'ongoing') return false;
  clearNotice();
  return live.send({ type: 'resign', ply: g.plies.length }, { lock: true });
}

// ---------------------------------------------------------------- online games

/** Sends an online game message that answers the position shown (resign, abort, takeback). */
export function onlineAct(type, extra = {}) {
  const g = store.get().game;
  if (!store.isOnline(g)) return false;
  clearNotice();
  return live.send({ type, ply: g.plies.length, ...extra }, { lock: true });
}

/** Rematch offers and answers carry no ply (the game is over). */
export function onlineSend(msg) {
  if (!store.isOnline(store.get().game)) return false;
  clearNotice();
  return live.send(msg);
}

/**
 * Takes the free seat of the game shown under `name`. Resolves with 'seated', 'taken' (both
 * seats were taken meanwhile: the page goes on as a spectator) or 'failed' (the error is shown).
 */
export async function takeSeat(name) {
  const g = store.get().game;
  if (!store.isOnline(g)) return 'failed';
  try {
    const game = await api.takeSeat(g.id, name);
    store.receive(game);
    live.resync(); // a socket opened as a spectator's is reopened as the seat holder's
    return 'seated';
  } catch (e) {
    if (e.code === 'seat_taken') {
      setNotice(t('online.seatTaken'));
      live.resync();
      return 'taken';
    }
    showError(e);
    return 'failed';
  }
}

/** A private link for the seat holder's other device (absolute URL), or null (error shown). */
export async function deviceLink() {
  const g = store.get().game;
  if (!store.isOnline(g)) return null;
  try {
    const res = await api.deviceLink(g.id);
    return new URL(res.url, location.origin).href;
  } catch (e) {
    showError(e);
    return null;
  }
}
