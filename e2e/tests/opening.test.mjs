// The named opening shows under the status line as the game reaches it, in the page's language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage } from '../lib/browser.mjs';
import { open, newGame } from '../lib/ui.mjs';

const shared = browserForFile();

test('the opening name appears as the game reaches it, in English and Portuguese', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 1280, height: 860 });
  await open(page);
  await newGame(page, { mode: 'friend' });
  assert.equal(await page.isHidden('#opening-name'), true, 'nothing named at the start');
  // The Parallel opening (f5 f4) turned by 90 degrees: d3 e3.
  await page.focus('#board [data-square="d3"]');
  await page.keyboard.type('d3');
  await page.waitForFunction(() => document.getElementById('board').dataset.ply === '1');
  await page.keyboard.type('e3');
  await page.waitForFunction(() => document.getElementById('board').dataset.ply === '2');
  await page.waitForFunction(() => !document.getElementById('opening-name').hidden);
  assert.equal((await page.textContent('#opening-name')).trim(), 'Opening: Parallel');
  await page.click('#lang-btn');
  await page.waitForFunction(() => document.getElementById('opening-name').textContent.trim() === 'Abertura: Paralela');
  assert.deepEqual(page.consoleErrors, [], 'no script errors in the console');
  await context.close();
});
