// Finds the pass fixture used by tests/play.test.mjs: a transcript without passes after which
// Black is to move and EVERY legal Black move leaves White without a move (so White must pass,
// whatever the test clicks) while the game goes on. Random games with a fixed seed.
// Run: node e2e/tools/find-pass-fixture.mjs
import { START, legalMoves, play, sq, rng, other } from '../lib/othello.mjs';

const random = rng(20261129);
for (let game = 0; game < 20000; game++) {
  let board = START;
  let color = 'X';
  let moves = '';
  for (;;) {
    const legal = legalMoves(board, color);
    if (!legal.length) break; // stop at the first pass: transcripts here have none
    const empties = [...board].filter((c) => c === '-').length;
    if (color === 'X' && empties >= 8 && empties <= 14) {
      const allPass = legal.every((m) => {
        const b = play(board, 'X', m);
        return legalMoves(b, 'O').length === 0 && legalMoves(b, 'X').length > 0;
      });
      if (allPass && legal.length >= 2) {
        console.log(JSON.stringify({ transcript: moves, empties, blackMoves: legal.map(sq) }));
        process.exit(0);
      }
    }
    const m = legal[Math.floor(random() * legal.length)];
    board = play(board, color, m);
    moves += sq(m);
    color = other(color);
  }
}
console.error('no fixture found');
process.exit(1);
