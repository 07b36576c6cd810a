// @ts-check
// The analysis panel: asks the server for a review of the game and draws it with analysis.js
// (loaded on first use, so the first page view stays light). A mistake clicked is "studied": the
// board shows the position before it with the move played, the better move and the coach's
// squares marked, and the better line can be stepped through (its positions come from the
// server's rules, POST /api/position); "try again from here" starts a game from that position.

import { api } from '../core/api.js';
import * as store from '../core/store.js';
import { t } from '../core/i18n.js';
import { errorText, showError } from '../core/notice.js';

const $ = (id) => document.getElementById(id);
let renderer = null; // analysis.js, once loaded
let handlers = null;

/**
 * @param {{onPly:(p:number|null)=>void, tryAgain:(options:object)=>Promise<void>,
 *          level:()=>number, navigate:(path:string)=>void}} h
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

/**
 * Studies mistake `m` (an analysis ply with its `index` in the game's plies): both lines from
 * the position before it are replayed by the server's rules, the better line (`steps`) and the
 * played move's line, the move and the opponent's refutation (`playedSteps`); `which` says
 * which one the board steps through.
 */
async function study(m, claim = null) {
  const s = store.get();
  const g = s.game;
  if (!g || !g.plies[m.index]) return;
  // A claim of the coach is drawn on the board it holds on (`at`: a ply of one of the lines,
  // or the position before the move); the position before the move shows the two moves only.
  const e = claim === null ? null : (m.explanations || [])[claim];
  const at = e && e.at ? { which: e.at.line === 'played' ? 'played' : 'best', step: e.at.line === 'before' ? 0 : e.at.ply } : null;
  const shown = at ? { index: claim, ...at, squares: e.squares || [] } : null;
  const was = s.study;
  if (was && was.gameId === g.id && was.ply === m.index) {
    store.update({ study: { ...was, which: at ? at.which : was.which, step: at ? at.step : 0, claim: shown }, viewPly: m.index });
    return;
  }
  const moves = (line) => (line || []).filter((x) => /^[a-h][1-8]$/.test(x));
  const line = moves(m.best_line && m.best_line.length ? m.best_line : [m.best_move]);
  const playedLine = moves(m.played_line && m.played_line.length ? m.played_line : [m.move]);
  const st = {
    gameId: g.id, ply: m.index, played: m.move, best: m.best_move, claim: shown,
    setup: setupBefore(g, m.index), line, playedLine, steps: null, playedSteps: null,
    which: at ? at.which : 'best', step: at ? at.step : 0, failed: false,
  };
  store.update({ study: st, viewPly: m.index });
  const [best, played] = await Promise.all([
    api.position(st.setup, line).catch(() => null),
    api.position(st.setup, playedLine).catch(() => null),
  ]);
  const now = store.get().study;
  if (now && now.gameId === st.gameId && now.ply === st.ply && now.steps === null) {
    store.update({ study: { ...now, steps: best ? best.plies : null, playedSteps: played ? played.plies : null, failed: !best || !played } });
  }
}

/** The steps of the line being stepped (null while they load). */
function studySteps(st) {
  return st.which === 'played' ? st.playedSteps : st.steps;
}

/** Moves through the line shown: `delta` plies forward (+1) or back (-1). */
function step(delta) {
  const st = store.get().study;
  const steps = st && studySteps(st);
  if (!steps) return;
  const next = Math.max(0, Math.min(steps.length, st.step + delta));
  if (next !== st.step) store.update({ study: { ...st, step: next, claim: null } });
}

/** Shows the other line (`which`: 'best' or 'played') from the position before the mistake. */
function showLine(which) {
  const st = store.get().study;
  if (st && st.which !== which) store.update({ study: { ...st, which, step: 0, claim: null } });
}

/**
 * The sides whose mistakes the viewer may practise: their own (the person's side against the
 * computer, their seat online, both sides of a game on one device).
 * @param {GameView} g
 */
function practiceColors(g) {
  if (g.mode === 'computer') return [g.human_color];
  if (g.mode === 'friend') return ['black', 'white'];
  const seat = store.mySeat(g);
  return seat ? [seat] : [];
}

/** "Practise these mistakes": the server builds the set (kept for an account; a guest's here). */
async function practise(color) {
  const s = store.get();
  const g = s.game;
  if (!g) return;
  const a = s.analysis;
  store.update({ analysis: { ...a, practice: { color, busy: true } } });
  try {
    const { createSet } = await import('../learn/practice-store.js');
    const set = await createSet(g.id, color);
    if (set.items.length === 0) {
      const now = store.get().analysis;
      if (now && now.gameId === g.id) store.update({ analysis: { ...now, practice: { color, busy: false, empty: true } } });
      return;
    }
    handlers.navigate('/learn?practice=' + encodeURIComponent(set.id));
  } catch (e) {
    const now = store.get().analysis;
    if (now && now.gameId === g.id) store.update({ analysis: { ...now, practice: null } });
    showError(e);
  }
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
      onPly: handlers.onPly, onStudy: study, onStep: step, onLine: showLine, onTryAgain: tryAgain, study: st, viewPly: store.shownPly(s),
      practiceColors: practiceColors(s.game), practice: a.practice || null, onPractise: practise,
    });
    if (focused) {
      const again = /** @type {HTMLElement | null} */ (body.querySelector(`[data-key="${CSS.escape(focused)}"]`));
      if (again) again.focus();
    }
  }
}
