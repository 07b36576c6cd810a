// @ts-check
// The badge in the top bar, on every page: while a game of mine is live (an online game being
// played, clock running) or it is my move in a correspondence game, it says so and opens the
// game. Kept current by `GET /api/watch/mine` every 20 s while the tab is shown (the game itself is
// never polled: only its socket brings it), at once after a page change, when the
// shown game starts or ends, and when the live channel says it is my move elsewhere
// (`your_move`). The game on screen is not named again while the play page shows it.

import './badge-text.js';
import { apiRequest } from '../core/api.js';
import * as store from '../core/store.js';
import { t } from '../core/i18n.js';
import { onOtherGame } from '../core/live.js';

/** How often the badge asks (the server counts a browser online for 60 s after each ask). */
const POLL_MS = 20000;
const $ = (id) => document.getElementById(id);
/** @type {MyLiveGame[]} */
let games = [];
let asking = null;

async function refresh() {
  if (asking) return asking;
  asking = apiRequest('GET', '/api/watch/mine')
    .then((v) => { games = Array.isArray(v && v.games) ? v.games : []; })
    .catch(() => { /* offline for now: the next poll tries again */ })
    .finally(() => { asking = null; draw(); });
  return asking;
}

function draw() {
  const badge = $('live-badge');
  if (!badge) return;
  const s = store.get();
  const shown = s.route === '/' ? s.gameId : null;
  const list = games.filter((g) => g.id !== shown);
  badge.hidden = list.length === 0;
  if (!list.length) { delete badge.dataset.game; return; }
  const live = list.filter((g) => g.kind === 'live');
  const key = live.length ? (live.some((g) => g.your_move) ? 'badge.liveYourMove' : 'badge.live') : 'badge.yourMove';
  const n = live.length || list.length;
  const first = [...live.filter((g) => g.your_move), ...live, ...list][0];
  const text = t(key, { n });
  $('live-badge-text').textContent = text;
  $('live-badge-short').textContent = String(n);
  badge.setAttribute('aria-label', text);
  badge.title = t('badge.title', { opponent: first.opponent || '?' });
  badge.dataset.game = first.id;
  badge.dataset.kind = live.length ? 'live' : 'correspondence';
  badge.setAttribute('href', '/?game=' + encodeURIComponent(first.id));
}

/** @param {{ openGame: (id: string) => void }} hooks */
export function mountBadge(hooks) {
  const badge = $('live-badge');
  badge.addEventListener('click', (ev) => {
    const id = badge.dataset.game;
    if (!id || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    ev.preventDefault();
    hooks.openGame(id);
  });
  store.subscribe((s, prev) => {
    const phase = (g) => (g && g.online ? g.online.phase : null);
    if (s.route !== prev.route || phase(s.game) !== phase(prev.game)) refresh();
    else if (s.gameId !== prev.gameId || s.lang !== prev.lang) draw();
  });
  onOtherGame(() => refresh());
  // A hidden tab does not ask (nor count as online); it asks again as soon as it is shown.
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, POLL_MS);
}
