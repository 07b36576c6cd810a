// Sharing a local game by a replay link, and opening a game file: the one who opens gets a copy
// of their own, shown from its start; the owner's game is not reachable from the link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserForFile, newPage, BASE_URL } from '../lib/browser.mjs';
import { open, newGame, clickFirstLegal, boardString } from '../lib/ui.mjs';
import { replay } from '../lib/othello.mjs';

const shared = browserForFile();

const gameId = (page) => page.evaluate(() => new URLSearchParams(location.search).get('game'));

test('a replay link gives another browser a copy to step through, not the game', { timeout: 90000 }, async () => {
  const owner = await newPage(shared.browser, {});
  await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
  await open(owner.page);
  await newGame(owner.page, { mode: 'friend' });
  for (let i = 0; i < 4; i++) await clickFirstLegal(owner.page);
  const ownerId = await gameId(owner.page);
  const transcript = await owner.page.inputValue('#transcript');
  await owner.page.click('#btn-replay-link');
  await owner.page.waitForFunction(() => /Replay link copied/.test(document.getElementById('notice').textContent));
  const link = await owner.page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, `${BASE_URL}/?replay=${transcript}`, 'the link carries the moves only');

  const friend = await newPage(shared.browser, { locale: 'pt-BR' });
  await friend.page.goto(link);
  await friend.page.waitForFunction(() => new URLSearchParams(location.search).get('game'));
  const copyId = await gameId(friend.page);
  assert.notEqual(copyId, ownerId, 'a game of its own');
  // Shown from the start, then stepped to the end with the arrow keys.
  await friend.page.waitForSelector('#board[data-ply="0"][data-view="0"]');
  for (let i = 0; i < 4; i++) await friend.page.keyboard.press('ArrowRight');
  await friend.page.waitForSelector('#board[data-ply="4"]');
  assert.equal(await boardString(friend.page), replay(transcript).board);
  // A record: its sides by colour (a transcript names nobody), nothing to undo, in Portuguese.
  assert.equal(await friend.page.textContent('#player-black .pwho'), 'Preto');
  assert.equal(await friend.page.textContent('#player-white .pwho'), 'Branco');
  assert.match(await friend.page.textContent('#status-text'), /Registro de partida/);
  assert.equal(await friend.page.isHidden('#btn-undo'), true);
  assert.deepEqual(friend.page.consoleErrors, []);
  // The owner's game stays private to its browser.
  const res = await friend.page.evaluate((id) => fetch('/api/games/' + id).then((r) => r.status), ownerId);
  assert.equal(res, 404);
  await owner.context.close();
  await friend.context.close();
});

test('a game file (GGF) opens as a game to step through', { timeout: 60000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'virada-e2e-'));
  const ggf = path.join(dir, 'game.ggf');
  fs.writeFileSync(ggf, '(;GM[Othello]PC[x]PB[Ana Souza]PW[Bia Lima]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3];)');
  const { context, page } = await newPage(shared.browser, {});
  await open(page);
  await page.setInputFiles('#file-open', ggf);
  await page.waitForSelector('#board[data-ply="0"][data-view="0"]');
  assert.equal(await page.inputValue('#transcript'), 'f5d6c3');
  // The players the record names; a record is read-only: no undo or redo, no resignation,
  // and a click on the board at its last move plays nothing.
  assert.equal(await page.textContent('#player-black .pwho'), 'Ana Souza');
  assert.equal(await page.textContent('#player-white .pwho'), 'Bia Lima');
  assert.match(await page.textContent('#status-text'), /game record/);
  for (const id of ['#btn-undo', '#btn-redo', '#btn-resign']) assert.equal(await page.isHidden(id), true, id);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#board[data-ply="3"]');
  assert.equal(await page.locator('#board [data-legal]').count(), 0, 'no move offered on a record');
  // A WTHOR database (binary) goes to the server instead: tests/viewer.test.mjs.
  fs.rmSync(dir, { recursive: true });
  assert.deepEqual(page.consoleErrors, []);
  await context.close();
});
