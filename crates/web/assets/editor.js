// @ts-check
// The board editor of the "New game" dialog: click squares to put black or white discs or
// empty them, choose the side to move, and start from that position. Before the server is
// asked, the position is checked here with the plain rules (discs on the board, a move for
// someone), so the message says what to change; the server reads the same position again.

import { t, colorName } from './i18n.js';

const FILES = 'abcdefgh';
const STANDARD = '---------------------------OX------XO---------------------------';
const DIRS = [-9, -8, -7, -1, 1, 7, 8, 9];

/** Whether `color` ('X' or 'O') may play on square `i` of `board` (64 chars, a1..h8). */
function flipsAny(board, color, i) {
  if (board[i] !== '-') return false;
  const them = color === 'X' ? 'O' : 'X';
  for (const d of DIRS) {
    let j = i + d;
    let seen = 0;
    while (j >= 0 && j < 64 && Math.abs((j % 8) - ((j - d) % 8)) <= 1 && board[j] === them) { j += d; seen++; }
    if (seen > 0 && j >= 0 && j < 64 && Math.abs((j % 8) - ((j - d) % 8)) <= 1 && board[j] === color) return true;
  }
  return false;
}

/** The number of legal moves of `color` on `board`. */
export function moveCount(board, color) {
  let n = 0;
  for (let i = 0; i < 64; i++) if (flipsAny(board, color, i)) n++;
  return n;
}

export class BoardEditor {
  constructor(form) {
    this.form = form;
    this.grid = form.querySelector('#editor-board');
    this.status = form.querySelector('#editor-status');
    this.board = STANDARD.split('');
    this.cells = [];
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 8; c++) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'ed-cell';
        b.dataset.square = FILES[c] + (r + 1);
        b.addEventListener('click', () => this.put(r * 8 + c));
        this.grid.append(b);
        this.cells.push(b);
      }
    }
    form.querySelector('#editor-standard').addEventListener('click', () => { this.board = STANDARD.split(''); this.draw(); });
    form.querySelector('#editor-clear').addEventListener('click', () => { this.board = Array(64).fill('-'); this.draw(); });
    form.addEventListener('change', (ev) => { if (ev.target.name === 'tomove') this.draw(); });
    this.draw();
  }

  /** Puts the chosen disc on square `i`; the same disc again empties it. */
  put(i) {
    const paint = this.form.elements.paint.value || 'X';
    this.board[i] = this.board[i] === paint ? '-' : paint;
    this.draw();
  }

  side() {
    return this.form.elements.tomove.value === 'white' ? 'O' : 'X';
  }

  /** The position as the server reads a set-up text: 64 squares, then the side to move. */
  text() {
    return `${this.board.join('')} ${this.side() === 'X' ? 'black' : 'white'}`;
  }

  /** Why this position cannot start a game (a sentence), or '' when it can. */
  problem() {
    const b = this.board.join('');
    if (!b.includes('X') && !b.includes('O')) return t('editor.empty');
    if (moveCount(b, 'X') === 0 && moveCount(b, 'O') === 0) return t('editor.noMoves');
    return '';
  }

  draw() {
    const b = this.board.join('');
    this.cells.forEach((cell, i) => {
      const v = this.board[i];
      cell.className = 'ed-cell' + (v === 'X' ? ' black' : v === 'O' ? ' white' : '');
      const what = v === 'X' ? colorName('black') : v === 'O' ? colorName('white') : t('editor.emptySquare');
      cell.setAttribute('aria-label', `${cell.dataset.square}: ${what}`);
    });
    const black = [...b].filter((c) => c === 'X').length;
    const white = [...b].filter((c) => c === 'O').length;
    const side = this.side();
    const other = side === 'X' ? 'O' : 'X';
    let note = t('editor.counts', { black, white });
    const problem = this.problem();
    if (problem) note += ' ' + problem;
    else if (moveCount(b, side) === 0) {
      note += ' ' + t('editor.passFirst', { color: colorName(side === 'X' ? 'black' : 'white'), other: colorName(other === 'X' ? 'black' : 'white') });
    }
    this.status.textContent = note;
  }
}
