// @ts-check
// Hints: while they are on and the person is to move in the live position, the engine's value of
// every legal move is fetched once per position and kept in the store (the board draws them).

import { api } from './api.js';
import * as store from './store.js';
import { showError } from './notice.js';

let pending = null; // key of the position whose hints are being fetched

export function mountHints() {
  store.subscribe((s) => { fetchIfWanted(s); });
}

export function toggleHints() {
  const on = !store.get().hintsOn;
  store.update({ hintsOn: on, hints: on ? store.get().hints : null });
}

async function fetchIfWanted(s) {
  if (!s.hintsOn || !store.canPlay(s) || store.isOnline(s.game)) return;
  const key = store.hintKey(s);
  if ((s.hints && s.hints.key === key) || pending === key) return;
  pending = key;
  try {
    const h = await api.hint(s.game.id);
    if (store.hintKey() !== key || !store.get().hintsOn) return;
    const map = new Map();
    for (const m of h.moves || []) map.set(m.square, m);
    store.update({ hints: { key, map } });
  } catch (e) {
    showError(e);
  } finally {
    if (pending === key) pending = null;
  }
}
