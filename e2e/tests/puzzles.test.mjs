// Puzzles (issue 40 item 5): a puzzle solved move by move (the opponent's answers played by the
// page), a puzzle failed (the refutation on the board and in words), hinted, retried and solved;
// the theme filter; the daily puzzle, the same in two browsers; the page in pt-BR on a phone
// (screenshots). Solutions are read from the shipped file (crates/engine/data/puzzles.txt) and
// every board shown is checked against the independent rules model (lib/othello.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';
import { boardString } from '../lib/ui.mjs';
import { play, idx, other } from '../lib/othello.mjs';
import { PUZZLE_TEXTS } from '../../crates/web/assets/learn/puzzles-text.js';

const DATA = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'crates', 'engine', 'data');

/** The shipped puzzles (endgame, then midgame): id, board, side ('X'/'O'), kind, line (moves, 'pass' included), scores, themes. */
const PUZZLES = ['puzzles.txt', 'puzzles-midgame.txt'].flatMap((f) => fs.readFileSync(path.join(DATA, f), 'utf8').split('\n')).filter((l) => l && !l.startsWith('#')).map((l) => {
  const [id, board, side, kind, line, scores, themes] = l.split(' ');
  return {
    id, board, side, kind,
    line: line.split(','),
    scores: scores.split(',').map((s) => { const [m, v] = s.split(':'); return { move: m, score: Number(v) }; }),
    themes: themes === '-' ? [] : themes.split(','),
  };
});

/** The solver's moves of a puzzle: the line's moves at the solver's turns. */
function solverMoves(p) {
  const out = [];
  let side = p.side;
  for (const m of p.line) {
    if (side === p.side && m !== 'pass') out.push(m);
    side = other(side);
  }
  return out;
}

/** Plies of the line on the board after the solver's `k`-th move and the answers to it. */
function pliesAfter(p, k) {
  let side = p.side;
  let n = 0;
  let i = 0;
  for (; i < p.line.length; i++) {
    if (side === p.side && p.line[i] !== 'pass') {
      if (n === k) break;
      n++;
    }
    side = other(side);
  }
  return i;
}

/** The board after the line's first `plies` moves. */
function boardAfter(p, moves) {
  let b = p.board;
  let side = p.side;
  for (const m of moves) {
    if (m !== 'pass') b = play(b, side, idx(m));
    side = other(side);
  }
  return b;
}

const shared = browserForFile();

function checkClean(page) {
  // A square that is no move is refused by the server (422): the browser logs the answer.
  const errors = page.consoleErrors.filter((e) => !e.startsWith('Failed to load resource'));
  assert.deepEqual(errors, [], 'no script errors in the console');
}

async function click(page, square) {
  await page.click(`#puzzle-board .cell[data-square="${square}"]`);
}

/** Waits until puzzle `id` is on the board in `state` with `found` solver moves made. */
async function at(page, id, state, found) {
  const f = found === undefined ? '' : `[data-found="${found}"]`;
  await page.waitForSelector(`#puzzle-board[data-puzzle="${id}"][data-state="${state}"]${f}`);
}

/** The whole board inside the window (no scrolling needed to see it). */
async function boardVisible(page, width, height) {
  const box = await page.$eval('#puzzle-board', (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; });
  assert.ok(box.left >= 0 && box.right <= width && box.top >= 0 && box.bottom <= height, `board ${JSON.stringify(box)} in ${width}x${height}`);
}

// The keys and placeholders of both languages: the parity test of every text module (i18n.test.mjs).
test('the puzzle page speaks one vocabulary', () => {
  const { pt } = PUZZLE_TEXTS;
  const all = Object.values(pt).join(' ');
  assert.doesNotMatch(all, /disco|lance/i, 'peças and jogadas, not discos or lances');
  assert.match(all, /peças/);
  assert.match(all, /jogada/);
  assert.match(all, /casas/);
});

test('a puzzle solved move by move, another failed with its refutation, hinted, retried and solved', { timeout: 120000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 1280, height: 800 });
  const p = PUZZLES.find((x) => x.kind === 'endgame' && solverMoves(x).length >= 3 && x.line.length >= 5);
  await page.goto(`${BASE_URL}/learn?puzzle=${p.id}`);
  await at(page, p.id, 'playing', 0);
  assert.equal(await boardString(page, 'puzzle-board'), p.board, 'the puzzle position');
  const turn = p.side === 'X' ? 'black' : 'white';
  assert.equal(await page.getAttribute('#puzzle-board', 'data-turn'), turn);
  assert.match(await page.textContent('#puzzle-task'), new RegExp(`${turn === 'black' ? 'Black' : 'White'} to move`));
  assert.match(await page.textContent('#puzzle-rating'), /1500/);
  await boardVisible(page, 1280, 800);

  // Each right move is answered by the opponent's move of the line, on the board.
  const mine = solverMoves(p);
  for (let k = 0; k < mine.length; k++) {
    await click(page, mine[k]);
    const last = k === mine.length - 1;
    await at(page, p.id, last ? 'solved' : 'playing', k + 1);
    if (!last) {
      await page.waitForFunction(([want]) => {
        const b = [...document.querySelectorAll('#puzzle-board .cell')].map((c) => (c.classList.contains('black') ? 'X' : c.classList.contains('white') ? 'O' : '-')).join('');
        return b === want;
      }, [boardAfter(p, p.line.slice(0, pliesAfter(p, k + 1)))]);
      assert.match(await page.textContent('#puzzle-feedback'), /Right!.*next move/);
    }
  }
  assert.equal(await boardString(page, 'puzzle-board'), boardAfter(p, p.line));
  const solved = await page.textContent('#puzzle-feedback.ok');
  assert.match(solved, /Solved!/);
  assert.match(solved, /Your rating: \d+ \(\+\d+\)/, solved);
  assert.match(await page.textContent('#puzzle-rating'), /1 of 1 solved/);
  await page.screenshot({ path: screenshotPath('puzzle-solved.png') });

  // Another puzzle: a wrong first move shows the opponent's refutation on the board.
  const q = PUZZLES.find((x) => x.kind === 'endgame' && x.id !== p.id && solverMoves(x).length === 2 && x.scores.length >= 3);
  await page.goto(`${BASE_URL}/learn?puzzle=${q.id}`);
  await at(page, q.id, 'playing', 0);
  const wrong = q.scores[1].move;
  await click(page, wrong);
  await at(page, q.id, 'wrong');
  const text = await page.textContent('#puzzle-feedback.bad');
  assert.match(text, /Not this one/);
  assert.match(text, new RegExp(wrong));
  await page.waitForSelector('#puzzle-board .cell[data-mark~="target"]');
  const reply = await page.getAttribute('#puzzle-board .cell[data-mark~="target"]', 'data-square');
  assert.equal(await page.getAttribute(`#puzzle-board .cell[data-square="${wrong}"]`, 'data-mark'), 'wrong');
  const afterWrong = play(q.board, q.side, idx(wrong));
  assert.equal(await boardString(page, 'puzzle-board'), play(afterWrong, other(q.side), idx(reply)), 'the wrong move and its refutation');
  assert.match(await page.textContent('#puzzle-line'), new RegExp(`The line: ${wrong}, ${reply}`));
  assert.match(text, /Your rating: \d+ \(−\d+\)/, text);
  await page.screenshot({ path: screenshotPath('puzzle-wrong.png') });

  // Retry: the start again; a hint (the quarter, then the move), then the solution.
  await page.click('#puzzle-retry');
  await at(page, q.id, 'playing', 0);
  assert.equal(await boardString(page, 'puzzle-board'), q.board);
  await page.click('#puzzle-hint');
  await page.waitForFunction(() => document.querySelectorAll('#puzzle-board .cell[data-mark~="coach"]').length === 16);
  const qm = solverMoves(q);
  assert.equal(await page.getAttribute(`#puzzle-board .cell[data-square="${qm[0]}"]`, 'data-mark'), 'coach');
  await page.click('#puzzle-hint');
  await page.waitForSelector(`#puzzle-board .cell[data-square="${qm[0]}"][data-mark~="best"]`);
  assert.match(await page.textContent('#puzzle-feedback'), new RegExp(`the move is ${qm[0]}`));
  await click(page, qm[0]);
  await at(page, q.id, 'playing', 1);
  await click(page, qm[1]);
  await at(page, q.id, 'solved', 2);
  assert.match(await page.textContent('#puzzle-feedback.ok'), /Solved!.*Not rated/);
  assert.match(await page.textContent('#puzzle-rating'), /1 of 2 solved/);

  // A square that is no move is refused and said so, without a result.
  await page.click('#puzzle-next');
  await page.waitForFunction((id) => { const g = document.querySelector('#puzzle-board'); return g && g.dataset.puzzle && g.dataset.puzzle !== id && g.dataset.state === 'playing'; }, q.id);
  const nextId = await page.getAttribute('#puzzle-board', 'data-puzzle');
  assert.ok(new URL(page.url()).search.includes(nextId), page.url());
  const r = PUZZLES.find((x) => x.id === nextId);
  const empty = [...r.board].findIndex((c, i) => c === '-' && !r.scores.some((s) => idx(s.move) === i));
  if (empty >= 0) {
    const name = 'abcdefgh'[empty % 8] + String(Math.floor(empty / 8) + 1);
    await click(page, name);
    await page.waitForSelector('#puzzle-feedback.bad');
    assert.match(await page.textContent('#puzzle-feedback'), /not a legal move/);
    assert.equal(await page.getAttribute('#puzzle-board', 'data-state'), 'playing');
  }
  checkClean(page);
  await context.close();
});

test('the theme filter gives puzzles of that theme; the daily puzzle is the same for everyone', { timeout: 90000 }, async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(BASE_URL + '/learn');
  await page.click('#learn-puzzles');
  await page.waitForSelector('#puzzle-board[data-state="playing"]');
  await page.selectOption('#puzzle-theme', 'parity');
  // The puzzle shown before the choice may be a parity puzzle already, and may be picked again:
  // the first wait is for a parity puzzle being played, each next one for another puzzle.
  const parity = PUZZLES.filter((x) => x.themes.includes('parity')).map((x) => x.id);
  for (let i = 0; i < 3; i++) {
    const before = i > 0 ? await page.getAttribute('#puzzle-board', 'data-puzzle') : null;
    if (i > 0) await page.click('#puzzle-next');
    await page.waitForFunction(([id, ids]) => {
      const g = document.querySelector('#puzzle-board');
      return g.dataset.puzzle !== id && ids.includes(g.dataset.puzzle) && g.dataset.state === 'playing';
    }, [before, parity]);
    const id = await page.getAttribute('#puzzle-board', 'data-puzzle');
    const p = PUZZLES.find((x) => x.id === id);
    assert.ok(p.themes.includes('parity'), `${id}: ${p.themes}`);
    assert.match(await page.textContent('#puzzle-info'), /parity/);
    assert.equal(await page.inputValue('#puzzle-theme'), 'parity');
  }
  // Remembered on this browser.
  await page.reload();
  await page.waitForSelector('#puzzle-board[data-state="playing"]');
  assert.equal(await page.inputValue('#puzzle-theme'), 'parity');

  await page.click('#puzzle-daily');
  await page.waitForSelector('#puzzle-board[data-state="playing"]');
  await page.waitForFunction(() => /Daily puzzle, \d{4}-\d\d-\d\d/.test(document.querySelector('#puzzle-title').textContent));
  const daily = await page.getAttribute('#puzzle-board', 'data-puzzle');
  const second = await newPage(shared.browser);
  await second.page.goto(BASE_URL + '/learn');
  await second.page.click('#learn-daily');
  await second.page.waitForSelector(`#puzzle-board[data-puzzle="${daily}"][data-state="playing"]`);
  checkClean(page);
  checkClean(second.page);
  await second.context.close();
  await context.close();
});

test('pt-BR and phone: the puzzle page in Portuguese at 390x844', { timeout: 90000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  await page.goto(BASE_URL + '/learn');
  await page.waitForSelector('#learn-puzzles');
  assert.equal((await page.textContent('#learn-puzzles')).trim(), 'Resolver problemas');
  await page.screenshot({ path: screenshotPath('puzzle-menu-phone-pt.png'), fullPage: true });
  const p = PUZZLES.find((x) => x.kind === 'endgame' && solverMoves(x).length === 1 && x.scores.length >= 3 && x.scores[1].score < 0 && x.scores[0].score > 0);
  await page.goto(`${BASE_URL}/learn?puzzle=${p.id}`);
  await at(page, p.id, 'playing', 0);
  await boardVisible(page, 390, 844);
  assert.match(await page.textContent('#puzzle-task'), /Vez do (Preto|Branco)/);
  assert.match(await page.textContent('#puzzle-task'), /uma vitória por \d+ peças?/);
  await page.screenshot({ path: screenshotPath('puzzle-phone-pt.png') });
  await click(page, p.scores[1].move);
  await at(page, p.id, 'wrong');
  const text = await page.textContent('#puzzle-feedback.bad');
  assert.match(text, /Esta não/);
  assert.match(text, /uma derrota por \d+ peças?|um empate/);
  assert.match(text, /Seu rating: \d+ \(−\d+\)/);
  assert.doesNotMatch(text, /\d\.\d/, 'no decimal point in Portuguese');
  assert.match(await page.textContent('#puzzle-line'), /A linha:/);
  await page.screenshot({ path: screenshotPath('puzzle-wrong-phone-pt.png'), fullPage: true });
  await page.click('#puzzle-retry');
  await at(page, p.id, 'playing', 0);
  await click(page, p.scores[0].move);
  await at(page, p.id, 'solved', 1);
  assert.match(await page.textContent('#puzzle-feedback.ok'), /Resolvido!.*Sem rating/);
  await boardVisible(page, 390, 844);
  // Switching the language phrases the page again; the position and the state stay.
  const board = await boardString(page, 'puzzle-board');
  await page.click('#lang-btn');
  await page.waitForFunction(() => /to move/.test(document.querySelector('#puzzle-task').textContent));
  assert.match(await page.textContent('#puzzle-feedback.ok'), /Solved!.*Not rated/);
  assert.equal(await boardString(page, 'puzzle-board'), board);
  assert.equal(await page.getAttribute('#puzzle-board', 'data-state'), 'solved');
  checkClean(page);
  await context.close();
});

test('a midgame puzzle: judged by the deep search, refuted by the engine', { timeout: 60000 }, async () => {
  const m = PUZZLES.find((x) => x.kind === 'midgame' && x.scores.length >= 2);
  if (!m) return; // none shipped
  const { context, page } = await newPage(shared.browser, { width: 1280, height: 800 });
  await page.goto(`${BASE_URL}/learn?puzzle=${m.id}`);
  await at(page, m.id, 'playing', 0);
  assert.equal(await boardString(page, 'puzzle-board'), m.board);
  assert.match(await page.textContent('#puzzle-task'), /deep search rates it at least 6 discs above every other/);
  const wrong = m.scores[1].move;
  await click(page, wrong);
  await at(page, m.id, 'wrong');
  const text = await page.textContent('#puzzle-feedback.bad');
  const loss = m.scores[0].score - m.scores[1].score;
  assert.match(text, new RegExp(`rates ${wrong} about ${loss} discs below the best move \\(an estimate, not an exact result\\)`), text);
  await page.waitForSelector('#puzzle-board .cell[data-mark~="target"]');
  const reply = await page.getAttribute('#puzzle-board .cell[data-mark~="target"]', 'data-square');
  // The opponent's answer on the board is the one the sentence names as the reply.
  assert.match(text, new RegExp(`After ${wrong}, (White|Black) has (a single move|\\d+ moves) and replies ${reply}\\.`), text);
  assert.equal(await boardString(page, 'puzzle-board'), play(play(m.board, m.side, idx(wrong)), other(m.side), idx(reply)));
  await page.click('#puzzle-retry');
  await at(page, m.id, 'playing', 0);
  await click(page, m.scores[0].move);
  await at(page, m.id, 'solved', 1);
  assert.match(await page.textContent('#puzzle-feedback.ok'), /the move the deep search prefers/);
  await boardVisible(page, 1280, 800);
  checkClean(page);
  await context.close();
});
