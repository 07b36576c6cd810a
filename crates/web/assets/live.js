// @ts-check
// The live channel of every game (computer, friend, online): one WebSocket
// (`/api/games/{id}/ws`, docs/API.md) that carries the game both ways. The server sends the
// whole game first and after every change (its `version` grows; the store drops older ones),
// the computer's search progress, chat lines and presence; the page sends moves, undo/redo,
// resignation, offers and chat, each with the ply it answers. After a drop the socket is
// reopened with `hello` and the version held, and the server answers with the game as it is
// now, so missed moves simply arrive. While it is down the store says 'reconnecting'; there
// is no polling.

import { api, ApiError } from './api.js';
import * as store from './store.js';
import { t } from './i18n.js';
import { setNotice, showError } from './notice.js';

const RETRY_MS = [300, 1000, 2000, 4000, 8000]; // the last one repeats
// A message whose answer (a newer game or an error) has not come after this long: the socket is
// assumed dead (a network that drops packets without closing) and reopened.
const ANSWER_MS = 6000;

let socket = null;
let gameId = null;
let failures = 0;
let retryTimer = 0;
let answerTimer = 0;
let nextRef = 1;
let pending = null; // { ref, version }: a message that locks input until it is answered
/** @type {(id: string) => void} */
let onGone = () => {};
const otherGame = []; // listeners of "your move" in another game (mygames.js)

/** `fn(msg)` hears `{type: 'your_move', game, opponent, ply}`: a move in another of my games. */
export function onOtherGame(fn) {
  otherGame.push(fn);
}

/**
 * Follows game `id` over its WebSocket (null: stops); `gone(id)` if it was deleted.
 * @param {string | null} id
 * @param {{ gone?: (id: string) => void }} [options]
 */
export function follow(id, { gone } = {}) {
  stop();
  gameId = id;
  if (gone) onGone = gone;
  failures = 0;
  if (id) connect();
}

/** Reopens the socket (its first message is the current game). */
export function resync() {
  if (gameId) connect();
}

/**
 * Sends `msg` (an object with `type`) on the open socket. `lock`: input waits for the answer
 * (moves, resignation, takebacks). Returns false, sending nothing, if the socket is not open.
 */
export function send(msg, { lock = false } = {}) {
  if (!socket || socket.readyState !== WebSocket.OPEN || store.get().connection !== 'live') {
    setNotice(t('live.reconnecting'), true);
    return false;
  }
  const ref = nextRef++;
  socket.send(JSON.stringify({ ...msg, id: ref }));
  if (lock) {
    const held = store.get().game;
    pending = { ref, version: held ? held.version : -1 };
    store.update({ awaiting: true });
    clearTimeout(answerTimer);
    answerTimer = setTimeout(() => {
      if (pending && pending.ref === ref) { pending = null; store.update({ awaiting: null }); resync(); }
    }, ANSWER_MS);
  }
  return true;
}

function stop() {
  clearTimeout(retryTimer);
  clearTimeout(answerTimer);
  retryTimer = 0;
  pending = null;
  if (socket) {
    const s = socket;
    socket = null;
    s.onopen = s.onmessage = s.onclose = s.onerror = null;
    try { s.close(1000); } catch { /* already closed */ }
  }
}

function socketUrl(id) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/games/${encodeURIComponent(id)}/ws`;
}

function connect() {
  stop();
  const id = gameId;
  let opened = false;
  let ws;
  try {
    ws = new WebSocket(socketUrl(id));
  } catch {
    retryLater();
    return;
  }
  socket = ws;
  // Until this socket's first game arrives, input waits (a reopened socket is not open yet).
  if (store.get().connection === 'live') store.update({ connection: 'connecting' });
  ws.onopen = () => {
    opened = true;
    const held = store.get().game;
    const version = held && held.id === id ? held.version : 0;
    ws.send(JSON.stringify({ type: 'hello', version }));
  };
  ws.onmessage = (ev) => {
    if (socket !== ws || typeof ev.data !== 'string') return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (!msg || typeof msg.type !== 'string') return;
    handle(msg);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    pending = null;
    clearTimeout(answerTimer);
    store.update({ connection: 'reconnecting', awaiting: null, thinking: null });
    // A socket that never opened may be a game that is gone (the upgrade was refused): one
    // plain request says; a dropped one is simply reopened.
    if (!opened) checkGame(id); else retryLater();
  };
}

function handle(msg) {
  switch (msg.type) {
    case 'game': {
      const g = msg.game;
      if (!g || g.id !== gameId) return;
      failures = 0;
      if (store.get().connection !== 'live') store.update({ connection: 'live' });
      store.receive(g);
      if (pending && g.version > pending.version) answered();
      break;
    }
    case 'thinking':
      if (msg.thinking && store.get().game && store.get().game.computer_thinking) store.update({ thinking: msg.thinking });
      break;
    case 'chat':
      if (msg.line) store.update({ chat: store.mergeChat(store.get().chat, [msg.line]) });
      break;
    case 'presence':
      store.update({ presence: { seats: msg.seats, spectators: msg.spectators } });
      break;
    case 'your_move':
      if (typeof msg.game === 'string' && msg.game !== gameId) for (const fn of otherGame) fn(msg);
      break;
    case 'error': {
      if (pending && (msg.ref === pending.ref || msg.ref === undefined || msg.ref === null)) answered();
      // A stale move is followed by the current game: nothing alarming. An error without a
      // reference is the server's own (the engine, the store).
      if (msg.code === 'stale') setNotice(t('notice.stale'));
      else showError(new ApiError(0, msg.code || 'internal', msg.message || '', { params: msg.params }));
      break;
    }
    default:
      break; // a newer server's message this page does not know
  }
}

function answered() {
  pending = null;
  clearTimeout(answerTimer);
  store.update({ awaiting: null });
}

function retryLater() {
  const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
  failures++;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => { if (gameId && !socket) connect(); }, delay);
}

async function checkGame(id) {
  try {
    await api.getGame(id);
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

// Back online or back to the tab (a phone that switched apps): do not wait for the next retry.
function resumeNow() {
  if (gameId && !socket && document.visibilityState !== 'hidden') {
    failures = 0;
    clearTimeout(retryTimer);
    connect();
  }
}
window.addEventListener('online', resumeNow);
window.addEventListener('pageshow', (ev) => { if (ev.persisted) resync(); });
document.addEventListener('visibilitychange', resumeNow);

// ---------------------------------------------------------------- the lobby's subscription
// The lobby page follows `/api/lobby/ws` (docs/API.md, "Lobby"): the open seeks (first whole,
// then each change) and this browser's pairing results; it sends pool joins and leaves. The
// same reconnection as a game's socket; after a drop the server sends the whole list again.
// While it is open the server keeps this browser's seeks and pool place.

let lobbySocket = null;
let lobbyHandlers = null;
let lobbyFailures = 0;
let lobbyTimer = 0;

/**
 * Follows the lobby: `onMessage(msg)` for each message, `onState('live'|'reconnecting')`.
 * @param {(msg: any) => void} onMessage
 * @param {(state: 'live' | 'reconnecting') => void} [onState]
 */
export function followLobby(onMessage, onState = () => {}) {
  stopLobby();
  lobbyHandlers = { onMessage, onState };
  lobbyFailures = 0;
  connectLobby();
}

/** Stops following the lobby (leaving the page: the server drops its seeks after the grace). */
export function stopLobby() {
  clearTimeout(lobbyTimer);
  lobbyHandlers = null;
  if (lobbySocket) {
    const s = lobbySocket;
    lobbySocket = null;
    s.onopen = s.onmessage = s.onclose = s.onerror = null;
    try { s.close(1000); } catch { /* already closed */ }
  }
}

/** Sends `msg` on the lobby socket; false if it is not open. */
export function sendLobby(msg) {
  if (!lobbySocket || lobbySocket.readyState !== WebSocket.OPEN) return false;
  lobbySocket.send(JSON.stringify(msg));
  return true;
}

function connectLobby() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  let ws;
  try {
    ws = new WebSocket(`${scheme}//${location.host}/api/lobby/ws`);
  } catch {
    retryLobby();
    return;
  }
  lobbySocket = ws;
  ws.onmessage = (ev) => {
    if (lobbySocket !== ws || !lobbyHandlers || typeof ev.data !== 'string') return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (!msg || typeof msg.type !== 'string') return;
    if (msg.type === 'seeks') { lobbyFailures = 0; lobbyHandlers.onState('live'); }
    lobbyHandlers.onMessage(msg);
  };
  ws.onclose = () => {
    if (lobbySocket !== ws) return;
    lobbySocket = null;
    if (lobbyHandlers) { lobbyHandlers.onState('reconnecting'); retryLobby(); }
  };
}

function retryLobby() {
  const delay = RETRY_MS[Math.min(lobbyFailures, RETRY_MS.length - 1)];
  lobbyFailures++;
  clearTimeout(lobbyTimer);
  lobbyTimer = setTimeout(() => { if (lobbyHandlers && !lobbySocket) connectLobby(); }, delay);
}
