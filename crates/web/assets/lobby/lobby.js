// @ts-check
// The lobby page (/lobby): quick pairing in pools by rating, the open challenges (seeks) live
// from the lobby socket (live.js `followLobby`), a form to post one, and the computer's levels.
// A pairing or an accepted challenge opens the game (the server made it with both seats held).
// docs/API.md, "Lobby".

import './lobby-text.js';
import { api, ApiError } from '../core/api.js';
import { t, lang, formatNumber, safeGet, safeSet } from '../core/i18n.js';
import { errorText } from '../core/notice.js';
import { followLobby, stopLobby, sendLobby } from '../core/live.js';
import { currentUser } from '../account/account.js';
import { el, button } from '../core/dom.js';
import { NAME_KEY } from '../play/dialog.js';
import { playerSafetyButtons } from '../account/safety.js';

const POOLS = ['1+0', '3+2', '5+0', '10+5', 'xot-3+2'];

let root = null;
/** @type {{ openGame: (id: string) => void, playComputer: (level: number) => void }} */
let hooks = { openGame: () => {}, playComputer: () => {} };
let seeks = new Map(); // id -> seek, in arrival order
let waiting = null; // the pool joined, while waiting
let parts = null;

/** Draws the lobby into `elem` and follows the lobby socket. */
export function renderLobby(elem, { openGame, playComputer }) {
  hooks = { openGame, playComputer };
  if (root === elem && parts && elem.contains(parts.list)) {
    redraw(); // a language switch
    return;
  }
  root = elem;
  mount();
  followLobby(onMessage, (state) => {
    parts.status.textContent = t(state === 'live' ? 'lobby.live' : 'lobby.offline');
    parts.status.dataset.state = state;
  });
  loadBots();
}

/** Leaving the page: the socket closes, so the server drops this browser's seeks and pool place. */
export function leaveLobby() {
  if (waiting) sendLobby({ type: 'pool_leave' });
  waiting = null;
  stopLobby();
  root = null;
  parts = null;
}

function say(text, bad = false) {
  parts.message.textContent = text || '';
  parts.message.classList.toggle('bad', !!bad);
}

function fail(e) {
  say(errorText(e), true);
}

function guestName() {
  const v = parts && parts.name ? parts.name.value.trim() : '';
  if (v) safeSet(NAME_KEY, v);
  return v || safeGet(NAME_KEY) || '';
}

function withName(body) {
  return currentUser() ? body : { ...body, name: guestName() };
}

function mount() {
  root.textContent = '';
  const head = el('div', 'lobby-head');
  const title = el('h1', '', t('lobby.title'));
  title.id = 'lobby-title';
  const status = el('span', 'lobby-status muted', t('lobby.offline'));
  status.id = 'lobby-status';
  head.append(title, status);
  const message = el('p', 'lobby-message');
  message.id = 'lobby-message';
  message.setAttribute('aria-live', 'polite');

  // Quick pairing.
  const quick = el('section', 'panel lobby-quick');
  quick.setAttribute('aria-labelledby', 'lobby-quick-title');
  const qt = el('h2', '', t('lobby.quick'));
  qt.id = 'lobby-quick-title';
  const qhelp = el('p', 'muted', t('lobby.quickHelp'));
  const poolBtns = el('div', 'lobby-pools');
  for (const pool of POOLS) {
    const b = button('btn', poolLabel(pool), '', () => joinPool(pool));
    b.dataset.pool = pool;
    poolBtns.append(b);
  }
  const ratedLabel = el('label', 'lobby-rated');
  const rated = document.createElement('input');
  rated.type = 'checkbox';
  rated.id = 'lobby-rated';
  ratedLabel.append(rated, ' ', t('lobby.rated'));
  const nameLabel = el('label', 'lobby-name', t('lobby.name') + ' ');
  const name = document.createElement('input');
  name.id = 'lobby-name';
  name.maxLength = 24;
  name.value = safeGet(NAME_KEY) || '';
  nameLabel.append(name);
  const wait = el('div', 'lobby-wait');
  wait.id = 'lobby-wait';
  wait.hidden = true;
  const waitText = el('span', 'lobby-wait-text');
  const cancel = button('btn small', t('lobby.cancel'), 'lobby-cancel', () => leavePool());
  wait.append(waitText, ' ', cancel);
  quick.append(qt, qhelp, poolBtns, ratedLabel, nameLabel, wait);

  // Open challenges.
  const open = el('section', 'panel lobby-seeks');
  open.setAttribute('aria-labelledby', 'lobby-seeks-title');
  const st = el('h2', '', t('lobby.seeks'));
  st.id = 'lobby-seeks-title';
  const list = el('ul', 'lobby-list');
  list.id = 'lobby-list';
  open.append(st, list);

  // A new challenge.
  const form = document.createElement('form');
  form.className = 'panel lobby-form';
  form.id = 'lobby-form';
  const ft = el('h2', '', t('lobby.new'));
  const minutes = numberField('lobby-minutes', t('lobby.minutes'), 1, 180, 5);
  const inc = numberField('lobby-increment', t('lobby.increment'), 0, 180, 3);
  const color = selectField('lobby-color', t('lobby.color'), [['random', t('lobby.random')], ['black', t('color.black')], ['white', t('color.white')]]);
  const start = selectField('lobby-start', t('lobby.start'), [['standard', t('lobby.standard')], ['xot', t('lobby.xot')]]);
  const rangeLabel = el('label', 'lobby-range', t('lobby.range') + ' ');
  const rmin = document.createElement('input');
  rmin.type = 'number'; rmin.id = 'lobby-range-min'; rmin.min = '0'; rmin.max = '4000'; rmin.step = '50';
  const rmax = document.createElement('input');
  rmax.type = 'number'; rmax.id = 'lobby-range-max'; rmax.min = '0'; rmax.max = '4000'; rmax.step = '50';
  rangeLabel.append(rmin, '–', rmax);
  const seekRated = el('label', 'lobby-rated');
  const seekRatedBox = document.createElement('input');
  seekRatedBox.type = 'checkbox';
  seekRatedBox.id = 'lobby-seek-rated';
  seekRated.append(seekRatedBox, ' ', t('lobby.rated'));
  const make = el('button', 'btn primary', t('lobby.make'));
  make.type = 'submit';
  make.id = 'lobby-make';
  form.append(ft, minutes.label, inc.label, color.label, start.label, rangeLabel, seekRated, make);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    makeSeek();
  });

  // The computer's levels.
  const bots = el('section', 'panel lobby-bots');
  bots.setAttribute('aria-labelledby', 'lobby-bots-title');
  const bt = el('h2', '', t('lobby.bots'));
  bt.id = 'lobby-bots-title';
  const bhelp = el('p', 'muted', t('lobby.botsHelp'));
  const botList = el('ul', 'lobby-bot-list');
  botList.id = 'lobby-bot-list';
  bots.append(bt, bhelp, botList);

  root.append(head, message, quick, open, form, bots);
  parts = {
    status, message, list, wait, waitText, rated, name, nameLabel, minutes: minutes.input, inc: inc.input,
    color: color.input, start: start.input, rmin, rmax, seekRated: seekRatedBox, botList, bots: [],
  };
  redraw();
}

function numberField(id, label, min, max, value) {
  const l = el('label', '', label + ' ');
  const input = document.createElement('input');
  input.type = 'number';
  input.id = id;
  input.min = String(min);
  input.max = String(max);
  input.value = String(value);
  l.append(input);
  return { label: l, input };
}

function selectField(id, label, options) {
  const l = el('label', '', label + ' ');
  const input = document.createElement('select');
  input.id = id;
  for (const [value, text] of options) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    input.append(o);
  }
  l.append(input);
  return { label: l, input };
}

function poolLabel(pool) {
  const key = 'lobby.pool.' + pool;
  return t(key) !== key ? t(key) : pool;
}

function timeText(tc) {
  if (!tc) return '';
  if (tc.kind === 'clock') return `${tc.minutes}+${tc.increment_seconds}`;
  if (tc.kind === 'correspondence') return lang() === 'pt' ? `${tc.days} d/jogada` : `${tc.days} d/move`;
  return '∞';
}

function redraw() {
  if (!parts) return;
  const signed = !!currentUser();
  parts.nameLabel.hidden = signed;
  parts.rated.disabled = !signed;
  parts.seekRated.disabled = !signed;
  parts.rated.title = signed ? '' : t('lobby.ratedHelp');
  parts.seekRated.title = parts.rated.title;
  parts.wait.hidden = !waiting;
  if (waiting) parts.waitText.textContent = t('lobby.waiting', { pool: poolLabel(waiting) });
  parts.list.textContent = '';
  if (seeks.size === 0) {
    parts.list.append(el('li', 'muted lobby-empty', t('lobby.noSeeks')));
  }
  for (const s of seeks.values()) parts.list.append(seekRow(s));
  drawBots();
}

function seekRow(s) {
  const li = el('li', 'lobby-seek');
  li.dataset.seek = s.id;
  const who = el('span', 'lobby-seek-who', s.maker);
  const rating = el('span', 'lobby-seek-rating', s.rating == null ? '' : formatNumber(s.rating, 0) + (s.provisional ? '?' : ''));
  const tc = el('span', 'lobby-seek-time', timeText(s.time_control) + (s.start === 'xot' ? ' · XOT' : ''));
  const mode = el('span', 'lobby-seek-mode', s.rated ? t('lobby.rated') : t('lobby.casual'));
  const extra = [];
  if (s.color !== 'random') extra.push(t(s.color === 'black' ? 'color.black' : 'color.white'));
  if (s.rating_range) extra.push(`${s.rating_range[0]}–${s.rating_range[1]}`);
  const more = el('span', 'lobby-seek-more muted', extra.join(' · '));
  li.append(who, rating, tc, mode, more);
  if (s.account && !s.mine) {
    const safety = el('span', 'lobby-seek-safety');
    playerSafetyButtons(safety, s.maker);
    li.append(safety);
  }
  if (s.mine) {
    li.append(button('btn small', t('lobby.cancel'), '', () => cancelSeek(s.id)));
  } else {
    const b = button('btn small primary lobby-accept', t('lobby.accept'), '', () => acceptSeek(s.id));
    li.append(b);
  }
  return li;
}

function onMessage(msg) {
  switch (msg.type) {
    case 'seeks':
      seeks = new Map((msg.seeks || []).map((s) => [s.id, s]));
      break;
    case 'seek_added':
      if (msg.seek) seeks.set(msg.seek.id, msg.seek);
      break;
    case 'seek_removed':
      seeks.delete(msg.id);
      break;
    case 'pool':
      waiting = msg.pool;
      break;
    case 'pool_skipped':
      // Quick pairing passed over a waiting player: one of the two blocks the other.
      say(t('lobby.skippedBlocked', { n: Number(msg.skipped) || 1 }));
      break;
    case 'pool_left':
      waiting = null;
      if (msg.reason === 'failed') say(t('lobby.failed'), true);
      break;
    case 'paired':
      waiting = null;
      if (msg.game) {
        hooks.openGame(msg.game);
        return;
      }
      break;
    case 'error':
      waiting = null;
      fail(new ApiError(0, msg.code || 'internal', msg.message || '', { params: msg.params }));
      break;
    default:
      return; // a newer server's message
  }
  redraw();
}

function joinPool(pool) {
  say('');
  const body = withName({ type: 'pool_join', pool, rated: parts.rated.checked });
  if (!sendLobby(body)) {
    say(t('lobby.offline'), true);
    return;
  }
  waiting = pool;
  redraw();
}

function leavePool() {
  sendLobby({ type: 'pool_leave' });
  waiting = null;
  redraw();
}

async function makeSeek() {
  say('');
  const minutes = Number(parts.minutes.value);
  const inc = Number(parts.inc.value);
  const body = {
    time_control: { kind: 'clock', minutes, increment_seconds: inc },
    rated: parts.seekRated.checked,
    color: parts.color.value,
    start: parts.start.value,
  };
  if (parts.rmin.value !== '' || parts.rmax.value !== '') {
    body.rating_range = [Number(parts.rmin.value || 0), Number(parts.rmax.value || 4000)];
  }
  try {
    await api.makeSeek(withName(body));
    say(t('lobby.made'));
  } catch (e) {
    fail(e);
  }
}

async function acceptSeek(id) {
  say('');
  try {
    const res = await api.acceptSeek(id, currentUser() ? {} : { name: guestName() });
    hooks.openGame(res.game);
  } catch (e) {
    fail(e);
  }
}

async function cancelSeek(id) {
  say('');
  try {
    await api.cancelSeek(id);
  } catch (e) {
    fail(e);
  }
}

/**
 * The bots: the computer's levels (`/api/levels`, their names) with their ratings from
 * `/api/bots` (blitz shown; a server without it shows the levels alone).
 */
async function loadBots() {
  let levels = [];
  let ratings = new Map();
  try { levels = await api.levels(); } catch { levels = []; }
  try {
    const b = await api.bots();
    for (const x of (b && Array.isArray(b.bots) ? b.bots : [])) {
      const r = x.ratings && (x.ratings.blitz || Object.values(x.ratings)[0]);
      if (r && typeof r.rating === 'number') ratings.set(x.level, r.rating);
    }
  } catch { ratings = new Map(); }
  if (!parts) return;
  parts.bots = (Array.isArray(levels) ? levels : []).map((l) => ({ level: l.level, name: l.name, rating: ratings.has(l.level) ? ratings.get(l.level) : null }));
  drawBots();
}

function drawBots() {
  parts.botList.textContent = '';
  for (const b of parts.bots) {
    const li = el('li', 'lobby-bot');
    const name = b.name && typeof b.name === 'object' ? b.name[lang()] || b.name.en : b.name;
    const label = name ? `${b.level} · ${name}` : t('lobby.level', { n: b.level });
    const a = el('a', 'lobby-bot-link', label);
    a.href = '/';
    a.dataset.level = String(b.level);
    a.addEventListener('click', (ev) => {
      ev.preventDefault();
      hooks.playComputer(b.level);
    });
    li.append(a);
    if (typeof b.rating === 'number') li.append(' ', el('span', 'muted', t('lobby.botRating', { rating: Math.round(b.rating) })));
    parts.botList.append(li);
  }
}
