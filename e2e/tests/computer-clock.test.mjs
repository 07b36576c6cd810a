// A game against the computer with a clock, in both languages: the time control is chosen in the
// "New game" dialog (the online presets), both clocks show, each starts with its side's first
// move and then the one of the side to move runs,
// no undo with a clock, and resigning (with its confirmation) ends the game: stored by the
// server, sent over the game's WebSocket, the reason shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, newGame, waitTurn, clickFirstLegal } from '../lib/ui.mjs';

const shared = browserForFile();

const CASES = [
  { locale: 'en-US', tc: '1+0', none: 'No clock', resigned: 'You resigned.', ask: 'Resign this game?' },
  { locale: 'pt-BR', tc: '3+2', none: 'Sem relógio', resigned: 'Você desistiu.', ask: null },
];

for (const c of CASES) {
  test(`a clocked game against the computer, resigned (${c.locale})`, { timeout: 90000 }, async () => {
    const { context, page } = await newPage(shared.browser, { locale: c.locale });
    try {
      await open(page);
      // The dialog offers the presets against the computer, in the page's language, and no
      // custom clock nor days per move.
      await page.click('#btn-new');
      await page.waitForSelector('#new-dialog[open]');
      await page.check('#new-dialog input[name="mode"][value="computer"]');
      await page.waitForSelector('#new-dialog .tc-field', { state: 'visible' });
      assert.equal((await page.textContent('#new-dialog label:has(input[name="tc"][value="none"])')).trim(), c.none);
      assert.equal(await page.isVisible('#new-dialog input[name="tc"][value="custom"]'), false);
      assert.equal(await page.isVisible('#new-dialog input[name="tc"][value="correspondence"]'), false);
      // Two people on one device take the same presets.
      await page.check('#new-dialog input[name="mode"][value="friend"]');
      assert.equal(await page.isVisible('#new-dialog .tc-field'), true, 'a clock between friends too');
      assert.equal(await page.isVisible('#new-dialog input[name="tc"][value="custom"]'), false);
      await page.click('#new-cancel');

      await newGame(page, { mode: 'computer', level: 'lowest', color: 'black', tc: c.tc });
      const id = await page.evaluate(() => new URLSearchParams(location.search).get('game'));
      const minutes = Number(c.tc.split('+')[0]);
      // Both clocks show, and neither runs before its side's first move: Black's stands whole.
      await page.waitForSelector('#clock-black:not([hidden])');
      assert.equal(await page.isVisible('#clock-white'), true);
      assert.equal(await page.textContent('#clock-white'), `${minutes}:00`);
      assert.equal(await page.$('#clock-black.running'), null, 'Black\'s clock waits for its first move');
      assert.equal(Number(await page.getAttribute('#clock-black', 'data-ms')), minutes * 60000);
      assert.equal(await page.isVisible('#first-move'), false, 'nobody is waited for on one device');
      assert.equal(await page.isVisible('#btn-undo'), false, 'no undo with a clock');

      await clickFirstLegal(page);
      assert.equal(await waitTurn(page), 'human');
      await page.waitForSelector('#clock-black.running');
      assert.equal(await page.$('#clock-white.running'), null, 'the computer\'s clock stands');
      await page.screenshot({ path: screenshotPath(`computer-clock-${c.locale}.png`) });

      // Resign: asked first; "keep playing" keeps playing.
      await page.click('#btn-resign');
      await page.waitForSelector('#resign-confirm', { state: 'visible' });
      if (c.ask) assert.equal((await page.textContent('#resign-question')).trim(), c.ask);
      await page.click('#btn-resign-no');
      assert.equal(await page.getAttribute('#board', 'data-status'), 'ongoing');
      await page.click('#btn-resign');
      await page.click('#btn-resign-yes');
      await page.waitForSelector('#board[data-status="finished"]');
      await page.waitForSelector('#gameover:not([hidden])');
      assert.equal((await page.textContent('#gameover-reason')).trim(), c.resigned);
      assert.equal(await page.isVisible('#clock-black.running'), false, 'the clocks stopped');
      assert.ok(page.sent.some((m) => m.type === 'resign'), 'the resignation went over the WebSocket');
      await page.screenshot({ path: screenshotPath(`computer-resigned-${c.locale}.png`) });

      // Stored by the server: the game, as a new request reads it.
      const stored = await page.evaluate(async (gid) => (await fetch('/api/games/' + gid)).json(), id);
      assert.deepEqual(stored.end, { reason: 'resign', loser: 'black' });
      assert.equal(stored.result.winner, 'white');
      assert.equal(stored.time_control.kind, 'clock');
      assert.equal(stored.time_control.minutes, minutes);
      assert.deepEqual(page.consoleErrors, []);
    } finally {
      await context.close();
    }
  });
}

for (const c of [{ locale: 'en-US', black: 'Black' }, { locale: 'pt-BR', black: 'Preto' }]) {
  test(`two people on one device with a clock that waits for each first move (${c.locale})`, { timeout: 90000 }, async () => {
    const { context, page } = await newPage(shared.browser, { locale: c.locale });
    try {
      await open(page);
      await newGame(page, { mode: 'friend', tc: '1+0' });
      await page.waitForSelector('#clock-black:not([hidden])');
      assert.equal(await page.$('#clock-black.running'), null);
      assert.equal(await page.$('#clock-white.running'), null);
      assert.equal(Number(await page.getAttribute('#clock-black', 'data-ms')), 60000);
      // Black's first move: White's clock still waits for White's.
      await clickFirstLegal(page);
      await page.waitForFunction(() => document.getElementById('board').dataset.ply === '1');
      assert.equal(await page.$('#clock-white.running'), null, 'White\'s clock waits for its first move');
      assert.equal(Number(await page.getAttribute('#clock-black', 'data-ms')), 60000, 'the first move is free');
      // White's first move: now Black's clock runs.
      await clickFirstLegal(page);
      await page.waitForSelector('#clock-black.running');
      assert.match(await page.getAttribute('#clock-black', 'aria-label'), new RegExp(c.black));
      const stored = await page.evaluate(async () => (await fetch('/api/games/' + new URLSearchParams(location.search).get('game'))).json());
      assert.equal(stored.mode, 'friend');
      assert.deepEqual(stored.time_control, { kind: 'clock', minutes: 1, increment_seconds: 0 });
      assert.equal(stored.clocks.running, 'black');
      assert.deepEqual(page.consoleErrors, []);
    } finally {
      await context.close();
    }
  });
}
