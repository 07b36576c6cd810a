// @ts-check
// The opening explorer (/explorer?line=f5d6): for the position a line of moves reaches, the moves
// tournament players chose there (GET /api/explorer: games, Black's results, the strongest
// players who chose each, the book's value, the opening names). A move of the table or of the
// board goes one move deeper; the line above goes back. The address holds the line, so Back and
// a shared link work.

import { apiRequest, ApiError } from '../core/api.js';
import { BoardView, formatValue } from '../core/board.js';
import { formatNumber, lang, t } from '../core/i18n.js';
import { el } from '../core/dom.js';
import { errorText } from '../core/notice.js';
import './explorer-text.js';

/** @type {HTMLElement | null} */
let root = null;
/** @type {BoardView | null} */
let board = null;
/** @type {(path: string) => void} */
let go = () => {};
/** The answer shown, kept to redraw on a language switch without asking again. */
/** @type {ExplorerView | null} */
let shown = null;
let asked = '';

/** The compact line of the address (`f5d6`), lower case, or ''. */
function lineOf(search) {
  return (new URLSearchParams(search).get('line') || '').trim().toLowerCase();
}

/** The address of the explorer at `line`. */
export function explorerPath(line) {
  return line ? '/explorer?line=' + encodeURIComponent(line) : '/explorer';
}

/**
 * Draws the explorer for the address' query.
 * @param {HTMLElement} el_
 * @param {string} search
 * @param {{navigate: (path: string) => void}} opts
 */
export async function renderExplorer(el_, search, { navigate }) {
  go = navigate;
  const line = lineOf(search);
  if (root !== el_ || !board || !root.contains(board.grid)) mount(el_);
  if (shown && asked === line) { draw(shown); return; }
  asked = line;
  document.title = t('ex.title') + ' · Virada';
  const status = /** @type {HTMLElement} */ (root.querySelector('.explorer-status'));
  root.dataset.state = 'loading';
  try {
    /** @type {ExplorerView} */
    const view = await apiRequest('GET', '/api/explorer?line=' + encodeURIComponent(line));
    if (asked !== line) return; // a newer address is being drawn
    shown = view;
    draw(view);
  } catch (e) {
    if (asked !== line) return;
    shown = null;
    status.textContent = lineError(e);
    status.classList.add('error');
    /** @type {HTMLElement} */ (root.querySelector('.explorer-moves')).hidden = true;
    root.dataset.state = 'error';
  }
}

/** What is wrong with the address' line, in the page's language (the square when one is named). */
function lineError(e) {
  if (e instanceof ApiError && e.code === 'illegal_move' && e.square) return t('ex.illegal', { square: e.square });
  if (e instanceof ApiError && e.code === 'bad_request') return t('ex.badLine', { max: 20 });
  return errorText(e);
}

function mount(el_) {
  root = el_;
  root.textContent = '';
  const head = el('div', 'explorer-head');
  const h1 = el('h1', '', '');
  h1.id = 'explorer-title';
  head.append(h1, el('p', 'muted explorer-desc'));
  const crumbs = el('nav', 'explorer-line');
  const layout = el('div', 'explorer-layout');
  const boardBox = el('div', 'explorer-board');
  board = new BoardView(boardBox, {
    id: 'explorer-board',
    onPlay: (sq) => { if (shown) go(explorerPath(shown.line + sq)); },
  });
  const side = el('div', 'explorer-side');
  side.append(
    el('p', 'explorer-status'),
    el('p', 'explorer-opening'),
    el('p', 'explorer-book muted'),
  );
  const wrap = el('div', 'explorer-table-wrap');
  wrap.append(el('table', 'explorer-moves'));
  side.append(wrap, el('p', 'muted small explorer-source'));
  layout.append(boardBox, side);
  root.append(head, crumbs, layout);
}

/** A number with its sign, one decimal (the page's language). */
function signed(v) { return formatValue(v); }

/** @param {ExplorerView} v */
function draw(v) {
  if (!root || !board) return;
  root.dataset.state = 'ready';
  root.dataset.line = v.line;
  document.title = t('ex.title') + ' · Virada';
  /** @type {HTMLElement} */ (root.querySelector('#explorer-title')).textContent = t('ex.title');
  /** @type {HTMLElement} */ (root.querySelector('.explorer-desc')).textContent = t('ex.desc', { plies: v.max_plies });
  drawLine(v);
  board.render({
    board: v.board,
    legal: v.legal_moves,
    last: v.line.length >= 2 ? v.line.slice(-2) : null,
    showLegal: true,
    interactive: v.side_to_move !== null,
    animate: false,
  });
  board.relabel();
  const status = /** @type {HTMLElement} */ (root.querySelector('.explorer-status'));
  status.classList.remove('error');
  const r = v.results;
  if (v.side_to_move === null) status.textContent = t('ex.over');
  else if (!v.known) status.textContent = t('ex.unknown', { n: v.min_games });
  else {
    status.textContent = t('ex.summary', {
      games: t('ex.games', { n: r.games }),
      wins: formatNumber(r.black_wins),
      draws: formatNumber(r.draws),
      losses: formatNumber(r.white_wins),
      score: formatNumber(r.black_score, 1),
      avg: signed(r.black_average),
    });
  }
  const name = (n) => (lang() === 'pt' ? n.pt : n.en);
  /** @type {HTMLElement} */ (root.querySelector('.explorer-opening')).textContent = v.opening
    ? t('ex.opening', { name: name(v.opening.name) }) : t('ex.noOpening');
  /** @type {HTMLElement} */ (root.querySelector('.explorer-book')).textContent = v.book
    ? t(v.book.exact ? 'ex.bookExact' : 'ex.book', { value: signed(v.book.black_value), depth: v.book.depth }) : '';
  drawTable(v, name);
  /** @type {HTMLElement} */ (root.querySelector('.explorer-source')).textContent = t('ex.source', { source: v.source });
}

/** The line as buttons: the start, then each move; a button goes back to that position. */
function drawLine(v) {
  const nav = /** @type {HTMLElement} */ (root.querySelector('.explorer-line'));
  nav.textContent = '';
  nav.setAttribute('aria-label', t('ex.line'));
  const moves = v.line.match(/../g) || [];
  const crumb = (text, upto) => {
    const a = /** @type {HTMLAnchorElement} */ (el('a', 'explorer-crumb', text));
    const path = explorerPath(moves.slice(0, upto).join(''));
    a.href = path;
    a.dataset.route = path;
    if (upto === moves.length) a.setAttribute('aria-current', 'page');
    return a;
  };
  nav.append(crumb(t('ex.start'), 0));
  moves.forEach((m, i) => {
    nav.append(el('span', 'num', (i % 2 === 0 ? `${i / 2 + 1}.` : '')), crumb(m === 'pa' ? '—' : m, i + 1));
  });
}

/** @param {ExplorerView} v @param {(n: {en: string, pt: string}) => string} name */
function drawTable(v, name) {
  const table = /** @type {HTMLTableElement} */ (root.querySelector('.explorer-moves'));
  table.textContent = '';
  if (!v.moves.length) { table.hidden = true; return; }
  table.hidden = false;
  const head = el('tr', '');
  for (const k of ['move', 'games', 'score', 'avg', 'book', 'opening', 'players']) {
    const th = el('th', 'col-' + k, t('ex.col.' + k));
    th.setAttribute('scope', 'col');
    head.append(th);
  }
  const thead = el('thead', '');
  thead.append(head);
  const body = el('tbody', '');
  for (const m of v.moves) {
    const tr = el('tr', m.results.games ? '' : 'book-only');
    tr.dataset.square = m.square;
    const cell = (cls, text) => { const td = el('td', cls, text); tr.append(td); return td; };
    const first = el('td', 'col-move');
    const a = /** @type {HTMLAnchorElement} */ (el('a', 'explorer-move', m.square));
    const path = explorerPath(v.line + m.square);
    a.href = path;
    a.dataset.route = path;
    a.setAttribute('aria-label', t('ex.playMove', { move: m.square }));
    first.append(a);
    if (m.same_as.length) first.append(el('span', 'muted small same-as', ' ' + t('ex.sameAs', { squares: m.same_as.join(', ') })));
    tr.append(first);
    const g = m.results;
    cell('col-games', g.games ? formatNumber(g.games) : t('ex.bookOnly'));
    cell('col-score', g.games ? formatNumber(g.black_score, 1) + '%' : '');
    cell('col-avg', g.games ? signed(g.black_average) : '');
    cell('col-book', m.book ? signed(m.book.black_value) : '');
    cell('col-opening', m.opening ? name(m.opening.name) : '');
    cell('col-players', m.players.length
      ? m.players.map((p) => t('ex.player', { name: p.name, elo: p.elo })).join(', ') : t('ex.noPlayers'));
    body.append(tr);
  }
  table.append(thead, body);
}
