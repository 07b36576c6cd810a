// @ts-check
// The puzzle page (/learn?puzzle, /learn?puzzle=<id>, /learn?puzzle=daily): a shipped puzzle on
// the real board component. The learner plays the solver's moves; the server judges each one
// (POST /api/puzzles/{id}/attempt: right with the opponent's answer, solved, or wrong with the
// refutation), gives hints and keeps this browser's puzzle rating. The board positions come from
// the server's rules (POST /api/position): the page never re-implements them.

import { api } from '../core/api.js';
import { BoardView } from '../core/board.js';
import { colorName, lang, safeGet, safeSet, t } from '../core/i18n.js';
import { resultText, movesText, deltaText } from './puzzles-text.js';
import { el, button } from '../core/dom.js';

const THEME_KEY = 'virada.puzzleTheme';
/** Pause between the learner's move and the opponent's answer, so both are seen. */
const REPLY_DELAY_MS = 350;

let root = null;
/** @type {(path: string) => void} */
let onNavigate = () => {};
let run = null; // the puzzle on the page (kept across redraws: a language switch)
let prefetched = null; // a puzzle fetched by "Next", shown by the navigation it causes
let themes = null; // [{theme, puzzles}] from /api/puzzles/me

/** Draws the page for the address' query `q` (URLSearchParams with `puzzle`). */
export async function renderPuzzles(el, q, { navigate }) {
  root = el;
  onNavigate = navigate;
  const key = q.get('puzzle') || '';
  if (run && run.key === key && root.contains(run.board.grid)) {
    run.redraw();
    return;
  }
  run = new Run(key);
  run.mount();
  await run.load();
}

class Run {
  constructor(key) {
    this.key = key;
    this.view = null;
    this.reset();
  }

  reset() {
    this.mine = []; // the solver's moves so far (all right)
    this.played = []; // every square played from the start (the solver's and the replies)
    this.status = 'playing'; // 'playing' | 'wrong' | 'solved'
    this.hintLevel = 0;
    this.busy = false;
    this.say(null);
  }

  mount() {
    root.textContent = '';
    const head = el('div', 'learn-head');
    this.title = el('h1', '', t('pz.title'));
    this.title.id = 'puzzle-title';
    this.info = el('p', 'muted puzzle-info');
    this.info.id = 'puzzle-info';
    this.back = button('btn small', t('pz.back'), 'puzzle-back', () => onNavigate('/learn'));
    head.append(this.title, this.back);
    const layout = el('div', 'learn-layout');
    const boardRoot = el('div', 'learn-board-root');
    this.board = new BoardView(boardRoot, { id: 'puzzle-board', onPlay: (sq) => this.play(sq) });
    const panel = el('div', 'learn-panel');
    this.task = el('p', 'learn-task');
    this.task.id = 'puzzle-task';
    this.feedback = el('p', 'learn-feedback');
    this.feedback.id = 'puzzle-feedback';
    this.feedback.setAttribute('aria-live', 'polite');
    this.line = el('p', 'muted');
    this.line.id = 'puzzle-line';
    const btns = el('div', 'row-btns');
    this.hintBtn = button('btn', t('pz.hint'), 'puzzle-hint', () => this.hint());
    this.retryBtn = button('btn', t('pz.retry'), 'puzzle-retry', () => this.retry());
    this.nextBtn = button('btn primary', t('pz.next'), 'puzzle-next', () => this.next());
    btns.append(this.hintBtn, this.retryBtn, this.nextBtn);
    const tools = el('div', 'puzzle-tools');
    this.themeLabel = el('label', '', t('pz.theme') + ' ');
    this.themeSelect = document.createElement('select');
    this.themeSelect.id = 'puzzle-theme';
    this.themeSelect.addEventListener('change', () => {
      safeSet(THEME_KEY, this.themeSelect.value || null);
      this.next();
    });
    this.themeLabel.append(this.themeSelect);
    this.dailyBtn = button('btn small', t('pz.daily'), 'puzzle-daily', () => onNavigate('/learn?puzzle=daily'));
    tools.append(this.themeLabel, this.dailyBtn);
    this.rating = el('p', 'muted small');
    this.rating.id = 'puzzle-rating';
    panel.append(this.task, this.feedback, this.line, btns, tools, this.rating);
    layout.append(boardRoot, panel);
    root.append(head, this.info, layout);
    this.board.grid.dataset.state = 'loading';
    this.drawButtons();
  }

  /** Fetches the puzzle (or the next one) and the themes, then sets up its start. */
  async load() {
    try {
      if (!themes) themes = (await api.puzzleMe()).themes;
      this.fillThemes();
      if (prefetched && prefetched.id === this.key) this.view = prefetched;
      else if (this.key === 'daily') this.view = await api.dailyPuzzle();
      else if (this.key) this.view = await api.puzzle(this.key);
      else {
        this.view = await api.nextPuzzle(safeGet(THEME_KEY) || '');
        this.key = this.view.id;
        history.replaceState(null, '', '/learn?puzzle=' + encodeURIComponent(this.view.id));
      }
      prefetched = null;
      this.solver = this.view.solver;
      this.setup = `${this.view.board} ${this.view.side_to_move === 'black' ? 'X' : 'O'}`;
      await this.start();
    } catch (e) {
      this.board.grid.dataset.state = 'error';
      this.say(() => t(e.code === 'not_found' ? 'pz.notFound' : 'pz.failed'), false);
      this.drawButtons();
    }
  }

  fillThemes() {
    const chosen = safeGet(THEME_KEY) || '';
    this.themeSelect.textContent = '';
    const all = document.createElement('option');
    all.value = '';
    all.textContent = t('pz.allThemes');
    this.themeSelect.append(all);
    for (const theme of themes || []) {
      const o = document.createElement('option');
      o.value = theme.theme;
      o.textContent = t('pz.themeCount', { name: t('theme.' + theme.theme), n: theme.puzzles });
      this.themeSelect.append(o);
    }
    this.themeSelect.value = chosen;
  }

  async start() {
    this.reset();
    this.drawText();
    const res = await api.position(this.setup, []);
    this.draw(res, null, null, false);
  }

  /** The texts again, in the page's language (the position and the state stay). */
  redraw() {
    this.board.relabel();
    this.back.textContent = t('pz.back');
    this.hintBtn.textContent = t('pz.hint');
    this.retryBtn.textContent = t('pz.retry');
    this.nextBtn.textContent = t('pz.next');
    this.dailyBtn.textContent = t('pz.daily');
    this.themeLabel.firstChild.textContent = t('pz.theme') + ' ';
    this.fillThemes();
    if (this.view) this.drawText();
    if (this.lastSay) this.say(this.lastSay, this.lastOk, this.lastLine);
  }

  drawText() {
    const v = this.view;
    const color = colorName(v.side_to_move);
    this.title.textContent = v.daily ? t('pz.dailyOf', { day: v.daily }) : t('pz.title');
    document.title = this.title.textContent + ' · Virada';
    const names = v.themes.map((theme) => t('theme.' + theme)).join(', ');
    this.info.textContent = t('pz.info', { rating: v.rating, empties: v.empties, themes: names });
    const count = t('pz.moves', { n: v.solver_moves });
    const task = v.kind === 'midgame' ? t('pz.taskMid', { color }) : t('pz.task', { color, result: resultText(v.best_score) });
    this.task.textContent = task + ' ' + count;
    const s = this.solver;
    this.rating.textContent = s.attempts
      ? t('pz.rating', { rating: s.rating, rd: s.rd, solved: s.solved, attempts: s.attempts })
      : t('pz.ratingNew', { rating: s.rating, rd: s.rd });
  }

  drawButtons() {
    const loaded = !!this.view;
    this.hintBtn.hidden = !loaded || this.status !== 'playing' || this.hintLevel >= 2;
    this.retryBtn.hidden = !loaded || this.status === 'playing';
    this.nextBtn.hidden = false;
  }

  draw(res, last, marks, animate) {
    this.pos = res;
    const interactive = this.status === 'playing' && !this.busy && res.status === 'ongoing';
    this.board.render({ board: res.board, legal: res.legal_moves, last, showLegal: interactive, interactive, animate, marks });
    const g = this.board.grid;
    g.dataset.puzzle = this.view.id;
    g.dataset.state = this.busy ? 'busy' : this.status;
    g.dataset.found = String(this.mine.length);
    g.dataset.turn = res.side_to_move || 'none';
    this.drawButtons();
  }

  /** Shows `text` (a function, so a language switch can phrase it again) as right, wrong or neutral. */
  say(text, ok = null, line = null) {
    this.lastSay = text;
    this.lastOk = ok;
    this.lastLine = line;
    if (!this.feedback) return;
    this.feedback.textContent = text ? text() : '';
    this.feedback.classList.toggle('ok', ok === true);
    this.feedback.classList.toggle('bad', ok === false);
    this.line.textContent = line ? line() : '';
  }

  async play(sq) {
    if (this.busy || this.status !== 'playing' || !this.view) return;
    this.busy = true;
    this.board.grid.dataset.state = 'busy';
    let res;
    try {
      res = await api.puzzleAttempt(this.view.id, [...this.mine, sq]);
    } catch (e) {
      this.busy = false;
      this.board.grid.dataset.state = this.status;
      if (e.code === 'illegal_move') this.say(() => t('pz.notMove', { square: sq }), false);
      else this.say(() => t(e.code === 'too_many_requests' ? 'pz.busy' : 'pz.failed'), false);
      return;
    }
    const before = this.solver;
    this.solver = res.solver;
    const rated = () => (res.rated ? t('pz.change', { rating: res.solver.rating, delta: deltaText(res.solver.rating - before.rating) }) : t('pz.unrated'));
    // The server writes the feedback from the move's facts in both languages; the page shows
    // it in the language of the moment (a switch redraws it).
    const said = () => (res.feedback && (res.feedback[lang()] || res.feedback.en)) || '';
    const after = await api.position(this.setup, [...this.played, sq]).catch(() => null);
    if (res.result === 'continue') {
      this.mine.push(sq);
      this.hintLevel = 0;
      if (after) this.draw(after, sq, new Map([[sq, ['right']]]), true);
      await sleep(REPLY_DELAY_MS);
      this.played.push(sq, ...res.reply.filter((m) => m !== 'pass'));
      const squares = res.reply.filter((m) => m !== 'pass');
      const pos = await api.position(this.setup, this.played).catch(() => after);
      this.busy = false;
      this.draw(pos, squares[squares.length - 1] || null, null, true);
      this.say(said, true);
      return;
    }
    this.busy = false;
    if (res.result === 'solved') {
      this.mine.push(sq);
      this.played.push(sq);
      this.status = 'solved';
      this.draw(after, sq, new Map([[sq, ['right']]]), true);
      this.say(() => said() + ' ' + rated(), true);
      this.drawText();
      this.nextBtn.focus();
      return;
    }
    // Wrong: the move, then the opponent's answer from the refutation, on the board.
    this.status = 'wrong';
    const reply = res.refutation[0];
    const text = () => said() + ' ' + rated();
    const line = res.refutation.length ? () => t('pz.line', { line: movesText([sq, ...res.refutation]) }) : null;
    const marks = new Map([[sq, ['wrong']]]);
    if (after) this.draw(after, sq, marks, true);
    if (reply && reply !== 'pass') {
      await sleep(REPLY_DELAY_MS);
      const pos = await api.position(this.setup, [...this.played, sq, reply]).catch(() => null);
      if (pos) {
        marks.set(reply, ['target']);
        this.draw(pos, reply, marks, true);
      }
    }
    this.say(text, false, line);
    this.drawText();
    this.retryBtn.focus();
  }

  async hint() {
    if (this.busy || this.status !== 'playing' || !this.view) return;
    const level = Math.min(2, this.hintLevel + 1);
    let res;
    try {
      res = await api.puzzleHint(this.view.id, this.mine, level);
    } catch (e) {
      this.say(() => t(e.code === 'too_many_requests' ? 'pz.busy' : 'pz.failed'), false);
      return;
    }
    this.hintLevel = level;
    this.solver = res.solver;
    const marks = new Map(res.region.map((s) => [s, ['coach']]));
    if (res.square) marks.set(res.square, ['coach', 'best']);
    const rated = res.rated;
    this.say(() => (res.square ? t('pz.hintSquare', { square: res.square }) : t('pz.hintRegion')) + (rated ? ' ' + t('pz.hintRated') : ''), null);
    this.draw(this.pos, null, marks, false);
    this.drawText();
  }

  async retry() {
    if (this.busy) return;
    this.status = 'playing';
    await this.start();
  }

  async next() {
    if (this.busy) return;
    this.busy = true;
    try {
      prefetched = await api.nextPuzzle(this.themeSelect.value || '', this.view ? this.view.id : '');
    } catch (e) {
      this.busy = false;
      this.say(() => t(e.code === 'too_many_requests' ? 'pz.busy' : 'pz.failed'), false);
      return;
    }
    this.busy = false;
    onNavigate('/learn?puzzle=' + encodeURIComponent(prefetched.id));
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

