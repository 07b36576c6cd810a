// @ts-check
// Text people typed (seat names, chat lines) shown inside the page's own sentences: each piece
// in its own <bdi>, so a right-to-left name, or any direction it carries, never reorders the
// words around it. (The server refuses direction overrides and invisible characters outright.)

import { t } from './i18n.js';

/** A <bdi> element holding `text`. */
export function bdi(text) {
  const el = document.createElement('bdi');
  el.textContent = text;
  return el;
}

/**
 * Sets `el` to the translation of `key` with `params`, the params named in `isolate` each in a
 * <bdi>. Its textContent is exactly `t(key, params)`; nothing is redrawn when that is unchanged.
 */
export function setIsolated(el, key, params, isolate) {
  const text = t(key, params);
  if (el.textContent === text && el.querySelector('bdi')) return;
  const marked = { ...params };
  isolate.forEach((name, i) => { marked[name] = `\u0000${i}\u0000`; });
  el.textContent = '';
  t(key, marked).split('\u0000').forEach((part, i) => {
    if (i % 2) el.append(bdi(String(params[isolate[Number(part)]])));
    else if (part) el.append(part);
  });
}
