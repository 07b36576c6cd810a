// @ts-check
// A player's profile at /@/<name> (docs/API.md, "Profiles"): ratings per category with a chart
// of their history (an SVG drawn here), the record, the games being played (open to watch),
// the recent games (open to replay and analyse) and the archive with its filters, a page at a
// time. On one's own profile, the download of all one's games as GGF. An unknown name says so.

import './profile-text.js';
import { api } from '../core/api.js';
import { t, lang, formatNumber, signedRating } from '../core/i18n.js';
import { errorText } from '../core/notice.js';
import { timeControlText } from '../play/view-online.js';
import { currentUser } from './account.js';
import { playerSafetyButtons } from './safety.js';

const SVG = 'http://www.w3.org/2000/svg';

/** The signed-in username (asked of the server if the header has not learnt it yet), or null. */
export async function signedInAs() {
  if (currentUser()) return currentUser();
  try {
    const s = await api.session();
    return s && typeof s.username === 'string' ? s.username : null;
  } catch {
    return null;
  }
}
const CATEGORY_ORDER = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function dateText(iso, withTime = true) {
  /** @type {Intl.DateTimeFormatOptions} */
  const opts = withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'long' };
  return new Intl.DateTimeFormat(lang() === 'pt' ? 'pt-BR' : 'en', opts).format(new Date(iso));
}

/** A link to a player's profile (a name without an account is plain text). */
export function playerLink(seat) {
  const name = (seat && seat.name) || '?';
  if (!seat || !seat.account) {
    const b = document.createElement('bdi');
    b.textContent = name;
    return b;
  }
  const a = el('a', 'player-link', seat.account);
  a.href = '/@/' + encodeURIComponent(seat.account);
  a.dataset.route = a.getAttribute('href');
  return a;
}

/** One game of a list: opponent, rated or casual, time control, result, score, opening, rating change. */
export function gameItem(g, { open, extra }) {
  const li = el('li');
  li.dataset.gameId = g.id;
  li.dataset.phase = g.phase;
  if (g.your_move) li.classList.add('your-move');
  const meta = el('div', 'meta');
  const title = el('strong');
  const vs = t('profile.vs', { name: '\u0000' }).split('\u0000');
  title.append(vs[0], playerLink(g.opponent), vs[1] || '');
  const badge = el('span', 'badge ' + (g.rated ? 'rated' : 'casual'), t(g.rated ? 'profile.rated' : 'profile.casual'));
  title.prepend(badge, ' ');
  const info = el('small');
  const parts = [timeControlText(g.time_control), dateText(g.updated_at)];
  if (g.result) {
    let r = t('result.' + g.result);
    if (g.end_reason && g.end_reason !== 'normal' && g.end_reason !== 'abort') r += ` (${t('games.end.' + g.end_reason)})`;
    parts.push(r);
  }
  if (g.phase !== 'waiting') parts.push(`● ${g.black_discs} – ${g.white_discs} ○`);
  if (g.rating) parts.push(t('profile.ratingChange', { change: signedRating(g.rating.change), after: Math.round(g.rating.after) }));
  if (g.opening_name) parts.push(g.opening_name.name[lang()] || g.opening_name.name.en);
  if (extra) parts.unshift(...extra(g));
  info.textContent = parts.join(' · ');
  meta.append(title, info);
  const btn = el('button', 'btn small primary', t(g.phase === 'finished' ? 'profile.review' : g.phase === 'playing' ? 'profile.watch' : 'profile.open'));
  btn.type = 'button';
  btn.addEventListener('click', () => open(g.id));
  li.append(meta, btn);
  return li;
}

function fillList(ul, games, empty, ctx) {
  ul.textContent = '';
  if (!games.length) {
    ul.append(el('li', 'muted', t(empty)));
    return;
  }
  for (const g of games) ul.append(gameItem(g, ctx));
}

/** The rating history of one category as an SVG line (oldest left), with its lowest and highest. */
function chart(points, label) {
  const w = 320;
  const h = 90;
  const pad = 6;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('class', 'rating-chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const ratings = points.map((p) => p.rating);
  // At least 20 points from bottom to top, around the ratings (one game: a dot in the middle).
  const mid = (Math.min(...ratings) + Math.max(...ratings)) / 2;
  const lo = Math.min(...ratings, mid - 10);
  const hi = Math.max(...ratings, mid + 10);
  const span = hi - lo;
  const x = (i) => (points.length === 1 ? w / 2 : pad + (i * (w - 2 * pad)) / (points.length - 1));
  const y = (r) => h - pad - ((r - lo) * (h - 2 * pad)) / span;
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('points', points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' '));
  line.setAttribute('class', 'line');
  svg.append(line);
  points.forEach((p, i) => {
    const dot = document.createElementNS(SVG, 'circle');
    dot.setAttribute('cx', x(i).toFixed(1));
    dot.setAttribute('cy', y(p.rating).toFixed(1));
    dot.setAttribute('r', '2.5');
    const tip = document.createElementNS(SVG, 'title');
    tip.textContent = `${Math.round(p.rating)} · ${dateText(p.at)}`;
    dot.append(tip);
    svg.append(dot);
  });
  const labels = ratings.length > 1 ? [[Math.max(...ratings), 11], [Math.min(...ratings), h - 3]] : [];
  for (const [value, yy] of labels) {
    const text = document.createElementNS(SVG, 'text');
    text.setAttribute('x', '2');
    text.setAttribute('y', String(yy));
    text.textContent = String(Math.round(value));
    svg.append(text);
  }
  return svg;
}

function ratingsSection(p) {
  const box = el('section', 'profile-ratings');
  box.append(el('h2', null, t('profile.ratings')));
  const cats = Object.keys(p.ratings || {}).sort((a, b) => CATEGORY_ORDER.indexOf(a) - CATEGORY_ORDER.indexOf(b));
  if (!cats.length) {
    box.append(el('p', 'muted', t('profile.noRatings')));
    return box;
  }
  const grid = el('div', 'rating-cards');
  for (const c of cats) {
    const r = p.ratings[c];
    const card = el('div', 'rating-card');
    card.dataset.category = c;
    const head = el('div', 'rating-head');
    head.append(el('span', 'rating-cat', t('rating.' + c)));
    const value = el('strong', 'rating-value', String(Math.round(r.rating)) + (r.provisional ? '?' : ''));
    if (r.provisional) value.title = t('profile.provisionalHelp');
    head.append(value);
    card.append(head);
    const sub = [`±${Math.round(r.deviation)}`, t('profile.games', { n: r.games })];
    if (r.provisional) sub.push(t('profile.provisional'));
    card.append(el('small', 'muted', sub.join(' · ')));
    const points = (p.history || []).filter((e) => e.category === c).reverse();
    if (points.length) card.append(chart(points, t('profile.chart', { category: t('rating.' + c) })));
    grid.append(card);
  }
  box.append(grid);
  return box;
}

function recordSection(p) {
  const r = p.record || { wins: 0, draws: 0, losses: 0, rated: { wins: 0, draws: 0, losses: 0 } };
  const box = el('section', 'profile-record');
  box.append(el('h2', null, t('profile.record')));
  const dl = el('dl', 'record');
  for (const [key, n] of [['profile.wins', r.wins], ['profile.draws', r.draws], ['profile.losses', r.losses]]) {
    const d = el('div');
    d.append(el('dt', null, t(key)), el('dd', null, formatNumber(n)));
    dl.append(d);
  }
  box.append(dl);
  box.append(el('small', 'muted', t('profile.ratedRecord', r.rated)));
  return box;
}

/** The archive: filters, a page of games, "more games". */
function archiveSection(name, ctx) {
  const box = el('section', 'profile-archive');
  box.append(el('h2', null, t('profile.archive')));
  const form = el('form', 'archive-filters');
  const field = (label, input) => {
    const l = el('label');
    l.append(el('span', 'field-label', t(label)), input);
    return l;
  };
  const opponent = el('input', 'text-input');
  opponent.name = 'opponent';
  opponent.maxLength = 64;
  opponent.autocomplete = 'off';
  const result = el('select');
  result.name = 'result';
  for (const v of ['', 'win', 'draw', 'loss', 'aborted']) {
    const o = el('option', null, v ? t('result.any.' + v) : t('profile.any'));
    o.value = v;
    result.append(o);
  }
  const opening = el('input', 'text-input');
  opening.name = 'opening';
  opening.maxLength = 64;
  opening.placeholder = t('profile.openingHelp');
  const go = el('button', 'btn small', t('profile.filter'));
  go.type = 'submit';
  form.append(field('profile.opponent', opponent), field('profile.result', result), field('profile.opening', opening), go);
  const ul = el('ul', 'game-list archive-list');
  const msg = el('p', 'muted archive-msg');
  const more = el('button', 'btn small', t('profile.more'));
  more.type = 'button';
  more.hidden = true;
  let cursor = null;
  const load = async (append) => {
    msg.textContent = '';
    const q = {};
    for (const [k, v] of [['opponent', opponent.value.trim()], ['result', result.value], ['opening', opening.value.trim()]]) if (v) q[k] = v;
    if (append && cursor) q.cursor = cursor;
    try {
      const page = await api.playerGames(name, q);
      if (!append) ul.textContent = '';
      for (const g of page.games) ul.append(gameItem(g, ctx));
      if (!ul.children.length) ul.append(el('li', 'muted', t('profile.none')));
      cursor = page.next;
      more.hidden = !cursor;
    } catch (e) {
      msg.textContent = errorText(e);
    }
  };
  form.addEventListener('submit', (ev) => { ev.preventDefault(); cursor = null; load(false); });
  more.addEventListener('click', () => load(true));
  box.append(form, msg, ul, more);
  load(false);
  return box;
}

/** Draws the profile of `name` into `root`. */
export async function renderProfile(root, name, ctx) {
  root.textContent = '';
  root.setAttribute('aria-busy', 'true');
  let p;
  try {
    p = await api.player(name);
  } catch (e) {
    root.removeAttribute('aria-busy');
    const box = el('div', 'profile-missing');
    const h = el('h1', null, t('profile.notFound', { name }));
    box.append(h);
    box.append(el('p', 'muted', e.status === 404 ? t('profile.notFoundHelp') : errorText(e)));
    root.append(box);
    root.dataset.state = 'missing';
    document.title = t('profile.title', { name });
    return;
  }
  root.removeAttribute('aria-busy');
  root.dataset.state = 'found';
  document.title = t('profile.title', { name: p.username });
  const head = el('header', 'profile-head');
  head.append(el('h1', null, p.username));
  head.append(el('p', 'muted', t('profile.joined', { date: dateText(p.created_at, false) })));
  const me = await signedInAs();
  if (me && me.toLowerCase() === p.username.toLowerCase()) {
    const dl = el('a', 'btn small', t('profile.download'));
    dl.href = api.myGamesGgfUrl();
    dl.setAttribute('download', `virada-${p.username}.ggf`);
    dl.id = 'profile-download';
    head.append(dl);
  } else {
    // Another player's page: block and report (safety.js; only when signed in).
    const tools = el('span', 'profile-safety');
    playerSafetyButtons(tools, p.username);
    head.append(tools);
  }
  const top = el('div', 'profile-top');
  top.append(ratingsSection(p), recordSection(p));
  const playing = el('section', 'profile-playing');
  playing.append(el('h2', null, t('profile.playingNow')));
  const pl = el('ul', 'game-list playing-list');
  fillList(pl, p.playing_now || [], 'profile.noPlaying', ctx);
  playing.append(pl);
  const recent = el('section', 'profile-recent');
  recent.append(el('h2', null, t('profile.recent')));
  const rl = el('ul', 'game-list recent-list');
  fillList(rl, p.recent || [], 'profile.noRecent', ctx);
  recent.append(rl);
  root.append(head, top, playing, recent, archiveSection(p.username, ctx));
}
