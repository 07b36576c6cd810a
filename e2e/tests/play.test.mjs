// End-to-end tests of the Virada web app in a real headless Chromium against the real server
// (scripts/e2e.sh starts it and sets VIRADA_URL). Each test drives the page like a person.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';
import { open, newGame, waitTurn, ply, clickFirstLegal, boardString, legalSquares, playToEnd, goTo, ANALYSIS_WAIT } from '../lib/ui.mjs';
import { replay, legalMoves, sq, count } from '../lib/othello.mjs';

// Found by e2e/tools/find-pass-fixture.mjs: Black to move (h2, c5 or a6), and after ANY of them
// White has no legal move and must pass while the game goes on. 12 empty squares.
const PASS_FIXTURE = 'f5f6e6f4g4h4d3d6f3e2g2d2c7h1c4g6e3c6e7e8f1c3f2b5b4b8d1a5b7c2g7h8g5b6h5h6b3h3e1b1b2a2g1c1a3a4a1g3';

const shared = browserForFile();

async function desktop(opts = {}) {
  return newPage(shared.browser, { width: 1280, height: 860, ...opts });
}

function checkClean(page) {
  assert.deepEqual(page.external, [], 'no request leaves the server');
  assert.deepEqual(page.consoleErrors, [], 'no script errors in the console');
}

test('first view: accessible board, no external requests, page weight under 352 KB', { timeout: 60000 }, async () => {
  const { context, page } = await desktop();
  const sizes = [];
  // Each response's body is read as it comes; the reads are awaited before the sizes are added.
  const reads = [];
  page.on('response', (res) => {
    reads.push((async () => {
      try {
        const body = await res.body();
        sizes.push({ url: res.url().replace(BASE_URL, ''), bytes: body.length });
      } catch { /* redirects and aborted requests have no body */ }
    })());
  });
  await open(page);
  await page.waitForLoadState('networkidle');
  await Promise.all(reads);
  const total = sizes.reduce((a, s) => a + s.bytes, 0);
  const report = sizes.map((s) => `${String(s.bytes).padStart(7)}  ${s.url}`).join('\n') + `\n${String(total).padStart(7)}  TOTAL (${sizes.length} requests)\n`;
  fs.writeFileSync(screenshotPath('page-weight.txt'), report);
  console.log('page weight of the first view:\n' + report);
  // 352 KB uncompressed (as served: the server sends no compressed bodies). The JSDoc types
  // every module carries for `tsc --noEmit`, the phone menu and the viewer's buttons took the
  // first view from 300 to 307 KB (2026-12-07 afternoon); the live-game badge and leave warning,
  // the arena bar, the first-move countdown, the practice and explorer links took it to about
  // 347 KB (evening). Next: the texts of pages not shown first (accounts, profiles, lobby,
  // arenas, explorer, watch) loaded lazily, and compressed bodies.
  assert.ok(total < 352 * 1024, `first view weighs ${total} bytes`);
  assert.ok(sizes.length >= 4, 'html, css, scripts were loaded');

  const labels = await page.$$eval('#board [role="gridcell"]', (cells) => cells.map((c) => c.getAttribute('aria-label')));
  assert.equal(labels.length, 64);
  for (const l of labels) assert.match(l, /^[a-h][1-8], (empty|black|white)/);
  assert.equal(await page.getAttribute('#board [data-square="d3"]', 'aria-label'), 'd3, empty, legal move');
  assert.equal(await page.getAttribute('#board [data-square="d4"]', 'aria-label'), 'd4, white');
  assert.equal(await page.getAttribute('#board', 'role'), 'grid');
  assert.equal(await page.$eval('html', (h) => h.lang), 'en');
  await page.screenshot({ path: screenshotPath('desktop-start.png') });
  checkClean(page);
  await context.close();
});

test('complete game against the computer by clicking, then analysis', { timeout: 480000 }, async () => {
  const { context, page } = await desktop();
  await open(page);
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black', start: 'standard' });
  assert.equal(await ply(page), 0);
  assert.deepEqual((await legalSquares(page)).sort(), ['c4', 'd3', 'e6', 'f5']);
  const clicks = await playToEnd(page);
  assert.ok(clicks >= 20, `played ${clicks} moves by clicking`);

  await page.waitForSelector('#gameover:not([hidden])');
  const score = await page.textContent('#gameover-score');
  const m = /(\d+)–(\d+)/.exec(score);
  assert.ok(m, `score shown: ${score}`);
  assert.equal(Number(m[1]) + Number(m[2]), 64, 'WOF scores add up to 64');
  assert.match(await page.textContent('#gameover-winner'), /win|Draw/);
  // The discs on the board agree with the counters.
  const b = await boardString(page);
  const c = count(b);
  assert.equal(Number(await page.textContent('#count-black')), c.black);
  assert.equal(Number(await page.textContent('#count-white')), c.white);
  assert.equal(legalMoves(b, 'X').length + legalMoves(b, 'O').length, 0, 'nobody can move at the end');
  await page.screenshot({ path: screenshotPath('desktop-game-over.png') });

  // Analysis: graph with one point per ply, and a mistakes list for each side.
  const plies = await ply(page);
  await page.click('#btn-analyse');
  // The review spends a node budget (ReviewEffort::STANDARD), so its time depends on the
  // machine; the server answers within its analysis_time_cap (300 s) whatever, so wait that long.
  await page.waitForSelector('#analysis svg.graph', { timeout: ANALYSIS_WAIT });
  assert.equal(await page.$$eval('#analysis svg.graph circle', (c) => c.length), plies);
  assert.equal(await page.$$eval('#analysis h3', (h) => h.length), 2);
  await page.$eval('#analysis', (el) => el.scrollIntoView());
  await page.screenshot({ path: screenshotPath('desktop-analysis.png'), fullPage: true });
  // Clicking a move in the list shows that position.
  await page.click('#move-list button[data-ply="1"]');
  assert.equal(await page.getAttribute('#board', 'data-view'), '1');
  await page.waitForSelector('#view-banner:not([hidden])');
  // The step buttons under the board do what the arrow keys do.
  assert.match(await page.textContent('#nav-where'), new RegExp(`^Move 1 of ${plies}$`));
  await page.click('#nav-next');
  assert.equal(await page.getAttribute('#board', 'data-view'), '2');
  await page.click('#nav-prev');
  await page.click('#nav-prev');
  assert.equal(await page.getAttribute('#board', 'data-view'), '0');
  assert.ok(await page.$eval('#nav-first', (b) => b.disabled), 'nothing before the start');
  await page.click('#nav-last');
  assert.equal(await page.getAttribute('#board', 'data-view'), 'live');
  assert.ok(await page.$eval('#nav-next', (b) => b.disabled), 'nothing after the last move');
  // A click anywhere on the graph shows the nearest move's position: its middle, the middle move.
  const gb = await (await page.$('#analysis svg.graph')).boundingBox();
  await page.click('#analysis svg.graph', { position: { x: gb.width / 2, y: gb.height * 0.9 } });
  const middle = Number(await page.getAttribute('#board', 'data-view'));
  assert.ok(Math.abs(middle - plies / 2) <= 1, `the graph's middle shows move ${middle} of ${plies}`);
  await page.click('#back-to-game');
  assert.equal(await page.getAttribute('#board', 'data-view'), 'live');
  checkClean(page);
  await context.close();
});

test('a forced pass is announced, then the game is finished by clicking', { timeout: 120000 }, async () => {
  const { context, page } = await desktop();
  await open(page);
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black', start: 'setup', setup: PASS_FIXTURE });
  assert.equal(await waitTurn(page), 'human');
  const expected = replay(PASS_FIXTURE);
  assert.equal(expected.toMove, 'X');
  assert.equal(await boardString(page), expected.board, 'the pasted game is set up exactly');
  assert.deepEqual((await legalSquares(page)).sort(), legalMoves(expected.board, 'X').map(sq).sort());

  await clickFirstLegal(page);
  await page.waitForFunction(() => /White has no legal move and passes/.test(document.getElementById('notice').textContent));
  assert.ok(await page.$('#move-list button.pass'), 'the pass is shown in the move list');
  assert.equal(await waitTurn(page), 'human', 'Black moves again after the pass');
  await page.screenshot({ path: screenshotPath('desktop-pass-notice.png') });

  await playToEnd(page);
  await page.waitForSelector('#gameover:not([hidden])');
  checkClean(page);
  await context.close();
});

test('undo and redo against the computer', { timeout: 90000 }, async () => {
  const { context, page } = await desktop();
  await open(page);
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black' });
  await clickFirstLegal(page);
  await waitTurn(page);
  const afterOne = await ply(page);
  const boardOne = await boardString(page);
  await clickFirstLegal(page);
  await waitTurn(page);
  assert.ok((await ply(page)) >= afterOne + 2);

  await page.click('#btn-undo');
  await page.waitForFunction((n) => Number(document.getElementById('board').dataset.ply) === n, afterOne);
  assert.equal(await waitTurn(page), 'human');
  assert.equal(await boardString(page), boardOne, 'undo restores the position before my move');
  assert.equal(await page.isDisabled('#btn-redo'), false);

  await page.click('#btn-redo');
  await page.waitForFunction((n) => Number(document.getElementById('board').dataset.ply) > n, afterOne);
  await waitTurn(page);
  assert.ok((await ply(page)) >= afterOne + 1);
  checkClean(page);
  await context.close();
});

test('hints show a value on every legal square with the best one highlighted', { timeout: 90000 }, async () => {
  const { context, page } = await desktop();
  await open(page);
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black' });
  await clickFirstLegal(page);
  await waitTurn(page);
  await page.click('#btn-hints');
  assert.equal(await page.getAttribute('#btn-hints', 'aria-pressed'), 'true');
  await page.waitForSelector('#board .cell.hinted', { timeout: 60000 });
  const legal = (await legalSquares(page)).sort();
  const hinted = (await page.$$eval('#board .cell.hinted', (c) => c.map((x) => x.dataset.square))).sort();
  assert.deepEqual(hinted, legal, 'every legal move has a value');
  const values = await page.$$eval('#board .cell.hinted .hint', (h) => h.map((x) => x.textContent));
  for (const v of values) assert.match(v, /^[+−]?\d+(\.\d)?$/);
  assert.ok((await page.$$('#board .cell.best')).length >= 1, 'the best move is highlighted');
  const label = await page.getAttribute('#board .cell.best', 'aria-label');
  assert.match(label, /hint [+−]?\d/);
  await page.screenshot({ path: screenshotPath('desktop-hints.png') });
  checkClean(page);
  await context.close();
});

test('keyboard play: arrows move the focus, typing a square plays it (with animations on)', { timeout: 60000 }, async () => {
  const { context, page } = await desktop({ reducedMotion: 'no-preference' });
  await open(page);
  await newGame(page, { mode: 'friend' });
  await page.focus('#board [data-square="d3"]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.square), 'e3');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('board').dataset.ply === '1');
  assert.equal(await page.getAttribute('#board [data-square="d3"]', 'class').then((c) => c.includes('black')), true);
  await page.keyboard.type('c5');
  await page.waitForFunction(() => document.getElementById('board').dataset.ply === '2');
  assert.ok((await page.getAttribute('#board [data-square="c5"]', 'class')).includes('white'));
  assert.match(await page.textContent('#status-text'), /Black to move/);
  checkClean(page);
  await context.close();
});

test('language switch to Portuguese is applied everywhere and remembered', { timeout: 60000 }, async () => {
  const { context, page } = await desktop();
  await open(page);
  await newGame(page, { mode: 'friend' });
  await page.click('#lang-btn');
  assert.equal(await page.$eval('html', (h) => h.lang), 'pt-BR');
  assert.equal((await page.textContent('.mainnav a[data-route="/"]')).trim(), 'Jogar');
  assert.equal(await page.getAttribute('#board [data-square="d3"]', 'aria-label'), 'd3, vazia, jogada válida');
  assert.match(await page.textContent('#status-text'), /Vez do Preto/);
  await page.reload();
  await page.waitForSelector('#board .cell');
  assert.equal(await page.$eval('html', (h) => h.lang), 'pt-BR');
  assert.equal((await page.textContent('#btn-undo')).trim(), 'Desfazer');
  await goTo(page, '/rules');
  await page.waitForSelector('#rules-content h1');
  assert.match(await page.textContent('#rules-content h1'), /Regras do Reversi/);
  await page.screenshot({ path: screenshotPath('desktop-rules-pt.png') });
  await page.click('#lang-btn');
  await page.waitForFunction(() => /Rules of Reversi/.test(document.querySelector('#rules-content h1').textContent));
  assert.equal(await page.$eval('html', (h) => h.lang), 'en');
  checkClean(page);
  await context.close();
});

test('a Portuguese browser gets Portuguese at once', { timeout: 30000 }, async () => {
  const { context, page } = await desktop({ locale: 'pt-BR' });
  await open(page);
  assert.equal(await page.$eval('html', (h) => h.lang), 'pt-BR');
  assert.equal((await page.textContent('#btn-new')).trim(), 'Nova partida');
  await context.close();
});

test('reload restores the game; saved games list resumes it', { timeout: 90000 }, async () => {
  const { context, page } = await desktop();
  await open(page);
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'white' });
  // The computer has Black and opens; then I answer twice.
  await waitTurn(page);
  await clickFirstLegal(page);
  await waitTurn(page);
  await clickFirstLegal(page);
  await waitTurn(page);
  const id = await page.evaluate(() => new URLSearchParams(location.search).get('game'));
  const board = await boardString(page);
  const transcript = await page.inputValue('#transcript');
  const moves = await page.$$eval('#move-list button[data-ply]', (b) => b.length);
  assert.ok(transcript.length >= 10);

  await page.goto(BASE_URL + '/'); // no game id in the address: the last game comes back
  await waitTurn(page);
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('game')), id);
  assert.equal(await boardString(page), board);
  assert.equal(await page.inputValue('#transcript'), transcript);
  assert.equal(await page.$$eval('#move-list button[data-ply]', (b) => b.length), moves);

  await goTo(page, '/games');
  await page.waitForSelector(`#games-ongoing li[data-game-id="${id}"]`);
  await page.screenshot({ path: screenshotPath('desktop-saved-games.png') });
  await page.click(`#games-ongoing li[data-game-id="${id}"] button.primary`);
  await waitTurn(page);
  assert.equal(await boardString(page), board);
  checkClean(page);
  await context.close();
});

test('XOT start: 8 opening moves already played', { timeout: 60000 }, async () => {
  // The opening list is built into the engine (crates/engine/data/openings.txt): the server
  // always has it.
  const probe = await fetch(BASE_URL + '/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mode: 'friend', start: 'xot' }) });
  assert.equal(probe.status, 201, `an XOT game is made: ${await probe.text()}`);
  const { context, page } = await desktop();
  await open(page);
  await newGame(page, { mode: 'friend', start: 'xot' });
  const b = await boardString(page);
  const c = count(b);
  assert.equal(c.black + c.white, 12, 'an XOT opening has 12 discs on the board');
  assert.match(await page.textContent('#status-text'), /Black to move/);
  checkClean(page);
  await context.close();
});

test('phone: the top bar is one row and every section is reached through its menu, in both languages', { timeout: 90000 }, async () => {
  for (const [width, locale] of [[360, 'pt-BR'], [390, 'en-US']]) {
    const { context, page } = await newPage(shared.browser, { width, height: 800, isMobile: true, locale });
    await open(page);
    // One row: every visible item of the bar sits on the same line, and nothing runs off the side.
    const rows = await page.$$eval('.topbar > *, .topbar .tools > *', (els) => els
      .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).position !== 'absolute')
      .map((e) => { const r = e.getBoundingClientRect(); return { top: Math.round(r.top), bottom: Math.round(r.bottom), right: r.right }; }));
    const bar = await page.$eval('.topbar', (b) => ({ height: b.getBoundingClientRect().height, scroll: b.scrollWidth, client: b.clientWidth }));
    assert.ok(bar.height < 64, `${width} px: the bar is one row (${bar.height} px high)`);
    assert.ok(bar.scroll <= bar.client, `${width} px: nothing scrolls sideways in the bar ${JSON.stringify(bar)}`);
    for (const r of rows) assert.ok(r.right <= width, `${width} px: an item ends off-screen ${JSON.stringify(r)}`);
    assert.equal(await page.isVisible('.mainnav a[data-route="/learn"]'), false, 'the sections wait behind the menu');
    assert.equal(await page.getAttribute('#menu-btn', 'aria-label'), 'Menu');
    // Each section through the menu, each link inside the screen.
    for (const route of ['/lobby', '/games', '/arenas', '/learn', '/rules', '/']) {
      await page.click('#menu-btn');
      const box = await (await page.$(`.mainnav a[data-route="${route}"]`)).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${route} is on the screen: ${JSON.stringify(box)}`);
      await page.click(`.mainnav a[data-route="${route}"]`);
      await page.waitForSelector('.mainnav', { state: 'hidden' });
      assert.equal(await page.getAttribute(`.mainnav a[data-route="${route}"]`, 'aria-current'), 'page');
      assert.equal(await page.getAttribute('#menu-btn', 'aria-expanded'), 'false', 'a choice closes the menu');
    }
    // Escape closes it too, and gives the focus back to the button.
    await page.click('#menu-btn');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.mainnav', { state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement.id), 'menu-btn');
    assert.equal((await page.textContent('#lang-btn .lang-short')).trim(), locale === 'pt-BR' ? 'EN' : 'PT');
    await page.screenshot({ path: screenshotPath(`phone-${width}-menu.png`) });
    checkClean(page);
    await context.close();
  }
});

test('phone (portrait) layout and dark theme', { timeout: 90000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 390, height: 844, isMobile: true });
  await open(page);
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black' });
  await clickFirstLegal(page);
  await waitTurn(page);
  const box = await page.$eval('.board-wrap', (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top }; });
  assert.ok(box.left >= 0 && box.right <= 390, `board fits the phone width: ${JSON.stringify(box)}`);
  const side = await page.$eval('.side', (el) => el.getBoundingClientRect().top);
  assert.ok(side > box.top, 'board comes first on a phone');
  await page.screenshot({ path: screenshotPath('phone.png') });
  // Tap play works on touch screens.
  const cell = await page.$('#board .cell[data-legal]');
  const before = await ply(page);
  await cell.tap();
  await page.waitForFunction((b) => Number(document.getElementById('board').dataset.ply) > b, before);
  await waitTurn(page);
  await page.click('#theme-btn');
  assert.equal(await page.$eval('html', (h) => h.dataset.theme), 'dark');
  await page.screenshot({ path: screenshotPath('phone-dark.png') });
  await page.reload();
  await page.waitForSelector('#board .cell');
  assert.equal(await page.$eval('html', (h) => h.dataset.theme), 'dark', 'theme is remembered');
  const contrast = await page.$eval('body', (b) => getComputedStyle(b).backgroundColor);
  assert.equal(contrast, 'rgb(18, 22, 20)');
  await page.screenshot({ path: screenshotPath('phone-dark-full.png'), fullPage: true });
  checkClean(page);
  await context.close();
});
