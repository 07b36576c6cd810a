// @ts-check
// The "New game" dialog: opponent, level (with a plain-language description), colour, and the
// start (standard, XOT, or a pasted transcript / board / GGF); the time control on one device
// (against the computer or two people: no clock or an online preset) and for a friend online
// (also custom and days per move), with the display name (remembered).

import { api } from '../core/api.js';
import { lang, t, safeGet, safeSet } from '../core/i18n.js';
import { errorText } from '../core/notice.js';
import { BoardEditor } from './editor.js';
import { currentUser } from '../account/account.js';
import { botRatingText } from '../account/safety.js';

const PREFS_KEY = 'virada.newgame';
export const NAME_KEY = 'virada.name';
const DEFAULT_LEVEL = 3;
const PRESETS = { '1+0': [1, 0], '3+2': [3, 2], '5+0': [5, 0], '10+5': [10, 5], '15+10': [15, 10] };

/** The remembered display name for online games ('' if none). */
export function savedName() {
  return (safeGet(NAME_KEY) || '').slice(0, 24);
}

/** A display name as the server takes it: 1..24 characters after trimming, no control characters. */
export function validName(name) {
  const n = String(name || '').trim();
  // eslint-disable-next-line no-control-regex
  return n.length >= 1 && [...n].length <= 24 && !/[\u0000-\u001f\u007f-\u009f]/.test(n) ? n : null;
}

/** The time control of the form (`tc` radio and its numbers) as POST /api/games takes it. */
function timeControl(f) {
  const tc = f.tc.value;
  if (tc === 'none') return { kind: 'none' };
  if (tc === 'correspondence') return { kind: 'correspondence', days: Number(f.days.value) };
  if (PRESETS[tc]) return { kind: 'clock', minutes: PRESETS[tc][0], increment_seconds: PRESETS[tc][1] };
  return { kind: 'clock', minutes: Number(f.minutes.value), increment_seconds: Number(f.increment.value) };
}

export class NewGameDialog {
  constructor(dialogEl, { levels, onCreated }) {
    this.el = dialogEl;
    this.form = dialogEl.querySelector('form');
    this.levels = levels;
    this.onCreated = onCreated;
    this.form.addEventListener('change', () => this.sync());
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.submit();
    });
    dialogEl.querySelector('#new-cancel').addEventListener('click', () => this.el.close());
    this.editor = new BoardEditor(this.form);
  }

  /** Remembered options, used also when the first click on an empty board starts a game. */
  defaults() {
    let prefs = {};
    try { prefs = JSON.parse(safeGet(PREFS_KEY) || '{}') || {}; } catch { prefs = {}; }
    // A friend game takes no level or colour (the server refuses them). A direct first click
    // against the computer plays Black from the standard start.
    // An online game needs a name and a friend: a first click plays the computer instead.
    if (prefs.mode === 'friend') return { mode: 'friend', start: 'standard' };
    return {
      mode: 'computer',
      level: Number.isInteger(prefs.level) ? prefs.level : DEFAULT_LEVEL,
      human_color: 'black',
      start: 'standard',
    };
  }

  fillLevels() {
    const select = this.form.elements.level;
    const chosen = Number(select.value) || this.prefs().level || DEFAULT_LEVEL;
    select.textContent = '';
    for (const l of this.levels()) {
      const o = document.createElement('option');
      o.value = String(l.level);
      const name = l.name ? l.name[lang()] || l.name.en : '';
      o.textContent = `${l.level}. ${name}`;
      select.append(o);
    }
    if (select.options.length === 0) {
      for (let i = 1; i <= 10; i++) {
        const o = document.createElement('option');
        o.value = String(i);
        o.textContent = String(i);
        select.append(o);
      }
    }
    select.value = String(chosen);
    if (!select.value && select.options.length) select.selectedIndex = 0;
    this.sync();
  }

  prefs() {
    try { return JSON.parse(safeGet(PREFS_KEY) || '{}') || {}; } catch { return {}; }
  }

  open(options = {}) {
    const p = this.prefs();
    const f = this.form.elements;
    if (this.form.elements.level.options.length === 0) this.fillLevels();
    f.mode.value = options.mode || (p.mode === 'friend' || p.mode === 'online' ? p.mode : 'computer');
    if (p.level) f.level.value = String(p.level);
    f.color.value = ['black', 'white', 'random'].includes(p.human_color) ? p.human_color : 'black';
    const tcs = [...this.form.querySelectorAll('input[name="tc"]')].map((i) => i.value);
    const mode = f.mode.value;
    const tc = mode === 'computer' ? p.computerTc : p.tc;
    f.tc.value = tcs.includes(tc) ? tc : 'none';
    if (Number.isInteger(p.minutes)) f.minutes.value = String(p.minutes);
    if (Number.isInteger(p.increment)) f.increment.value = String(p.increment);
    if (Number.isInteger(p.days)) f.days.value = String(p.days);
    if (!f.name.value) f.name.value = savedName();
    f.start.value = options.start || (p.start === 'xot' ? 'xot' : 'standard');
    this.form.querySelector('#new-error').textContent = '';
    this.sync();
    if (!this.el.open) this.el.showModal();
    if (options.start === 'setup') this.form.elements.setup.focus();
  }

  sync() {
    const f = this.form.elements;
    const mode = f.mode.value;
    this.form.querySelector('.computer-only').hidden = mode !== 'computer';
    this.form.querySelector('.online-only').hidden = mode !== 'online';
    // On one device (against the computer, or two people): no clock or one of the presets.
    const local = mode === 'computer' || mode === 'friend';
    this.form.querySelector('.tc-field').hidden = false;
    for (const el of this.form.querySelectorAll('.tc-online')) el.hidden = mode !== 'online';
    this.form.querySelector('.tc-computer').hidden = !local;
    if (local && !PRESETS[f.tc.value]) f.tc.value = 'none';
    this.form.querySelector('.color-field').hidden = mode === 'friend';
    this.form.querySelector('.tc-custom-only').hidden = mode !== 'online' || f.tc.value !== 'custom';
    this.form.querySelector('.tc-corr-only').hidden = mode !== 'online' || f.tc.value !== 'correspondence';
    // Signed in, the seat carries the username (the server uses it) and a game may be rated.
    const signedIn = !!currentUser();
    this.form.querySelector('.guest-name').hidden = signedIn;
    this.form.querySelector('.rated-field').hidden = !signedIn;
    f.name.required = mode === 'online' && !signedIn;
    this.form.querySelector('#new-start').textContent = t(mode === 'online' ? 'online.create' : 'actions.start');
    this.form.querySelector('.setup-only').hidden = f.start.value !== 'setup';
    this.form.querySelector('.editor-only').hidden = f.start.value !== 'editor';
    this.editor.draw();
    const level = this.levels().find((l) => String(l.level) === f.level.value);
    const desc = level && level.description ? level.description[lang()] || level.description.en : '';
    this.form.querySelector('#level-desc').textContent = desc;
    // The level as a bot: its rating, and a rated game against it (an account's, with a clock).
    this.form.querySelector('#level-rating').textContent = botRatingText(Number(f.level.value));
    this.form.querySelector('.bot-rated-field').hidden = !signedIn || mode !== 'computer' || !PRESETS[f.tc.value];
  }

  /** What is wrong with an online game's settings ({ text, field }), or null. */
  checkOnline(tc, name) {
    const f = this.form.elements;
    const whole = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
    if (tc.kind === 'clock' && !whole(tc.minutes, 1, 180)) return { text: t('tc.badMinutes'), field: f.minutes };
    if (tc.kind === 'clock' && !whole(tc.increment_seconds, 0, 180)) return { text: t('tc.badIncrement'), field: f.increment };
    if (tc.kind === 'correspondence' && !whole(tc.days, 1, 14)) return { text: t('tc.badDays'), field: f.days };
    if (!name) return { text: t('online.badName'), field: f.name };
    return null;
  }

  async submit() {
    const f = this.form.elements;
    const body = { mode: f.mode.value, start: f.start.value };
    if (body.mode === 'computer') {
      body.level = Number(f.level.value) || DEFAULT_LEVEL;
      body.human_color = f.color.value;
      if (PRESETS[f.tc.value]) body.time_control = timeControl(f);
      if (PRESETS[f.tc.value] && currentUser() && f.botRated.checked) body.rated = true;
    }
    if (body.mode === 'friend' && PRESETS[f.tc.value]) body.time_control = timeControl(f);
    if (body.start === 'setup') body.setup = f.setup.value;
    const err = this.form.querySelector('#new-error');
    err.textContent = '';
    if (body.start === 'editor') {
      // The edited board goes to the server as a set-up text (64 squares and the side to move).
      const problem = this.editor.problem();
      if (problem) {
        err.textContent = problem;
        return;
      }
      body.start = 'setup';
      body.setup = this.editor.text();
    }
    if (body.mode === 'online') {
      body.time_control = timeControl(f);
      body.color = f.color.value;
      const name = currentUser() || validName(f.name.value);
      if (currentUser() && f.rated.checked) body.rated = true;
      const bad = this.checkOnline(body.time_control, name);
      if (bad) {
        err.textContent = bad.text;
        bad.field.focus();
        return;
      }
      body.name = name;
    }
    if (body.start === 'setup' && !body.setup.trim()) {
      err.textContent = t('setup.empty');
      f.setup.focus();
      return;
    }
    const startBtn = this.form.querySelector('#new-start');
    startBtn.disabled = true;
    try {
      const game = await api.createGame(body);
      const old = this.prefs();
      const prefs = {
        ...old,
        mode: body.mode,
        level: body.level || old.level,
        human_color: body.human_color || body.color || old.human_color,
        start: body.start === 'xot' ? 'xot' : 'standard',
      };
      if (body.mode === 'computer') prefs.computerTc = f.tc.value;
      if (body.mode === 'online') {
        Object.assign(prefs, { tc: f.tc.value, minutes: Number(f.minutes.value), increment: Number(f.increment.value), days: Number(f.days.value) });
        if (!currentUser()) safeSet(NAME_KEY, body.name);
      }
      safeSet(PREFS_KEY, JSON.stringify(prefs));
      this.el.close();
      this.onCreated(game);
    } catch (e) {
      err.textContent = errorText(e);
    } finally {
      startBtn.disabled = false;
    }
  }
}
