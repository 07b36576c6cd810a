// The live stream is the page's one source of game state: it resumes after a dropped connection
// (showing what changed meanwhile), and nothing polls the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';
import { open, newGame, waitTurn, ply, clickFirstLegal, boardString } from '../lib/ui.mjs';
import { replay, legalMoves, sq, START } from '../lib/othello.mjs';
import { startProxy } from '../lib/proxy.mjs';
import { startServer } from '../lib/server.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// 24 plies from the standard start (no passes), Black to move with 36 empty squares.
const MIDGAME = 'f5f6e6f4g4h4d3d6f3e2g2d2c7h1c4g6e3c6e7e8f1c3f2b5';

const shared = browserForFile();

const gameId = (page) => page.evaluate(() => new URLSearchParams(location.search).get('game'));
const isGameGet = (r, id) => r.method === 'GET' && r.path.split('?')[0] === `/api/games/${id}`;

// Requests "from elsewhere" act as the same person on another device: they carry the page's
// browser cookie (games are private to the browser that made them; docs/SECURITY.md).
async function headersOf(context) {
  const id = (await context.cookies()).find((c) => c.name === 'virada_id');
  assert.ok(id, 'the page has its virada_id cookie');
  return { 'Content-Type': 'application/json', Cookie: `virada_id=${id.value}` };
}

async function postJson(context, path, body) {
  const res = await fetch(BASE_URL + path, { method: 'POST', headers: await headersOf(context), body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

test('a dropped stream resumes: the move made meanwhile appears, with a reconnecting notice', { timeout: 90000 }, async () => {
  const proxy = await startProxy(BASE_URL);
  const { context, page } = await newPage(shared.browser, { base: proxy.url });
  try {
    await open(page, '/', proxy.url);
    await newGame(page, { mode: 'friend' });
    await waitTurn(page);
    const first = await clickFirstLegal(page);
    await waitTurn(page);
    const id = await gameId(page);

    // The connection drops (as with a network cut or a server restart) and stays down.
    proxy.drop();
    await page.waitForSelector('#connection:not([hidden])', { timeout: 10000 });
    assert.match(await page.textContent('#connection'), /Reconnecting/);
    assert.equal(await page.getAttribute('#board', 'data-turn'), 'wait', 'no move is taken while offline');
    assert.equal(await page.$$eval('#board .cell[data-legal]', (c) => c.length), 0, 'no move is offered while offline');
    await page.screenshot({ path: screenshotPath('desktop-reconnecting.png') });

    // Meanwhile White moves from elsewhere (another device on the same game).
    const { board, toMove } = replay(first);
    assert.equal(toMove, 'O');
    const reply = sq(legalMoves(board, 'O')[0]);
    const answer = await postJson(context, `/api/games/${id}/moves`, { square: reply, ply: 1 });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    // The page tries the server again after the move was made, and is refused: it cannot know.
    await proxy.nextRefusal();
    assert.equal(await ply(page), 1, 'the page cannot know yet');

    // The network comes back: the page reopens the stream and shows the game as it is now.
    proxy.restore();
    await page.waitForFunction(() => document.getElementById('board').dataset.ply === '2', null, { timeout: 20000 });
    await page.waitForSelector('#connection', { state: 'hidden' });
    assert.equal(await waitTurn(page), 'human');
    assert.equal(await boardString(page), replay(first + reply).board);
    assert.equal(await page.inputValue('#transcript'), first + reply);
    assert.match(await page.textContent('#status-text'), /Black to move/);

    // And play goes on through the new stream.
    await clickFirstLegal(page);
    assert.equal(await ply(page), 3);
    const streams = page.sockets.filter((p) => p === `/api/games/${id}/ws`).length;
    assert.ok(streams >= 2, `the socket was reopened (${streams} sockets)`);
    const reads = page.requests.filter((r) => isGameGet(r, id)).length;
    assert.ok(reads <= streams - 1, `at most one read of the game per reconnection (${reads} reads, ${streams} sockets)`);
    assert.deepEqual(page.external, [], 'no request leaves the server');
    assert.deepEqual(page.consoleErrors.filter((e) => !/ERR_|net::|Failed to load resource/.test(e)), [], 'no script errors');
  } finally {
    await context.close();
    await proxy.close();
  }
});

test('a server restart: the page reconnects to the new server and shows the move made meanwhile', { timeout: 90000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'virada-e2e-'));
  const db = path.join(dir, 'restart.sqlite');
  let server = await startServer(db);
  const proxy = await startProxy(server.url); // the page's address stays the same across restarts
  const { context, page } = await newPage(shared.browser, { base: proxy.url });
  try {
    await open(page, '/', proxy.url);
    await newGame(page, { mode: 'friend' });
    const first = await clickFirstLegal(page);
    await waitTurn(page);
    const id = await gameId(page);

    await server.stop();
    await page.waitForSelector('#connection:not([hidden])', { timeout: 10000 });
    server = await startServer(db);
    // The game was saved: the new server plays White's reply before the page is back.
    const { board } = replay(first);
    const reply = sq(legalMoves(board, 'O')[0]);
    const res = await fetch(`${server.url}/api/games/${id}/moves`, { method: 'POST', headers: await headersOf(context), body: JSON.stringify({ square: reply, ply: 1 }) });
    assert.equal(res.status, 200, await res.text());
    proxy.retarget(server.url);

    await page.waitForFunction(() => document.getElementById('board').dataset.ply === '2', null, { timeout: 20000 });
    await page.waitForSelector('#connection', { state: 'hidden' });
    assert.equal(await boardString(page), replay(first + reply).board);
    assert.equal(await page.inputValue('#transcript'), first + reply);
    await clickFirstLegal(page);
    assert.equal(await ply(page), 3, 'play goes on with the new server');
    const streams = page.sockets.filter((p) => p === `/api/games/${id}/ws`).length;
    const reads = page.requests.filter((r) => isGameGet(r, id)).length;
    assert.ok(reads <= streams - 1, `at most one read of the game per reconnection (${reads} reads, ${streams} sockets)`);
  } finally {
    await context.close();
    await proxy.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('no polling: one stream per game, and nothing else is asked while the computer thinks', { timeout: 120000 }, async () => {
  const { context, page } = await newPage(shared.browser);
  // The page's timers run on a clock the test can move (time flows as usual until then).
  await page.clock.install();
  await open(page);
  await page.waitForLoadState('networkidle');
  const start = page.requests.length;
  // The computer (Black, level 18: it thinks about 1.5-3 s) is to move in a midgame position.
  await newGame(page, { mode: 'computer', level: 18, color: 'white', start: 'setup', setup: MIDGAME });
  const id = await gameId(page);
  await page.waitForSelector('#thinking:not([hidden])', { timeout: 20000 });
  // The badge of my live games asks for its list on its own timer (watch/badge.js): that is not
  // the game, which only its socket brings.
  const apiCalls = () => page.requests.filter((r) => r.path.startsWith('/api/') && r.path !== '/api/watch/mine');
  const thinkingFrom = apiCalls().length;
  assert.equal(await waitTurn(page, 60000), 'human');
  assert.deepEqual(apiCalls().slice(thinkingFrom), [], 'no request while the computer thought');
  assert.equal(await ply(page), 25);

  await clickFirstLegal(page);
  await waitTurn(page, 60000);
  // Ten minutes of the page's time, every timer due in them fired: a polling timer (the old
  // fallback polled every 1.2 s) would have asked the server hundreds of times.
  await page.clock.runFor(10 * 60 * 1000);
  // Requests are reported in the order they are made: once a request made after those timers is
  // in the list, so is any request they made.
  const marker = '/favicon.svg?after-the-timers';
  const seen = page.waitForRequest((r) => r.url().endsWith(marker));
  await page.evaluate((m) => fetch(m), marker);
  await seen;
  assert.ok(page.requests.some((r) => r.path === marker), 'the marker request is recorded');
  const made = page.requests.slice(start).filter((r) => r.path.startsWith('/api/') && r.path !== '/api/watch/mine').map((r) => `${r.method} ${r.path.split('?')[0]}`);
  const allowed = new Set(['POST /api/games']);
  for (const r of made) assert.ok(allowed.has(r), `unexpected request ${r} (all: ${made.join(', ')})`);
  assert.equal(page.sockets.filter((p) => p === `/api/games/${id}/ws`).length, 1, 'one socket for the whole game');
  assert.equal(page.sent.filter((m) => m.type === 'move').length, 1, 'one message per move');
  assert.deepEqual(page.consoleErrors, []);
  await context.close();
});

test('a move that answers an old position is refused as stale: the page shows the game as it is', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser);
  await open(page);
  // Another device plays f5 just before this page's d3 reaches the server over the game's
  // socket; the server refuses d3 (it answers ply 0, the game is at ply 1) as `stale`.
  let sent = null;
  await page.routeWebSocket(/\/api\/games\/[^/]+\/ws$/, (ws) => {
    const server = ws.connectToServer();
    const id = decodeURIComponent(new URL(ws.url()).pathname.split('/')[3]);
    ws.onMessage(async (message) => {
      const msg = JSON.parse(message);
      if (msg.type === 'move' && sent === null) {
        sent = msg;
        const other = await postJson(context, `/api/games/${id}/moves`, { square: 'f5', ply: 0 });
        assert.equal(other.status, 200, JSON.stringify(other.body));
      }
      server.send(message);
    });
  });
  await newGame(page, { mode: 'friend' });
  await waitTurn(page);
  await page.click('#board [data-square="d3"]');
  await page.waitForFunction(() => document.getElementById('board').dataset.ply === '1');
  assert.equal(sent.square, 'd3');
  assert.equal(sent.ply, 0, 'the move carries the ply it answers');
  assert.equal(await boardString(page), replay('f5').board);
  assert.equal(await page.inputValue('#transcript'), 'f5');
  assert.match(await page.textContent('#notice'), /moved on/);
  assert.equal(await page.$eval('#notice', (n) => n.classList.contains('error')), false, 'nothing alarming');
  assert.equal(await waitTurn(page), 'human');
  assert.match(await page.textContent('#status-text'), /White to move/);
  // Arrow keys (outside the board) step through the moves.
  await page.focus('#btn-new');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getAttribute('#board', 'data-view'), '0');
  assert.equal(await boardString(page), START);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#board', 'data-view'), 'live');
  assert.deepEqual(page.consoleErrors.filter((e) => !/409/.test(e)), []);
  await context.close();
});

test('a game deleted elsewhere closes; a click on the empty board starts a new one', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser);
  await open(page);
  await newGame(page, { mode: 'friend' });
  await clickFirstLegal(page);
  const id = await gameId(page);
  const res = await fetch(`${BASE_URL}/api/games/${id}`, { method: 'DELETE', headers: await headersOf(context) });
  assert.equal(res.status, 204);
  await page.waitForFunction(() => document.getElementById('board').dataset.status === 'none', null, { timeout: 20000 });
  assert.match(await page.textContent('#notice'), /no longer exists/);
  assert.equal(await gameId(page), null);
  assert.equal(await boardString(page), START);
  await page.reload();
  await page.waitForSelector('#board .cell');
  assert.equal(await page.getAttribute('#board', 'data-status'), 'none', 'the deleted game is not reopened');

  // The empty page takes a first move: a game against the computer starts with it.
  await page.click('#board [data-square="d3"]');
  await page.waitForFunction(() => Number(document.getElementById('board').dataset.ply) >= 1);
  const next = await gameId(page);
  assert.ok(next && next !== id, 'a new game');
  assert.equal(await page.getAttribute('#board [data-square="d3"]', 'class').then((c) => c.includes('black')), true);
  assert.deepEqual(page.consoleErrors.filter((e) => !/404|ERR_|Failed to load resource/.test(e)), []);
  await context.close();
});
