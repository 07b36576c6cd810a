// Thin client for the Virada HTTP API (see notes/API.md). Every call returns parsed JSON or
// throws an ApiError carrying the server's error code and message.

export class ApiError extends Error {
  constructor(status, code, message, square) {
    super(message);
    this.status = status;
    this.code = code;
    this.square = square || null;
  }
}

async function request(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, 'network', String(e && e.message ? e.message : e));
  }
  if (res.status === 204) return null;
  const type = res.headers.get('Content-Type') || '';
  const payload = type.includes('json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const err = payload && payload.error ? payload.error : {};
    throw new ApiError(res.status, err.code || 'internal', err.message || `HTTP ${res.status}`, err.square);
  }
  return payload;
}

const enc = encodeURIComponent;

export const api = {
  levels: () => request('GET', '/api/levels'),
  createGame: (options) => request('POST', '/api/games', options),
  listGames: (status) => request('GET', '/api/games' + (status ? `?status=${enc(status)}` : '')),
  getGame: (id) => request('GET', `/api/games/${enc(id)}`),
  deleteGame: (id) => request('DELETE', `/api/games/${enc(id)}`),
  play: (id, square) => request('POST', `/api/games/${enc(id)}/moves`, { square }),
  undo: (id) => request('POST', `/api/games/${enc(id)}/undo`),
  redo: (id) => request('POST', `/api/games/${enc(id)}/redo`),
  hint: (id) => request('GET', `/api/games/${enc(id)}/hint`),
  analysis: (id) => request('GET', `/api/games/${enc(id)}/analysis`),
  exportUrl: (id, format) => `/api/games/${enc(id)}/export?format=${enc(format)}`,
  exportText: (id, format) => request('GET', `/api/games/${enc(id)}/export?format=${enc(format)}`),
};

/**
 * Follows a game's server-sent events. `onGame(game)` gets every new state, `onThinking(info)` the
 * engine's progress. Returns a function that closes the stream.
 */
export function subscribe(id, { onGame, onThinking }) {
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource(`/api/games/${enc(id)}/events`);
  source.addEventListener('game', (ev) => {
    try { onGame(JSON.parse(ev.data)); } catch { /* ignore a malformed event */ }
  });
  source.addEventListener('thinking', (ev) => {
    try { onThinking(JSON.parse(ev.data)); } catch { /* ignore */ }
  });
  return () => source.close();
}
