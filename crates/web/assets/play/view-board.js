// @ts-check
// The board as the store says: the live position or the one viewed, legal moves, hints, the
// data attributes tests and assistive tech rely on, and new plies played one after another so
// each flip can be seen.

import { BoardView, START_BOARD, START_LEGAL } from '../core/board.js';
import * as store from '../core/store.js';
import { t } from '../core/i18n.js';
import { stepMs } from '../core/settings.js';

const MAX_ANIMATED = 4; // more new plies than this (a reload, a resume) are drawn at once
const DRAWN_FROM = ['gameId', 'game', 'viewPly', 'hintsOn', 'hints', 'showLegal', 'connection', 'awaiting', 'lang', 'study'];
const $ = (id) => document.getElementById(id);

export function mountBoard(root, { onPlay }) {
  const board = new BoardView(root, { onPlay });
  let drawnGame = null; // the game object whose first `drawnPlies` plies are on the board
  let drawnPlies = -1;
  let animation = 0; // token of the running animation, 0 when none

  store.subscribe((s, prev) => {
    if (s.lang !== prev.lang) board.relabel();
    if (s.game !== prev.game && extendsDrawn(s)) {
      animate(s.game);
      return;
    }
    if (animation) {
      // Another change during an animation: a different game or position stops it.
      if (s.gameId === prev.gameId && s.game === prev.game && s.viewPly === prev.viewPly) return;
      animation = 0;
    } else if (!DRAWN_FROM.some((k) => s[k] !== prev[k])) {
      return; // e.g. the engine's progress: nothing on the board changes
    }
    draw(s, false);
  });
  draw(store.get(), false);

  /** Whether the new game continues the drawn one by a few plies (a move, a reply, a redo). */
  function extendsDrawn(s) {
    const g = s.game;
    if (!g || !drawnGame || drawnGame.id !== g.id || s.viewPly !== null) return false;
    const n = g.plies.length;
    if (drawnPlies < 0 || n <= drawnPlies || n - drawnPlies > MAX_ANIMATED) return false;
    for (let i = 0; i < drawnPlies; i++) if (drawnGame.plies[i].move !== g.plies[i].move) return false;
    return true;
  }

  /** @param {GameView} g */
  async function animate(g) {
    const token = ++animation;
    drawnGame = g;
    while (drawnPlies < g.plies.length) {
      const ply = g.plies[drawnPlies];
      drawnPlies++;
      if (ply.move !== 'pass') {
        const ms = stepMs(); // the chosen speed (0: instant)
        board.render({ board: ply.board, legal: [], last: ply.move, showLegal: false, interactive: false, animate: ms > 0 });
        setCounts(ply.black_discs, ply.white_discs);
        if (ms > 0) await sleep(ms);
      }
      if (token !== animation) return;
    }
    animation = 0;
    draw(store.get(), stepMs() > 0);
  }

  function draw(s, animateDraw) {
    const st = shown(s);
    const hints = s.hintsOn && s.hints && s.viewPly === null && s.hints.key === store.hintKey(s) ? s.hints.map : null;
    board.render({ board: st.board, legal: st.legal, last: st.last, hints, showLegal: s.showLegal, interactive: st.interactive, animate: animateDraw, marks: st.marks });
    const grid = $('board');
    grid.dataset.study = st.study;
    grid.dataset.ply = String(st.ply);
    grid.dataset.view = s.viewPly === null ? 'live' : String(s.viewPly);
    grid.dataset.status = !s.gameId ? 'none' : s.game ? s.game.status : 'loading';
    grid.dataset.turn = turn(s);
    grid.dataset.game = s.game ? s.game.id : '';
    grid.dataset.seat = s.game && store.isOnline(s.game) ? store.mySeat(s.game) || 'spectator' : '';
    setCounts(st.counts[0], st.counts[1]);
    drawnGame = s.game;
    drawnPlies = s.game ? s.game.plies.length : -1;
  }
}

/**
 * Who is to act in the live game: 'human', 'computer', 'opponent' (online: the other player, or
 * anyone for a spectator; also while a seat is free), 'wait' (loading, a request out, offline), 'none'.
 */
function turn(s) {
  if (!s.gameId) return 'human'; // the empty page: a click starts a game
  const g = s.game;
  if (!g || s.connection !== 'live' || s.awaiting !== null) return 'wait';
  if (g.status !== 'ongoing') return 'none';
  if (store.isOnline(g)) return store.isHumanTurn(g) ? 'human' : 'opponent';
  return g.computer_thinking || !store.isHumanTurn(g) ? 'computer' : 'human';
}

/** Board, legal moves, last move, ply and counts of the position shown. */
function shown(s) {
  const g = s.game;
  if (!g) {
    return { board: START_BOARD, legal: s.gameId ? [] : START_LEGAL, last: null, interactive: !s.gameId, ply: 0, counts: [2, 2], marks: null, study: '' };
  }
  const p = store.shownPly(s);
  const study = s.study && s.study.gameId === g.id && s.viewPly === s.study.ply ? s.study : null;
  if (study) return studied(study, g, p);
  let last = null;
  for (let i = p - 1; i >= 0; i--) {
    if (g.plies[i].move !== 'pass') { last = g.plies[i].move; break; }
  }
  // Offline, the position may be out of date: no move is offered.
  const live = p === g.plies.length && s.connection === 'live';
  // A player waiting for the opponent is not offered the opponent's moves (spectators see them).
  // A record offers no move at all.
  const theirs = (store.mySeat(g) && !store.isHumanTurn(g)) || !!g.record;
  return {
    board: p === 0 ? g.start.board : g.plies[p - 1].board,
    legal: live && !theirs ? g.legal_moves : [],
    last,
    interactive: store.canPlay(s),
    ply: p,
    counts: p === 0 ? countDiscs(g.start.board) : [g.plies[p - 1].black_discs, g.plies[p - 1].white_discs],
    marks: null,
    study: '',
  };
}

/**
 * A mistake studied in the analysis: the position before it with the move played, the better
 * move and the explanation's squares marked, or a step of the better line.
 */
function studied(st, g, p) {
  const before = p === 0 ? g.start.board : g.plies[p - 1].board;
  const base = { legal: [], interactive: false, ply: p };
  // The line stepped: the better one, or the played move's (the opponent's refutation).
  const steps = st.which === 'played' ? st.playedSteps : st.steps;
  // A claim's squares are marked on its own board only (the step it holds at).
  const claim = st.claim && st.claim.which === st.which && st.claim.step === st.step ? st.claim : null;
  const coach = () => {
    if (!claim) return null;
    const marks = new Map();
    for (const sq of claim.squares) marks.set(sq, ['coach']);
    return marks;
  };
  if (st.step > 0 && steps && steps[st.step - 1]) {
    const ply = steps[st.step - 1];
    let last = null;
    for (let i = st.step - 1; i >= 0; i--) if (steps[i].move !== 'pass') { last = steps[i].move; break; }
    const name = st.which === 'played' ? 'played:' : 'line:';
    return { ...base, board: ply.board, last, counts: [ply.black_discs, ply.white_discs], marks: coach(), study: name + st.step };
  }
  const marks = coach() || new Map();
  const add = (sq, m) => { if (sq) marks.set(sq, [...(marks.get(sq) || []), m]); };
  add(st.played, 'played');
  add(st.best, 'best');
  return { ...base, board: before, last: null, counts: countDiscs(before), marks, study: 'before' };
}

function countDiscs(b) {
  let black = 0;
  let white = 0;
  for (const c of b) { if (c === 'X') black++; else if (c === 'O') white++; }
  return [black, white];
}

function setCounts(black, white) {
  for (const id of ['count-black', 'count-white']) {
    $(id).textContent = String(id === 'count-black' ? black : white);
    $(id).setAttribute('aria-label', t('counts.label', { black, white }));
  }
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
