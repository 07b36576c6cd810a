// @ts-check
// Game analysis: an evaluation graph and bar, each side's accuracy, and each side's mistakes
// with the disc loss, the better move and the coach's reasons; a mistake clicked is studied on
// the board (the better line step by step, "try again from here"; view-analysis.js).

import { t, colorName, lang, formatNumber } from '../core/i18n.js';
import { formatValue } from '../core/board.js';
import { explorerAnchor } from './view-moves.js';

const SVG = 'http://www.w3.org/2000/svg';
const MISTAKE_LOSS = 2; // discs lost before a move counts as a mistake
const PRACTICE_LOSS = 4; // a mistake this big can be practised (the server's PRACTICE_LOSS)
const BEST_LOSS = 0.5; // a move within half a disc of the best counts as a best move
const W = 600;
const H = 200;
const PAD = 12;

/**
 * @param {{onPly, onStudy, onStep, onLine, onTryAgain, study, viewPly, practiceColors, practice, onPractise}} h:
 *   `study` is the mistake being studied (null: none), `viewPly` the plies of the position shown,
 *   `practiceColors` the sides the viewer may practise, `practice` the set being made
 *   ({color, busy, empty}) and `onPractise(color)` makes it.
 */
export function renderAnalysis(root, data, game, h) {
  const { onPly } = h;
  root.textContent = '';
  const plies = (data && data.plies) || [];
  // The server had too little engine time for a full review: say so (asking again retries).
  const partial = data && data.complete === false;
  if (plies.length === 0) {
    root.append(p(t(partial ? 'analysis.incomplete' : 'analysis.none'), 'muted'));
    return;
  }
  if (partial) root.append(p(t('analysis.incomplete'), 'muted'));
  root.append(evalBar(plies, h));
  root.append(graph(plies, onPly));
  root.append(accuracy(plies));
  root.append(p(t('analysis.legend'), 'legend'));
  for (const color of ['black', 'white']) {
    const h3 = document.createElement('h3');
    h3.textContent = t('analysis.mistakes', { color: colorName(color) });
    root.append(h3);
    const mistakes = plies
      .map((x, i) => ({ ...x, index: i }))
      .filter((x) => x.color === color && x.move !== 'pass' && Number(x.loss) >= MISTAKE_LOSS);
    if (mistakes.length === 0) {
      root.append(p(t('analysis.noMistakes'), 'muted'));
      continue;
    }
    const ol = document.createElement('ul');
    ol.className = 'mistakes';
    for (const m of mistakes) {
      const li = document.createElement('li');
      const loss = Math.round(Number(m.loss) * 10) / 10;
      const btn = document.createElement('button');
      btn.type = 'button';
      btn.className = 'mistake';
      btn.textContent = t('analysis.mistake', {
        n: moveLabel(m),
        move: m.move,
        loss: t('analysis.discs', { n: Math.round(loss * 10) / 10 }),
        best: m.best_move,
      });
      btn.dataset.ply = String(m.index);
      btn.dataset.key = 'mistake-' + m.index;
      if (m.book) {
        const tag = document.createElement('span');
        tag.className = 'book-tag';
        tag.textContent = t('hint.book');
        tag.title = t('analysis.book');
        btn.append(tag);
      }
      // Study it: the position before the mistake, the moves and the reasons marked.
      btn.addEventListener('click', () => h.onStudy(m));
      li.append(btn);
      // In the opening: what tournament players chose in the position before the move.
      const explore = explorerAnchor(game, m.index);
      if (explore) li.append(' ', explore);
      // The coach's explanations, in the page's language (the server sends both), each with
      // the board it holds on: "after c8 f3" shows that ply of the line with its squares.
      const code = lang() === 'pt' ? 'pt' : 'en';
      (m.explanations || []).forEach((e, j) => {
        const text = (e.text && (e.text[code] || e.text.en)) || '';
        if (!text) return;
        const why = p(text, 'why');
        if (e.at) {
          why.append(' ');
          const at = button('linkish', atLabel(m, e.at), `claim-${m.index}-${j}`, () => h.onStudy(m, j));
          at.dataset.line = e.at.line;
          at.dataset.ply = String(e.at.ply);
          if (h.study && h.study.ply === m.index && h.study.claim && h.study.claim.index === j) at.setAttribute('aria-pressed', 'true');
          why.append(at);
        }
        li.append(why);
      });
      if (h.study && h.study.ply === m.index) {
        li.classList.add('selected');
        btn.setAttribute('aria-current', 'true');
        li.append(studyControls(h.study, h));
      }
      ol.append(li);
    }
    root.append(ol);
    if (h.practiceColors && h.practiceColors.includes(color) && mistakes.some((m) => Number(m.loss) >= PRACTICE_LOSS)) {
      root.append(practiceButton(color, h));
    }
  }
}

/**
 * Where a claim holds, in words: "(before the move)", or the moves of its line up to its ply:
 * "(after c8 f3)", passes named as the move list names them.
 */
function atLabel(m, at) {
  if (at.line === 'before') return t('analysis.atBefore');
  const line = (at.line === 'played' ? m.played_line : m.best_line) || [];
  const moves = line.slice(0, at.ply).map((x) => (x === 'pass' ? t('moves.pass') : x));
  return t('analysis.atAfter', { moves: moves.join(' ') });
}

/** "Practise these mistakes" (of 4+ discs), with the answer when none was confirmed. */
function practiceButton(color, h) {
  const box = document.createElement('div');
  box.className = 'row-btns practice-offer';
  const mine = h.practice && h.practice.color === color ? h.practice : null;
  const b = button('btn small', t(mine && mine.busy ? 'analysis.practiceBusy' : 'analysis.practice'), 'practice-' + color, () => h.onPractise(color));
  b.disabled = !!(mine && mine.busy);
  box.append(b);
  if (mine && mine.empty) {
    const none = p(t('analysis.practiceNone'), 'muted');
    none.id = 'practice-none-' + color;
    box.append(none);
  }
  return box;
}

/**
 * Both lines from the position before the mistake, the better one and the played move's (the
 * opponent's refutation), one at a time with back / forward buttons; "try again from here".
 */
function studyControls(st, h) {
  const box = document.createElement('div');
  box.className = 'study';
  const played = st.which === 'played';
  const steps = played ? st.playedSteps : st.steps;
  const total = steps ? steps.length : 0;
  const pick = document.createElement('div');
  pick.className = 'row-btns study-lines';
  pick.setAttribute('role', 'group');
  pick.setAttribute('aria-label', t('analysis.lines'));
  for (const [which, key] of [['best', 'analysis.line'], ['played', 'analysis.playedLine']]) {
    const b = button('btn small', t(key, { move: st.played }), 'study-line-' + which, () => h.onLine(which));
    b.setAttribute('aria-pressed', String(st.which === which));
    pick.append(b);
  }
  const line = document.createElement('p');
  line.className = 'line';
  line.id = 'study-line';
  line.dataset.which = st.which;
  line.append(t(played ? 'analysis.playedLine' : 'analysis.line', { move: st.played }) + ': ');
  (steps || []).forEach((ply, i) => {
    const span = document.createElement('span');
    span.textContent = (ply.move === 'pass' ? t('moves.pass') : ply.move) + ' ';
    if (i + 1 === st.step) span.className = 'cur';
    line.append(span);
  });
  if (st.failed) line.append(t('analysis.lineFailed'));
  const where = p(st.step === 0 ? t('analysis.lineStart') : t('analysis.lineStep', { step: st.step, total }), 'muted');
  where.id = 'study-step';
  where.setAttribute('aria-live', 'polite');
  const btns = document.createElement('div');
  btns.className = 'row-btns';
  const back = button('btn small', t('analysis.back'), 'study-back', () => h.onStep(-1));
  back.disabled = !steps || st.step === 0;
  const fwd = button('btn small', t('analysis.forward'), 'study-forward', () => h.onStep(1));
  fwd.disabled = !steps || st.step >= total;
  const again = button('btn small primary', t('analysis.tryAgain'), 'study-try', () => h.onTryAgain());
  again.title = t('analysis.tryAgainHelp');
  btns.append(back, fwd, again);
  box.append(pick, line, where, btns);
  return box;
}

function button(cls, text, key, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.textContent = text;
  b.id = key;
  b.dataset.key = key;
  b.addEventListener('click', onClick);
  return b;
}

/**
 * The evaluation of the position shown, from Black's view (the start has none): after a ply,
 * its `eval_black`; while a mistake is studied, the better move's value (its line's value).
 */
function shownEval(plies, h) {
  if (h.study) {
    const m = plies[h.study.ply];
    // The line shown: the better move's value, or the played move's.
    const v = m && (h.study.which === 'played' ? m.played_value : m.best_value);
    if (v !== undefined && v !== null) return m.color === 'black' ? Number(v) : -Number(v);
  }
  const n = h.viewPly;
  if (!n || !plies[n - 1]) return null;
  return Number(plies[n - 1].eval_black) || 0;
}

function evalBar(plies, h) {
  const box = document.createElement('div');
  const v = shownEval(plies, h);
  const bar = document.createElement('div');
  bar.className = 'evalbar';
  bar.id = 'evalbar';
  bar.setAttribute('role', 'meter');
  bar.setAttribute('aria-label', t('analysis.evalLabel'));
  bar.setAttribute('aria-valuemin', '-64');
  bar.setAttribute('aria-valuemax', '64');
  const value = v === null ? 0 : Math.max(-64, Math.min(64, v));
  bar.setAttribute('aria-valuenow', String(Math.round(value * 10) / 10));
  bar.dataset.value = String(Math.round(value * 10) / 10);
  // Black's share: half at an even position, the whole bar at +64. A square root keeps small
  // leads visible.
  const share = 50 + Math.sign(value) * 50 * Math.sqrt(Math.abs(value) / 64);
  const black = document.createElement('div');
  black.className = 'evalbar-black';
  black.style.width = share.toFixed(1) + '%';
  const mid = document.createElement('div');
  mid.className = 'evalbar-mid';
  bar.append(black, mid);
  let text;
  if (v === null) text = t('analysis.evalStart');
  else if (Math.abs(v) < 0.05) text = t('analysis.evalEven');
  else text = t('analysis.evalValue', { color: colorName(v > 0 ? 'black' : 'white'), value: formatNumber(Math.abs(v), 1) });
  const label = p(`${t('analysis.eval')}: ${text}`, 'evalbar-label');
  label.id = 'evalbar-text';
  bar.setAttribute('aria-valuetext', text);
  box.append(bar, label);
  return box;
}

/** Per player: the mean disc loss a move and the share of best moves (passes not counted). */
export function accuracyFigures(plies, color) {
  const moves = plies.filter((x) => x.color === color && x.move !== 'pass');
  const n = moves.length;
  const total = moves.reduce((a, x) => a + Math.max(0, Number(x.loss) || 0), 0);
  const best = moves.filter((x) => x.move === x.best_move || (Number(x.loss) || 0) < BEST_LOSS).length;
  return { moves: n, meanLoss: n ? total / n : 0, best, bestShare: n ? best / n : 0 };
}

function accuracy(plies) {
  const table = document.createElement('table');
  table.className = 'accuracy';
  table.id = 'accuracy';
  const cap = document.createElement('caption');
  cap.textContent = t('analysis.accuracy');
  cap.style.textAlign = 'left';
  cap.style.fontWeight = '600';
  const head = document.createElement('tr');
  for (const k of ['analysis.player', 'analysis.meanLoss', 'analysis.bestShare']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = t(k);
    head.append(th);
  }
  table.append(cap, head);
  for (const color of ['black', 'white']) {
    const f = accuracyFigures(plies, color);
    const tr = document.createElement('tr');
    tr.dataset.color = color;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = colorName(color);
    const loss = document.createElement('td');
    loss.className = 'mean-loss';
    loss.textContent = t('analysis.discs', { n: Math.round(f.meanLoss * 10) / 10 });
    const best = document.createElement('td');
    best.className = 'best-share';
    best.textContent = t('analysis.bestShareValue', { pct: formatNumber(Math.round(f.bestShare * 100), 0), best: f.best, moves: f.moves });
    tr.append(th, loss, best);
    table.append(tr);
  }
  return table;
}

function graph(plies, onPly) {
  const fig = document.createElement('figure');
  fig.style.margin = '0';
  const values = [0, ...plies.map((x) => Number(x.eval_black) || 0)];
  const range = Math.min(64, Math.max(8, Math.ceil(Math.max(...values.map(Math.abs)) / 4) * 4));
  const n = values.length - 1;
  const x = (i) => PAD + (n === 0 ? 0 : (i * (W - 2 * PAD)) / n);
  const y = (v) => H / 2 - (Math.max(-range, Math.min(range, v)) * (H / 2 - PAD)) / range;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'graph');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('analysis.graph') + '. ' + t('analysis.graphDesc'));
  const pts = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
  const zeroY = y(0).toFixed(1);
  // Shade Black's lead above the zero line and White's below, clipping the same polygon twice.
  const poly = `${x(0)},${zeroY} ${pts.join(' ')} ${x(n)},${zeroY}`;
  const defs = node('defs');
  defs.append(clip('clip-top', 0, 0, W, H / 2), clip('clip-bottom', 0, H / 2, W, H / 2));
  svg.append(defs);
  svg.append(node('polygon', { points: poly, class: 'area-black', 'clip-path': 'url(#clip-top)' }));
  svg.append(node('polygon', { points: poly, class: 'area-white', 'clip-path': 'url(#clip-bottom)' }));
  svg.append(node('line', { x1: PAD, x2: W - PAD, y1: zeroY, y2: zeroY, class: 'zero' }));
  svg.append(node('polyline', { points: pts.join(' '), class: 'line' }));
  values.forEach((v, i) => {
    if (i === 0) return;
    const ply = plies[i - 1];
    const c = node('circle', {
      cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: Number(ply.loss) >= MISTAKE_LOSS ? 4.5 : 3,
      class: 'pt' + (Number(ply.loss) >= MISTAKE_LOSS ? ' mistake' : ''),
    });
    const title = node('title');
    title.textContent = `${moveLabel(ply)} ${ply.move} ${formatValue(v)}${ply.book ? ' (' + t('hint.book') + ')' : ''}`;
    c.append(title);
    svg.append(c);
  });
  // A click anywhere on the graph shows the position of the nearest move (the dots alone are
  // too small to hit, on a phone above all).
  svg.style.cursor = 'pointer';
  svg.addEventListener('click', (ev) => {
    const box = svg.getBoundingClientRect();
    if (box.width === 0 || n === 0) return;
    const at = ((ev.clientX - box.left) / box.width) * W;
    onPly(Math.max(0, Math.min(n, Math.round(((at - PAD) * n) / (W - 2 * PAD)))));
  });
  const cap = document.createElement('figcaption');
  cap.className = 'muted';
  cap.textContent = `${t('analysis.graph')}. ${t('analysis.graphDesc')}`;
  fig.append(svg, cap);
  return fig;
}

// "3." for Black's move 3, "3..." for White's, as the move list numbers moves (the server's
// `number`; the ply count for an answer without it).
function moveLabel(ply) {
  const n = ply.number || ply.ply;
  return ply.color === 'white' ? `${n}...` : `${n}.`;
}

function clip(id, x, y, w, h) {
  const c = node('clipPath', { id });
  c.append(node('rect', { x, y, width: w, height: h }));
  return c;
}

function node(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function p(text, cls) {
  const e = document.createElement('p');
  e.className = cls || '';
  e.textContent = text;
  return e;
}
