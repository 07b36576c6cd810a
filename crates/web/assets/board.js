// @ts-check
// The 8×8 board: an ARIA grid of labelled squares with coordinates, disc flips, markers for
// legal moves, the last move and hints, and keyboard play (arrows + Enter, or type "d3").

import { t, formatNumber } from './i18n.js';
import { el } from './dom.js';

const FILES = 'abcdefgh';

/** The standard start (shown before any game exists) and Black's legal moves there. */
export const START_BOARD = '---------------------------OX------XO---------------------------';
export const START_LEGAL = ['d3', 'c4', 'f5', 'e6'];

/** Square name of a board index (a1 = 0, h1 = 7, a8 = 56). */
export function squareName(index) {
  return FILES[index % 8] + String(Math.floor(index / 8) + 1);
}

/** Board index of a square name like "d3", or -1. */
export function squareIndex(name) {
  const m = /^([a-h])([1-8])$/.exec(String(name).toLowerCase());
  return m ? (Number(m[2]) - 1) * 8 + FILES.indexOf(m[1]) : -1;
}

/** Colour at each index of a 64-char board string: 'black' | 'white' | null. */
export function decodeBoard(board) {
  const out = new Array(64).fill(null);
  for (let i = 0; i < 64 && board && i < board.length; i++) {
    const c = board[i];
    if (c === 'X' || c === 'x' || c === '*') out[i] = 'black';
    else if (c === 'O' || c === 'o') out[i] = 'white';
  }
  return out;
}

const MARKS = ['played', 'best', 'coach', 'target', 'right', 'wrong'];

/** A disc value with its sign and one decimal at most, in the page's language ("+3,5" in pt). */
export function formatValue(v) {
  const n = Math.round(Number(v) * 10) / 10;
  const s = formatNumber(Math.abs(n), 1);
  return (n > 0 ? '+' : n < 0 ? '−' : '') + s;
}

export class BoardView {
  /**
   * @param {HTMLElement} root element to fill
   * @param {{onPlay:(sq:string)=>void, id?:string}} handlers; `id` names the grid (default
   *   "board": the game's board; the learning pages draw their own with another id)
   */
  constructor(root, { onPlay, id = 'board' }) {
    this.root = root;
    this.onPlay = onPlay;
    this.id = id;
    this.cells = [];
    this.colors = new Array(64).fill(null);
    this.state = { legal: new Set(), last: null, hints: null, showLegal: true, interactive: false, marks: null };
    this.focusIndex = 19; // d3
    this.typed = '';
    this.build();
  }

  build() {
    this.root.textContent = '';
    this.root.classList.add('board-wrap');
    const top = el('div', 'coords coords-top');
    const side = el('div', 'coords coords-side');
    top.setAttribute('aria-hidden', 'true');
    side.setAttribute('aria-hidden', 'true');
    for (let i = 0; i < 8; i++) {
      top.append(el('span', '', FILES[i]));
      side.append(el('span', '', String(i + 1)));
    }
    const grid = el('div', 'board');
    grid.id = this.id;
    grid.setAttribute('role', 'grid');
    this.grid = grid;
    for (let r = 0; r < 8; r++) {
      const row = el('div', 'row');
      row.setAttribute('role', 'row');
      for (let c = 0; c < 8; c++) {
        const i = r * 8 + c;
        const cell = el('div', 'cell empty');
        cell.setAttribute('role', 'gridcell');
        cell.dataset.square = squareName(i);
        cell.tabIndex = i === this.focusIndex ? 0 : -1;
        const disc = el('span', 'disc');
        disc.append(el('span', 'face front'), el('span', 'face back'));
        cell.append(disc, el('span', 'marker'), el('span', 'hint'));
        cell.addEventListener('click', () => this.activate(i));
        this.cells.push(cell);
        row.append(cell);
      }
      grid.append(row);
    }
    grid.addEventListener('keydown', (ev) => this.onKey(ev));
    const help = el('p', 'visually-hidden');
    help.id = this.id + '-help';
    grid.setAttribute('aria-describedby', help.id);
    this.help = help;
    const corner = el('div', 'coords-corner');
    corner.setAttribute('aria-hidden', 'true');
    this.root.append(corner, top, side, grid, help);
    this.relabel();
  }

  /** Re-applies language-dependent labels. */
  relabel() {
    this.grid.setAttribute('aria-label', t('board.label'));
    this.help.textContent = t('board.help');
    for (let i = 0; i < 64; i++) this.labelCell(i);
  }

  labelCell(i) {
    const cell = this.cells[i];
    const name = squareName(i);
    const color = this.colors[i];
    const parts = [name, color ? t(color === 'black' ? 'disc.black' : 'disc.white') : t('square.empty')];
    if (this.state.legal.has(name) && this.state.showLegal) parts.push(t('square.legal'));
    if (this.state.last === name) parts.push(t('square.last'));
    const hint = this.state.hints && this.state.hints.get(name);
    if (hint) parts.push(t('square.hint', { value: formatValue(hint.value) }) + (hint.best ? ', ' + t('square.best') : '') + (hint.book ? ', ' + t('hint.book') : ''));
    const marks = this.state.marks && this.state.marks.get(name);
    if (marks) for (const m of marks) parts.push(t('mark.' + m));
    cell.setAttribute('aria-label', parts.join(', '));
  }

  /**
   * Draws a position. `animate` flips changed discs (CSS transition) and pops new ones.
   * `marks` (optional) maps a square to the names of what to draw on it: 'played' (the move
   * played), 'best' (the better move), 'coach' (a square an explanation names), 'target' (a
   * square a lesson asks about), 'right' / 'wrong' (an answer just given).
   * @param {{board:string, legal:string[], last?:string|null, hints?:Map<string, HintMoveView>|null, showLegal:boolean,
   *          interactive:boolean, animate:boolean, marks?:Map<string,string[]>}} s
   */
  render(s) {
    const colors = decodeBoard(s.board);
    this.state = {
      legal: new Set(s.legal || []),
      last: s.last || null,
      hints: s.hints || null,
      showLegal: s.showLegal !== false,
      interactive: !!s.interactive,
      marks: s.marks || null,
    };
    this.grid.classList.toggle('instant', !s.animate);
    this.grid.classList.toggle('interactive', this.state.interactive);
    this.grid.setAttribute('aria-readonly', String(!this.state.interactive));
    for (let i = 0; i < 64; i++) {
      const cell = this.cells[i];
      const before = this.colors[i];
      const after = colors[i];
      const name = squareName(i);
      if (before !== after) {
        cell.classList.remove('empty', 'black', 'white', 'placed');
        if (after === null) {
          cell.classList.add('empty');
        } else {
          cell.classList.add(after);
          if (before === null && s.animate) {
            void cell.offsetWidth; // restart the pop animation
            cell.classList.add('placed');
          }
        }
      }
      const legal = this.state.legal.has(name);
      cell.classList.toggle('legal', legal && this.state.showLegal);
      cell.toggleAttribute('data-legal', legal);
      cell.classList.toggle('last', this.state.last === name);
      const hint = this.state.hints && this.state.hints.get(name);
      const hintEl = cell.querySelector('.hint');
      if (hint) {
        hintEl.textContent = formatValue(hint.value);
        cell.classList.add('hinted');
        cell.classList.toggle('best', !!hint.best);
        cell.classList.toggle('book', !!hint.book);
        hintEl.title = hint.book ? t('hint.book') : '';
        hintEl.dataset.book = hint.book ? t('hint.book') : '';
      } else {
        hintEl.textContent = '';
        hintEl.title = '';
        hintEl.dataset.book = '';
        cell.classList.remove('hinted', 'best', 'book');
      }
      const marks = (this.state.marks && this.state.marks.get(name)) || [];
      for (const m of MARKS) cell.classList.toggle('mark-' + m, marks.includes(m));
      if (marks.length) cell.dataset.mark = marks.join(' '); else delete cell.dataset.mark;
      this.colors[i] = after;
    }
    for (let i = 0; i < 64; i++) this.labelCell(i);
  }

  activate(i) {
    this.setFocus(i, false);
    if (this.state.interactive) this.onPlay(squareName(i));
  }

  setFocus(i, move = true) {
    this.cells[this.focusIndex].tabIndex = -1;
    this.focusIndex = i;
    this.cells[i].tabIndex = 0;
    if (move) this.cells[i].focus();
  }

  onKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const r = Math.floor(this.focusIndex / 8);
    const c = this.focusIndex % 8;
    let next = -1;
    switch (ev.key) {
      case 'ArrowUp': next = r > 0 ? this.focusIndex - 8 : this.focusIndex; break;
      case 'ArrowDown': next = r < 7 ? this.focusIndex + 8 : this.focusIndex; break;
      case 'ArrowLeft': next = c > 0 ? this.focusIndex - 1 : this.focusIndex; break;
      case 'ArrowRight': next = c < 7 ? this.focusIndex + 1 : this.focusIndex; break;
      case 'Home': next = r * 8; break;
      case 'End': next = r * 8 + 7; break;
      case 'Enter':
      case ' ':
        ev.preventDefault();
        this.activate(this.focusIndex);
        return;
      default: {
        const k = ev.key.toLowerCase();
        if (k.length === 1 && FILES.includes(k)) {
          this.typed = k;
          ev.preventDefault();
          return;
        }
        if (k.length === 1 && k >= '1' && k <= '8' && this.typed) {
          const i = squareIndex(this.typed + k);
          this.typed = '';
          ev.preventDefault();
          this.setFocus(i);
          this.activate(i);
          return;
        }
        this.typed = '';
        return;
      }
    }
    ev.preventDefault();
    this.typed = '';
    this.setFocus(next);
  }
}

