// Text people type for others (seat names, chat lines), in real headless Chromium against the
// real server: a name with a direction override is refused by the server (400
// `invisible_character`) and the page says so in its language, naming the character; names and
// chat lines in another script are shown isolated (<bdi>, dir="auto"), so they cannot reorder
// the page's own words around them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage } from '../lib/browser.mjs';
import { open } from '../lib/ui.mjs';
import { createOnline, takeSeat, chat } from '../lib/online.mjs';

const shared = browserForFile();

const scriptErrors = (page) => page.consoleErrors.filter((e) => !/Failed to load resource|ERR_|net::|WebSocket/.test(e));

test('a name with an invisible or formatting character is refused, in the page\'s language', { timeout: 60000 }, async () => {
  const cases = [
    { locale: 'pt-BR', want: /^O texto tem um caractere invisível ou de formatação \(U\+202E\); tire-o\.$/ },
    { locale: 'en-US', want: /^That text contains an invisible or formatting character \(U\+202E\); remove it\. name contains/ },
  ];
  for (const c of cases) {
    const { context, page } = await newPage(shared.browser, { locale: c.locale });
    try {
      await open(page);
      await page.click('#btn-new');
      await page.waitForSelector('#new-dialog[open]');
      await page.check('#new-dialog input[name="mode"][value="online"]');
      await page.waitForSelector('#new-dialog .online-only', { state: 'visible' });
      await page.fill('#online-name', 'Ana\u202Eoiv');
      await page.click('#new-start');
      await page.waitForFunction(() => document.getElementById('new-error').textContent.length > 0);
      assert.match(await page.textContent('#new-error'), c.want, c.locale);
      assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('game')), null, 'no game made');
      assert.deepEqual(scriptErrors(page), []);
    } finally {
      await context.close();
    }
  }
});

test('names and chat lines in another script are isolated from the page\'s sentences', { timeout: 60000 }, async () => {
  const a = await newPage(shared.browser);
  const b = await newPage(shared.browser, { locale: 'pt-BR' });
  try {
    await open(a.page);
    const link = await createOnline(a.page, { tc: 'none', color: 'black', name: 'שרה' });
    await takeSeat(b.page, link, 'Bia');
    // The seat's name in the players' box is in a <bdi> of its own.
    await b.page.waitForFunction(() => {
      const el = document.querySelector('#player-black .pwho bdi');
      return el && el.textContent === 'שרה';
    });
    // So is the opponent's name in the line saying where they are.
    await b.page.waitForFunction(() => {
      const el = document.querySelector('#online-opponent bdi');
      return el && el.textContent === 'שרה';
    });
    await chat(a.page, 'שלום, boa sorte');
    await b.page.waitForFunction(() => [...document.querySelectorAll('.chat-text')].some((e) => e.textContent === 'שלום, boa sorte'));
    const line = await b.page.evaluate(() => {
      const text = [...document.querySelectorAll('.chat-text')].find((e) => e.textContent === 'שלום, boa sorte');
      const li = text.closest('li');
      const from = li.querySelector('.chat-from bdi');
      return { dir: text.dir, from: from && from.textContent };
    });
    assert.deepEqual(line, { dir: 'auto', from: 'שרה' });
    assert.deepEqual(scriptErrors(a.page), []);
    assert.deepEqual(scriptErrors(b.page), []);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
