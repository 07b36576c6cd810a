// @ts-check
// The watch page (`/watch`): the public games being played now (each opens the game to
// spectate, as its link does), the leaderboard of each rating category and the players online.
// While shown it reads the lists again every 10 s (the server caches them: 5 s the games, 30 s a
// leaderboard).

import './watch-text.js';
import '../account/account-text.js';
import { apiRequest } from '../core/api.js';
import * as store from '../core/store.js';
import { t } from '../core/i18n.js';
import { errorText } from '../core/notice.js';
import { el, button } from '../core/dom.js';

const CATEGORIES = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];
const REFRESH_MS = 10000;
let category = 'blitz';
let timer = 0;
let generation = 0;
let following = false;

/** @param {TimeControl} tc */
function clockText(tc) {
  if (tc.kind === 'clock') return `${tc.minutes}+${tc.increment_seconds}`;
  if (tc.kind === 'correspondence') return t('watch.days', { n: tc.days });
  return t('watch.untimed');
}

/** A player's name, linked to the profile when an account holds the seat. @param {Partial<SeatLineView>} seat */
function who(seat) {
  if (seat && seat.account) {
    const a = /** @type {HTMLAnchorElement} */ (el('a', 'player-link', seat.account));
    a.href = '/@/' + encodeURIComponent(seat.account);
    a.dataset.route = '/@/' + encodeURIComponent(seat.account);
    return a;
  }
  return el('span', 'muted', (seat && seat.name) || t('watch.guest'));
}

/** @param {LiveGameLine} g @param {(id: string) => void} openGame */
function liveRow(g, openGame) {
  const li = el('li', 'live-game');
  li.dataset.game = g.id;
  const players = el('span', 'grow');
  players.append('● ', who(g.black), ' – ', who(g.white), ' ○');
  const facts = [clockText(g.time_control)];
  if (g.category) facts.push(t('rating.' + g.category));
  facts.push(t(g.rated ? 'watch.rated' : 'watch.casual'));
  facts.push(t('watch.plies', { n: g.ply_count }));
  li.append(players, el('span', 'muted', facts.join(' · ')), el('span', '', `${g.black_discs} – ${g.white_discs}`),
    button('btn small primary', t('watch.open'), '', () => openGame(g.id)));
  return li;
}

async function drawLive(box, openGame, gen) {
  const ul = box.querySelector('ul');
  try {
    /** @type {{ games: LiveGameLine[] }} */
    const v = await apiRequest('GET', '/api/watch/games');
    if (gen !== generation) return;
    ul.textContent = '';
    if (!v.games.length) ul.append(el('li', 'muted', t('watch.noLive')));
    for (const g of v.games) ul.append(liveRow(g, openGame));
  } catch (e) {
    if (gen === generation) { ul.textContent = ''; ul.append(el('li', 'form-error', errorText(e))); }
  }
}

async function drawLeaders(box, gen) {
  for (const b of box.querySelectorAll('.watch-tabs button')) {
    b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.category === category));
  }
  const ol = box.querySelector('ol');
  try {
    /** @type {{ category: string, players: LeaderLine[] }} */
    const v = await apiRequest('GET', '/api/watch/leaders/' + category);
    if (gen !== generation) return;
    ol.textContent = '';
    if (!v.players.length) ol.append(el('li', 'muted', t('watch.noLeaders')));
    for (const p of v.players) {
      const li = el('li', 'leader');
      li.dataset.name = p.username;
      li.append(el('span', 'leader-rank', String(p.rank)), who({ account: p.username }),
        el('span', 'grow'), el('span', 'leader-rating', String(Math.round(p.rating))),
        el('span', 'muted', t('watch.games', { n: p.games })));
      ol.append(li);
    }
  } catch (e) {
    if (gen === generation) { ol.textContent = ''; ol.append(el('li', 'form-error', errorText(e))); }
  }
}

async function drawOnline(box, gen) {
  try {
    /** @type {OnlineNow} */
    const v = await apiRequest('GET', '/api/watch/online');
    if (gen !== generation) return;
    box.querySelector('.online-count').textContent = t('watch.onlineCount', { n: v.count });
    const ul = box.querySelector('ul');
    ul.textContent = '';
    for (const name of v.players) {
      const li = el('li');
      li.append(who({ account: name }));
      ul.append(li);
    }
  } catch (e) {
    if (gen === generation) box.querySelector('.online-count').textContent = errorText(e);
  }
}

function stop() {
  generation += 1;
  clearInterval(timer);
  timer = 0;
}

/**
 * Draws the watch page into `root`.
 * @param {HTMLElement} root
 * @param {{ openGame: (id: string) => void }} hooks
 */
export function renderWatch(root, { openGame }) {
  stop();
  if (!following) {
    following = true;
    store.subscribe((s, prev) => { if (s.route !== prev.route && s.route !== '/watch') stop(); });
  }
  const gen = generation;
  root.textContent = '';
  const h1 = el('h1', '', t('watch.title'));
  h1.id = 'watch-title';
  const live = el('section', 'watch-live');
  live.append(el('h2', '', t('watch.live')), el('ul', 'watch-list live-games'));
  const leaders = el('section', 'watch-leaders');
  const tabs = el('div', 'watch-tabs');
  tabs.setAttribute('role', 'group');
  tabs.setAttribute('aria-label', t('watch.leaders'));
  for (const c of CATEGORIES) {
    const b = button('btn small', t('rating.' + c), '', () => { category = c; drawLeaders(leaders, generation); });
    b.dataset.category = c;
    tabs.append(b);
  }
  leaders.append(el('h2', '', t('watch.leaders')), tabs, el('ol', 'watch-list leaders'));
  const online = el('section', 'watch-online');
  online.append(el('h2', '', t('watch.online')), el('p', 'online-count'), el('p', 'help', t('watch.onlineHelp')), el('ul', 'watch-list online-players'));
  const grid = el('div', 'watch-grid');
  grid.append(live, leaders, online);
  root.append(h1, grid);
  const all = () => {
    drawLive(live, openGame, gen);
    drawLeaders(leaders, gen);
    drawOnline(online, gen);
  };
  all();
  timer = window.setInterval(() => { if (gen === generation) all(); }, REFRESH_MS);
  document.title = t('watch.title') + ' · Virada';
}
