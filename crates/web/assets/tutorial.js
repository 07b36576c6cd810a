// @ts-check
// The tutorial "Learn in a minute": five small positions, each with what the learner is asked to
// do and how the server's answer (POST /api/position: the flips, a refusal, a pass, the end) is
// judged and explained. learn.js runs them on the board.

import { t } from './i18n.js';
import { squareList } from './learn-text.js';

/** A board string from the black (`x`) and white (`o`) squares; Black to move. */
function setup(x, o) {
  const b = new Array(64).fill('-');
  const at = (s) => (Number(s[1]) - 1) * 8 + 'abcdefgh'.indexOf(s[0]);
  for (const s of x) b[at(s)] = 'X';
  for (const s of o) b[at(s)] = 'O';
  return b.join('') + ' X';
}

/** The directions (one of 8) in which `flipped` lie seen from `move`. */
export function directions(move, flipped) {
  const col = (s) => 'abcdefgh'.indexOf(s[0]);
  const row = (s) => Number(s[1]);
  const dirs = new Set(flipped.map((f) => `${Math.sign(col(f) - col(move))},${Math.sign(row(f) - row(move))}`));
  return dirs.size;
}

const played = (fresh) => fresh.find((p) => p.move !== 'pass');

export const TUTORIAL = [
  {
    setup: setup(['c4'], ['d4', 'e4']),
    showLegal: true,
    marks: new Map([['f4', ['target']]]),
    title: () => t('tut.1.title'),
    task: () => t('tut.1.task'),
    judge: (ctx, move, res, fresh) => {
      const p = played(fresh);
      return { ok: true, text: () => t('tut.1.done', { move, flipped: squareList(p.flipped), black: p.black_discs, white: p.white_discs }) };
    },
  },
  {
    setup: setup(['b4', 'f4', 'd6'], ['c4', 'e4', 'd5', 'g5']),
    showLegal: false,
    title: () => t('tut.2.title'),
    task: () => t('tut.2.task'),
    judge: (ctx, move, res, fresh) => {
      const p = played(fresh);
      const n = directions(move, p.flipped);
      if (n >= 2) return { ok: true, text: () => t('tut.2.done', { move, flipped: squareList(p.flipped), dirs: n }) };
      return { ok: false, text: () => t('tut.2.wrong', { move, flipped: squareList(p.flipped) }) };
    },
  },
  {
    // The standard start.
    setup: '---------------------------OX------XO--------------------------- X',
    showLegal: false,
    marks: new Map([['c5', ['target']]]),
    title: () => t('tut.3.title'),
    task: (ctx) => (ctx && ctx.phase > 0 ? t('tut.3.task2') : t('tut.3.task')),
    illegal: (ctx, sq) => (ctx.phase === 0 && sq === 'c5' ? { ok: true, next: 'phase', text: () => t('tut.3.tried') } : null),
    judge: (ctx, move, res, fresh) => {
      const p = played(fresh);
      if (ctx.phase === 0) return { ok: false, text: () => t('tut.3.notYet', { move }) };
      return { ok: true, text: () => t('tut.3.done', { move, flipped: squareList(p.flipped) }) };
    },
  },
  {
    setup: setup(['c3', 'f6'], ['e3', 'c5', 'e5']),
    showLegal: false,
    title: () => t('tut.4.title'),
    task: (ctx) => (ctx && ctx.phase > 0 ? t('tut.4.task2') : t('tut.4.task')),
    judge: (ctx, move, res, fresh) => {
      if (ctx.phase === 0) {
        // The server plays White's forced pass right after the move.
        const passed = fresh.some((p) => p.move === 'pass');
        return passed ? { ok: true, next: 'phase', text: () => t('tut.4.passed') } : { ok: false, text: () => t('tut.4.task') };
      }
      return { ok: true, text: () => t('tut.4.done') };
    },
  },
  {
    setup: setup(['c4', 'f4'], ['e4', 'c6']),
    showLegal: false,
    title: () => t('tut.5.title'),
    task: () => t('tut.5.task'),
    judge: (ctx, move, res) => {
      const r = res.result;
      if (!r) return { ok: false, text: () => t('tut.5.task') };
      return {
        ok: true,
        text: () => t('tut.5.done', { empties: res.empties, black: r.black_discs, white: r.white_discs, bs: r.black_score, ws: r.white_score }),
      };
    },
  },
];
