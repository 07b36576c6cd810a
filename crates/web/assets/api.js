// @ts-check
// Thin client for the Virada HTTP API (docs/API.md). Every call returns parsed JSON or throws an
// ApiError carrying the server's error code and message. Game state never comes from here: the
// live channel (live.js) is its only source; answers to state-changing requests are used for
// their errors (and a stale request's current game, which goes through the store's version check).

export class ApiError extends Error {
  constructor(status, code, message, { square = null, game = null, params = null } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.square = square;
    /** Named values of the error (a set-up error's format and column...), for phrasing it. */
    this.params = params && typeof params === 'object' ? params : {};
    /** The current game, sent with a `stale` refusal (the request answered an older position). */
    this.game = game;
  }
}

/**
 * `body`: an object sent as JSON, or `{ bytes }` sent as they are (a WTHOR file).
 * @param {'GET' | 'POST' | 'PUT' | 'DELETE'} method
 * @param {string} path
 * @param {any} [body]
 * @returns {Promise<any>} the parsed JSON (its shape: the route's; see types/api.d.ts)
 */
async function request(method, path, body) {
  let res;
  const raw = body && body.bytes instanceof ArrayBuffer;
  try {
    res = await fetch(path, {
      method,
      // The server refuses state-changing requests that are not JSON (files: octet-stream).
      headers: method === 'GET' ? {} : { 'Content-Type': raw ? 'application/octet-stream' : 'application/json' },
      // A DELETE carries a body only when given one (deleting an account takes the password).
      body: method === 'GET' || (method === 'DELETE' && !body) ? undefined : raw ? body.bytes : JSON.stringify(body || {}),
    });
  } catch (e) {
    throw new ApiError(0, 'network', String(e && e.message ? e.message : e));
  }
  if (res.status === 204) return null;
  const type = res.headers.get('Content-Type') || '';
  const payload = type.includes('json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const err = payload && payload.error ? payload.error : {};
    const game = payload && payload.game && typeof payload.game === 'object' ? payload.game : null;
    throw new ApiError(res.status, err.code || 'internal', err.message || `HTTP ${res.status}`, { square: err.square, game, params: err.params });
  }
  return payload;
}

const enc = encodeURIComponent;
const gamePath = (id) => `/api/games/${enc(id)}`;

export const api = {
  /** @returns {Promise<LevelView[]>} */
  levels: () => request('GET', '/api/levels'),
  /** @returns {Promise<GameView>} */
  createGame: (options) => request('POST', '/api/games', options),
  /** A game of this browser (with a friend) from a transcript or a GGF record. */
  importGame: (text) => request('POST', '/api/import', { text }),
  /** The games of a WTHOR file (its bytes, an ArrayBuffer), read by the server; nothing stored. */
  wthorGames: (bytes) => request('POST', '/api/wthor', { bytes }),
  /** @returns {Promise<{ games: GameSummary[] }>} */
  listGames: (status) => request('GET', '/api/games' + (status ? `?status=${enc(status)}` : '')),
  /** @returns {Promise<GameView>} */
  getGame: (id) => request('GET', gamePath(id)),
  deleteGame: (id) => request('DELETE', gamePath(id)),
  /** @returns {Promise<HintView>} */
  hint: (id) => request('GET', `${gamePath(id)}/hint`),
  /** @returns {Promise<AnalysisView>} */
  analysis: (id) => request('GET', `${gamePath(id)}/analysis`),
  /** The rules on a position that is no game: `moves` played from set-up text `setup`. */
  position: (setup, moves = []) => request('POST', '/api/position', { setup, moves }),
  /** Online games: take the free seat; a private link for another device; redeem one. */
  takeSeat: (id, name) => request('POST', `${gamePath(id)}/seat`, { name }),
  deviceLink: (id) => request('POST', `${gamePath(id)}/device-link`, {}),
  join: (token) => request('POST', '/api/join', { token }),
  exportUrl: (id, format) => `${gamePath(id)}/export?format=${enc(format)}`,
  /** Puzzles (docs/API.md, "Puzzles"): the next one (of a theme), the daily one, one by id. */
  nextPuzzle: (theme, after) => request('GET', '/api/puzzles/next?' + new URLSearchParams({ ...(theme ? { theme } : {}), ...(after ? { after } : {}) })),
  dailyPuzzle: () => request('GET', '/api/puzzles/daily'),
  puzzle: (id) => request('GET', `/api/puzzles/${enc(id)}`),
  /** This browser's puzzle rating and the themes with their counts. */
  puzzleMe: () => request('GET', '/api/puzzles/me'),
  /** The solver's moves from the start: right so far (the replies), solved, or wrong (the refutation). */
  puzzleAttempt: (id, moves) => request('POST', `/api/puzzles/${enc(id)}/attempt`, { moves }),
  puzzleHint: (id, moves, level) => request('POST', `/api/puzzles/${enc(id)}/hint`, { moves, level }),
  /** Accounts (docs/API.md, "Accounts"): who is signed in ({ username } or null's). */
  session: () => request('GET', '/api/session'),
  signUp: (username, password) => request('POST', '/api/accounts', { username, password }),
  signIn: (username, password) => request('POST', '/api/session', { username, password }),
  signOut: () => request('DELETE', '/api/session'),
  /** The lobby (docs/API.md, "Lobby"): post, accept and cancel a challenge; the bots' levels. */
  makeSeek: (body) => request('POST', '/api/seeks', body),
  acceptSeek: (id, body = {}) => request('POST', `/api/seeks/${enc(id)}/accept`, body),
  cancelSeek: (id) => request('DELETE', `/api/seeks/${enc(id)}`),
  bots: () => request('GET', '/api/bots'),
  changePassword: (oldPassword, newPassword) => request('POST', '/api/account/password', { old_password: oldPassword, new_password: newPassword }),
  recover: (username, code, newPassword) => request('POST', '/api/account/recover', { username, recovery_code: code, new_password: newPassword }),
  deleteAccount: (password) => request('DELETE', '/api/account', { password }),
  player: (name) => request('GET', `/api/players/${enc(name)}`),
  /** Profiles (docs/API.md, "Profiles"): a player's archive page; my games; all mine as GGF. */
  playerGames: (name, query) => request('GET', `/api/players/${enc(name)}/games?` + new URLSearchParams(query)),
  myGames: () => request('GET', '/api/account/games'),
  myGamesGgfUrl: () => '/api/account/games.ggf',
};

/** Any API request (method, path, JSON body): for modules with routes of their own. */
export { request as apiRequest };
