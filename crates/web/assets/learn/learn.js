// @ts-check
// The learning page (/learn): the tutorial "Learn in a minute" and the strategy lessons, played
// on the real board component. Every move is judged by the server's rules (POST /api/position:
// what it flips, whether it is a move at all, passes, the end and the score); the page only
// decides whether it is the move the step asks for, and says why.

import { api } from '../core/api.js';
import { BoardView } from '../core/board.js';
import { lang, safeGet, safeSet, t } from '../core/i18n.js';
import { squareList } from './learn-text.js';
import { LESSONS, sides } from './lessons-text.js';
import './puzzles-text.js';
import './practice-text.js';
import { TUTORIAL } from './tutorial.js';
import { el, button } from '../core/dom.js';

export const TUTORIAL_DONE_KEY = 'virada.tutorialDone';
const PROGRESS_KEY = 'virada.lessons';

let root = null;
let data = null; // lessons.json, once loaded
let current = null; // the running tutorial or lesson (kept across redraws: a language switch)
/** @type {(path: string) => void} */
let onNavigate = () => {};

/**
 * Draws the page for `search` (the address' query: `?tutorial`, `?lesson=<id>`, `?puzzle[=<id>]`
 * (puzzles.js) or none).
 */
export async function renderLearn(el, search, { navigate }) {
  root = el;
  onNavigate = navigate;
  const q = new URLSearchParams(search);
  if (q.has('practice')) {
    await practice(el, q.get('practice'));
    return;
  }
  if (q.has('puzzle')) {
    current = null;
    const mod = await import('./puzzles.js');
    await mod.renderPuzzles(el, q, { navigate });
    return;
  }
  if (!data) {
    try {
      const res = await fetch('/assets/learn/lessons.json');
      data = await res.json();
    } catch {
      data = { lessons: [] };
    }
  }
  const want = q.has('tutorial') ? 'tutorial' : q.get('lesson') || 'menu';
  if (current && current.key === want) {
    current.redraw();
    return;
  }
  if (want === 'tutorial') current = new Run('tutorial', tutorialSteps());
  else if (want !== 'menu' && lesson(want)) current = new Run(want, lessonSteps(lesson(want)));
  else current = null;
  if (current) current.mount();
  else menu();
}

/** `/learn?practice`: the list of practice sets, or the run of set `id`. */
async function practice(host, id) {
  const mod = await import('./practice.js');
  if (!id) {
    current = null;
    await mod.renderPracticeList(host, { navigate: onNavigate });
    return;
  }
  const want = 'practice:' + id;
  if (current && current.key === want) {
    current.redraw();
    return;
  }
  const set = await mod.findSet(id);
  if (!set || set.items.length === 0) {
    current = null;
    await mod.renderPracticeList(host, { navigate: onNavigate });
    const missing = el('p', 'learn-feedback bad', t('pr.missing'));
    missing.id = 'practice-missing';
    host.insertBefore(missing, host.children[1] || null);
    return;
  }
  current = new Run(want, mod.practiceSteps(set), mod.runOptions(set));
  current.mount();
}

function lesson(id) {
  return LESSONS[id] && (data.lessons || []).find((l) => l.id === id && l.positions && l.positions.length);
}

// ---------------------------------------------------------------- progress (this browser)

function progress() {
  try { return JSON.parse(safeGet(PROGRESS_KEY) || '{}') || {}; } catch { return {}; }
}

function solve(positionId) {
  const p = progress();
  p[positionId] = true;
  safeSet(PROGRESS_KEY, JSON.stringify(p));
}

// ---------------------------------------------------------------- the menu

function menu() {
  root.textContent = '';
  document.title = t('learn.title') + ' · Virada';
  root.append(el('h1', '', t('learn.title')), el('p', 'learn-intro', t('learn.intro')));
  const tut = el('section', 'learn-card');
  tut.append(el('h2', '', t('learn.tutorial')), el('p', '', t('learn.tutorialDesc')));
  const start = button('btn primary', t('learn.start'), 'learn-tutorial', () => onNavigate('/learn?tutorial'));
  tut.append(start);
  if (safeGet(TUTORIAL_DONE_KEY)) tut.append(el('span', 'learn-done', ' ✓ ' + t('learn.tutorialDone')));
  const pz = el('section', 'learn-card');
  pz.append(el('h2', '', t('pz.title')), el('p', '', t('pz.desc')));
  const pzBtns = el('div', 'row-btns');
  pzBtns.append(
    button('btn primary', t('pz.solve'), 'learn-puzzles', () => onNavigate('/learn?puzzle')),
    button('btn', t('pz.daily'), 'learn-daily', () => onNavigate('/learn?puzzle=daily')),
  );
  pz.append(pzBtns);
  const pr = el('section', 'learn-card');
  pr.append(el('h2', '', t('pr.title')), el('p', '', t('pr.desc')));
  pr.append(button('btn', t('pr.open'), 'learn-practice', () => onNavigate('/learn?practice')));
  root.append(tut, pz, pr, el('h2', '', t('learn.lessons')));
  const list = el('ol', 'lesson-list');
  const done = progress();
  for (const l of data.lessons || []) {
    const text = LESSONS[l.id];
    if (!text || !l.positions || !l.positions.length) continue;
    const li = el('li', '');
    const solved = l.positions.filter((p) => done[p.id]).length;
    const b = button('lesson-link', text.title(), 'lesson-' + l.id, () => onNavigate('/learn?lesson=' + l.id));
    li.append(b, el('span', 'lesson-progress', ' ' + t('learn.progress', { done: solved, total: l.positions.length })));
    li.append(el('p', 'muted', text.text()));
    list.append(li);
  }
  root.append(list);
}

// ---------------------------------------------------------------- a run of steps on the board

/**
 * A tutorial or a lesson: steps shown one at a time on a board. A step has `setup` (set-up text
 * for the server), `showLegal`, `marks` (square -> marks), `title()`, `task(ctx)`, and
 * `judge(ctx, move, res, newPlies)` -> {ok, text, next?: 'phase'|'done'}; `illegal(ctx, sq)` may
 * answer a click on a square that is no move.
 */
class Run {
  /**
   * @param {{back?: string, backKey?: string, finishText?: () => string}} [opts] where "back"
   *   goes and its label (the lessons by default), the closing words (the lesson's count).
   */
  constructor(key, steps, opts = {}) {
    this.key = key;
    this.steps = steps;
    this.opts = opts;
    this.index = 0;
    this.solved = 0;
  }

  mount() {
    root.textContent = '';
    this.head = el('div', 'learn-head');
    this.title = el('h1', '');
    this.title.id = 'learn-title';
    this.counter = el('p', 'muted');
    this.counter.id = 'learn-counter';
    const back = button('btn small', t(this.backKey()), 'learn-back', () => onNavigate(this.opts.back || '/learn'));
    back.dataset.i18nLearn = this.backKey();
    this.back = back;
    this.head.append(this.title, this.counter, back);
    const layout = el('div', 'learn-layout');
    const boardRoot = el('div', 'learn-board-root');
    this.board = new BoardView(boardRoot, { id: 'learn-board', onPlay: (sq) => this.play(sq) });
    const panel = el('div', 'learn-panel');
    this.intro = el('p', 'learn-idea');
    this.intro.id = 'learn-idea';
    this.task = el('p', 'learn-task');
    this.task.id = 'learn-task';
    this.feedback = el('p', 'learn-feedback');
    this.feedback.id = 'learn-feedback';
    this.feedback.setAttribute('aria-live', 'polite');
    this.source = el('p', 'muted small');
    const btns = el('div', 'row-btns');
    this.retryBtn = button('btn', t('learn.retry'), 'learn-retry', () => this.startStep());
    this.answerBtn = button('btn', t('learn.showAnswer'), 'learn-answer', () => this.showAnswer());
    this.nextBtn = button('btn primary', t('learn.next'), 'learn-next', () => this.next());
    // A step with a hint (practice: the coach's words) offers it while the move is sought.
    this.hintBtn = button('btn', t('pr.hint'), 'learn-hint', () => this.showHint());
    btns.append(this.hintBtn, this.retryBtn, this.answerBtn, this.nextBtn);
    panel.append(this.intro, this.task, this.feedback, btns, this.source);
    layout.append(boardRoot, panel);
    root.append(this.head, layout);
    this.startStep();
  }

  /** Text again in the page's language (the position and the state stay). */
  redraw() {
    if (!this.board || !root.contains(this.board.grid)) { this.mount(); return; }
    this.board.relabel();
    this.back.textContent = t(this.backKey());
    this.hintBtn.textContent = t('pr.hint');
    this.retryBtn.textContent = t('learn.retry');
    this.answerBtn.textContent = t('learn.showAnswer');
    this.drawText();
    if (this.lastFeedback) this.say(this.lastFeedback(), this.lastOk);
  }

  backKey() { return this.opts.backKey || 'learn.back'; }

  get step() { return this.steps[this.index]; }

  /** The step's hint, said (and said again in the other language after a switch). */
  showHint() {
    const st = this.step;
    if (!st.hint) return;
    this.lastFeedback = () => st.hint();
    this.lastOk = null;
    this.say(st.hint(), null);
  }

  /** Sets up the current step from its position. */
  async startStep() {
    const st = this.step;
    const same = this.ctx && this.ctx.index === this.index;
    this.ctx = { phase: 0, moves: [], plies: 0, done: false, tries: same ? this.ctx.tries : 0, shown: same ? this.ctx.shown : false, index: this.index };
    this.lastFeedback = null;
    this.say('', null);
    this.retryBtn.hidden = true;
    this.answerBtn.hidden = true;
    this.nextBtn.hidden = true;
    this.hintBtn.hidden = !st.hint;
    this.drawText();
    this.busy = true;
    try {
      const res = await api.position(st.setup, []);
      this.pos = res;
      this.busy = false;
      this.draw(res, null, st.marks || null, false);
    } catch {
      this.busy = false;
      this.say(t('learn.failed'), false);
    }
  }

  drawText() {
    const st = this.step;
    this.title.textContent = st.title();
    this.counter.textContent = t(this.key === 'tutorial' ? 'learn.step' : 'learn.position', { n: this.index + 1, total: this.steps.length });
    this.intro.textContent = st.idea ? st.idea() : '';
    this.intro.hidden = !st.idea;
    this.task.textContent = st.task(this.ctx);
    this.source.textContent = st.source ? st.source() : '';
    this.nextBtn.textContent = this.index + 1 < this.steps.length ? t('learn.next') : t('learn.finish');
    document.title = st.title() + ' · Virada';
  }

  draw(res, last, marks, animate) {
    const st = this.step;
    const interactive = !this.ctx.done && res.status === 'ongoing';
    this.board.render({
      board: res.board, legal: res.legal_moves, last, showLegal: !!st.showLegal, interactive, animate, marks,
    });
    const g = this.board.grid;
    g.dataset.step = String(this.index + 1);
    g.dataset.phase = String(this.ctx.phase);
    g.dataset.state = this.ctx.done ? 'done' : 'playing';
    g.dataset.turn = res.side_to_move || 'none';
  }

  say(text, ok) {
    this.feedback.textContent = text;
    this.feedback.classList.toggle('ok', ok === true);
    this.feedback.classList.toggle('bad', ok === false);
  }

  async play(sq) {
    if (this.busy || this.ctx.done) return;
    const st = this.step;
    const ctx = this.ctx;
    this.busy = true;
    let res;
    try {
      res = await api.position(st.setup, [...ctx.moves, sq]);
    } catch (e) {
      this.busy = false;
      if (e.code !== 'illegal_move') { this.say(t('learn.failed'), false); return; }
      const own = st.illegal && st.illegal(ctx, sq);
      const mover = this.pos.side_to_move || 'black';
      const text = () => (own ? own.text() : t('learn.notMove.' + (mover === 'black' ? 'white' : 'black'), { square: sq }));
      this.lastFeedback = text;
      this.lastOk = own ? own.ok : false;
      this.say(text(), this.lastOk);
      if (own && own.next === 'phase') { ctx.phase++; this.task.textContent = st.task(ctx); this.draw(this.pos, null, null, false); }
      return;
    }
    this.busy = false;
    const fresh = res.plies.slice(ctx.plies);
    const verdict = st.judge(ctx, sq, res, fresh);
    this.lastFeedback = verdict.text;
    this.lastOk = verdict.ok;
    if (!verdict.ok) {
      // A legal move, but not the one asked for: shown, then the position is set again.
      ctx.tries++;
      ctx.done = true;
      this.say(verdict.text(), false);
      this.draw(res, sq, new Map([[sq, ['wrong']]]), true);
      this.retryBtn.hidden = false;
      this.answerBtn.hidden = !st.answers;
      this.hintBtn.hidden = true;
      return;
    }
    ctx.moves.push(sq);
    ctx.plies = res.plies.length;
    this.pos = res;
    this.say(verdict.text(), true);
    if (verdict.next === 'phase') {
      ctx.phase++;
      this.task.textContent = st.task(ctx);
      this.draw(res, sq, null, true);
      return;
    }
    ctx.done = true;
    this.hintBtn.hidden = true;
    // Practice counts a move found after retries (not after the answer was shown).
    const found = ctx.tries === 0 || (st.solvedAfterRetry && !ctx.shown);
    if (st.onSolved && found) st.onSolved();
    if (ctx.tries === 0) this.solved++;
    this.draw(res, sq, new Map([[sq, ['right']]]), true);
    this.nextBtn.hidden = false;
    this.nextBtn.focus();
  }

  showAnswer() {
    const st = this.step;
    if (!st.answers) return;
    this.ctx.tries++; // a position solved after seeing the answer does not count as solved
    this.ctx.shown = true;
    this.say(t('learn.answerIs', { squares: squareList(st.answers) }), null);
    this.lastFeedback = () => t('learn.answerIs', { squares: squareList(st.answers) });
    this.lastOk = null;
    const marks = new Map(st.answers.map((s) => [s, ['best']]));
    this.board.render({ board: this.pos.board, legal: [], last: null, showLegal: false, interactive: false, animate: false, marks });
  }

  next() {
    if (this.index + 1 < this.steps.length) {
      this.index++;
      this.ctx = null;
      this.startStep();
      return;
    }
    this.finish();
  }

  finish() {
    const done = this.key === 'tutorial';
    if (done) safeSet(TUTORIAL_DONE_KEY, '1');
    root.querySelector('.learn-layout').hidden = true;
    this.counter.textContent = '';
    const box = el('section', 'learn-card learn-complete');
    box.id = 'learn-complete';
    const text = done ? t('tut.complete')
      : this.opts.finishText ? this.opts.finishText()
        : t('learn.lessonDone', { done: this.solvedIn(), total: this.steps.length });
    box.append(el('p', '', text));
    const btns = el('div', 'row-btns');
    const play = el('a', 'btn primary', t('learn.play'));
    play.href = '/';
    play.dataset.route = '/';
    btns.append(play, button('btn', t(this.opts.back ? this.backKey() : 'learn.lessons'), 'learn-menu', () => onNavigate(this.opts.back || '/learn')));
    box.append(btns);
    root.append(box);
    current = null; // the next visit starts afresh
  }

  solvedIn() {
    const p = progress();
    return this.steps.filter((s) => s.id && p[s.id]).length;
  }
}

// ---------------------------------------------------------------- tutorial and lesson steps

function tutorialSteps() {
  return TUTORIAL.map((s) => ({ ...s }));
}

function lessonSteps(l) {
  const text = LESSONS[l.id];
  return l.positions.map((p) => {
    const color = p.to_move === 'white' ? 'white' : 'black';
    // The feedback on a move in the page's language at the time it is shown (a language switch
    // redraws it), as lessons.json has it for every legal move.
    const said = (sq) => {
      const m = p.moves[sq];
      return (m && m.text && (m.text[lang()] || m.text.en)) || '';
    };
    const src = p.source;
    return {
      id: p.id,
      setup: `${p.board} ${color === 'black' ? 'X' : 'O'}`,
      showLegal: true,
      answers: p.answers,
      source: src && typeof src === 'object'
        ? () => t('learn.source', { year: String(src.year), game: src.game, move: src.before_move })
        : null,
      title: () => text.title(),
      idea: () => text.text(),
      task: () => t('learn.toMove', { color: sides(color).color }) + ' ' + t('learn.task'),
      onSolved: () => solve(p.id),
      judge: (ctx, sq) => {
        if (p.answers.includes(sq)) return { ok: true, text: () => t('learn.right') + ' ' + said(sq) };
        return { ok: false, text: () => t('learn.wrong') + ' ' + said(sq) };
      },
    };
  });
}

// ---------------------------------------------------------------- helpers

