// @ts-check
// The analysis panel: asks the server for a review of the game and draws it with analysis.js
// (loaded on first use, so the first page view stays light). A mistake clicked is "studied": the
// board shows the position before it with the move played, the better move and the coach's
// squares marked, and the better line can be stepped through (its positions come from the
// server's rules, POST /api/position); "try again from here" starts a game from that position.

import { api } from './api.js';
import * as store from './store.js';
import { t } from './i18n.js';
import { errorText, showError } from './notice.js';

const $ = (id) => document.getElementById(id);
let renderer = null; // analysis.js, once loaded
let handlers = null;

/**
 * @param {{onPly:(p:number|null)=>void, tryAgain:(options:object)=>Promise<void>,
 *          level:()=>number}} h
 */
export function mountAnalysis(h) {
  handlers = h;
  store.subscribe((s, prev) => {
    if (s.analysis !== prev.analysis || s.lang !== prev.lang || s.study !== prev.study || s.viewPly !== prev.viewPly) draw(s);
  });
}

export async function openAnalysis() {
  const s = store.get();
  if (!s.game) return;
  const gameId = s.game.id;
  store.update({ analysis: { gameId, status: 'loading' }, study: null });
  // No glide when the system asks for less motion.
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  $('analysis').scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
  const current = () => store.get().analysis && store.get().analysis.gameId === gameId;
  try {
    const [mod, data] = await Promise.all([import('./analysis.js'), api.analysis(gameId)]);
    renderer = mod;
    if (current()) store.update({ analysis: { gameId, status: 'ready', data } });
  } catch (e) {
    if (current()) store.update({ analysis: { gameId, status: 'failed', error: e } });
  }
}

/** The board before ply index `i` of game `g` as set-up text (board and side to move). @param {GameView} g */
export function setupBefore(g, i) {
  const board = i === 0 ? g.start.board : g.plies[i - 1].board;
  return `${board} ${g.plies[i].color === 'black' ? 'X' : 'O'}`;
}

/** Studies mistake `m` (an analysis ply with its `index` in the game's plies). */
async function study(m) {
  const s = store.get();
  const g = s.game;
  if (!g || !g.plies[m.index]) return;
  const squares = new Set();
  for (const e of m.explanations || []) for (const sq of e.squares || []) squares.add(sq);
  const line = (m.best_line && m.best_line.length ? m.best_line : [m.best_move]).filter((x) => /^[a-h][1-8]$/.test(x));
  const st = {
    gameId: g.id, ply: m.index, played: m.move, best: m.best_move, coach: [...squares],
    setup: setupBefore(g, m.index), line, steps: null, step: 0, failed: false,
  };
  store.update({ study: st, viewPly: m.index });
  try {
    const res = await api.position(st.setup, line);
    if (store.get().study === st) store.update({ study: { ...st, steps: res.plies } });
  } catch {
    if (store.get().study === st) store.update({ study: { ...st, failed: true } });
  }
}

/** Moves through the better line: `delta` plies forward (+1) or back (-1). */
function step(delta) {
  const st = store.get().study;
  if (!st || !st.steps) return;
  const next = Math.max(0, Math.min(st.steps.length, st.step + delta));
  if (next !== st.step) store.update({ study: { ...st, step: next } });
}

/** A game against the computer from the position before the studied mistake. */
async function tryAgain() {
  const s = store.get();
  const st = s.study;
  const g = s.game;
  if (!st || !g) return;
  const level = g.mode === 'computer' && Number.isInteger(g.level) ? g.level : handlers.level();
  const human = g.plies[st.ply].color;
  try {
    await handlers.tryAgain({ mode: 'computer', level, human_color: human, start: 'setup', setup: st.setup });
  } catch (e) {
    showError(e);
  }
}

function draw(s) {
  const a = s.analysis;
  $('analysis').hidden = !a;
  if (!a) return;
  const body = $('analysis-body');
  if (a.status === 'loading') body.textContent = t('analysis.loading');
  else if (a.status === 'failed') body.textContent = errorText(a.error);
  else if (renderer && s.game) {
    // Re-drawing replaces the buttons: the one that had the focus gets it back.
    const active = document.activeElement;
    const focused = active instanceof HTMLElement && body.contains(active) ? active.dataset.key : null;
    const st = s.study && s.study.gameId === s.game.id && s.viewPly === s.study.ply ? s.study : null;
    renderer.renderAnalysis(body, a.data, s.game, {
      onPly: handlers.onPly, onStudy: study, onStep: step, onTryAgain: tryAgain, study: st, viewPly: store.shownPly(s),
    });
    if (focused) {
      const again = /** @type {HTMLElement | null} */ (body.querySelector(`[data-key="${CSS.escape(focused)}"]`));
      if (again) again.focus();
    }
  }
}
