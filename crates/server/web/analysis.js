// Game analysis: an evaluation graph over the moves and each side's mistakes, with the disc
// loss, the better move, and the reason in the vocabulary of the rules page.

import { t, colorName, lang } from './i18n.js';
import { formatValue } from './board.js';

const SVG = 'http://www.w3.org/2000/svg';
const MISTAKE_LOSS = 2; // discs lost before a move counts as a mistake
const W = 600;
const H = 200;
const PAD = 12;

export function renderAnalysis(root, data, game, { onPly }) {
  root.textContent = '';
  const plies = (data && data.plies) || [];
  // The server had too little engine time for a full review: say so (asking again retries).
  const partial = data && data.complete === false;
  if (plies.length === 0) {
    root.append(p(t(partial ? 'analysis.incomplete' : 'analysis.none'), 'muted'));
    return;
  }
  if (partial) root.append(p(t('analysis.incomplete'), 'muted'));
  root.append(graph(plies, onPly));
  for (const color of ['black', 'white']) {
    const h = document.createElement('h3');
    h.textContent = t('analysis.mistakes', { color: colorName(color) });
    root.append(h);
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
      btn.textContent = t('analysis.mistake', {
        n: moveLabel(m),
        move: m.move,
        loss: loss === 1 ? t('analysis.disc') : t('analysis.discs', { n: formatNumber(loss) }),
        best: m.best_move,
      });
      btn.dataset.ply = String(m.index);
      if (m.book) {
        const tag = document.createElement('span');
        tag.className = 'book-tag';
        tag.textContent = t('hint.book');
        tag.title = t('analysis.book');
        btn.append(tag);
      }
      // Show the position before the mistake, where the better move can be seen.
      btn.addEventListener('click', () => onPly(m.index));
      li.append(btn);
      // The coach's explanations, in the page's language (the server sends both).
      const code = lang() === 'pt' ? 'pt' : 'en';
      for (const e of m.explanations || []) {
        const text = (e.text && (e.text[code] || e.text.en)) || '';
        if (text) li.append(p(text, 'why'));
      }
      ol.append(li);
    }
    root.append(ol);
  }
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
    c.addEventListener('click', () => onPly(i));
    svg.append(c);
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

// A number in the page's language: comma decimals in pt-BR.
function formatNumber(x) {
  return Number(x).toLocaleString(lang() === 'pt' ? 'pt-BR' : 'en', { maximumFractionDigits: 1 });
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
