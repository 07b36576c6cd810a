// Arenas in the browser: an account creates an arena from the form, joins; a second account
// (on a phone, in Portuguese) opens it and joins; both are paired at once and their pages open
// the game by themselves; back on the arena page the standings show both players live.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';

const shared = browserForFile();

/** Signs `page` up as `username` (the session cookie stays in its context). */
async function signUp(page, username) {
  const status = await page.evaluate((u) => fetch('/api/accounts', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: u, password: 'a good long password' }),
  }).then((r) => r.status), username);
  assert.equal(status, 201);
}

const gameIdOf = (page) => page.evaluate(() => new URLSearchParams(location.search).get('game'));

test('two accounts join an arena, are paired and their games open', { timeout: 90000 }, async () => {
  const stamp = Date.now().toString(36);
  const ana = await newPage(shared.browser);
  await ana.page.goto(BASE_URL + '/arenas');
  await signUp(ana.page, 'ana_' + stamp);
  await ana.page.goto(BASE_URL + '/arenas');
  await ana.page.waitForSelector('#arena-form');
  await ana.page.fill('#arena-form input[name="name"]', 'E2E ' + stamp);
  await ana.page.selectOption('#arena-form select[name="clock"]', '5+0');
  await ana.page.click('#arena-form button[type="submit"]');
  await ana.page.waitForSelector('#arena-join');
  const path = await ana.page.evaluate(() => location.pathname);
  assert.match(path, /^\/arenas\/a_[0-9a-f]+$/);
  assert.equal(await ana.page.textContent('#arena-name'), 'E2E ' + stamp);
  await ana.page.click('#arena-join');
  await ana.page.waitForSelector('#arena-withdraw');

  // Bia, on a phone in Portuguese: the page is in her language; she joins.
  const bia = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  await bia.page.goto(BASE_URL + path);
  await signUp(bia.page, 'bia_' + stamp);
  await bia.page.goto(BASE_URL + path);
  await bia.page.waitForSelector('#arena-join');
  assert.equal((await bia.page.textContent('#arena-join')).trim(), 'Entrar');
  await bia.page.screenshot({ path: screenshotPath('arena-phone-pt.png') });
  await bia.page.click('#arena-join');

  // Paired at once: both pages open the same game, with the board.
  for (const p of [ana.page, bia.page]) {
    await p.waitForFunction(() => new URLSearchParams(location.search).get('game'));
    await p.waitForSelector('#board .cell[data-square="h8"]');
  }
  const game = await gameIdOf(ana.page);
  assert.equal(await gameIdOf(bia.page), game);
  const seats = await ana.page.evaluate((id) => fetch('/api/games/' + id).then((r) => r.json()), game);
  assert.equal(seats.online.phase, 'playing');
  assert.deepEqual(
    [seats.online.seats.black.name, seats.online.seats.white.name].sort(),
    ['ana_' + stamp, 'bia_' + stamp],
  );

  // Back to the arena: the standings list both, playing; the page does not bounce to the game.
  await bia.page.goBack();
  await bia.page.waitForSelector('#arena-standings tbody tr');
  await bia.page.waitForFunction(() => document.querySelectorAll('#arena-standings tbody tr').length === 2);
  await bia.page.waitForSelector('#arena-your-game');
  assert.ok(bia.page.sockets.some((s) => /^\/api\/arenas\/a_[0-9a-f]+\/ws$/.test(s)), 'the live socket');
  await bia.page.screenshot({ path: screenshotPath('arena-standings-phone-pt.png') });
  assert.deepEqual(ana.page.consoleErrors, []);
  assert.deepEqual(bia.page.consoleErrors, []);
  await ana.context.close();
  await bia.context.close();
});
