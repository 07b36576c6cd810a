// The board editor of the New game dialog: discs put by clicking, the side to move, checks with
// clear messages before anything is sent, and a game against a friend or the computer from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, boardString, legalSquares, waitTurn } from '../lib/ui.mjs';
import { START, legalMoves, sq, idx } from '../lib/othello.mjs';

const shared = browserForFile();

async function openEditor(page, mode) {
  await page.click('#btn-new');
  await page.waitForSelector('#new-dialog[open]');
  await page.check(`#new-dialog input[name="mode"][value="${mode}"]`);
  await page.check('#new-dialog input[name="start"][value="editor"]');
  await page.waitForSelector('#editor-board .ed-cell');
}

async function paint(page, value, squares) {
  await page.click(`#new-dialog .editor-only label:has(input[name="paint"][value="${value}"])`);
  for (const s of squares) await page.click(`#editor-board .ed-cell[data-square="${s}"]`);
}

async function start(page) {
  const before = await page.evaluate(() => new URLSearchParams(location.search).get('game'));
  await page.click('#new-start');
  await page.waitForSelector('#new-dialog', { state: 'hidden' });
  await page.waitForFunction((b) => {
    const id = new URLSearchParams(location.search).get('game');
    const board = document.getElementById('board');
    return id && id !== b && board.dataset.game === id && board.dataset.status !== 'loading';
  }, before);
}

const put = (board, changes) => {
  const b = board.split('');
  for (const [s, v] of Object.entries(changes)) b[idx(s)] = v;
  return b.join('');
};

test('set up a position by clicking, White to move, and play it with a friend', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, {});
  await open(page);
  await openEditor(page, 'friend');
  // The editor starts from the standard position; e5 becomes black, c3 white.
  await paint(page, 'X', ['e5']);
  await paint(page, 'O', ['c3']);
  await page.check('#new-dialog input[name="tomove"][value="white"]');
  assert.match(await page.textContent('#editor-status'), /3 black, 2 white\./);
  await page.screenshot({ path: screenshotPath('editor.png') });
  await start(page);
  const want = put(START, { e5: 'X', c3: 'O' });
  assert.equal(await boardString(page), want, 'the board set up is the board played');
  assert.match(await page.textContent('#status-text'), /White to move/);
  assert.deepEqual((await legalSquares(page)).sort(), legalMoves(want, 'O').map(sq).sort());
  assert.deepEqual(page.consoleErrors, []);
  await context.close();
});

test('the editor explains what is wrong before sending, in Portuguese', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, { locale: 'pt-BR' });
  await open(page);
  await openEditor(page, 'computer');
  await page.click('#editor-clear');
  await page.click('#new-start');
  assert.equal(await page.textContent('#new-error'), 'Coloque algumas peças no tabuleiro primeiro.');
  // Only black discs: nobody can move.
  await paint(page, 'X', ['a1', 'b1']);
  await page.click('#new-start');
  assert.match(await page.textContent('#new-error'), /^Nenhum dos lados tem jogada válida aqui/);
  assert.equal(await page.isVisible('#new-dialog'), true, 'nothing was sent: the dialog stays');
  // a1 white, b1 black: Black (to move) has no move, White has c1: Black passes, White begins.
  await paint(page, 'O', ['a1']);
  await paint(page, 'X', ['c1', 'c1']); // the same disc again empties the square
  assert.equal(await page.getAttribute('#editor-board .ed-cell[data-square="c1"]', 'aria-label'), 'c1: vazia');
  assert.equal(await page.textContent('#editor-status'), '1 pretas, 1 brancas. Preto não tem jogada válida aqui e passa a vez; Branco joga primeiro.');
  await start(page);
  // Black passes, the computer (White) plays c1, and nobody can move again.
  await page.waitForSelector('#board[data-status="finished"]');
  assert.equal(await boardString(page), put('-'.repeat(64), { a1: 'O', b1: 'O', c1: 'O' }));
  assert.ok(await page.$('#move-list button.pass'), 'Black\'s pass is the first ply');
  await context.close();
});

test('from the editor against the computer: the computer moves first when it is to move', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, {});
  await open(page);
  await openEditor(page, 'computer');
  await page.waitForFunction(() => document.querySelectorAll('#level option').length > 0);
  await page.selectOption('#level', await page.$eval('#level', (s) => s.options[0].value));
  await page.check('#new-dialog input[name="color"][value="black"]');
  await page.check('#new-dialog input[name="tomove"][value="white"]');
  await start(page);
  // White (the computer) was to move in the standard position: after its reply it is Black's turn.
  assert.equal(await waitTurn(page), 'human');
  assert.equal(Number(await page.getAttribute('#board', 'data-ply')), 1);
  assert.deepEqual(page.consoleErrors, []);
  await context.close();
});
