// @ts-check
// Sharing and opening games without owner rights: a replay link carries only the game's moves
// (the transcript from the standard start, or the GGF record of a set-up game), and whoever opens
// it gets a copy of their own, shown from its first position to step through; a game file (GGF
// or a transcript, as text) is opened the same way. The shared game itself stays its owner's.

import { api } from './api.js';
import * as store from './store.js';
import * as actions from './actions.js';
import { fullTranscript } from './view-moves.js';

/** Longest text a link or a file may carry (the server's request limit is 64 KiB). */
export const MAX_TEXT = 32 * 1024;

/** The replay link of game `g`: its moves in the address, nothing else. @param {GameView} g */
export async function replayLink(g) {
  let text;
  if (g.start && g.start.kind === 'setup') {
    const res = await fetch(api.exportUrl(g.id, 'ggf'));
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    text = (await res.text()).trim();
  } else {
    text = fullTranscript(g);
  }
  return `${location.origin}/?replay=${encodeURIComponent(text)}`;
}

/** Opens game text (a transcript or a GGF record) as a new game of this browser, from its start. */
export async function openGameText(text) {
  const game = await api.importGame(text);
  history.replaceState(null, '', '/?game=' + encodeURIComponent(game.id));
  actions.showGame(game.id);
  const s = await store.when((x) => x.gameId !== game.id || !!x.game);
  if (s.gameId === game.id && s.game.plies.length > 0) actions.viewPly(0);
  // The file chooser (or the list of a file's games) kept the focus: the arrow keys step
  // through the moves once it is left.
  const f = document.activeElement;
  if (f instanceof HTMLElement && f.matches('input, select, textarea')) f.blur();
  return game.id;
}
