// The "New game" dialog: opponent, level (with a plain-language description), colour, and the
// start (standard, XOT, or a pasted transcript / board / GGF).

import { api } from './api.js';
import { lang, t, safeGet, safeSet } from './i18n.js';

const PREFS_KEY = 'virada.newgame';
const DEFAULT_LEVEL = 3;

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
  }

  /** Remembered options, used also when the first click on an empty board starts a game. */
  defaults() {
    let prefs = {};
    try { prefs = JSON.parse(safeGet(PREFS_KEY) || '{}') || {}; } catch { prefs = {}; }
    // A friend game takes no level or colour (the server refuses them). A direct first click
    // against the computer plays Black from the standard start.
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
    f.mode.value = p.mode === 'friend' ? 'friend' : 'computer';
    if (p.level) f.level.value = String(p.level);
    f.color.value = ['black', 'white', 'random'].includes(p.human_color) ? p.human_color : 'black';
    f.start.value = options.start || (p.start === 'xot' ? 'xot' : 'standard');
    this.form.querySelector('#new-error').textContent = '';
    this.sync();
    if (!this.el.open) this.el.showModal();
    if (options.start === 'setup') this.form.elements.setup.focus();
  }

  sync() {
    const f = this.form.elements;
    this.form.querySelector('.computer-only').hidden = f.mode.value !== 'computer';
    this.form.querySelector('.setup-only').hidden = f.start.value !== 'setup';
    const level = this.levels().find((l) => String(l.level) === f.level.value);
    const desc = level && level.description ? level.description[lang()] || level.description.en : '';
    this.form.querySelector('#level-desc').textContent = desc;
  }

  async submit() {
    const f = this.form.elements;
    const body = { mode: f.mode.value, start: f.start.value };
    if (body.mode === 'computer') {
      body.level = Number(f.level.value) || DEFAULT_LEVEL;
      body.human_color = f.color.value;
    }
    if (body.start === 'setup') body.setup = f.setup.value;
    const err = this.form.querySelector('#new-error');
    err.textContent = '';
    if (body.start === 'setup' && !body.setup.trim()) {
      err.textContent = t('error.bad_request');
      f.setup.focus();
      return;
    }
    const startBtn = this.form.querySelector('#new-start');
    startBtn.disabled = true;
    try {
      const game = await api.createGame(body);
      safeSet(PREFS_KEY, JSON.stringify({
        mode: body.mode,
        level: body.level || this.prefs().level,
        human_color: body.human_color || this.prefs().human_color,
        start: body.start === 'xot' ? 'xot' : 'standard',
      }));
      this.el.close();
      this.onCreated(game);
    } catch (e) {
      err.textContent = (e.code === 'bad_request' ? t('error.bad_request') + '\n' : '') + e.message;
    } finally {
      startBtn.disabled = false;
    }
  }
}
