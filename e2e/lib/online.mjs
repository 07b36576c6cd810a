// Helpers for online games: each player is a browser context of its own (its own cookie, so its
// own seat), driven through the page as a person does it.
import assert from 'node:assert/strict';

/** Opens "New game" → "A friend, online", fills it in and creates it; returns the invite link. */
export async function createOnline(page, { tc = 'none', minutes, increment, days, color = 'black', start = 'standard', name = 'Ana' } = {}) {
  await page.click('#btn-new');
  await page.waitForSelector('#new-dialog[open]');
  await page.check('#new-dialog input[name="mode"][value="online"]');
  await page.waitForSelector('#new-dialog .online-only', { state: 'visible' });
  await page.click(`#new-dialog label:has(input[name="tc"][value="${tc}"])`);
  if (tc === 'custom') {
    await page.fill('#tc-minutes', String(minutes));
    await page.fill('#tc-increment', String(increment));
  }
  if (tc === 'correspondence') await page.fill('#tc-days', String(days));
  await page.check(`#new-dialog input[name="color"][value="${color}"]`);
  await page.check(`#new-dialog input[name="start"][value="${start}"]`);
  await page.fill('#online-name', name);
  await page.click('#new-start');
  await page.waitForSelector('#new-dialog', { state: 'hidden' });
  await page.waitForSelector('#online-waiting', { state: 'visible' });
  const link = await page.inputValue('#invite-link');
  assert.match(link, /\/\?game=[^&]+$/, `an invite link: ${link}`);
  return link;
}

/** Opens the invite link, enters a name and takes the free seat; waits until the game plays. */
export async function takeSeat(page, link, name) {
  await page.goto(link);
  await page.waitForSelector('#online-join', { state: 'visible' });
  await page.fill('#join-name', name);
  await page.click('#btn-take-seat');
  await page.waitForFunction(() => ['black', 'white'].includes(document.getElementById('board').dataset.seat));
}

/** The seat the page holds ('black' | 'white' | 'spectator'). */
export async function seat(page) {
  return page.getAttribute('#board', 'data-seat');
}

export async function plyOf(page) {
  return Number(await page.getAttribute('#board', 'data-ply'));
}

/** Waits until every page shows `n` plies. */
export async function allAtPly(pages, n) {
  for (const p of pages) {
    await p.waitForFunction((k) => Number(document.getElementById('board').dataset.ply) === k, n, { timeout: 10000 });
  }
}

/** The running clock's milliseconds as the page shows them, for `color`. */
export async function clockMs(page, color) {
  return Number(await page.getAttribute(`#clock-${color}`, 'data-ms'));
}

/** The game id in the page's address. */
export function gameIdOf(page) {
  return page.evaluate(() => new URLSearchParams(location.search).get('game'));
}

/** Sends a chat line from the page. */
export async function chat(page, text) {
  await page.fill('#chat-input', text);
  await page.click('#btn-chat');
}
