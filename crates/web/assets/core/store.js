// @ts-check
// The one place the app's state lives. The game itself comes only from the live channel
// (live.js calls `receive`), which drops any game object older than the one held; the rest is
// what the person chose (the position viewed, hints on or off, ...). Views subscribe and render
// from `get()`; nobody else keeps a copy.

/**
 * @typedef {object} AppState
 * @property {string} route
 * @property {'en' | 'pt'} lang
 * @property {string | null} gameId
 * @property {GameView | null} game
 * @property {ThinkingView | null} thinking
 * @property {'idle' | 'connecting' | 'live' | 'reconnecting'} connection
 * @property {true | number | null} awaiting
 * @property {number | null} viewPly
 * @property {boolean} hintsOn
 * @property {{ key: string, map: Map<string, HintMoveView> } | null} hints
 * @property {boolean} showLegal
 * @property {LevelView[]} levels
 * @property {{ gameId: string, status: 'loading' | 'ready' | 'failed', data?: AnalysisView, error?: unknown, practice?: { color: string, busy: boolean, empty?: boolean } | null } | null} analysis
 * @property {any} study
 * @property {{ text: string, error?: boolean } | null} notice
 * @property {{ seats: SeatsView, spectators: number } | null} presence
 * @property {number} clockAt
 * @property {ChatLineView[]} chat
 */

/** @type {Set<(state: AppState, previous: AppState) => void>} */
const listeners = new Set();

/** @type {AppState} */
let state = {
  route: '/',
  lang: 'en', // the UI language: views redraw their text when it changes
  gameId: null, // the game shown (its stream is open), or null: the empty start page
  game: null, // the latest game object from the stream; null while the first one is awaited
  thinking: null, // the engine's latest progress report while the computer thinks
  connection: 'idle', // 'idle' | 'connecting' | 'live' | 'reconnecting'
  awaiting: null, // a request is out (true), or its answer's version is awaited from the stream
  viewPly: null, // null: the live position; else the number of plies shown (0 = the start)
  hintsOn: false,
  hints: null, // { key, map: square -> { value, exact, best } } for the position of `key`
  showLegal: true,
  levels: [],
  analysis: null, // { gameId, status: 'loading' | 'ready' | 'failed', data, error }
  // A mistake studied in the analysis (view-analysis.js): shown while `viewPly` is its `ply`.
  // { gameId, ply, played, best, coach: squares, setup, line: squares, steps: plies of the
  //   better line (from /api/position) or null, step: 0 = the position before the mistake }
  study: null,
  notice: null, // { text, error }
  // Online games only (mode "online", seats, clocks, chat and presence from the live channel, live.js):
  presence: null, // { seats, spectators } from a `presence` message newer than the game object
  clockAt: 0, // performance.now() when the game object (and its clocks) arrived
  chat: [], // the chat lines of the game shown, by `n` (game.online.chat plus `chat` messages)
};

export function get() {
  return state;
}

/** `fn(state, previous)` after every change; returns the function that unsubscribes. */
/** @param {(state: AppState, previous: AppState) => void} fn */
export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

let notifying = false;
/** @type {Partial<AppState>[]} */
const queued = [];

/**
 * Merges `patch` into the state and tells every subscriber. A change made by a subscriber is
 * applied after all of them have seen the current one, so none ever sees states out of order.
 */
/** @param {Partial<AppState>} patch */
export function update(patch) {
  queued.push(patch);
  if (notifying) return;
  notifying = true;
  try {
    while (queued.length) {
      const previous = state;
      state = { ...state, ...queued.shift() };
      for (const fn of [...listeners]) fn(state, previous);
    }
  } finally {
    notifying = false;
  }
}

/** Resolves with the state once `pred(state)` holds (at once if it already does). */
export function when(pred) {
  return new Promise((resolve) => {
    if (pred(state)) { resolve(state); return; }
    const off = subscribe((s) => {
      if (pred(s)) { off(); resolve(s); }
    });
  });
}

/** Shows game `id` (null: none); its state arrives through `receive`. */
export function showGame(id) {
  update({
    gameId: id, game: null, thinking: null, connection: id ? 'connecting' : 'idle', awaiting: null,
    viewPly: null, hints: null, analysis: null, study: null, presence: null, chat: [], clockAt: 0,
  });
}

/**
 * Takes a game object from the stream (or the current game sent with a stale refusal). Returns
 * false, changing nothing, if it belongs to another game or is not newer than the one held:
 * `version` grows at every change, so an object that arrives late can never undo a newer one.
 */
/** @param {GameView} game */
export function receive(game) {
  if (!game || game.id !== state.gameId) return false;
  const old = state.game;
  if (old && !(game.version > old.version)) return false;
  /** @type {Partial<AppState>} */
  const patch = { game, clockAt: performance.now() };
  if (game.online) {
    patch.presence = null; // the object's own seats are the newest
    patch.chat = mergeChat(state.chat, game.online.chat || []);
    patch.hintsOn = false; // no engine help in a game against a person
  }
  if (!game.computer_thinking) patch.thinking = null;
  if (!old || old.board !== game.board || old.plies.length !== game.plies.length) patch.hints = null;
  if (state.viewPly !== null && state.viewPly > game.plies.length) patch.viewPly = null;
  if (typeof state.awaiting === 'number' && game.version >= state.awaiting) patch.awaiting = null;
  update(patch);
  return true;
}

/** Adds chat lines (each with a number `n`), keeping the last 50 in order, without repeats. */
/** @param {ChatLineView[]} held @param {ChatLineView[]} lines @returns {ChatLineView[]} */
export function mergeChat(held, lines) {
  const fresh = lines.filter((l) => l && Number.isInteger(l.n) && typeof l.text === 'string');
  const byN = new Map(held.map((l) => [l.n, l]));
  if (fresh.every((l) => byN.has(l.n))) return held; // nothing new: views need not redraw
  for (const l of fresh) byN.set(l.n, l);
  return [...byN.values()].sort((a, b) => a.n - b.n).slice(-50);
}

// ---------------------------------------------------------------- derived values

/** @param {GameView} g */
export function isOnline(g) {
  return !!(g && g.mode === 'online' && g.online);
}

/** The seat this browser holds in an online game ('black' | 'white'), or null (a spectator). @param {GameView} g */
export function mySeat(g) {
  return isOnline(g) && (g.online.you === 'black' || g.online.you === 'white') ? g.online.you : null;
}

/** @param {GameView} g */
export function isHumanTurn(g) {
  if (!g || g.status !== 'ongoing' || !g.side_to_move) return false;
  if (g.mode === 'online') return isOnline(g) && g.online.phase === 'playing' && g.side_to_move === mySeat(g);
  if (g.record) return false; // a record is stepped through, not played on
  return g.mode === 'friend' || g.side_to_move === g.human_color;
}

/** The seats as last heard (a presence message is newer than the game object it follows). */
export function seats(s = state) {
  const g = s.game;
  if (!isOnline(g)) return null;
  return (s.presence && s.presence.seats) || g.online.seats;
}

export function spectators(s = state) {
  const g = s.game;
  if (!isOnline(g)) return 0;
  return s.presence && Number.isInteger(s.presence.spectators) ? s.presence.spectators : g.online.spectators || 0;
}

/** Whether a person may play a move now on the board as shown. */
export function canPlay(s = state) {
  const g = s.game;
  return !!g && s.viewPly === null && s.connection === 'live' && s.awaiting === null &&
    isHumanTurn(g) && !g.computer_thinking;
}

/** Plies of the position shown. */
export function shownPly(s = state) {
  if (!s.game) return 0;
  return s.viewPly === null ? s.game.plies.length : s.viewPly;
}

/** Identifies a position for hints: a new move or an undo changes it. */
export function hintKey(s = state) {
  const g = s.game;
  return g ? `${g.id}:${g.plies.length}:${g.board}` : '';
}
