// The game viewer's WTHOR files: a .wtb (the French federation's binary database, many games a
// file) goes to the server, which lists its games; the one picked opens from its start, steps to
// its end with the arrow keys to the board the rules give, and is analysed. Both languages, and
// a file that is no WTHOR file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserForFile, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, boardString, ANALYSIS_WAIT } from '../lib/ui.mjs';
import { START, legalMoves, play, sq, idx, replay, rng, other } from '../lib/othello.mjs';

const shared = browserForFile();
let dir;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'virada-viewer-'));
});
after(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A whole game from the standard start, random legal moves (seeded); passes left out. */
function randomGame(seed) {
  const r = rng(seed);
  let board = START;
  let color = 'X';
  let moves = '';
  for (;;) {
    let legal = legalMoves(board, color);
    if (!legal.length) {
      color = other(color);
      legal = legalMoves(board, color);
      if (!legal.length) return moves;
    }
    const i = legal[Math.floor(r() * legal.length)];
    board = play(board, color, i);
    moves += sq(i);
    color = other(color);
  }
}

/** Black's count as WTHOR records it: the empties go to the winner. */
function blackScore(board) {
  const x = [...board].filter((c) => c === 'X').length;
  const o = [...board].filter((c) => c === 'O').length;
  const empties = 64 - x - o;
  return x > o ? x + empties : x < o ? x : x + empties / 2;
}

/** A .wtb file as the federation writes it: a 16-byte header, then 68 bytes a game. */
function wtb(year, games) {
  const out = Buffer.alloc(16 + 68 * games.length);
  out.writeUInt8(20, 0);
  out.writeUInt32LE(games.length, 4);
  out.writeUInt16LE(year, 10);
  out.writeUInt8(8, 12);
  games.forEach((g, n) => {
    const at = 16 + 68 * n;
    out.writeUInt16LE(g.black, at + 2);
    out.writeUInt16LE(g.white, at + 4);
    out.writeUInt8(g.score, at + 6);
    for (let k = 0; k < g.moves.length; k += 2) {
      const i = idx(g.moves.slice(k, k + 2));
      out.writeUInt8(10 * (Math.floor(i / 8) + 1) + (i % 8) + 1, at + 8 + k / 2);
    }
  });
  return out;
}

const WIPE = 'd3c3b3d2e1d6d7e3f4'; // Black takes every disc in nine moves
const LONG = randomGame(43);
const FILE = wtb(2024, [
  { black: 12, white: 34, score: 64, moves: WIPE },
  { black: 101, white: 202, score: blackScore(replay(LONG).board), moves: LONG },
  { black: 5, white: 6, score: 0, moves: 'f5d6a1' }, // a1 is no legal move: unreadable
]);

test('a WTHOR file lists its games; the one picked opens from its start, steps and is analysed', { timeout: 600000 }, async () => {
  const file = path.join(dir, 'WTH_2024.wtb');
  fs.writeFileSync(file, FILE);
  const { context, page } = await newPage(shared.browser, {});
  await open(page);
  await page.setInputFiles('#file-open', file);
  await page.waitForSelector('#wthor-dialog[open]');
  assert.equal(await page.textContent('#wthor-summary'), 'WTH_2024.wtb: 3 games of 2024 (in brackets, the players\' numbers).');
  const options = await page.$$eval('#wthor-list option', (os) => os.map((o) => ({ text: o.textContent, disabled: o.disabled })));
  assert.deepEqual(options[0], { text: '1. 64–0, 9 moves (12 × 34)', disabled: false });
  assert.match(options[1].text, new RegExp(`^2\\. \\d+–\\d+, ${LONG.length / 2} moves \\(101 × 202\\)$`));
  assert.deepEqual(options[2], { text: '3. unreadable from move 3 (5 × 6)', disabled: true });
  await page.screenshot({ path: screenshotPath('viewer-wthor-list.png') });

  // The second game, chosen with the keyboard: arrow down, Enter.
  await page.focus('#wthor-list');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#wthor-dialog', { state: 'hidden' });
  await page.waitForSelector('#board[data-view="0"]');
  assert.equal(await page.inputValue('#transcript'), LONG);
  assert.equal(await page.textContent('#move-list .start-btn'), 'Start');
  assert.equal(await boardString(page), START);
  // Stepped to the end with the arrow keys: the board the rules give.
  const plies = await page.$$eval('#move-list button[data-ply]', (bs) => Math.max(...bs.map((b) => Number(b.dataset.ply))));
  assert.ok(plies >= LONG.length / 2, `every move is listed (${plies} plies)`);
  for (let i = 0; i < plies; i++) await page.keyboard.press('ArrowRight');
  await page.waitForSelector(`#board[data-view="live"], #board[data-view="${plies}"]`);
  assert.equal(await boardString(page), replay(LONG).board);
  assert.equal(await page.getAttribute('#board', 'data-status'), 'finished');
  // The analysis of the game: its graph and each side's mistakes.
  await page.click('#btn-analyse');
  await page.waitForSelector('#analysis-body svg', { timeout: ANALYSIS_WAIT });
  assert.ok((await page.$$('#analysis-body h3')).length >= 1, 'the analysis lists each side');
  assert.deepEqual(page.consoleErrors, []);
  await context.close();
});

test('in Portuguese; a file that is no WTHOR file is explained', { timeout: 60000 }, async () => {
  const file = path.join(dir, 'WTH_2024.wtb');
  fs.writeFileSync(file, FILE);
  const bad = path.join(dir, 'WTH_2001.wtb');
  fs.writeFileSync(bad, Buffer.from([1, 0, 0, 0, 7, 0, 0, 0]));
  for (const [locale, summary, first, error] of [
    ['pt-BR', 'WTH_2024.wtb: 3 partidas de 2024 (entre parênteses, os números dos jogadores).', '1. 64–0, 9 jogadas (12 × 34)', /^Não foi possível ler o arquivo de partidas \(arquivo WTHOR, byte 8\)\.$/],
    ['en-US', 'WTH_2024.wtb: 3 games of 2024 (in brackets, the players\' numbers).', '1. 64–0, 9 moves (12 × 34)', /^The game file could not be read \(WTHOR file, byte 8\)\. File too short/],
  ]) {
    const { context, page } = await newPage(shared.browser, { locale, width: 390, height: 844, isMobile: true });
    await open(page);
    await page.setInputFiles('#file-open', file);
    await page.waitForSelector('#wthor-dialog[open]');
    assert.equal(await page.textContent('#wthor-summary'), summary);
    assert.equal(await page.textContent('#wthor-list option'), first);
    if (locale === 'pt-BR') await page.screenshot({ path: screenshotPath('viewer-wthor-list-phone-pt.png') });
    await page.click('#wthor-cancel');
    await page.waitForSelector('#wthor-dialog', { state: 'hidden' });
    await page.setInputFiles('#file-open', bad);
    await page.waitForFunction(() => document.getElementById('notice').textContent.length > 0);
    assert.match(await page.textContent('#notice'), error);
    const errors = page.consoleErrors.filter((e) => !e.startsWith('Failed to load resource'));
    assert.deepEqual(errors, []);
    await context.close();
  }
});
