// @ts-check
// The arena pages (docs/API.md, "Arenas"): `/arenas` lists the arenas (running, upcoming,
// finished) with the form that creates one; `/arenas/<id>` shows one with its live standings
// (the arena's WebSocket, `/api/arenas/<id>/ws`: the whole arena first and after every change;
// no polling), join and pause, and opens the player's game as soon as they are paired.

import './arena-text.js';
import { api, ApiError } from '../core/api.js';
import * as store from '../core/store.js';
import { lang, t } from '../core/i18n.js';
import { errorText } from '../core/notice.js';
import { el, button } from '../core/dom.js';
import { bdi } from '../core/bidi.js';
import { carry } from './carry.js';

const RETRY_MS = [500, 1000, 2000, 4000, 8000]; // the last one repeats
const CLOCKS = [[1, 0], [3, 0], [3, 2], [5, 0], [5, 3], [10, 0], [10, 5], [15, 10]];
const DURATIONS = [20, 30, 45, 60, 90, 120];

let socket = null;
let socketId = null;
let retries = 0;
let retryTimer = 0;
let tick = 0;
const opened = new Set(); // games already opened for this player (each is opened once)
let watching = false;
let generation = 0; // bumped by `stop`: answers for a page left are dropped

const enc = encodeURIComponent;
const request = async (method, path, body) => {
  const res = await fetch(path, {
    method,
    headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' },
    body: method === 'GET' ? undefined : JSON.stringify(body || {}),
  }).catch((e) => { throw new ApiError(0, 'network', String(e)); });
  const payload = await res.json().catch(() => null);
  if (!res.ok) {
    const err = (payload && payload.error) || {};
    throw new ApiError(res.status, err.code || 'internal', err.message || `HTTP ${res.status}`, { params: err.params });
  }
  return payload;
};

/** Renders `/arenas` or `/arenas/<id>` (`path`) into `root`. */
export async function renderArenas(root, path, { navigate, openGame }) {
  stop();
  if (!watching) {
    watching = true;
    // Leaving the arena pages closes the socket.
    store.subscribe((s, prev) => { if (s.route !== prev.route && s.route !== '/arenas') stop(); });
  }
  const m = /^\/arenas\/(a_[A-Za-z0-9]+)$/.exec(path);
  root.textContent = ''; // nothing of a page left before stays on show meanwhile
  const gen = generation;
  let me = null;
  try {
    const s = await api.session();
    me = s && typeof s.username === 'string' ? s.username : null;
  } catch { me = null; }
  if (gen !== generation) return undefined; // another page was asked for meanwhile
  root.textContent = '';
  if (m) return renderOne(root, m[1], me, { openGame });
  return renderList(root, me, { navigate });
}

function stop() {
  generation += 1;
  clearTimeout(retryTimer);
  clearInterval(tick);
  retryTimer = 0;
  tick = 0;
  socketId = null;
  if (socket) {
    const s = socket;
    socket = null;
    s.onopen = s.onmessage = s.onclose = s.onerror = null;
    try { s.close(1000); } catch { /* closed */ }
  }
}

function clockText(tc) {
  return tc && tc.kind === 'clock' ? `${tc.minutes}+${tc.increment_seconds}` : '';
}

function dateText(iso) {
  return new Intl.DateTimeFormat(lang() === 'pt' ? 'pt-BR' : 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

function durationText(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

// ---------------------------------------------------------------- the list

async function renderList(root, me, { navigate }) {
  document.title = t('arena.title') + ' · Virada';
  root.append(el('h1', null, t('arena.title')), el('p', 'muted', t('arena.intro')));
  const sections = {};
  for (const key of ['running', 'upcoming', 'finished']) {
    const ul = el('ul', 'game-list arena-list');
    ul.id = 'arenas-' + key;
    root.append(el('h2', null, t('arena.' + key)), ul);
    sections[key] = ul;
  }
  root.append(createForm(me, navigate));
  let list;
  try {
    list = await request('GET', '/api/arenas');
  } catch (e) {
    root.append(el('p', 'error', errorText(e)));
    return;
  }
  for (const [key, ul] of Object.entries(sections)) {
    const items = (list && list[key]) || [];
    if (!items.length) ul.append(el('li', 'muted', t('arena.none')));
    for (const a of items) {
      const li = el('li');
      const meta = el('div', 'meta');
      const link = el('a', 'arena-link');
      link.href = '/arenas/' + enc(a.id);
      link.dataset.route = '/arenas/' + a.id;
      link.append(bdi(a.name));
      const small = el('small', null, [
        clockText(a.time_control),
        t(a.rated ? 'arena.rated' : 'arena.casual'),
        dateText(a.starts_at),
        t('arena.players', { n: a.players }),
      ].join(' · '));
      const by = el('small');
      by.append(t('arena.by', { name: '' }), bdi(a.creator));
      meta.append(link, small, by);
      li.append(meta);
      ul.append(li);
    }
  }
}

function createForm(me, navigate) {
  const box = el('section', 'panel arena-create');
  box.append(el('h2', null, t('arena.create')));
  if (!me) {
    box.append(el('p', 'muted', t('arena.signInToCreate')));
    return box;
  }
  const form = el('form');
  form.id = 'arena-form';
  form.noValidate = true;
  const field = (label, input) => {
    const l = el('label', 'arena-field');
    l.append(el('span', null, label), input);
    form.append(l);
    return input;
  };
  const name = field(t('arena.name'), el('input'));
  name.name = 'name';
  name.maxLength = 40;
  name.required = true;
  name.value = lang() === 'pt' ? 'Arena da noite' : 'Evening arena';
  const clock = field(t('arena.clock'), el('select'));
  clock.name = 'clock';
  for (const [mins, inc] of CLOCKS) {
    const o = el('option', null, `${mins}+${inc}`);
    o.value = `${mins}+${inc}`;
    clock.append(o);
  }
  clock.value = '3+2';
  const duration = field(t('arena.duration'), el('select'));
  duration.name = 'minutes';
  for (const n of DURATIONS) {
    const o = el('option', null, t('arena.durationMinutes', { n }));
    o.value = String(n);
    duration.append(o);
  }
  duration.value = '60';
  const starts = field(t('arena.startsAt'), el('input'));
  starts.type = 'datetime-local';
  starts.name = 'starts_at';
  const rated = el('input');
  rated.type = 'checkbox';
  rated.name = 'rated';
  const rl = el('label', 'arena-check');
  rl.append(rated, el('span', null, t('arena.rated')));
  form.append(rl);
  const msg = el('p', 'error');
  msg.setAttribute('role', 'alert');
  const submit = el('button', 'btn primary', t('arena.submit'));
  submit.type = 'submit';
  form.append(submit, msg);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    msg.textContent = '';
    const [mins, inc] = clock.value.split('+').map(Number);
    const body = {
      name: name.value,
      time_control: { kind: 'clock', minutes: mins, increment_seconds: inc },
      minutes: Number(duration.value),
      rated: rated.checked,
    };
    if (starts.value) {
      const at = new Date(starts.value);
      if (!Number.isNaN(at.getTime())) body.starts_at = at.toISOString();
    }
    submit.disabled = true;
    try {
      const a = await request('POST', '/api/arenas', body);
      navigate('/arenas/' + a.id);
    } catch (e) {
      msg.textContent = errorText(e);
    } finally {
      submit.disabled = false;
    }
  });
  box.append(form);
  return box;
}

// ---------------------------------------------------------------- one arena

function renderOne(root, id, me, { openGame }) {
  const back = el('a', 'arena-back', '← ' + t('arena.back'));
  back.href = '/arenas';
  back.dataset.route = '/arenas';
  const title = el('h1');
  title.id = 'arena-name';
  const meta = el('p', 'muted');
  meta.id = 'arena-meta';
  const when = el('p', 'arena-when');
  when.id = 'arena-when';
  const actions = el('div', 'arena-actions');
  const msg = el('p', 'error');
  msg.setAttribute('role', 'alert');
  const live = el('span', 'arena-live muted');
  const table = el('table', 'arena-standings');
  table.id = 'arena-standings';
  const games = el('ul', 'arena-games');
  games.id = 'arena-games';
  root.append(back, title, meta, when, actions, msg, live,
    el('h2', null, t('arena.standings')), table, el('h2', null, t('arena.games')), games);
  let current = null;
  let initial = true;
  let frames = 0; // arenas drawn from the socket
  const act = async (what) => {
    msg.textContent = '';
    try {
      const before = frames;
      const a = await request('POST', `/api/arenas/${enc(id)}/${what}`);
      // The answer may be older than what the socket brought meanwhile (the pairing).
      if (frames === before) draw(a);
    } catch (e) {
      msg.textContent = errorText(e);
    }
  };
  const draw = (a, live = false) => {
    if (!a || a.id !== id) return;
    if (live) frames += 1;
    current = a;
    document.title = a.name + ' · Virada';
    title.textContent = a.name;
    meta.textContent = [clockText(a.time_control), t(a.rated ? 'arena.rated' : 'arena.casual'),
      t('arena.players', { n: a.players })].join(' · ');
    meta.append(' · ', t('arena.by', { name: '' }), bdi(a.creator));
    drawWhen(when, a);
    const mine = me ? (a.standings || []).find((l) => l.username === me) : null;
    // A game this player was already in when the page opened is not opened again (they may
    // have come back from it on purpose), unless the end of their last game brought them here
    // (play/arena-bar.js): then the new game is the next one, and it opens.
    const carried = carry.from;
    if (initial) carry.from = null;
    if (initial && mine && mine.playing && !(carried && carried !== mine.playing)) opened.add(mine.playing);
    initial = false;
    actions.textContent = '';
    if (me && a.status !== 'finished') {
      if (!mine || !mine.active) actions.append(button('btn primary', t('arena.join'), 'arena-join', () => act('join')));
      else actions.append(button('btn', t('arena.withdraw'), 'arena-withdraw', () => act('withdraw')));
    } else if (!me && a.status !== 'finished') {
      actions.append(el('span', 'muted', t('arena.signInToCreate')));
    }
    if (mine && mine.playing) {
      const link = el('a', 'arena-your-game', t('arena.yourGame'));
      link.id = 'arena-your-game';
      link.href = '/?game=' + enc(mine.playing);
      link.addEventListener('click', (ev) => { ev.preventDefault(); openGame(mine.playing); });
      actions.append(link);
      // Paired: the game opens at once (once per game).
      if (!opened.has(mine.playing)) {
        opened.add(mine.playing);
        openGame(mine.playing);
      }
    } else if (mine && mine.active && a.status === 'running') {
      actions.append(el('span', 'muted', t('arena.waiting')));
    }
    drawStandings(table, a, me);
    drawGames(games, a);
  };
  tick = setInterval(() => { if (current) drawWhen(when, current); }, 1000);
  const gen = generation;
  request('GET', `/api/arenas/${enc(id)}`).then((a) => {
    if (gen !== generation) return;
    a.received_at = Date.now();
    draw(a);
    follow(id, live, draw);
  }).catch((e) => {
    msg.textContent = errorText(e);
  });
}

function drawWhen(when, a) {
  // The server's clock: countdowns use the offset of when the arena was sent.
  const skew = (a.received_at || Date.now()) - a.server_time_ms;
  const now = Date.now() - skew;
  if (now < a.starts_at_ms) when.textContent = t('arena.startsIn', { time: durationText(a.starts_at_ms - now) });
  else if (now < a.ends_at_ms) when.textContent = t('arena.endsIn', { time: durationText(a.ends_at_ms - now) });
  else if ((a.games || []).some((g) => g.result === null)) when.textContent = t('arena.endedPlaying');
  else when.textContent = t('arena.ended');
}

function drawStandings(table, a, me) {
  table.textContent = '';
  const head = el('tr');
  for (const k of ['arena.rank', 'arena.player', 'arena.points', 'arena.sheet']) head.append(el('th', null, t(k)));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  for (const l of a.standings || []) {
    const tr = el('tr');
    if (l.username === me) tr.className = 'me';
    if (!l.active) tr.classList.add('paused');
    const who = el('td', 'who');
    who.append(bdi(l.username));
    if (l.fire) {
      const f = el('span', 'fire', '🔥');
      f.title = t('arena.fire');
      f.setAttribute('aria-label', t('arena.fire'));
      who.append(' ', f);
    }
    if (!l.active) who.append(' ', el('small', 'muted', t('arena.paused')));
    if (l.playing) who.append(' ', el('small', 'muted', t('arena.playing')));
    const sheet = el('td', 'sheet');
    const marks = el('div', 'marks');
    for (const s of l.sheet || []) {
      marks.append(el('span', 'mark ' + s.outcome + (s.double ? ' double' : ''), String(s.points)));
    }
    sheet.append(marks);
    tr.append(el('td', 'rank', String(l.rank)), who, el('td', 'points', String(l.points)), sheet);
    body.append(tr);
  }
  table.append(thead, body);
}

function drawGames(ul, a) {
  ul.textContent = '';
  if (!(a.games || []).length) ul.append(el('li', 'muted', t('arena.noGames')));
  for (const g of a.games || []) {
    const li = el('li');
    const link = el('a');
    link.href = '/?game=' + enc(g.id);
    link.append(bdi(g.black), ' – ', bdi(g.white));
    const result = g.result === null ? t('arena.playing')
      : g.result === 'draw' ? t('arena.draw')
      : g.result === 'aborted' ? t('arena.aborted')
      : g.result === 'black' ? '1–0' : '0–1';
    li.append(link, ' ', el('small', 'muted', result));
    ul.append(li);
  }
}

function follow(id, live, draw) {
  socketId = id;
  retries = 0;
  connect(live, draw);
}

function connect(live, draw) {
  const id = socketId;
  if (!id) return;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  let ws;
  try {
    ws = new WebSocket(`${scheme}//${location.host}/api/arenas/${enc(id)}/ws`);
  } catch {
    retry(live, draw);
    return;
  }
  socket = ws;
  ws.onopen = () => { retries = 0; live.textContent = '● ' + t('arena.live'); };
  ws.onmessage = (ev) => {
    if (socket !== ws || typeof ev.data !== 'string') return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg && msg.type === 'arena' && msg.arena) {
      msg.arena.received_at = Date.now();
      draw(msg.arena, true);
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    live.textContent = t('arena.reconnecting');
    retry(live, draw);
  };
}

function retry(live, draw) {
  const wait = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
  retries += 1;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => connect(live, draw), wait);
}
