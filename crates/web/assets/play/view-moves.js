// @ts-check
// The move list (each ply a button that shows its position), the transcript and the GGF link.

import { api } from '../core/api.js';
import * as store from '../core/store.js';
import { t, colorName } from '../core/i18n.js';
import { $input, $button, targetOf } from '../core/dom.js';

const $ = (id) => document.getElementById(id);

export function mountMoves({ onPly }) {
  $('move-list').addEventListener('click', (ev) => {
    const b = /** @type {HTMLButtonElement | null} */ (targetOf(ev).closest('button[data-ply]'));
    if (b) onPly(Number(b.dataset.ply));
  });
  // |◀ ◀ ▶ ▶| under the board: what the arrow keys do, for phones (no keys) and mice.
  const step = (to) => () => {
    const s = store.get();
    if (!s.game) return;
    const n = s.game.plies.length;
    const target = to(store.shownPly(s), n);
    onPly(Math.max(0, Math.min(n, target)));
  };
  $('nav-first').addEventListener('click', step(() => 0));
  $('nav-prev').addEventListener('click', step((cur) => cur - 1));
  $('nav-next').addEventListener('click', step((cur) => cur + 1));
  $('nav-last').addEventListener('click', step((cur, n) => n));
  store.subscribe((s, prev) => {
    if (s.game !== prev.game || s.gameId !== prev.gameId || s.viewPly !== prev.viewPly || s.lang !== prev.lang) {
      draw(s);
      drawNav(s);
    }
  });
  draw(store.get());
  drawNav(store.get());
  // On phones the board column sticks with its score bar and status scrolled away (style.css).
  const stick = () => {
    const col = /** @type {HTMLElement | null} */ ($('board-root').closest('.board-col'));
    if (!col) return;
    const above = $('board-root').getBoundingClientRect().top - col.getBoundingClientRect().top;
    col.style.setProperty('--board-stick', `${-Math.round(above)}px`);
  };
  window.addEventListener('resize', stick);
  store.subscribe(stick);
  stick();
}

/** The step buttons: shown once a game has a move, each disabled where it would go nowhere. */
function drawNav(s) {
  const nav = $('ply-nav');
  const g = s.game;
  const n = g ? g.plies.length : 0;
  nav.hidden = n === 0;
  if (n === 0) return;
  const cur = store.shownPly(s);
  $button('nav-first').disabled = cur === 0;
  $button('nav-prev').disabled = cur === 0;
  $button('nav-next').disabled = cur >= n;
  $button('nav-last').disabled = cur >= n;
  $('nav-where').textContent = cur === 0 ? t('nav.start', { count: n }) : t('nav.where', { ply: cur, count: n });
}

function draw(s) {
  const list = $('move-list');
  list.textContent = '';
  const g = s.game;
  $input('transcript').value = g ? fullTranscript(g) : '';
  const ggf = /** @type {HTMLAnchorElement} */ ($('link-ggf'));
  if (g) ggf.href = api.exportUrl(g.id, 'ggf'); else ggf.removeAttribute('href');
  drawExplorerLink(g, g ? store.shownPly(s) : 0);
  if (!g) {
    list.append(elt('p', 'empty-note', t('moves.none')));
    return;
  }
  const current = store.shownPly(s);
  const kind = g.start && g.start.kind;
  const startLabel = kind === 'xot' ? t('moves.startXot', { opening: g.start.opening || '' }).trim()
    : kind === 'setup' ? t('moves.startSetup') : t('moves.start');
  list.append(plyButton('start-btn', startLabel, 0, current));
  let row = 0;
  let rowOpen = false; // Black has moved in this row and White's slot is free
  g.plies.forEach((p, i) => {
    const white = p.color === 'white';
    if (!white || !rowOpen) {
      row++;
      list.append(elt('span', 'num', row + '.'));
      if (white) list.append(elt('span', '', '…'));
    }
    const pass = p.move === 'pass';
    const b = plyButton(pass ? 'pass' : '', pass ? t('moves.pass') : p.move, i + 1, current);
    b.setAttribute('aria-label', `${i + 1}. ${colorName(p.color)} ${pass ? t('moves.pass') : p.move}`);
    list.append(b);
    rowOpen = !white;
  });
  if (s.viewPly === null) list.scrollTop = list.scrollHeight;
}

/**
 * The game's moves from the standard start: an XOT game's opening moves come first (the server's
 * transcript starts after them), so the text replays anywhere. A pasted set-up has no moves to
 * the standard start, so its transcript is the moves after the set-up.
 * @param {GameView} g
 */
export function fullTranscript(g) {
  const opening = g.start && g.start.kind === 'xot' && g.start.opening ? g.start.opening : '';
  return opening + (g.transcript || '');
}

/** Most moves from the start the opening explorer covers (the server's explorer::MAX_PLIES). */
const EXPLORER_PLIES = 20;

/**
 * The moves from the standard start to the position at `ply` (passes left out: the explorer
 * plays forced passes itself), or null when the game did not start there.
 * @param {GameView} g
 * @param {number} ply
 */
export function lineToPly(g, ply) {
  const kind = g.start && g.start.kind;
  if (kind === 'setup') return null;
  const opening = kind === 'xot' ? (g.start.opening || '') : '';
  const moves = g.plies.slice(0, ply).map((p) => p.move).filter((m) => m !== 'pass');
  return opening + moves.join('');
}

/** The explorer's address for the position at `ply`, or null when it covers no such position. */
export function explorerPathAt(g, ply) {
  const line = lineToPly(g, ply);
  if (line === null || line.length > 2 * EXPLORER_PLIES) return null;
  return line ? '/explorer?line=' + line : '/explorer';
}

/** "Opening explorer" under the move list: the position shown, while the explorer covers it. */
function drawExplorerLink(g, ply) {
  const a = /** @type {HTMLAnchorElement} */ ($('link-explorer'));
  const path = g ? explorerPathAt(g, ply) : null;
  a.hidden = path === null;
  if (path === null) return;
  a.href = path;
  a.dataset.route = path;
}

/** A link to the explorer at `ply` for the review (null beyond the explorer's moves). */
export function explorerAnchor(g, ply) {
  const path = explorerPathAt(g, ply);
  if (path === null) return null;
  const a = elt('a', 'small-link explorer-link', t('ex.open'));
  a.href = path;
  a.dataset.route = path;
  return a;
}

function plyButton(cls, text, ply, current) {
  const b = elt('button', cls, text);
  b.type = 'button';
  b.dataset.ply = String(ply);
  if (current === ply) { b.classList.add('current'); b.setAttribute('aria-current', 'true'); }
  return b;
}

/** Copies the transcript, falling back to selecting it where the clipboard API is refused. */
export async function copyTranscript() {
  const box = $input('transcript');
  try {
    await navigator.clipboard.writeText(box.value);
    return true;
  } catch {
    box.select();
    try { return document.execCommand('copy'); } catch { return false; }
  }
}

function elt(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
