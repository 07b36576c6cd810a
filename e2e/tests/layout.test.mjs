// The board stays in view and still: in every state of the page (no game yet, playing with hints,
// against the computer with clocks, a pass notice, game over, analysis; online waiting, playing
// with clocks and chat, finished)
// and at five window sizes (three desktops, two phones) the whole board is inside the window
// without scrolling, and during play its top does not move from one state to the next.
// One page per game is resized through the sizes, so each state is reached once.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { browserForFile, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, newGame, waitTurn, clickFirstLegal, playToEnd, ANALYSIS_WAIT } from '../lib/ui.mjs';
import { createOnline, takeSeat, chat } from '../lib/online.mjs';

// Black to move, and after any Black move White must pass (see play.test.mjs).
const PASS_FIXTURE = 'f5f6e6f4g4h4d3d6f3e2g2d2c7h1c4g6e3c6e7e8f1c3f2b5b4b8d1a5b7c2g7h8g5b6h5h6b3h3e1b1b2a2g1c1a3a4a1g3';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
  { width: 360, height: 640 },
];

const shared = browserForFile();
const rows = [];
after(async () => {
  const lines = rows.map((r) => `${r.state.padEnd(15)} ${String(r.vw).padStart(4)}x${String(r.vh).padEnd(4)} board top ${r.top} bottom ${r.bottom} left ${r.left} right ${r.right} scrollY ${r.scrollY}`);
  fs.writeFileSync(screenshotPath('layout.txt'), lines.join('\n') + '\n');
});

/** The board's box (frame and coordinates included) in window coordinates, and the scroll. */
async function boardBox(page) {
  // Two frames: the resize and any re-layout it causes are done.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.$eval('.board-wrap', (el) => {
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right), scrollY: window.scrollY, vw: innerWidth, vh: innerHeight };
  });
}

/**
 * Measures the board in `state` at every size: fully inside the window with nothing scrolled.
 * Returns the board's top per size, for the stillness checks.
 */
async function measure(page, state) {
  const tops = {};
  for (const vp of VIEWPORTS) {
    await page.setViewportSize(vp);
    await page.evaluate(() => window.scrollTo(0, 0));
    const b = await boardBox(page);
    rows.push({ state, ...b });
    const where = `${state} at ${vp.width}x${vp.height}: ${JSON.stringify(b)}`;
    if (b.scrollY !== 0) problems.push(`page scrolled (${where})`);
    if (!(b.top >= 0 && b.bottom <= vp.height)) problems.push(`board outside the window height (${where})`);
    if (!(b.left >= 0 && b.right <= vp.width)) problems.push(`board outside the window width (${where})`);
    tops[`${vp.width}x${vp.height}`] = b.top;
    await page.screenshot({ path: screenshotPath(`layout-${state}-${vp.width}x${vp.height}.png`) });
  }
  return tops;
}

function sameTops(a, b, what) {
  for (const k of Object.keys(a)) if (b[k] !== a[k]) problems.push(`the board's top moved at ${k}: ${what}: ${a[k]} -> ${b[k]}`);
}

// Every problem of a test is collected (all sizes and states are measured), then reported at once.
let problems = [];
function noProblems() {
  const found = problems;
  problems = [];
  assert.deepEqual(found, [], 'the board is in view and still everywhere');
}

test('local games: the board in view and still at five sizes', { timeout: 600000 }, async () => {
  const { context, page } = await newPage(shared.browser, VIEWPORTS[0]);
  await open(page);
  const start = await measure(page, 'start');

  // Against the computer, with hints on (a line of hint help appears beside the board).
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black' });
  await clickFirstLegal(page);
  await waitTurn(page);
  await page.click('#btn-hints');
  await page.waitForSelector('#board .cell .hint');
  const playing = await measure(page, 'computer-hints');
  sameTops(start, playing, 'no game -> playing with hints');

  // A forced pass: the notice comes and goes without moving the board.
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black', start: 'setup', setup: PASS_FIXTURE });
  await waitTurn(page);
  await clickFirstLegal(page);
  await page.waitForFunction(() => document.getElementById('notice').textContent.length > 0);
  await waitTurn(page);
  const pass = await measure(page, 'pass-notice');
  sameTops(start, pass, 'pass notice');

  // Game over, then the analysis.
  await playToEnd(page);
  await page.waitForSelector('#gameover:not([hidden])');
  const over = await measure(page, 'game-over');
  sameTops(start, over, 'game over');
  await page.click('#gameover [data-action="analyse"]');
  await page.waitForSelector('#analysis:not([hidden]) .graph', { timeout: ANALYSIS_WAIT });
  await measure(page, 'analysis');

  // Against the computer with a clock: both clocks (from the start: on a phone they take a
  // line of their own under the names) and the resign button; the board still while the clocks
  // run, and when the game is resigned. Each clock starts with its side's first move, so at the
  // start both are shown, neither running.
  await newGame(page, { mode: 'computer', level: 'lowest', color: 'black', tc: '10+5' });
  await page.waitForSelector('#clock-black', { state: 'visible' });
  await page.waitForSelector('#clock-white', { state: 'visible' });
  const clockStart = await measure(page, 'computer-clock-new');
  await clickFirstLegal(page);
  await waitTurn(page);
  await page.waitForSelector('#clock-black.running');
  await page.waitForSelector('#btn-resign', { state: 'visible' });
  const clocked = await measure(page, 'computer-clock');
  sameTops(clockStart, clocked, 'a computer game with clocks: a move each');
  await page.click('#btn-resign');
  await page.click('#btn-resign-yes');
  await page.waitForSelector('#gameover:not([hidden])');
  const resigned = await measure(page, 'computer-resigned');
  sameTops(clockStart, resigned, 'a computer game with clocks: resigned');
  await context.close();
  noProblems();
});

test('online game: waiting, clocks and chat, finished: the board in view and still', { timeout: 240000 }, async () => {
  const a = await newPage(shared.browser, VIEWPORTS[0]);
  const b = await newPage(shared.browser, VIEWPORTS[3]);
  try {
    await open(a.page);
    const link = await createOnline(a.page, { tc: '3+2', name: 'Ana' });
    const waiting = await measure(a.page, 'online-waiting');

    await takeSeat(b.page, link, 'Bia');
    await a.page.waitForSelector('#online-waiting', { state: 'hidden' });
    await chat(a.page, 'boa sorte');
    await a.page.waitForSelector('#chat-lines li');
    // A first move each (each clock starts with its side's first move): then Black's runs.
    await clickFirstLegal(a.page);
    await b.page.waitForSelector('#board[data-ply="1"]');
    await clickFirstLegal(b.page);
    await a.page.waitForSelector('#clock-black.running');
    const playing = await measure(a.page, 'online-playing');
    sameTops(waiting, playing, 'online: waiting -> playing with clocks');

    await b.page.click('#btn-resign');
    await b.page.click('#btn-resign-yes');
    await a.page.waitForSelector('#gameover:not([hidden])');
    const over = await measure(a.page, 'online-over');
    sameTops(waiting, over, 'online: game over');
    noProblems();
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
