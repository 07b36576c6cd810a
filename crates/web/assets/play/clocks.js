// @ts-check
// The clocks of a game that has them (online, or against the computer), drawn from the server's
// values (the game object's `clocks` and `time_control`, the same in every mode): the remaining time of each side
// as of the game object, and which one runs. Between two game objects the running clock is
// counted down locally from when the object arrived (store.clockAt); it stops at zero and
// decides nothing: the server ends the game on time and says so in the next game object.
// Correspondence games show the time left for the move (days and hours).

import * as store from '../core/store.js';
import { t, colorName, lang } from '../core/i18n.js';

const $ = (id) => document.getElementById(id);
const TICK_MS = 100;
const LOW_MS = 20000; // under this, tenths are shown and the clock turns red

/** "1:05:09", "4:59", "0:19.4" for a clock's milliseconds (tenths after a comma in pt-BR). */
export function formatClock(ms) {
  const v = Math.max(0, ms);
  const total = Math.floor(v / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const ss = String(sec).padStart(2, '0');
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${ss}`;
  if (v < LOW_MS) return `${m}:${ss}${lang() === 'pt' ? ',' : '.'}${Math.floor((v % 1000) / 100)}`;
  return `${m}:${ss}`;
}

/** A clock to the second, as read out: "4:59", "0:19". */
function wholeSeconds(ms) {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const ss = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * "2 d 5 h", "3 d", "5 h 12 min", "5 h", "12 min" for the time left to a correspondence
 * deadline: the two largest units, a zero second unit left out ("3 d", not "3 d 0 h").
 */
export function formatDeadline(ms) {
  const min = Math.max(0, Math.floor(ms / 60000));
  const d = Math.floor(min / 1440);
  const h = Math.floor((min % 1440) / 60);
  const m = min % 60;
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return `${min} min`;
}

/**
 * What each clock shows now: { black: {ms, text, running, kind}, white: ... } or null when the
 * game has no clock. `now` is performance.now().
 */
export function clockState(s, now = performance.now()) {
  const g = s.game;
  if (!g) return null;
  const tc = g.time_control || (g.online && g.online.time_control) || { kind: 'none' };
  const c = g.clocks || (g.online && g.online.clocks);
  if (tc.kind === 'none' || !c) return null;
  const elapsed = Math.max(0, now - s.clockAt);
  const playing = store.isOnline(g) ? g.online.phase === 'playing' : g.status === 'ongoing';
  const out = {};
  for (const color of ['black', 'white']) {
    const running = playing && c.running === color;
    // Both kinds: each side's time left as of the object (correspondence: for this move).
    const base = Number(c[color + '_ms']);
    const left = Number.isFinite(base) ? (running ? base - elapsed : base) : 0;
    const ms = Math.max(0, left);
    const days = tc.kind === 'correspondence';
    out[color] = { kind: days ? 'days' : 'clock', running, ms, text: days ? formatDeadline(ms) : formatClock(ms) };
  }
  return out;
}

/**
 * How long the side to move has left for its first move before the server aborts the game (a
 * game between two seated players whose side to move has not moved yet: its clock does not
 * run), counted down from the game object like the clocks; null when no such limit runs.
 */
export function firstMoveLeft(s, now = performance.now()) {
  const g = s.game;
  const c = g && (g.clocks || (g.online && g.online.clocks));
  if (!c || c.abort_at_ms == null || g.status !== 'ongoing') return null;
  if (store.isOnline(g) && g.online.phase !== 'playing') return null;
  const elapsed = Math.max(0, now - s.clockAt);
  return Math.max(0, Number(c.abort_at_ms) - Number(c.server_time_ms) - elapsed);
}

export function mountClocks() {
  let timer = 0;
  const labelled = { black: '', white: '' };
  const draw = () => {
    const s = store.get();
    const st = clockState(s);
    for (const color of ['black', 'white']) {
      const el = $('clock-' + color);
      const c = st && st[color];
      el.hidden = !c;
      if (!c) continue;
      if (el.textContent !== c.text) el.textContent = c.text;
      el.dataset.ms = String(Math.round(c.ms || 0));
      el.classList.toggle('running', c.running);
      el.classList.toggle('low', c.kind === 'clock' && c.running && c.ms < LOW_MS);
      // The accessible name changes once a second at most, so it is not read out constantly.
      const label = t('clock.label', { color: colorName(color), time: c.kind === 'clock' ? wholeSeconds(c.ms) : c.text });
      if (labelled[color] !== label) { el.setAttribute('aria-label', label); labelled[color] = label; }
    }
    const abort = firstMoveLeft(s);
    const fm = $('first-move');
    fm.hidden = abort === null;
    if (abort !== null) {
      const g = s.game;
      const color = colorName(g.side_to_move);
      const text = abort >= 3600000
        ? t('clock.firstMoveHours', { color, n: Math.ceil(abort / 3600000) })
        : t('clock.firstMove', { color, n: Math.ceil(abort / 1000) });
      if (fm.textContent !== text) fm.textContent = text;
      fm.dataset.ms = String(Math.round(abort));
    }
    const ticking = ((!!st && (st.black.running || st.white.running)) || abort !== null) && s.connection === 'live';
    if (ticking && !timer) timer = setInterval(draw, TICK_MS);
    if (!ticking && timer) { clearInterval(timer); timer = 0; }
  };
  store.subscribe((s, prev) => {
    if (s.game !== prev.game || s.connection !== prev.connection || s.lang !== prev.lang || s.gameId !== prev.gameId) draw();
  });
  draw();
}
