// The details a new player trips on (issue 43): hint labels inside their squares, the phone's
// player labels whole, no pass notice after the end, an XOT transcript that replays from the
// standard start, the skip link, "waiting" said once, set-up errors and numbers in the page's
// language, the phone's analysis list (each mistake starting on its bullet's line), the players
// of a friend game named, and a pasted game from the standard start shown as one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';
import { open, newGame, waitTurn, clickFirstLegal, boardString } from '../lib/ui.mjs';
import { createOnline } from '../lib/online.mjs';
import { replay } from '../lib/othello.mjs';

// Found by e2e/tools/find-end-pass-fixture.mjs: Black's only move is b3; then whatever White
// plays, Black must pass until White ends the game alone.
const END_PASS_FIXTURE = 'f5f4e3f2f3g3d2d6c5c6g5g6f6b4d3h5c7c2h4c4h6g4b2f7e7e2g7f8a4c8b5e6f1a5h3a3b6h7a6c1d1h2b1a7a2g1g2d7d8e1b7c3g8e8b8a1';

const shared = browserForFile();

/** No script errors; `refused` allows the browser's own line for an answer with an error status. */
function checkClean(page, refused = false) {
  const errors = page.consoleErrors.filter((e) => !(refused && e.startsWith('Failed to load resource')));
  assert.deepEqual(errors, [], 'no script errors in the console');
}

/** Hint labels by square, once every legal square shows one. */
async function hintTexts(page) {
  await page.waitForFunction(() => {
    const legal = document.querySelectorAll('#board .cell[data-legal]');
    return legal.length > 0 && [...legal].every((c) => c.querySelector('.hint') && c.querySelector('.hint').textContent);
  });
  return page.$$eval('#board .cell .hint', (hs) => Object.fromEntries(hs.filter((h) => h.textContent).map((h) => [h.closest('.cell').dataset.square, h.textContent])));
}

test('hint labels fit their squares on the smallest phone; their numbers follow the language', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 360, height: 640, isMobile: true });
  await open(page);
  // The page's own number formatting (hint values, the engine's progress, analysis losses).
  const formatted = () => page.evaluate(async () => {
    const [board, i18n] = await Promise.all([import('/assets/core/board.js'), import('/assets/core/i18n.js')]);
    return [board.formatValue(-2.46), board.formatValue(3), i18n.t('analysis.discs', { n: 1.5 })];
  });
  assert.deepEqual(await formatted(), ['−2.5', '+3', '1.5 discs']);
  await newGame(page, { mode: 'friend' });
  await page.click('#btn-hints');
  const en = await hintTexts(page);
  // The number and its "book" tag stay inside the square (nothing clipped, nothing spilling).
  const fit = await page.$$eval('#board .cell .hint', (hs) => hs.filter((h) => h.textContent).map((h) => ({
    square: h.closest('.cell').dataset.square, w: h.scrollWidth, cw: h.clientWidth, h: h.scrollHeight, ch: h.clientHeight,
  })));
  assert.ok(fit.length > 0, 'hints are shown');
  for (const f of fit) assert.ok(f.w <= f.cw && f.h <= f.ch, `hint on ${f.square} fits its square: ${JSON.stringify(f)}`);
  await page.screenshot({ path: screenshotPath('details-hints-phone.png') });

  // In Portuguese the same values with a decimal comma.
  await page.click('#lang-btn');
  await page.waitForFunction(() => document.documentElement.lang === 'pt-BR');
  const pt = await hintTexts(page);
  // Brazilian Portuguese takes the singular below 2 (Intl.PluralRules('pt-BR'), CLDR; as in
  // "1,5 milhão"); English from 2 and for fractions.
  assert.deepEqual(await formatted(), ['−2,5', '+3', '1,5 peça']);
  assert.deepEqual(Object.keys(pt).sort(), Object.keys(en).sort());
  for (const [square, text] of Object.entries(en)) assert.equal(pt[square], text.replace('.', ','), `hint on ${square} in Portuguese`);
  checkClean(page);
  await context.close();
});

test('phone: the computer player\'s label shows its level whole', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 360, height: 640, isMobile: true, locale: 'pt-BR' });
  await open(page);
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black' });
  const label = await page.$eval('#player-white .pwho', (el) => ({ text: el.textContent, sh: el.scrollHeight, ch: el.clientHeight, sw: el.scrollWidth, cw: el.clientWidth }));
  assert.match(label.text, /computador · 1/);
  assert.ok(label.sh <= label.ch + 1 && label.sw <= label.cw, `the label is not cut: ${JSON.stringify(label)}`);
  checkClean(page);
  await context.close();
});

test('the pass notice goes when the game ends', { timeout: 120000 }, async () => {
  const { context, page } = await newPage(shared.browser, {});
  await open(page);
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black', start: 'setup', setup: END_PASS_FIXTURE });
  await waitTurn(page);
  await page.click('#board .cell[data-square="b3"]');
  await page.waitForSelector('#board[data-status="finished"]');
  await page.waitForSelector('#gameover:not([hidden])');
  const passes = await page.$$eval('#move-list button.pass', (bs) => bs.length);
  assert.ok(passes >= 1, 'Black passed after its last move');
  assert.equal(await page.textContent('#notice'), '', 'no notice of the game after its end');
  assert.equal(await page.isHidden('#notice'), true);
  checkClean(page);
  await context.close();
});

test('an XOT game\'s transcript replays from the standard start', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, {});
  await open(page);
  await newGame(page, { mode: 'friend', start: 'xot' });
  await clickFirstLegal(page);
  const text = await page.inputValue('#transcript');
  const opening = await page.evaluate(async () => {
    const id = new URLSearchParams(location.search).get('game');
    return (await (await fetch('/api/games/' + id)).json()).start.opening;
  });
  assert.equal(opening.length, 16, 'eight opening moves');
  assert.ok(text.startsWith(opening) && text.length === 18, `the opening, then the move played: ${text}`);
  const game = replay(text);
  assert.equal(game.board, await boardString(page), 'the transcript replayed from the start gives the board shown');
  checkClean(page);
  await context.close();
});

test('the skip link takes the keyboard to the board', { timeout: 30000 }, async () => {
  const { context, page } = await newPage(shared.browser, {});
  await open(page);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  await page.keyboard.press('Enter');
  const square = await page.evaluate(() => document.activeElement.dataset.square || document.activeElement.tagName);
  assert.match(square, /^[a-h][1-8]$/, `focus on a square of the board, not ${square}`);
  checkClean(page);
  await context.close();
});

test('waiting for the opponent is said once, in each language', { timeout: 60000 }, async () => {
  for (const [locale, words] of [['en-US', 'Waiting for your opponent'], ['pt-BR', 'Esperando o seu adversário']]) {
    const { context, page } = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale });
    await open(page);
    await createOnline(page, { tc: 'none', name: 'Ana' });
    const body = await page.evaluate(() => document.body.innerText);
    assert.equal(body.split(words).length - 1, 1, `"${words}" appears once`);
    checkClean(page);
    await context.close();
  }
});

test('a bad set-up text is explained in the page\'s language, with where it failed', { timeout: 60000 }, async () => {
  const cases = [
    { locale: 'pt-BR', setup: 'f5d6z9', want: /^Não foi possível ler o texto da partida \(registro, caractere 5\)\.$/ },
    { locale: 'pt-BR', setup: 'f5f5', want: /^Não foi possível ler o texto da partida \(registro, jogada 2\)\.$/ },
    { locale: 'en-US', setup: 'f5d6z9', want: /^The game text could not be read \(transcript, character 5\)\. 'z' is not a column letter a-h or a pass\.$/ },
  ];
  for (const c of cases) {
    const { context, page } = await newPage(shared.browser, { locale: c.locale });
    await open(page);
    await page.click('#btn-new');
    await page.waitForSelector('#new-dialog[open]');
    await page.check('#new-dialog input[name="mode"][value="friend"]');
    await page.check('#new-dialog input[name="start"][value="setup"]');
    await page.fill('#setup-text', c.setup);
    await page.click('#new-start');
    await page.waitForFunction(() => document.getElementById('new-error').textContent.length > 0);
    const text = await page.textContent('#new-error');
    assert.match(text, c.want, `${c.locale} ${c.setup}`);
    if (c.locale === 'pt-BR') await page.screenshot({ path: screenshotPath('details-setup-error-pt.png') });
    checkClean(page, true);
    await context.close();
  }
});

test('phone: a wrapped mistake in the analysis starts on its bullet\'s line', { timeout: 120000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 360, height: 640, isMobile: true, locale: 'pt-BR' });
  await open(page);
  await newGame(page, { mode: 'friend' });
  // The first legal square each ply: corners given away early, so both sides have mistakes.
  for (let i = 0; i < 14; i++) await clickFirstLegal(page);
  await page.click('#btn-analyse');
  await page.waitForSelector('#analysis-body .mistakes li button', { timeout: 90000 });
  // The bullet sits on the first line box of its item: a probe put at the item's start shares
  // that line, and must be on the button's first line of text, not its last.
  const items = await page.$$eval('#analysis-body .mistakes li', (lis) => lis.map((li) => {
    const b = li.querySelector('button');
    const range = document.createRange();
    range.selectNodeContents(b);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    const probe = document.createElement('span');
    probe.textContent = '\u200b';
    li.prepend(probe);
    const bullet = probe.getBoundingClientRect().top;
    probe.remove();
    return { text: b.textContent, lines, bullet: Math.round(bullet), first: Math.round(range.getClientRects()[0].top), align: getComputedStyle(b).textAlign };
  }));
  assert.ok(items.some((i) => i.lines > 1), `a mistake wraps on this phone: ${JSON.stringify(items)}`);
  for (const i of items) {
    assert.ok(Math.abs(i.bullet - i.first) <= 2, `"${i.text}": bullet at ${i.bullet}, text starts at ${i.first}`);
    assert.equal(i.align, 'left');
  }
  await page.$eval('#analysis', (el) => el.scrollIntoView());
  await page.screenshot({ path: screenshotPath('details-analysis-phone.png') });
  checkClean(page);
  await context.close();
});

test('a friend game names its two players; an imported game from the standard start says so', { timeout: 60000 }, async () => {
  for (const [locale, first, second, start] of [['en-US', 'player 1', 'player 2', 'Start'], ['pt-BR', 'jogador 1', 'jogador 2', 'Início']]) {
    const { context, page } = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale });
    await open(page);
    await newGame(page, { mode: 'friend' });
    assert.equal(await page.textContent('#player-black .pwho'), first);
    assert.equal(await page.textContent('#player-white .pwho'), second);
    // A pasted transcript plays from the standard start: its list starts at "Start", not at a
    // set-up position.
    await newGame(page, { mode: 'friend', start: 'setup', setup: 'f5d6c3d3c4' });
    assert.equal(await page.textContent('#move-list .start-btn'), start);
    assert.equal(await page.textContent('#player-black .pwho'), first);
    checkClean(page);
    await context.close();
  }
});
