// A tiny, independent Reversi rules model for the end-to-end tests: used to find test positions
// and to check what the browser shows against the rules (not the server's code).

export const START = '---------------------------OX------XO---------------------------';
const DIRS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];

export const sq = (i) => 'abcdefgh'[i % 8] + String(Math.floor(i / 8) + 1);
export const idx = (name) => (Number(name[1]) - 1) * 8 + 'abcdefgh'.indexOf(name[0]);
const other = (c) => (c === 'X' ? 'O' : 'X');

/** Squares flipped when `color` ('X' or 'O') plays at index `i` on `board` (64-char string). */
export function flips(board, color, i) {
  if (board[i] !== '-') return [];
  const out = [];
  const r0 = Math.floor(i / 8);
  const c0 = i % 8;
  for (const [dr, dc] of DIRS) {
    const run = [];
    let r = r0 + dr;
    let c = c0 + dc;
    while (r >= 0 && r < 8 && c >= 0 && c < 8 && board[r * 8 + c] === other(color)) {
      run.push(r * 8 + c);
      r += dr;
      c += dc;
    }
    if (run.length && r >= 0 && r < 8 && c >= 0 && c < 8 && board[r * 8 + c] === color) out.push(...run);
  }
  return out;
}

export function legalMoves(board, color) {
  const out = [];
  for (let i = 0; i < 64; i++) if (flips(board, color, i).length) out.push(i);
  return out;
}

export function play(board, color, i) {
  const f = flips(board, color, i);
  if (!f.length) throw new Error(`${sq(i)} is not legal for ${color}`);
  const b = board.split('');
  b[i] = color;
  for (const j of f) b[j] = color;
  return b.join('');
}

export function count(board) {
  let x = 0;
  let o = 0;
  for (const ch of board) { if (ch === 'X') x++; else if (ch === 'O') o++; }
  return { black: x, white: o };
}

/** Replays a transcript (passes implied); returns { board, toMove }. */
export function replay(transcript) {
  let board = START;
  let color = 'X';
  for (let k = 0; k < transcript.length; k += 2) {
    if (!legalMoves(board, color).length) color = other(color);
    board = play(board, color, idx(transcript.slice(k, k + 2)));
    color = other(color);
  }
  if (!legalMoves(board, color).length && legalMoves(board, other(color)).length) color = other(color);
  return { board, toMove: color };
}

/** A seeded pseudo-random generator (mulberry32) so fixtures can be regenerated exactly. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export { other };
