// Virada web app: game state, rendering of the play view, routing between views.

import { api, subscribe, ApiError } from './api.js';
import { BoardView, formatValue } from './board.js';
import { initLanguage, lang, setLanguage, t, colorName, translateDom, safeGet, safeSet } from './i18n.js';
import { NewGameDialog } from './dialog.js';

const START_BOARD = '---------------------------OX------XO---------------------------';
const START_LEGAL = ['d3', 'c4', 'f5', 'e6'];
const STEP_MS = 380;
const $ = (id) => document.getElementById(id);

const S = {
  game: null, // latest game from the server
  viewPly: null, // null: live position; else number of plies shown (0 = start)
  drawnPlies: -1, // plies of S.game currently drawn on the board
  animToken: 0,
  animating: false,
  hintsOn: false,
  hints: null, // { key, map }
  hintPending: null,
  showLegal: safeGet('virada.legal') !== 'off',
  closeStream: null,
  thinking: null,
  pollTimer: 0,
  busy: false,
  levels: [],
  analysisOpen: false,
  route: '/',
  typed: '', // first letter of a square being typed
};

let board;
let dialog;
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

// ---------------------------------------------------------------- start-up

function init() {
  initLanguage();
  applyTheme(safeGet('virada.theme'));
  translateDom();
  board = new BoardView($('board-root'), { onPlay: playSquare });
  dialog = new NewGameDialog($('new-dialog'), {
    levels: () => S.levels,
    onCreated: (game) => {
      clearNotice();
      showGame(game, { fresh: true });
      navigate('/', true);
    },
  });
  $('chk-legal').checked = S.showLegal;
  wireControls();
  api.levels().then((levels) => { S.levels = Array.isArray(levels) ? levels : []; dialog.fillLevels(); renderAll(); }).catch(() => {});
  window.addEventListener('popstate', () => routeFromLocation());
  routeFromLocation(true);
}

function wireControls() {
  document.addEventListener('click', (ev) => {
    const a = ev.target.closest('a[data-route]');
    if (a && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey) {
      ev.preventDefault();
      navigate(a.dataset.route);
      return;
    }
    const act = ev.target.closest('[data-action]');
    if (act && act.dataset.action === 'new') dialog.open();
    if (act && act.dataset.action === 'analyse') openAnalysis();
  });
  $('btn-undo').addEventListener('click', () => undoRedo('undo'));
  $('btn-redo').addEventListener('click', () => undoRedo('redo'));
  $('btn-hints').addEventListener('click', () => {
    S.hintsOn = !S.hintsOn;
    if (!S.hintsOn) S.hints = null;
    renderAll();
  });
  $('chk-legal').addEventListener('change', (ev) => {
    S.showLegal = ev.target.checked;
    safeSet('virada.legal', S.showLegal ? null : 'off');
    renderBoard(false);
  });
  $('btn-copy').addEventListener('click', copyTranscript);
  $('btn-paste').addEventListener('click', () => dialog.open({ start: 'setup' }));
  $('back-to-game').addEventListener('click', () => viewPly(null));
  $('lang-btn').addEventListener('click', () => {
    setLanguage(lang() === 'pt' ? 'en' : 'pt');
    relabelAll();
  });
  $('theme-btn').addEventListener('click', () => {
    const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
    safeSet('virada.theme', next);
    applyTheme(next);
  });
  $('move-list').addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-ply]');
    if (b) viewPly(Number(b.dataset.ply));
  });
  document.addEventListener('keydown', (ev) => {
    if (S.route !== '/' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target.tagName || '').toLowerCase();
    if (tag === 'input' || tag === 'textarea' || tag === 'select' || ev.target.closest('dialog, .board')) return;
    // Typing a square ("d3") plays it from anywhere on the page, as on the board.
    const k = ev.key.toLowerCase();
    if (k.length === 1 && k >= 'a' && k <= 'h') { S.typed = k; return; }
    if (k.length === 1 && k >= '1' && k <= '8' && S.typed) {
      const square = S.typed + k;
      S.typed = '';
      playSquare(square);
      return;
    }
    S.typed = '';
    if (!S.game) return;
    const n = S.game.plies.length;
    const cur = S.viewPly === null ? n : S.viewPly;
    if (ev.key === 'ArrowLeft' && cur > 0) { viewPly(cur - 1); ev.preventDefault(); }
    if (ev.key === 'ArrowRight' && cur < n) { viewPly(cur + 1); ev.preventDefault(); }
  });
}

function relabelAll() {
  translateDom();
  board.relabel();
  dialog.fillLevels();
  renderAll();
  if (S.route === '/rules') showRules();
  if (S.route === '/games') showGamesList();
  if (S.analysisOpen) renderAnalysisPanel();
}

// ---------------------------------------------------------------- theme

function effectiveTheme() {
  const set = document.documentElement.dataset.theme;
  if (set === 'dark' || set === 'light') return set;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function applyTheme(theme) {
  if (theme === 'dark' || theme === 'light') document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  const label = t(effectiveTheme() === 'dark' ? 'theme.light' : 'theme.dark');
  $('theme-btn').title = label;
  $('theme-btn').setAttribute('aria-label', label);
}

// ---------------------------------------------------------------- routing

function navigate(path, replace = false) {
  let url = path;
  if (path === '/' && S.game) url = '/?game=' + encodeURIComponent(S.game.id);
  if (url !== location.pathname + location.search) {
    if (replace) history.replaceState(null, '', url); else history.pushState(null, '', url);
  }
  routeFromLocation();
}

function routeFromLocation(first = false) {
  const path = location.pathname.replace(/\/+$/, '') || '/';
  S.route = path === '/rules' ? '/rules' : path === '/games' ? '/games' : '/';
  $('view-play').hidden = S.route !== '/';
  $('view-games').hidden = S.route !== '/games';
  $('view-rules').hidden = S.route !== '/rules';
  for (const a of document.querySelectorAll('.mainnav a')) {
    if (a.dataset.route === S.route) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  if (S.route === '/rules') showRules();
  else if (S.route === '/games') showGamesList();
  else {
    const wanted = new URLSearchParams(location.search).get('game') || (first ? safeGet('virada.lastGame') : null);
    if (wanted && (!S.game || S.game.id !== wanted)) loadGame(wanted);
    else renderAll();
  }
  document.title = S.route === '/rules' ? t('nav.rules') + ' · Virada' : S.route === '/games' ? t('nav.games') + ' · Virada' : 'Virada';
}

async function loadGame(id) {
  setStatusText(t('status.loading'));
  try {
    showGame(await api.getGame(id), { fresh: false });
    if (S.route === '/') history.replaceState(null, '', '/?game=' + encodeURIComponent(id));
  } catch (e) {
    if (e instanceof ApiError && e.code === 'not_found') {
      safeSet('virada.lastGame', null);
      history.replaceState(null, '', '/');
      S.game = null;
      renderAll();
    } else {
      showError(e);
    }
  }
}

// ---------------------------------------------------------------- game state

/** Switches to `game` (a different game, or a fresh copy of the current one). */
function showGame(game, { fresh }) {
  if (S.closeStream) S.closeStream();
  S.game = null;
  S.viewPly = null;
  S.hints = null;
  S.thinking = null;
  S.analysisOpen = false;
  $('analysis').hidden = true;
  S.drawnPlies = -1;
  S.animToken++;
  S.animating = false;
  safeSet('virada.lastGame', game.id);
  S.closeStream = subscribe(game.id, {
    onGame: (g) => update(g),
    onThinking: (info) => {
      S.thinking = info;
      renderStatus();
    },
  });
  update(game, { animate: fresh });
}

/** Takes a new state of the current game from a response, an event or a poll. */
function update(g, { animate = true, rewind = false } = {}) {
  const old = S.game;
  if (old && old.id !== g.id) return;
  if (old && isStale(old, g, rewind)) return;
  if (old && sameState(old, g)) {
    S.game = g;
    return;
  }
  const oldPlies = old ? old.plies : null;
  const extends_ = oldPlies && g.plies.length > oldPlies.length && isPrefix(oldPlies, g.plies);
  if (extends_) announcePasses(g, g.plies.slice(oldPlies.length));
  if (!g.computer_thinking) S.thinking = null;
  S.game = g;
  if (old && (g.plies.length !== old.plies.length || g.board !== old.board)) S.hints = null;
  if (S.viewPly !== null && S.viewPly > g.plies.length) S.viewPly = null;
  schedulePoll();
  if (S.viewPly === null && animate && S.drawnPlies >= 0 && g.plies.length > S.drawnPlies &&
      g.plies.length - S.drawnPlies <= 4 && (!oldPlies || extends_)) {
    animatePlies(g);
  } else {
    S.animToken++;
    S.animating = false;
    S.drawnPlies = g.plies.length;
    renderAll(false);
  }
}

/**
 * Whether `g` is older than what we show. Responses and events can cross (a move's response may
 * arrive after the event with the computer's reply), so: a smaller `version` is stale; without
 * versions, an older time is stale, and so is a strict prefix of the current moves unless we
 * asked for it (undo).
 */
function isStale(old, g, rewind) {
  if (typeof g.version === 'number' && typeof old.version === 'number') return g.version < old.version;
  const tg = Date.parse(g.updated_at);
  const to = Date.parse(old.updated_at);
  if (tg < to) return true;
  return !rewind && tg === to && g.plies.length < old.plies.length && isPrefix(g.plies, old.plies);
}

function isPrefix(short, long) {
  return short.length <= long.length && short.every((p, i) => p.move === long[i].move);
}

function sameState(a, b) {
  return a.updated_at === b.updated_at && a.plies.length === b.plies.length && a.board === b.board &&
    a.computer_thinking === b.computer_thinking && a.status === b.status && a.redo.length === b.redo.length;
}

/** Plays the new plies one after another so each flip can be seen. */
async function animatePlies(g) {
  const token = ++S.animToken;
  S.animating = true;
  renderAll(false);
  while (S.drawnPlies < g.plies.length) {
    const ply = g.plies[S.drawnPlies];
    S.drawnPlies++;
    if (ply.move !== 'pass') {
      board.render({ board: ply.board, legal: [], last: ply.move, showLegal: false, interactive: false, animate: true });
      setCounts(ply.black_discs, ply.white_discs);
      if (!reducedMotion.matches) await sleep(STEP_MS);
    }
    if (token !== S.animToken) return;
  }
  S.animating = false;
  renderAll(true);
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

function schedulePoll() {
  clearTimeout(S.pollTimer);
  if (!S.game || !S.game.computer_thinking) return;
  const id = S.game.id;
  // The event stream normally delivers the computer's move; polling is the safety net.
  S.pollTimer = setTimeout(async () => {
    if (!S.game || S.game.id !== id || !S.game.computer_thinking) return;
    try { update(await api.getGame(id)); } catch { schedulePoll(); }
  }, 1200);
}

function announcePasses(g, newPlies) {
  for (const p of newPlies) {
    if (p.move !== 'pass') continue;
    const other = colorName(p.color === 'black' ? 'white' : 'black');
    if (g.mode === 'computer' && p.color === g.human_color) setNotice(t('notice.passYou', { other }));
    else setNotice(t('notice.pass', { color: colorName(p.color) }));
  }
}

function isHumanTurn(g) {
  if (!g || g.status !== 'ongoing' || !g.side_to_move) return false;
  return g.mode === 'friend' || g.side_to_move === g.human_color;
}

// ---------------------------------------------------------------- actions

async function playSquare(square) {
  if (S.busy) return;
  if (!S.game) {
    // First click on an empty page: start a game with the remembered options.
    if (!START_LEGAL.includes(square)) return;
    S.busy = true;
    try {
      const game = await api.createGame(dialog.defaults());
      showGame(game, { fresh: false });
      navigate('/', true);
    } catch (e) {
      showError(e);
      S.busy = false;
      return;
    }
    S.busy = false;
    if (!isHumanTurn(S.game)) return;
  }
  const g = S.game;
  if (S.viewPly !== null || !isHumanTurn(g) || g.computer_thinking) return;
  if (!g.legal_moves.includes(square)) {
    setNotice(t('error.illegal_move') + ' (' + square + ')', true);
    return;
  }
  S.busy = true;
  clearNotice();
  try {
    update(await api.play(g.id, square));
  } catch (e) {
    showError(e);
    refresh();
  } finally {
    S.busy = false;
  }
}

async function undoRedo(which) {
  if (!S.game || S.busy) return;
  S.busy = true;
  clearNotice();
  S.viewPly = null;
  try {
    const g = await (which === 'undo' ? api.undo(S.game.id) : api.redo(S.game.id));
    update(g, { animate: which === 'redo', rewind: which === 'undo' });
  } catch (e) {
    showError(e);
  } finally {
    S.busy = false;
  }
}

async function refresh() {
  if (!S.game) return;
  try { update(await api.getGame(S.game.id)); } catch { /* keep what we have */ }
}

function viewPly(p) {
  if (!S.game) return;
  const n = S.game.plies.length;
  S.viewPly = p === null || p >= n ? null : Math.max(0, p);
  S.animToken++;
  S.animating = false;
  S.drawnPlies = n;
  renderAll(false);
}

async function copyTranscript() {
  const text = $('transcript').value;
  try {
    await navigator.clipboard.writeText(text);
    setNotice(t('notice.copied'));
  } catch {
    $('transcript').select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    setNotice(t(ok ? 'notice.copied' : 'notice.copyFailed'), !ok);
  }
}

// ---------------------------------------------------------------- rendering

function renderAll(animate = false) {
  renderBoard(animate);
  renderPlayers();
  renderStatus();
  renderMoveList();
  renderGameOver();
  renderButtons();
  maybeFetchHints();
}

/** Board, side to move, and the data attributes tests and assistive tech rely on. */
function boardState() {
  const g = S.game;
  if (!g) {
    return { board: START_BOARD, legal: START_LEGAL, last: null, interactive: true, ply: 0, counts: [2, 2] };
  }
  const n = g.plies.length;
  const p = S.viewPly === null ? n : S.viewPly;
  const boardStr = p === 0 ? g.start.board : g.plies[p - 1].board;
  let last = null;
  for (let i = p - 1; i >= 0; i--) {
    if (g.plies[i].move !== 'pass') { last = g.plies[i].move; break; }
  }
  const live = p === n;
  const counts = p === 0 ? countDiscs(g.start.board) : [g.plies[p - 1].black_discs, g.plies[p - 1].white_discs];
  return {
    board: boardStr,
    legal: live ? g.legal_moves : [],
    last,
    interactive: live && isHumanTurn(g) && !g.computer_thinking,
    ply: p,
    counts,
  };
}

function countDiscs(b) {
  let black = 0;
  let white = 0;
  for (const c of b) { if (c === 'X') black++; else if (c === 'O') white++; }
  return [black, white];
}

function renderBoard(animate) {
  if (S.animating) return;
  const st = boardState();
  const hints = S.hintsOn && S.hints && S.viewPly === null && S.hints.key === hintKey() ? S.hints.map : null;
  board.render({ board: st.board, legal: st.legal, last: st.last, hints, showLegal: S.showLegal, interactive: st.interactive, animate });
  const grid = $('board');
  const g = S.game;
  grid.dataset.ply = String(st.ply);
  grid.dataset.view = S.viewPly === null ? 'live' : String(S.viewPly);
  grid.dataset.status = g ? g.status : 'none';
  grid.dataset.turn = !g ? 'human' : g.status !== 'ongoing' ? 'none' : g.computer_thinking || !isHumanTurn(g) ? 'computer' : 'human';
  setCounts(st.counts[0], st.counts[1]);
}

function setCounts(black, white) {
  $('count-black').textContent = String(black);
  $('count-white').textContent = String(white);
  $('count-black').setAttribute('aria-label', t('counts.label', { black, white }));
  $('count-white').setAttribute('aria-label', t('counts.label', { black, white }));
}

function renderPlayers() {
  const g = S.game;
  for (const color of ['black', 'white']) {
    const box = $('player-' + color);
    let who = '';
    if (!g) who = color === 'black' ? t('player.you') : t('player.computer');
    else if (g.mode === 'computer') who = g.human_color === color ? t('player.you') : `${t('player.computer')}${g.level ? ' · ' + levelName(g.level) : ''}`;
    box.querySelector('.pwho').textContent = who;
    const live = !g || S.viewPly === null;
    box.classList.toggle('to-move', live && (g ? g.side_to_move === color : color === 'black'));
  }
}

function levelName(level) {
  const l = S.levels.find((x) => x.level === level);
  const name = l && l.name ? l.name[lang()] || l.name.en : '';
  if (!name) return String(level);
  return name.includes(String(level)) ? name : `${level} · ${name}`;
}

function setStatusText(text) { $('status-text').textContent = text; }

function renderStatus() {
  const g = S.game;
  const thinkingEl = $('thinking');
  if (!g) {
    setStatusText(t('status.yourTurn', { color: colorName('black') }));
    thinkingEl.hidden = true;
    return;
  }
  let text;
  if (g.status === 'finished') text = t('status.finished');
  else if (g.mode === 'friend') text = t('status.toMove', { color: colorName(g.side_to_move) });
  else if (isHumanTurn(g)) text = t('status.yourTurn', { color: colorName(g.side_to_move) });
  else text = t('status.computerTurn', { color: colorName(g.side_to_move) });
  setStatusText(text);
  thinkingEl.hidden = !g.computer_thinking;
  let detail = t('status.thinking');
  if (S.thinking && S.thinking.best) {
    detail += ' ' + t('status.thinkingDetail', { depth: S.thinking.depth, best: S.thinking.best, value: formatValue(S.thinking.value) });
  }
  $('thinking-text').textContent = detail;
  const banner = $('view-banner');
  banner.hidden = S.viewPly === null;
  if (S.viewPly !== null) {
    $('view-banner-text').textContent = S.viewPly === 0 ? t('status.viewingStart') : t('status.viewing', { ply: S.viewPly, total: g.plies.length });
  }
}

function renderMoveList() {
  const list = $('move-list');
  list.textContent = '';
  const g = S.game;
  $('transcript').value = g ? g.transcript : '';
  const ggf = $('link-ggf');
  if (g) ggf.href = api.exportUrl(g.id, 'ggf'); else ggf.removeAttribute('href');
  if (!g) {
    list.append(elt('p', 'empty-note', t('moves.none')));
    return;
  }
  const current = S.viewPly === null ? g.plies.length : S.viewPly;
  const kind = g.start && g.start.kind;
  const startLabel = kind === 'xot' ? t('moves.startXot', { opening: g.start.opening || '' }).trim()
    : kind === 'setup' ? t('moves.startSetup') : t('moves.start');
  const start = elt('button', 'start-btn', startLabel);
  start.type = 'button';
  start.dataset.ply = '0';
  if (current === 0) { start.classList.add('current'); start.setAttribute('aria-current', 'true'); }
  list.append(start);
  let row = 0;
  let slot = 2; // 0: black, 1: white; 2 means "start a new row"
  g.plies.forEach((p, i) => {
    const col = p.color === 'black' ? 0 : 1;
    if (col === 0 || slot !== 0) {
      row++;
      list.append(elt('span', 'num', row + '.'));
      if (col === 1) list.append(elt('span', '', '…'));
    }
    const b = elt('button', p.move === 'pass' ? 'pass' : '', p.move === 'pass' ? t('moves.pass') : p.move);
    b.type = 'button';
    b.dataset.ply = String(i + 1);
    b.setAttribute('aria-label', `${i + 1}. ${colorName(p.color)} ${p.move === 'pass' ? t('moves.pass') : p.move}`);
    if (current === i + 1) { b.classList.add('current'); b.setAttribute('aria-current', 'true'); }
    list.append(b);
    slot = col === 0 ? 0 : 2;
  });
  const cur = list.querySelector('.current');
  if (cur && S.viewPly === null) list.scrollTop = list.scrollHeight;
}

function renderGameOver() {
  const g = S.game;
  const box = $('gameover');
  const show = !!(g && g.status === 'finished' && g.result && S.viewPly === null);
  box.hidden = !show;
  if (!show) return;
  const r = g.result;
  let winner;
  if (!r.winner) winner = t('over.draw');
  else if (g.mode === 'computer') winner = r.winner === g.human_color ? t('over.youWin') : t('over.youLose');
  else winner = t('over.winner', { color: colorName(r.winner) });
  $('gameover-winner').textContent = winner;
  const wipe = r.black_score === 64 || r.white_score === 64 ? ' · ' + t('over.wipeout') : '';
  $('gameover-score').textContent = t('over.score', { black: r.black_score, white: r.white_score }) + wipe;
  const discs = $('gameover-discs');
  discs.hidden = !r.wof_differs;
  discs.textContent = r.wof_differs
    ? t('over.discs', { black: r.black_discs, white: r.white_discs, empties: 64 - r.black_discs - r.white_discs })
    : '';
}

function renderButtons() {
  const g = S.game;
  const thinking = !!(g && g.computer_thinking);
  $('btn-undo').disabled = !g || g.plies.length === 0;
  $('btn-redo').disabled = !g || !g.redo || g.redo.length === 0 || thinking;
  $('btn-hints').setAttribute('aria-pressed', String(S.hintsOn));
  $('btn-analyse').disabled = !g || g.plies.length === 0;
  $('btn-copy').disabled = !g;
  const info = $('hint-info');
  info.hidden = !S.hintsOn;
  if (S.hintsOn) info.textContent = S.hints && S.hints.key === hintKey() ? t('hint.legend') : isHumanTurn(g) ? t('hint.loading') : t('hint.legend');
}

// ---------------------------------------------------------------- hints

function hintKey() { return S.game ? `${S.game.id}:${S.game.plies.length}:${S.game.board}` : ''; }

async function maybeFetchHints() {
  const g = S.game;
  if (!S.hintsOn || !g || S.viewPly !== null || !isHumanTurn(g) || g.computer_thinking || S.animating) return;
  const key = hintKey();
  if ((S.hints && S.hints.key === key) || S.hintPending === key) return;
  S.hintPending = key;
  try {
    const h = await api.hint(g.id);
    if (hintKey() !== key) return;
    const map = new Map();
    for (const m of h.moves || []) map.set(m.square, m);
    S.hints = { key, map };
    renderBoard(false);
    renderButtons();
  } catch (e) {
    showError(e);
  } finally {
    if (S.hintPending === key) S.hintPending = null;
  }
}

// ---------------------------------------------------------------- analysis, pages

async function openAnalysis() {
  if (!S.game) return;
  S.analysisOpen = true;
  const panel = $('analysis');
  panel.hidden = false;
  const body = $('analysis-body');
  body.textContent = t('analysis.loading');
  panel.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  const id = S.game.id;
  try {
    const [mod, data] = await Promise.all([import('./analysis.js'), api.analysis(id)]);
    if (!S.game || S.game.id !== id) return;
    S.analysis = { mod, data };
    renderAnalysisPanel();
  } catch (e) {
    body.textContent = errorText(e);
  }
}

function renderAnalysisPanel() {
  if (!S.analysis || !S.game) return;
  S.analysis.mod.renderAnalysis($('analysis-body'), S.analysis.data, S.game, {
    onPly: (p) => viewPly(p),
  });
}

async function showRules() {
  const mod = await import('./rules.js');
  $('rules-content').innerHTML = mod.rulesHtml(lang());
  document.title = t('nav.rules') + ' · Virada';
}

async function showGamesList() {
  const mod = await import('./games.js');
  mod.renderGamesList($('view-games'), {
    levelName,
    open: (id) => {
      history.pushState(null, '', '/?game=' + encodeURIComponent(id));
      if (S.game && S.game.id === id) { S.game = null; }
      routeFromLocation();
    },
    onError: showError,
  });
}

// ---------------------------------------------------------------- notices

function setNotice(text, isError = false) {
  const n = $('notice');
  n.textContent = text;
  n.classList.toggle('error', isError);
}

function clearNotice() { setNotice(''); }

function errorText(e) {
  if (e instanceof ApiError) {
    const key = 'error.' + e.code;
    const known = t(key) !== key;
    if (e.code === 'network') return t('error.network');
    if (known) return t(key) + (lang() === 'en' && e.message ? ' ' + e.message : '');
    return t('error.generic', { message: e.message });
  }
  return t('error.generic', { message: String(e && e.message ? e.message : e) });
}

function showError(e) { setNotice(errorText(e), true); }

function elt(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

init();
