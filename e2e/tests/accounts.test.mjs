// Accounts in the browser: a guest plays against the computer, then creates an account from
// the header and keeps the game (the saved-games list, the board); signed out, the browser no
// longer has it; another device (a phone) signs in and has it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, newGame, waitTurn, clickFirstLegal, goTo } from '../lib/ui.mjs';

const shared = browserForFile();

const gameIdOf = (page) => page.evaluate(() => new URLSearchParams(location.search).get('game'));
const status = (page, path) => page.evaluate((p) => fetch(p).then((r) => r.status), path);

async function openAccount(page) {
  await page.click('#account-btn');
  await page.waitForSelector('#account-dialog[open]');
}

async function listedIds(page) {
  await goTo(page, '/games');
  await page.waitForSelector('li[data-game-id]');
  return page.$$eval('li[data-game-id]', (lis) => lis.map((li) => li.dataset.gameId));
}

test('a guest plays, signs up and keeps the game; another device signs in and has it', { timeout: 90000 }, async () => {
  const username = 'e2e_' + Date.now().toString(36);
  const password = 'a good long password';
  const { context, page } = await newPage(shared.browser);
  await open(page);
  assert.equal(await page.textContent('#account-label'), 'Sign in');
  await newGame(page, { mode: 'computer', level: 'lowest' });
  await clickFirstLegal(page);
  assert.equal(await waitTurn(page), 'human');
  const id = await gameIdOf(page);
  const plies = Number(await page.getAttribute('#board', 'data-ply'));
  assert.ok(plies >= 2, `the computer answered (ply ${plies})`);

  // Create the account: errors are phrased by the page, then the code is shown once.
  await openAccount(page);
  await page.check('#account-guest input[name="what"][value="signup"]');
  await page.fill('#acc-username', 'x');
  await page.fill('#acc-password', password);
  await page.click('#account-submit');
  await page.waitForFunction(() => document.getElementById('account-error').textContent.includes('3 to 20'));
  await page.fill('#acc-username', username);
  await page.click('#account-submit');
  await page.waitForSelector('#account-code:not([hidden])');
  const code = await page.textContent('#account-code-text');
  assert.match(code, /^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
  await page.screenshot({ path: screenshotPath('account-code.png') });
  await Promise.all([page.waitForNavigation(), page.click('#account-code-ok')]);
  await page.waitForSelector('#board .cell[data-square="h8"]');
  await page.waitForFunction((u) => document.getElementById('account-label').textContent === u, username);

  // The game is the account's now: listed, and it opens at the same ply.
  assert.ok((await listedIds(page)).includes(id), 'the guest game is listed');
  await open(page, `/?game=${id}`);
  await page.waitForFunction((p) => Number(document.getElementById('board').dataset.ply) === p, plies);

  // Signed out, this browser is a guest without it.
  await openAccount(page);
  assert.match(await page.textContent('#account-who'), new RegExp(username));
  await Promise.all([page.waitForNavigation(), page.click('#account-signout')]);
  await page.waitForFunction(() => document.getElementById('account-label').textContent === 'Sign in');
  assert.equal(await status(page, `/api/games/${id}`), 404);
  await context.close();

  // A phone (in Portuguese) signs in: a wrong password first, phrased in Portuguese.
  const phone = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  await open(phone.page);
  assert.equal(await phone.page.textContent('#account-label'), 'Entrar');
  await openAccount(phone.page);
  await phone.page.fill('#acc-username', username.toUpperCase());
  await phone.page.fill('#acc-password', 'not the password');
  await phone.page.click('#account-submit');
  await phone.page.waitForFunction(() => document.getElementById('account-error').textContent.includes('incorretos'));
  await phone.page.screenshot({ path: screenshotPath('account-phone-signin.png') });
  // The dialog fits the phone's width.
  const width = await phone.page.$eval('#account-dialog', (d) => d.getBoundingClientRect().width);
  assert.ok(width <= 390, `dialog width ${width}`);
  await phone.page.fill('#acc-password', password);
  await Promise.all([phone.page.waitForNavigation(), phone.page.click('#account-submit')]);
  await phone.page.waitForFunction((u) => document.getElementById('account-label').textContent === u, username);
  assert.ok((await listedIds(phone.page)).includes(id), 'the phone lists the game');
  assert.equal(await status(phone.page, `/api/games/${id}`), 200);
  await openAccount(phone.page);
  await phone.page.waitForFunction(() => document.getElementById('account-ratings').textContent.length > 0);
  await phone.page.screenshot({ path: screenshotPath('account-phone-signed-in.png') });
  // The wrong password's 401 is logged by Chromium as a failed resource; nothing else.
  const errors = phone.page.consoleErrors.filter((e) => !e.includes('status of 401'));
  assert.deepEqual(errors, [], 'no script errors');
  await phone.context.close();
});
