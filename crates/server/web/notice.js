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
  if (e instanceof ApiError) {
    if (e.code === 'network') return t('error.network');
    const key = 'error.' + e.code;
    if (t(key) !== key) return t(key) + (lang() === 'en' && e.message ? ' ' + e.message : '');
    return t('error.generic', { message: e.message });
  }
  return t('error.generic', { message: String(e && e.message ? e.message : e) });
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
