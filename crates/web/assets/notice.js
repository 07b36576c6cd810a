// @ts-check
// The one-line notice under the status (passes, copied, errors): kept in the store, drawn by
// the status view.

import { ApiError } from './api.js';
import * as store from './store.js';
import { lang, t, colorName } from './i18n.js';

export function setNotice(text, error = false) {
  store.update({ notice: text ? { text, error } : null });
}

export function clearNotice() {
  if (store.get().notice) setNotice('');
}

export function showError(e) {
  setNotice(errorText(e), true);
}

/** An error in the person's language: the server's code when we know it, else its message. */
export function errorText(e) {
  const en = lang() === 'en';
  if (e instanceof ApiError) {
    if (e.code === 'network') return t('error.network');
    if (e.code === 'bad_setup') return setupErrorText(e);
    const key = 'error.' + e.code;
    // The server's message is English: added in English only, as the detail.
    if (t(key) !== key) return t(key, e.params) + (en && e.message ? ' ' + e.message : '');
    return en ? t('error.generic', { message: e.message }) : t('error.code', { code: e.code });
  }
  return en ? t('error.generic', { message: String(e && e.message ? e.message : e) }) : t('error.unexpected');
}

/**
 * A set-up text the server could not read, from the error's params: what the text was read as
 * and where it failed ("transcript, column 5" / "registro, coluna 5"). The English page adds the
 * server's own description of the problem.
 */
export function setupErrorText(e) {
  const p = e.params || {};
  if (p.format === 'empty') return t('setup.empty');
  const parts = [];
  if (p.format && t('setup.format.' + p.format) !== 'setup.format.' + p.format) parts.push(t('setup.format.' + p.format));
  for (const place of ['line', 'column', 'square', 'ply', 'byte']) {
    if (p[place] !== undefined) parts.push(t('setup.' + place, { n: p[place] }));
  }
  // A WTHOR file is a file of games, not a text.
  const badAt = p.format === 'wthor' ? 'wthor.badAt' : 'setup.badAt';
  let text = parts.length ? t(badAt, { where: parts.join(', ') }) : t('setup.bad');
  if (lang() === 'en' && e.message) {
    const detail = e.message.replace(/^setup: [^:]*: /, '');
    text += ' ' + detail.charAt(0).toUpperCase() + detail.slice(1) + (/[.!?]$/.test(detail) ? '' : '.');
  }
  return text;
}

/** Announces forced passes as they arrive ("White has no legal move and passes"). */
export function mountPassNotices() {
  store.subscribe((s, prev) => {
    const g = s.game;
    const old = prev.game;
    if (!g || !old || g === old || g.id !== old.id) return;
    // A notice of the game (a pass, an error) is stale once it is over: the result says the rest.
    if (g.status === 'finished' && old.status !== 'finished') {
      clearNotice();
      return;
    }
    if (g.plies.length <= old.plies.length) return;
    if (!old.plies.every((p, i) => p.move === g.plies[i].move)) return;
    for (const p of g.plies.slice(old.plies.length)) {
      if (p.move !== 'pass') continue;
      const other = colorName(p.color === 'black' ? 'white' : 'black');
      if (g.mode === 'computer' && p.color === g.human_color) setNotice(t('notice.passYou', { other }));
      else setNotice(t('notice.pass', { color: colorName(p.color) }));
    }
  });
}
