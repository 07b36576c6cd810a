// The lobby in the browser: two accounts in two browser contexts (one a phone in Portuguese).
// Ana posts a rated 3+2 challenge as Black from the lobby form; Bia sees it appear live and
// plays it; both pages open the same game, already playing; each plays a move by clicking, Bia
// resigns; both blitz ratings moved (Ana up, Bia down), as /api/players shows. A server error is
// phrased by the page (Portuguese on the phone). Screenshots lobby-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, clickFirstLegal, goTo } from '../lib/ui.mjs';
import { allAtPly, gameIdOf, seat } from '../lib/online.mjs';

let browser;
let closeBrowser;
before(async () => {
  ({ browser, close: closeBrowser } = await launch());
});
after(async () => {
  if (closeBrowser) await closeBrowser();
});

/** Creates an account from the page's own origin (the session cookie lands in its context). */
async function signUp(page, username) {
  const status = await page.evaluate((u) => fetch('/api/accounts', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: u, password: 'a good long password' }),
  }).then((r) => r.status), username);
  assert.equal(status, 201);
}

async function blitz(page, username) {
  return page.evaluate((u) => fetch(`/api/players/${u}`).then((r) => r.json()).then((p) => p.ratings.blitz || null), username);
}

async function openLobby(page) {
  await goTo(page, '/lobby');
  await page.waitForSelector('#lobby-status[data-state="live"]');
}

test('two accounts: a challenge posted, played from the lobby, resigned, both ratings moved', { timeout: 90000 }, async () => {
  const suffix = Date.now().toString(36);
  const [anaName, biaName] = ['ana_' + suffix, 'bia_' + suffix];
  const a = await newPage(browser);
  const b = await newPage(browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  const [ana, bia] = [a.page, b.page];
  try {
    await open(ana);
    await signUp(ana, anaName);
    await open(ana); // the page starts again signed in
    await ana.waitForFunction((u) => document.getElementById('account-label').textContent === u, anaName);
    await open(bia);
    await signUp(bia, biaName);
    await open(bia);
    await bia.waitForFunction((u) => document.getElementById('account-label').textContent === u, biaName);

    await openLobby(bia);
    assert.match(await bia.textContent('#lobby-title'), /Salão/);
    await openLobby(ana);
    assert.equal(await ana.textContent('#lobby-title'), 'Lobby');
    // The bots area lists the computer's levels.
    await ana.waitForSelector('#lobby-bot-list a[data-level]');

    // Ana posts a rated 3+2 challenge as Black.
    await ana.fill('#lobby-minutes', '3');
    await ana.fill('#lobby-increment', '2');
    await ana.selectOption('#lobby-color', 'black');
    await ana.check('#lobby-seek-rated');
    await ana.click('#lobby-make');
    await ana.waitForSelector('#lobby-list li[data-seek]');
    assert.match(await ana.textContent('#lobby-message'), /Challenge posted/);

    // It appears on Bia's phone without a reload; her own attempt at a second post with an
    // impossible range is refused in Portuguese.
    const row = await bia.waitForSelector('#lobby-list li[data-seek] .lobby-accept');
    assert.match(await bia.textContent('#lobby-list li[data-seek]'), new RegExp(anaName));
    assert.match(await bia.textContent('#lobby-list li[data-seek]'), /3\+2/);
    await bia.screenshot({ path: screenshotPath('lobby-phone-pt.png') });
    await ana.screenshot({ path: screenshotPath('lobby-desktop.png') });
    await bia.fill('#lobby-range-min', '3000');
    await bia.fill('#lobby-range-max', '1000');
    await bia.click('#lobby-make');
    await bia.waitForFunction(() => document.getElementById('lobby-message').classList.contains('bad'));
    assert.doesNotMatch(await bia.textContent('#lobby-message'), /^error\./);

    // Bia plays it: both pages open the same game.
    await row.click();
    await bia.waitForFunction(() => new URLSearchParams(location.search).get('game'));
    await ana.waitForFunction(() => new URLSearchParams(location.search).get('game'));
    const id = await gameIdOf(ana);
    assert.equal(await gameIdOf(bia), id);
    await ana.waitForSelector('#board[data-seat="black"]');
    await bia.waitForSelector('#board[data-seat="white"]');
    assert.equal(await seat(ana), 'black');

    // A move each, then Bia resigns.
    await ana.waitForSelector('#board[data-turn="human"]');
    await clickFirstLegal(ana);
    await allAtPly([ana, bia], 1);
    await bia.waitForSelector('#board[data-turn="human"]');
    await clickFirstLegal(bia);
    await allAtPly([ana, bia], 2);
    await bia.click('#btn-resign');
    await bia.waitForSelector('#resign-confirm', { state: 'visible' });
    await bia.click('#btn-resign-yes');
    for (const p of [ana, bia]) await p.waitForSelector('#gameover:not([hidden])');

    // Both ratings moved: Ana won, Bia lost, one rated blitz game each.
    const ra = await blitz(ana, anaName);
    const rb = await blitz(bia, biaName);
    assert.ok(ra && rb, 'both have a blitz rating');
    assert.equal(ra.games, 1);
    assert.equal(rb.games, 1);
    assert.ok(ra.rating > 1500 && rb.rating < 1500, `${ra.rating} ${rb.rating}`);
    // The account dialog shows it too.
    await ana.click('#account-btn');
    await ana.waitForSelector('#account-dialog[open]');
    await ana.waitForFunction((r) => document.getElementById('account-dialog').textContent.includes(String(r)), Math.round(ra.rating));
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
