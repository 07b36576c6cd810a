// Finds the end-pass fixture used by tests/details.test.mjs: a transcript without passes after
// which Black is to move with one legal move, and whatever White then plays, Black has no move
// again until the game ends (so Black's last click is followed by a pass of Black and the
// computer finishing the game alone). Random games with a fixed seed.
// Run: node e2e/tools/find-end-pass-fixture.mjs
import { START, legalMoves, play, sq, rng } from '../lib/othello.mjs';

/** White to move, Black never again: every line ends with Black passing at each turn. */
function whiteAlone(board) {
  const white = legalMoves(board, 'O');
  if (!white.length) return legalMoves(board, 'X').length === 0;
  return white.every((m) => {
    const b = play(board, 'O', m);
    return legalMoves(b, 'X').length === 0 && whiteAlone(b);
  });
}

const random = rng(20261206);
for (let game = 0; game < 200000; game++) {
  let board = START;
  let color = 'X';
  let moves = '';
  for (;;) {
    const legal = legalMoves(board, color);
    if (!legal.length) break; // transcripts here have no passes
    const empties = [...board].filter((c) => c === '-').length;
    if (color === 'X' && legal.length === 1 && empties >= 3 && empties <= 8) {
      const b = play(board, 'X', legal[0]);
      const white = legalMoves(b, 'O');
      if (white.length && white.every((m) => legalMoves(play(b, 'O', m), 'X').length === 0 && legalMoves(play(b, 'O', m), 'O').length > 0) && whiteAlone(b)) {
        console.log(JSON.stringify({ transcript: moves, empties, blackMove: sq(legal[0]) }));
        process.exit(0);
      }
    }
    const m = legal[Math.floor(random() * legal.length)];
    board = play(board, color, m);
    moves += sq(m);
    color = color === 'X' ? 'O' : 'X';
  }
}
console.log('none found');
process.exit(1);
