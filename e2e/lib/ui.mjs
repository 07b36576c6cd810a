// Helpers that drive the Virada page the way a person does: dialogs, clicks, waiting for turns.
import assert from 'node:assert/strict';
import { BASE_URL } from './browser.mjs';

/**
 * How long a test waits for a game's analysis: the server answers within its analysis time cap
 * (300 s, `analysis_time_cap`) whatever the machine, partial if it must, so a test waits that
 * long and a little more; on a quick machine the analysis takes seconds.
 */
export const ANALYSIS_WAIT = 330000;

export async function open(page, path = '/', base = BASE_URL) {
  await page.goto(base + path);
  await page.waitForSelector('#board .cell[data-square="h8"]');
}

/** Opens "New game", fills it in and starts; waits until the new game is on the board. */
export async function newGame(page, { mode = 'computer', level = 'lowest', color = 'black', start = 'standard', setup = '', tc = 'none' } = {}) {
  const before = await page.evaluate(() => new URLSearchParams(location.search).get('game'));
  await page.click('#btn-new');
  await page.waitForSelector('#new-dialog[open]');
  await page.check(`#new-dialog input[name="mode"][value="${mode}"]`);
  if (mode === 'computer') {
    await page.waitForFunction(() => document.querySelectorAll('#level option').length > 0);
    if (level === 'lowest') {
      const first = await page.$eval('#level', (s) => s.options[0].value);
      await page.selectOption('#level', first);
    } else {
      await page.selectOption('#level', String(level));
    }
    await page.check(`#new-dialog input[name="color"][value="${color}"]`);
  }
  // The time control on one device ('none' or an online preset such as '3+2'; the dialog
  // remembers the last).
  if (mode === 'computer' || mode === 'friend') await page.click(`#new-dialog label:has(input[name="tc"][value="${tc}"])`);
  await page.check(`#new-dialog input[name="start"][value="${start}"]`);
  if (start === 'setup') await page.fill('#setup-text', setup);
  await page.click('#new-start');
  await page.waitForSelector('#new-dialog', { state: 'hidden' });
  await page.waitForFunction((b) => {
    const id = new URLSearchParams(location.search).get('game');
    return id && id !== b;
  }, before);
  // The game's state comes over its live stream: wait until the board shows that game.
  await page.waitForFunction(() => {
    const id = new URLSearchParams(location.search).get('game');
    const board = document.getElementById('board');
    return board.dataset.game === id && board.dataset.status !== 'loading';
  });
}

/**
 * Waits until the text of `selector` matches `re` (text that comes with a server message may
 * arrive a moment after the action that causes it); fails with the text it last had.
 */
export async function textMatches(page, selector, re, timeout = 10000) {
  try {
    await page.waitForFunction(([sel, source, flags]) => {
      const el = document.querySelector(sel);
      return !!el && new RegExp(source, flags).test(el.textContent);
    }, [selector, re.source, re.flags], { timeout });
  } catch (e) {
    const text = await page.textContent(selector).catch(() => null);
    assert.fail(`${selector} never matched ${re} in ${timeout} ms; its text: ${JSON.stringify(text)} (${e.message.split('\n')[0]})`);
  }
  return page.textContent(selector);
}

/** Waits until the human may move or the game is over; returns 'human' or 'finished'. */
export async function waitTurn(page, timeout = 30000) {
  const h = await page.waitForSelector('#board[data-turn="human"], #board[data-status="finished"]', { timeout });
  return (await h.getAttribute('data-status')) === 'finished' ? 'finished' : 'human';
}

export async function ply(page) {
  return Number(await page.getAttribute('#board', 'data-ply'));
}

/** Clicks the first legal square (a1..h8 order) and waits for the move to be taken. */
export async function clickFirstLegal(page) {
  const before = await ply(page);
  const cell = await page.$('#board .cell[data-legal]');
  assert.ok(cell, 'a legal move is marked on the board');
  const square = await cell.getAttribute('data-square');
  await cell.click();
  await page.waitForFunction((b) => Number(document.getElementById('board').dataset.ply) > b, before);
  return square;
}

/** The board as the page shows it: 64 chars, X black, O white, - empty (a1..h8). */
/** The board `#id` (default the game's) as 64 characters: X black, O white, - empty. */
export async function boardString(page, id = 'board') {
  return page.$$eval(`#${id} .cell`, (cells) => cells.map((c) => (c.classList.contains('black') ? 'X' : c.classList.contains('white') ? 'O' : '-')).join(''));
}

export async function legalSquares(page) {
  return page.$$eval('#board .cell[data-legal]', (cells) => cells.map((c) => c.dataset.square));
}

/** Plays the first legal move each turn until the game is over; returns the number of clicks. */
export async function playToEnd(page, maxClicks = 70) {
  let clicks = 0;
  while ((await waitTurn(page)) === 'human') {
    assert.ok(clicks < maxClicks, 'game ends within a bounded number of moves');
    await clickFirstLegal(page);
    clicks++;
  }
  return clicks;
}

/**
 * Goes to a section through the top bar, as a user does: on a phone the sections are behind the
 * menu button, which is opened first (and must close again once a section is chosen).
 */
export async function goTo(page, route) {
  if (await page.isVisible('#menu-btn')) {
    await page.click('#menu-btn');
    await page.waitForSelector('#menu-btn[aria-expanded="true"]');
  }
  await page.click(`.mainnav a[data-route="${route}"]`);
  if (await page.isVisible('#menu-btn')) await page.waitForSelector('.mainnav', { state: 'hidden' });
}
