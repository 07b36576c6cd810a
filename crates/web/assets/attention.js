// @ts-check
// Telling the person what happened when they were not looking: every new move is announced to
// screen readers ("White played c4, 3 discs flipped"); in an online game, "Your move" goes in
// the tab title while it is this browser's turn, and a short synthesized sound (WebAudio, no
// file; switchable, remembered) plays when the opponent moves while the page is in the background.
// Games on this device sound each move when the settings say so (off by default).

import * as store from './store.js';
import { t, colorName, safeGet, safeSet } from './i18n.js';
import { decodeBoard } from './board.js';
import { settings } from './settings.js';
import { $input } from './dom.js';

const $ = (id) => document.getElementById(id);
const SOUND_KEY = 'virada.sound';
const BASE_TITLE = 'Virada';

let audio = null; // the AudioContext, made at the first gesture (browsers allow sound after one)

export function soundOn() {
  return safeGet(SOUND_KEY) !== 'off';
}

export function mountAttention() {
  const box = $input('chk-sound');
  box.checked = soundOn();
  box.addEventListener('change', () => {
    safeSet(SOUND_KEY, box.checked ? null : 'off');
    if (box.checked) { unlockAudio(); beep(); }
  });
  const unlock = () => { unlockAudio(); };
  document.addEventListener('pointerdown', unlock, { once: true, capture: true });
  document.addEventListener('keydown', unlock, { once: true, capture: true });

  store.subscribe((s, prev) => {
    announce(s, prev);
    title(s);
  });
  document.addEventListener('visibilitychange', () => title(store.get()));
}

/** New plies that continue the game shown, read out one after another. */
function announce(s, prev) {
  const g = s.game;
  const old = prev.game;
  if (!g || !old || g === old || g.id !== old.id || g.plies.length <= old.plies.length) return;
  if (!old.plies.every((p, i) => g.plies[i] && p.move === g.plies[i].move)) return;
  const fresh = g.plies.slice(old.plies.length);
  if (fresh.length > 4) return; // a resume after a long gap: the board says it all
  const parts = [];
  for (let i = old.plies.length; i < g.plies.length; i++) parts.push(describe(g, i));
  $('announce').textContent = parts.join('. ');
  const mine = store.mySeat(g);
  if (mine && fresh.some((p) => p.color !== mine && p.move !== 'pass') && document.visibilityState === 'hidden' && soundOn()) beep();
  // Games on this device: a lower, shorter "tock" for each disc placed, when chosen in the settings.
  if (!store.isOnline(g) && settings().sounds && fresh.some((p) => p.move !== 'pass')) beep(520, 260, 0.08);
}

/** "White played c4, 3 discs flipped" for ply `i` (0-based) of game `g`. @param {GameView} g */
export function describe(g, i) {
  const p = g.plies[i];
  const color = colorName(p.color);
  if (p.move === 'pass') return t('announce.pass', { color });
  const own = (x) => (p.color === 'black' ? x.black_discs : x.white_discs);
  let before;
  if (i > 0) before = own(g.plies[i - 1]);
  else {
    before = decodeBoard(g.start && g.start.board).filter((c) => c === p.color).length;
  }
  const n = own(p) - before - 1;
  return t('announce.move', { color, square: p.move, n });
}

/** Sets the tab title of the play page ("Your move · Virada" on this browser's online turn). */
export function refreshTitle() {
  title(store.get());
}

function title(s) {
  if (s.route !== '/') return; // the other pages set their own title
  const g = s.game;
  const mine = store.isOnline(g) && store.isHumanTurn(g) && s.viewPly === null;
  const want = mine ? `${t('online.titleYourMove')} · ${BASE_TITLE}` : BASE_TITLE;
  if (document.title !== want) document.title = want;
}

function unlockAudio() {
  // Safari before 14.1 names it webkitAudioContext.
  const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Ctx) return;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
  } catch { audio = null; }
}

/** A soft falling tone: by default the two-tone "tock" of 120 ms. */
export function beep(from = 880, to = 440, length = 0.12) {
  if (!audio) return;
  try {
    const now = audio.currentTime;
    const gain = audio.createGain();
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.25, now + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + length);
    gain.connect(audio.destination);
    const osc = audio.createOscillator();
    osc.type = 'sine';
    osc.frequency.setValueAtTime(from, now);
    osc.frequency.exponentialRampToValueAtTime(to, now + length * 0.85);
    osc.connect(gain);
    osc.start(now);
    osc.stop(now + length + 0.01);
    document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  } catch { /* no sound: nothing else depends on it */ }
}
