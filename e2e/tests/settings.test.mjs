// The settings dialog (board palettes and high contrast, the speed of the flips, sounds in games
// on this device), remembered after a reload, and the keyboard shortcuts list ("?").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, newGame, waitTurn, clickFirstLegal } from '../lib/ui.mjs';

const shared = browserForFile();

async function choose(page, name, value) {
  if (!(await page.isVisible('#settings-dialog'))) await page.click('#settings-btn');
  await page.waitForSelector('#settings-dialog[open]');
  await page.click(`#settings-form label:has(input[name="${name}"][value="${value}"])`);
}

const felt = (page) => page.$eval('#board', (b) => getComputedStyle(b).backgroundColor);

test('board palettes and high contrast, chosen and remembered', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, { reducedMotion: 'no-preference' });
  await open(page);
  const seen = new Set([await felt(page)]);
  assert.equal(await page.$eval('html', (h) => h.dataset.palette || 'green'), 'green');
  for (const palette of ['blue', 'wood', 'contrast']) {
    await choose(page, 'palette', palette);
    assert.equal(await page.$eval('html', (h) => h.dataset.palette), palette);
    seen.add(await felt(page));
  }
  assert.equal(seen.size, 4, 'four different board colours');
  // High contrast: black discs outlined in white, no shading on the felt.
  assert.equal(await page.$eval('#board', (b) => getComputedStyle(b).backgroundImage), 'none');
  const outline = await page.$eval('#board .cell[data-square="e4"] .face.front', (f) => getComputedStyle(f).boxShadow);
  assert.match(outline, /rgb\(255, 255, 255\) 0px 0px 0px 2px/);
  await page.screenshot({ path: screenshotPath('settings-contrast.png') });
  await page.keyboard.press('Escape');
  await page.reload();
  await page.waitForSelector('#board .cell');
  assert.equal(await page.$eval('html', (h) => h.dataset.palette), 'contrast', 'the palette is remembered');
  assert.deepEqual(page.consoleErrors, []);
  await context.close();
});

test('flip speed: slow lengthens the flip, instant draws at once; the system\'s reduced motion wins', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, { reducedMotion: 'no-preference' });
  await open(page);
  // The flip's length as a move would be drawn (the first drawing of a board is instant).
  const flip = () => page.$eval('#board', (b) => {
    b.classList.remove('instant');
    return getComputedStyle(b.querySelector('.cell[data-square="d4"] .disc')).transitionDuration;
  });
  assert.equal(await flip(), '0.418s', 'normal');
  await choose(page, 'speed', 'slow');
  assert.equal(await flip(), '0.77s');
  await choose(page, 'speed', 'off');
  await page.keyboard.press('Escape');
  await newGame(page, { mode: 'friend' });
  await clickFirstLegal(page);
  // Drawn at once: the board carries the "instant" class while the move is shown.
  assert.equal(await page.$eval('#board', (b) => b.classList.contains('instant')), true);
  await context.close();

  const reduced = await newPage(shared.browser, { reducedMotion: 'reduce' });
  await open(reduced.page);
  await choose(reduced.page, 'speed', 'slow');
  const reducedFlip = await reduced.page.$eval('#board', (b) => {
    b.classList.remove('instant');
    return getComputedStyle(b.querySelector('.cell[data-square="d4"] .disc')).transitionDuration;
  });
  assert.equal(reducedFlip, '0s');
  await reduced.context.close();
});

test('sounds in games on this device: off by default, one sound a move when on', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, {});
  await open(page);
  await newGame(page, { mode: 'friend' });
  await clickFirstLegal(page);
  assert.equal(await page.$eval('body', (b) => b.dataset.sounds || '0'), '0', 'silent by default');
  await page.click('#settings-btn');
  await page.check('#chk-sounds-local');
  await page.keyboard.press('Escape');
  assert.equal(await page.isChecked('#chk-sounds-local'), true);
  await clickFirstLegal(page);
  await page.waitForFunction(() => document.body.dataset.sounds === '1');
  await clickFirstLegal(page);
  await page.waitForFunction(() => document.body.dataset.sounds === '2');
  await context.close();
});

test('the keyboard shortcuts list opens with "?" and from its button, in both languages', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, { locale: 'pt-BR' });
  await open(page);
  await page.keyboard.press('?');
  await page.waitForSelector('#keys-dialog[open]');
  assert.match(await page.textContent('#keys-dialog'), /Atalhos de teclado[\s\S]*Digite uma casa para jogar nela/);
  await page.keyboard.press('Escape');
  await page.waitForSelector('#keys-dialog', { state: 'hidden' });
  await page.click('#lang-btn');
  await page.click('#keys-btn');
  await page.waitForSelector('#keys-dialog[open]');
  assert.match(await page.textContent('#keys-dialog'), /Keyboard shortcuts[\s\S]*Type a square to play it/);
  await page.screenshot({ path: screenshotPath('keys.png') });
  assert.deepEqual(page.consoleErrors, []);
  await context.close();
});
