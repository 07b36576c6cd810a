// Online games (issue 15) in real headless Chromium against the real server: two players in
// browser contexts of their own (separate cookies, so separate seats; one of them phone-sized)
// and a spectator in a third. Everything is done by clicking, as a person would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';
import { open, waitTurn, clickFirstLegal, boardString, textMatches, ANALYSIS_WAIT, goTo } from '../lib/ui.mjs';
import { createOnline, takeSeat, seat, plyOf, allAtPly, clockMs, gameIdOf, chat } from '../lib/online.mjs';
import { replay } from '../lib/othello.mjs';
import { startProxy } from '../lib/proxy.mjs';

const shared = browserForFile();

const desktop = (opts = {}) => newPage(shared.browser, { width: 1280, height: 860, ...opts });
const phone = (opts = {}) => newPage(shared.browser, { width: 390, height: 844, isMobile: true, ...opts });
// Errors the browser logs for refused requests (a 409 on purpose, a cut connection) are not
// script errors.
const scriptErrors = (page) => page.consoleErrors.filter((e) => !/Failed to load resource|ERR_|net::|WebSocket/.test(e));

/**
 * The page whose turn it is plays its first legal move (a click, or typed as "d3" with
 * `keyboard`); every page then shows it.
 */
async function playOne(pages, { keyboard = false } = {}) {
  const turns = await Promise.all(pages.map((p) => p.getAttribute('#board', 'data-turn')));
  const mover = pages[turns.indexOf('human')];
  assert.ok(mover, `someone is to move (turns: ${turns.join(', ')})`);
  const before = await plyOf(mover);
  let square;
  if (keyboard) {
    square = await mover.getAttribute('#board .cell[data-legal]', 'data-square');
    await mover.focus('#btn-new');
    await mover.keyboard.type(square);
  } else {
    square = await clickFirstLegal(mover);
  }
  await allAtPly(pages, before + 1);
  return square;
}

/** Makes the page believe it is in the background (headless Chromium has no hidden tabs). */
async function setHidden(page, hidden) {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}
const sounds = (page) => page.evaluate(() => Number(document.body.dataset.sounds || 0));

test('invite, take the seat, play by clicking and typing with clocks on both screens, a spectator, move sound, chat, resign, rematch', { timeout: 420000 }, async () => {
  const a = await desktop();
  const b = await phone();
  const c = await desktop();
  const ana = a.page;
  const bia = b.page;
  const spec = c.page;
  try {
    // Ana creates a 3+2 game as Black and gets the link.
    await open(ana);
    const link = await createOnline(ana, { tc: '3+2', color: 'black', name: 'Ana' });
    // The status line says it waits; the panel invites (once each).
    assert.match(await ana.textContent('#status-text'), /Waiting for your opponent/);
    assert.match(await ana.textContent('#online-waiting'), /Invite your opponent/);
    assert.equal(await seat(ana), 'black');
    assert.equal(await ana.getAttribute('#board', 'data-turn'), 'opponent', 'no move before the opponent is there');
    await ana.screenshot({ path: screenshotPath('desktop-online-waiting.png') });
    // The copy button puts the link on the clipboard.
    await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    await ana.click('#btn-copy-invite');
    await ana.waitForFunction(() => /Link copied/.test(document.getElementById('notice').textContent));
    assert.equal(await ana.evaluate(() => navigator.clipboard.readText()), link);

    // Bia opens it on her phone, enters her name and takes the seat: the game starts for both.
    await bia.goto(link);
    await bia.waitForSelector('#online-join', { state: 'visible' });
    assert.match(await bia.textContent('#join-text'), /Ana invites you to a game \(3\+2\); you would play White/);
    await bia.fill('#join-name', 'Bia');
    await bia.screenshot({ path: screenshotPath('phone-online-join.png') });
    await bia.click('#btn-take-seat');
    await bia.waitForFunction(() => document.getElementById('board').dataset.seat === 'white');
    await ana.waitForSelector('#online-waiting', { state: 'hidden' });
    assert.equal(await waitTurn(ana), 'human');
    assert.equal(await bia.getAttribute('#board', 'data-turn'), 'opponent');
    assert.match(await ana.textContent('#player-white .pwho'), /Bia/);
    assert.match(await bia.textContent('#player-black .pwho'), /Ana/);
    assert.match(await bia.textContent('#player-white .pwho'), /Bia · you/);
    assert.match(await ana.textContent('#status-text'), /Your turn \(Black\)/);
    assert.match(await bia.textContent('#status-text'), /Ana to move \(Black\)/);
    await ana.waitForFunction(() => /Bia is online/.test(document.getElementById('online-opponent').textContent));
    assert.equal(await bia.$$eval('#board .cell[data-legal]', (x) => x.length), 0, 'the waiting player is offered no moves');

    // The clocks: neither runs before its side's first move (both stand at 3:00 on both
    // screens); the time Black has for it counts down under the board instead.
    for (const p of [ana, bia]) {
      await p.waitForSelector('#first-move:not([hidden])');
      for (const color of ['black', 'white']) assert.equal(await clockMs(p, color), 180000);
      assert.equal(await p.$('#clock-black.running'), null, 'Black\'s clock waits for its first move');
    }
    assert.match(await ana.textContent('#first-move'), /^Black: \d+ seconds left to make a first move, or the game is aborted/);
    const f0 = Number(await ana.getAttribute('#first-move', 'data-ms'));
    assert.ok(f0 > 0 && f0 <= 30000, `30 s for the first move (${f0})`);

    // A spectator opens the same link: both seats are taken, so they watch.
    await spec.goto(link);
    await spec.waitForFunction(() => document.getElementById('board').dataset.seat === 'spectator');
    await spec.waitForSelector('#online-info');
    assert.match(await spec.textContent('#online-info'), /You are watching/);
    assert.equal(await spec.isHidden('#online-join'), true, 'no seat is offered');
    assert.equal(await spec.isHidden('#online-controls'), true, 'no move controls');
    assert.equal(await spec.isHidden('#chat-form'), true, 'spectators read the chat only');
    assert.equal(await spec.getAttribute('#board', 'aria-readonly'), 'true');
    assert.match(await spec.textContent('#player-black .pwho'), /Ana/);
    await ana.waitForFunction(() => document.getElementById('online-info').dataset.spectators === '1');
    assert.match(await ana.textContent('#online-info'), /3\+2 · 1 watching/);

    // A short game by clicking: six moves, each on all three screens at once.
    const pages = [ana, bia, spec];
    let transcript = '';
    transcript += await playOne(pages);
    assert.match(await bia.textContent('#announce'), /^Black played [a-h][1-8], 1 disc flipped$/);
    await bia.waitForFunction(() => document.title.startsWith('Your move'));
    assert.equal(await ana.evaluate(() => document.title), 'Virada');
    // Black's first move was free (no time taken, no increment); White's clock waits for hers.
    await bia.waitForFunction(() => /^White: /.test(document.getElementById('first-move').textContent));
    assert.equal(await clockMs(bia, 'black'), 180000);
    assert.equal(await spec.$('#clock-white.running'), null);
    transcript += await playOne(pages); // Bia
    // Both have moved: Black's clock runs on every screen, the first-move line is gone.
    await ana.waitForSelector('#clock-black.running');
    await spec.waitForSelector('#clock-black.running');
    await ana.waitForSelector('#first-move', { state: 'hidden' });
    const t0 = await clockMs(ana, 'black');
    // Black's clock runs down on Ana's screen (waited for: the display ticks on its own).
    await ana.waitForFunction((from) => Number(document.getElementById('clock-black').dataset.ms) <= from - 400, t0);
    const [t1, t1b] = [await clockMs(ana, 'black'), await clockMs(bia, 'black')];
    assert.ok(t1 <= t0 - 400 && t1 > 170000, `Black's clock runs on Ana's screen (${t0} → ${t1})`);
    assert.ok(Math.abs(t1 - t1b) < 1500, `both screens agree (${t1} vs ${t1b})`);
    assert.match(await ana.textContent('#clock-black'), /^2:5\d$/);
    // Bia's page is in the background when Ana moves (typed on the keyboard): a move sound, once.
    await setHidden(bia, true);
    transcript += await playOne(pages, { keyboard: true });
    // Now White's clock runs on both screens, Black's stands (the increment's arithmetic is
    // the server's tests').
    await ana.waitForSelector('#clock-white.running');
    assert.equal(await ana.$('#clock-black.running'), null);
    await bia.waitForFunction(() => document.body.dataset.sounds === '1');
    assert.match(await bia.evaluate(() => document.title), /^Your move/);
    await setHidden(bia, false);
    transcript += await playOne(pages); // Bia
    assert.equal(await sounds(bia), 1, 'no sound while the page is visible');
    // The sound switched off (remembered): none in the background either.
    await bia.uncheck('#chk-sound');
    await setHidden(bia, true);
    transcript += await playOne(pages); // Ana
    transcript += await playOne(pages); // Bia
    await setHidden(bia, false);
    assert.equal(await sounds(bia), 1, 'no sound once switched off');
    assert.equal(await bia.evaluate(() => localStorage.getItem('virada.sound')), 'off');
    const expected = replay(transcript).board;
    for (const p of pages) {
      assert.equal(await boardString(p), expected, 'every screen shows the same position');
      assert.equal(await p.inputValue('#transcript'), transcript);
    }
    assert.ok(await ana.$('#board .cell.last'), 'the last move is marked');
    await bia.screenshot({ path: screenshotPath('phone-online-game.png') });
    await spec.screenshot({ path: screenshotPath('desktop-online-spectator.png') });

    // Chat: shown as text on every screen, never as markup.
    await chat(ana, 'gl <b>hf</b>');
    for (const p of pages) {
      await p.waitForFunction(() => /gl <b>hf<\/b>/.test(document.getElementById('chat-lines').textContent));
      assert.equal(await p.$$eval('#chat-lines b', (x) => x.length), 0, 'no markup from a message');
    }
    assert.match(await bia.textContent('#chat-lines li[data-n]'), /^Ana: gl <b>hf<\/b>/);
    assert.match(await ana.textContent('#chat-limit'), /0\/200 characters/);
    await chat(bia, 'obrigada!');
    await ana.waitForFunction(() => /Bia: obrigada!/.test(document.getElementById('chat-lines').textContent));
    await ana.screenshot({ path: screenshotPath('desktop-online-game.png') });

    // Bia resigns (after confirming): Ana wins with at least 33 discs counted.
    await bia.click('#btn-resign');
    await bia.waitForSelector('#resign-confirm', { state: 'visible' });
    await bia.click('#btn-resign-yes');
    for (const p of pages) await p.waitForSelector('#gameover:not([hidden])');
    assert.match(await ana.textContent('#gameover-winner'), /You win!/);
    assert.match(await bia.textContent('#gameover-winner'), /Ana wins\. You lose\./);
    assert.match(await spec.textContent('#gameover-winner'), /Ana wins/);
    assert.match(await ana.textContent('#gameover-reason'), /Bia resigned\./);
    const m = /(\d+)–(\d+)/.exec(await ana.textContent('#gameover-score'));
    assert.ok(m && Number(m[1]) >= 33 && Number(m[1]) + Number(m[2]) === 64, `score ${m && m[0]}`);
    assert.equal(await ana.isHidden('#online-controls'), true, 'no resign after the end');
    assert.equal(await ana.isVisible('#btn-analyse'), true, 'analysis once the game is over');
    // Analysis as for local games, and the GGF record.
    await ana.click('#btn-analyse');
    // The review spends a node budget (ReviewEffort::STANDARD), so its time depends on the
    // machine; the server answers within its analysis_time_cap (300 s) whatever, so wait that long.
    await ana.waitForSelector('#analysis svg.graph', { timeout: ANALYSIS_WAIT });
    assert.equal(await ana.$$eval('#analysis svg.graph circle', (x) => x.length), transcript.length / 2);
    const ggf = await spec.evaluate(async () => (await fetch(document.getElementById('link-ggf').href)).text());
    assert.match(ggf, /GM\[Othello\]/);
    assert.ok(ggf.includes(`B[${transcript.slice(0, 2)}]`), 'the record has the moves');

    // Rematch: Ana offers, Bia accepts; both go to the new game with the colours swapped.
    const first = await gameIdOf(ana);
    await ana.click('#btn-rematch');
    await ana.waitForFunction(() => /Rematch offered; waiting for Bia/.test(document.getElementById('rematch-status').textContent));
    await bia.waitForFunction(() => /Ana offers a rematch/.test(document.getElementById('rematch-status').textContent));
    await bia.screenshot({ path: screenshotPath('phone-online-rematch.png') });
    await bia.click('#btn-rematch');
    for (const p of [ana, bia]) {
      await p.waitForFunction((id) => {
        const g = new URLSearchParams(location.search).get('game');
        return g && g !== id && document.getElementById('board').dataset.game === g;
      }, first);
    }
    const second = await gameIdOf(ana);
    assert.equal(await gameIdOf(bia), second);
    assert.equal(await seat(ana), 'white');
    assert.equal(await seat(bia), 'black');
    assert.equal(await waitTurn(bia), 'human', 'Bia (now Black) moves first');
    assert.equal(await plyOf(bia), 0);
    assert.match(await ana.textContent('#online-info'), /3\+2/);
    // The spectator is offered the rematch too.
    await spec.waitForSelector('#btn-rematch:not([hidden])');
    assert.match(await spec.textContent('#btn-rematch'), /Watch the rematch/);
    await spec.click('#btn-rematch');
    await spec.waitForFunction((id) => document.getElementById('board').dataset.game === id, second);
    assert.equal(await seat(spec), 'spectator');
    for (const p of pages) assert.deepEqual(scriptErrors(p), [], 'no script errors');
    for (const p of pages) assert.deepEqual(p.external, [], 'no request leaves the server');
  } finally {
    await a.context.close();
    await b.context.close();
    await c.context.close();
  }
});

test('abort, takeback declined and accepted, a dropped connection resumes with the missed move, another device', { timeout: 90000 }, async () => {
  const proxy = await startProxy(BASE_URL);
  const a = await desktop({ base: proxy.url });
  const b = await desktop();
  const ana = a.page;
  const bia = b.page;
  const viaServer = (link) => BASE_URL + new URL(link).pathname + new URL(link).search;
  let d = null;
  try {
    await open(ana, '/', proxy.url);
    // The name is remembered: the second game's dialog has it already.
    let link = await createOnline(ana, { tc: 'none', color: 'black', name: 'Ana' });
    await takeSeat(bia, viaServer(link), 'Bia');
    await waitTurn(ana);
    assert.equal(await ana.isVisible('#btn-abort'), true, 'abort while fewer than two moves');
    await ana.click('#btn-abort');
    for (const p of [ana, bia]) {
      await p.waitForSelector('#gameover:not([hidden])');
      assert.match(await p.textContent('#gameover-winner'), /Game aborted: no result/);
    }
    assert.equal(await ana.isHidden('#gameover-score'), true, 'no score');

    await ana.click('#btn-new');
    await ana.check('#new-dialog input[name="mode"][value="online"]');
    assert.equal(await ana.inputValue('#online-name'), 'Ana', 'the display name is remembered');
    await ana.click('#new-cancel');
    link = await createOnline(ana, { tc: 'none', color: 'black', name: 'Ana' });
    await takeSeat(bia, viaServer(link), 'Bia');
    const pages = [ana, bia];
    await waitTurn(ana);
    await playOne(pages);

    // Takeback (an untimed game): declined, then accepted.
    await ana.click('#btn-takeback');
    await bia.waitForSelector('#online-offer:not([hidden])');
    assert.match(await bia.textContent('#online-offer-text'), /Ana asks to take back the last move/);
    // Ana's own line comes with the server's answer, which may follow Bia's by a moment.
    await textMatches(ana, '#online-offer-text', /waiting for Bia/);
    await bia.click('#btn-offer-decline');
    await ana.waitForSelector('#online-offer', { state: 'hidden' });
    assert.equal(await plyOf(ana), 1);
    await ana.click('#btn-takeback');
    await bia.waitForSelector('#online-offer:not([hidden])');
    await bia.click('#btn-offer-accept');
    await allAtPly(pages, 0);
    assert.equal(await waitTurn(ana), 'human', 'Ana moves again');

    // Ana's network drops; Bia moves meanwhile; when it is back, Ana's page shows that move.
    const first = await playOne(pages);
    proxy.drop();
    await ana.waitForSelector('#connection:not([hidden])', { timeout: 10000 });
    assert.match(await ana.textContent('#connection'), /Reconnecting/);
    await bia.waitForFunction(() => /Ana (is reconnecting|left)/.test(document.getElementById('online-opponent').textContent), null, { timeout: 10000 });
    await ana.screenshot({ path: screenshotPath('desktop-online-reconnecting.png') });
    const reply = await clickFirstLegal(bia);
    // Ana's page tries the server again after Bia's move, and is refused: it cannot know.
    await proxy.nextRefusal();
    assert.equal(await plyOf(ana), 1, 'the page cannot know yet');
    proxy.restore();
    await allAtPly([ana], 2);
    await ana.waitForSelector('#connection', { state: 'hidden' });
    assert.equal(await boardString(ana), replay(first + reply).board);
    await bia.waitForFunction(() => /Ana is online/.test(document.getElementById('online-opponent').textContent));
    assert.equal(await waitTurn(ana), 'human');

    // "Continue on another device": a private link gives Ana's seat to a second browser.
    await ana.click('#btn-device');
    await ana.waitForSelector('#device-box:not([hidden])');
    const deviceLink = await ana.inputValue('#device-link');
    assert.match(deviceLink, /\/join\/[0-9a-f]{32,}$/);
    d = await phone();
    await d.page.goto(viaServer(deviceLink));
    await d.page.waitForFunction(() => document.getElementById('board').dataset.seat === 'black');
    assert.equal(await waitTurn(d.page), 'human');
    await d.page.screenshot({ path: screenshotPath('phone-online-other-device.png') });
    await playOne([d.page, ana, bia]);
    assert.equal(await plyOf(ana), 3);
    // Bia closes the tab and opens the same link again: her seat, the game as it stands.
    const biaAgain = await b.context.newPage();
    await bia.close();
    await biaAgain.goto(viaServer(link));
    await biaAgain.waitForFunction(() => document.getElementById('board').dataset.seat === 'white' && document.getElementById('board').dataset.ply === '3');
    assert.equal(await waitTurn(biaAgain), 'human');
    assert.equal(await boardString(biaAgain), await boardString(ana));

    // The saved games list shows the online games, marked as such, to the players only.
    await goTo(ana, '/games');
    await ana.waitForSelector('#games-ongoing li[data-mode="online"] .badge.online');
    await ana.screenshot({ path: screenshotPath('desktop-online-saved-games.png') });
    assert.match(await ana.textContent('#games-ongoing li[data-mode="online"]'), /online.*(Ana \(Black\) vs Bia \(White\)|against a friend, online)/);
    // It opens as an online game again (its socket, the seat still Ana's).
    await ana.click('#games-ongoing li[data-mode="online"] button.primary');
    await ana.waitForFunction(() => document.getElementById('board').dataset.seat === 'black' && document.getElementById('board').dataset.ply === '3');
    assert.deepEqual(scriptErrors(ana), [], 'no script errors');
  } finally {
    await a.context.close();
    await b.context.close();
    if (d) await d.context.close();
    await proxy.close();
  }
});

test('an online game is listed to its players only, not to another browser', { timeout: 30000 }, async () => {
  const a = await desktop();
  const b = await phone();
  const stranger = await desktop();
  try {
    await open(a.page);
    const link = await createOnline(a.page, { tc: 'correspondence', days: 3, color: 'white', name: 'Ana' });
    assert.match(await a.page.textContent('#online-info'), /3 days per move/);
    assert.equal(await a.page.textContent('#clock-white'), '3 d');
    await goTo(a.page, '/games');
    await a.page.waitForSelector('#games-ongoing li[data-mode="online"]');
    // The friend who took the other seat has it in her saved games too.
    await takeSeat(b.page, link, 'Bia');
    const id = await gameIdOf(b.page);
    await goTo(b.page, '/games');
    await b.page.waitForSelector(`#games-ongoing li[data-game-id="${id}"][data-mode="online"]`);
    await stranger.page.goto(BASE_URL + '/games');
    await stranger.page.waitForSelector('#games-ongoing li');
    assert.equal(await stranger.page.$$eval('li[data-mode="online"]', (x) => x.length), 0, 'not listed to another browser');
  } finally {
    await a.context.close();
    await b.context.close();
    await stranger.context.close();
  }
});

test('Portuguese: the online dialog and the waiting panel', { timeout: 30000 }, async () => {
  const { context, page } = await phone({ locale: 'pt-BR' });
  try {
    await open(page);
    await page.click('#btn-new');
    await page.check('#new-dialog input[name="mode"][value="online"]');
    assert.match(await page.textContent('#new-dialog .tc-field'), /Controle de tempo/);
    assert.equal(await page.textContent('#new-start'), 'Criar e pegar o link');
    // A name is needed: the dialog says so instead of sending the request.
    await page.fill('#online-name', '   ');
    await page.click('label:has(input[name="tc"][value="custom"])');
    await page.fill('#tc-minutes', '0');
    await page.click('#new-start');
    assert.match(await page.textContent('#new-error'), /Minutos: um número inteiro de 1 a 180/);
    await page.fill('#tc-minutes', '7');
    await page.fill('#tc-increment', '3');
    await page.click('#new-start');
    assert.match(await page.textContent('#new-error'), /Seu nome/);
    await page.screenshot({ path: screenshotPath('phone-online-dialog-pt.png') });
    await page.fill('#online-name', 'Zé');
    await page.click('#new-start');
    await page.waitForSelector('#online-waiting', { state: 'visible' });
    assert.match(await page.textContent('#status-text'), /Esperando o seu adversário/);
    assert.match(await page.textContent('#online-waiting'), /Convide o seu adversário/);
    assert.match(await page.textContent('#online-info'), /7\+3/);
    await page.screenshot({ path: screenshotPath('phone-online-waiting-pt.png') });
    assert.deepEqual(scriptErrors(page), []);
  } finally {
    await context.close();
  }
});
