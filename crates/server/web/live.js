// The live connection: one EventSource on the shown game's event stream, the only source of its
// state. The server sends the whole current game when a stream opens, so resuming after a drop
// (network, sleep, server restart) is just opening a new stream: whatever changed meanwhile
// arrives at once. While disconnected the store says 'reconnecting' (the page shows it); there
// is no polling. Online games (mode "online") are followed over their WebSocket instead
// (online.js): known as such when opened, or switched to when the first state says so.

import { api, ApiError } from './api.js';
import * as store from './store.js';
import * as online from './online.js';
import { showError } from './notice.js';

const RETRY_MS = [500, 1000, 2000, 4000, 8000]; // the last one repeats

let source = null;
let gameId = null;
let failures = 0;
let retryTimer = 0;
let onGone = () => {};

/**
 * Follows game `id` (null: stops following); `gone(id)` is called if the game was deleted.
 * `mode` "online" (when known) goes straight to the game's WebSocket.
 */
export function follow(id, { gone, mode } = {}) {
  stop();
  online.follow(null);
  gameId = id;
  if (gone) onGone = gone;
  failures = 0;
  if (id && mode === 'online') goOnline(id);
  else if (id && mode) connect();
  else if (id) probe(id);
}

/**
 * A game opened by its id alone (a link, a reload): one request says whether it is an online
 * game (its WebSocket) or a local one (the event stream, which refuses online games).
 */
async function probe(id) {
  let game = null;
  try {
    game = await api.getGame(id);
  } catch (e) {
    if (gameId !== id) return;
    if (e instanceof ApiError && e.code === 'not_found') {
      follow(null);
      onGone(id);
      return;
    }
  }
  if (gameId !== id) return;
  if (game && game.mode === 'online') {
    store.receive(game);
    goOnline(id);
  } else {
    connect();
  }
}

/** Reopens the stream of the followed game (its first event is the current state). */
export function resync() {
  if (online.following()) online.resync();
  else if (gameId) connect();
}

function goOnline(id) {
  stop();
  gameId = null;
  online.follow(id, { gone: onGone });
}

function stop() {
  clearTimeout(retryTimer);
  retryTimer = 0;
  if (source) source.close();
  source = null;
}

function connect() {
  stop();
  const id = gameId;
  const es = new EventSource(api.eventsUrl(id));
  source = es;
  es.addEventListener('game', (ev) => {
    const game = parse(ev.data);
    if (!game || source !== es) return;
    failures = 0;
    if (game.mode === 'online' && game.id === gameId) {
      // An online game lives on its WebSocket (moves, chat, clocks, presence).
      store.receive(game);
      goOnline(game.id);
      return;
    }
    // The first game of a stream is the current state: from here on the page is up to date.
    if (store.get().connection !== 'live') store.update({ connection: 'live' });
    store.receive(game);
  });
  es.addEventListener('thinking', (ev) => {
    const info = parse(ev.data);
    if (info && source === es && store.get().game && store.get().game.computer_thinking) store.update({ thinking: info });
  });
  es.addEventListener('error', (ev) => {
    if (source !== es) return;
    if (typeof ev.data === 'string') {
      // An `error` event sent by the server: background engine or database failure.
      const body = parse(ev.data);
      const err = body && body.error ? body.error : {};
      showError(new ApiError(500, err.code || 'internal', err.message || ''));
      return;
    }
    // The connection failed or dropped. A stream the server refused (CLOSED: an HTTP error such
    // as 404) is worth one plain request to learn why; a dropped one is simply reopened.
    const refused = es.readyState === EventSource.CLOSED;
    stop();
    store.update({ connection: 'reconnecting', thinking: null });
    if (refused) checkGame(id); else retryLater();
  });
}

function retryLater() {
  const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
  failures++;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => { if (gameId) connect(); }, delay);
}

/** After a refused stream: a game that no longer exists is closed, anything else is retried. */
async function checkGame(id) {
  try {
    const game = await api.getGame(id);
    if (gameId === id && game && game.mode === 'online') {
      store.receive(game);
      goOnline(id);
      return;
    }
  } catch (e) {
    if (gameId !== id) return;
    if (e instanceof ApiError && e.code === 'not_found') {
      follow(null);
      onGone(id);
      return;
    }
  }
  if (gameId === id) retryLater();
}

// Back online or back to the tab: do not wait for the next retry.
function resumeNow() {
  if (gameId && !source && document.visibilityState !== 'hidden') {
    failures = 0;
    connect();
  }
}
window.addEventListener('online', resumeNow);
// A page restored from the back-forward cache had its stream closed meanwhile.
window.addEventListener('pageshow', (ev) => { if (ev.persisted) resync(); });
document.addEventListener('visibilitychange', resumeNow);

function parse(text) {
  try { return JSON.parse(text); } catch { return null; }
}
