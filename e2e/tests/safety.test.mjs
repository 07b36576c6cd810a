// Safety on the game page, two guests in two contexts: one turns chat off (the lines and the
// form go away for them, and the opponent reads that chat is off); the new-game dialog shows
// each level's rating as a bot. Phone-sized screenshot of the chat panel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, clickFirstLegal } from '../lib/ui.mjs';
import { createOnline, takeSeat, chat } from '../lib/online.mjs';

let browser;
let closeBrowser;
before(async () => {
  ({ browser, close: closeBrowser } = await launch());
});
after(async () => {
  if (closeBrowser) await closeBrowser();
});

test('chat off hides the chat and the opponent reads it; levels show their bot rating', { timeout: 90000 }, async () => {
  const a = await newPage(browser);
  const b = await newPage(browser, { width: 390, height: 844, isMobile: true });
  await open(a.page);
  const link = await createOnline(a.page, { name: 'Ana' });
  await takeSeat(b.page, link, 'Bia');
  await a.page.waitForSelector('#safety-bar', { state: 'visible' });
  // Guests cannot block or report (those need an account).
  assert.equal(await a.page.isVisible('#btn-block'), false);
  await chat(b.page, 'hello there');
  await a.page.waitForFunction(() => document.getElementById('chat-lines').textContent.includes('hello there'));

  // Ana turns chat off for this game: the server has it once it answers.
  const stored = a.page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/games\/[^/]+\/chat$/.test(new URL(r.url()).pathname));
  await a.page.check('#chat-off');
  assert.equal((await stored).status(), 200, 'the setting is stored');
  await a.page.waitForSelector('#chat-lines', { state: 'hidden' });
  await a.page.waitForSelector('#chat-form', { state: 'hidden' });
  assert.match(await a.page.textContent('#chat-off-note'), /Your chat is off/);
  // A socket reads the chat settings again with every chat line (and with a game message at
  // most every 2 s, crates/server/src/safety/chat.rs): Bia writes again, and once her own line
  // is back her socket has read Ana's setting, so the next game message tells her.
  await chat(b.page, 'are you there?');
  await b.page.waitForFunction(() => document.getElementById('chat-lines').textContent.includes('are you there?'));
  await clickFirstLegal(a.page);
  await b.page.waitForSelector('#chat-off-note', { state: 'visible' });
  assert.match(await b.page.textContent('#chat-off-note'), /opponent turned chat off/);
  await b.page.screenshot({ path: screenshotPath('safety-chat-off-phone.png'), fullPage: true });
  // Kept in the browser for the next games.
  assert.equal(await a.page.evaluate(() => localStorage.getItem('virada.chatOff')), '1');

  // The new-game dialog: the chosen level's rating as a bot.
  await a.page.click('#btn-new');
  await a.page.waitForSelector('#new-dialog[open]');
  await a.page.check('#new-dialog input[name="mode"][value="computer"]');
  await a.page.selectOption('#level', '4');
  await a.page.waitForFunction(() => document.getElementById('level-rating').textContent.includes('1497'));
  await a.context.close();
  await b.context.close();
});
