// A game's first moves and the arena's hand-over (issue 54, items 1 and 2), in real Chromium
// against the real server, in English and Brazilian Portuguese: no clock runs before its
// side's first move (the time left for it counts down under the board), either player may
// abort until both have moved; an arena game names its arena, counts the arena's time down and
// links back, and at its end both players are taken to their next game without a click.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';
import { open, clickFirstLegal } from '../lib/ui.mjs';
import { createOnline, takeSeat, allAtPly, clockMs, gameIdOf } from '../lib/online.mjs';

const shared = browserForFile();

const CASES = [
  { locale: 'en-US', first: /^Black: \d+ seconds left to make a first move, or the game is aborted/, white: /^White: /,
    abort: 'Abort', aborted: /Game aborted: no result/, ends: /^Ends in \d+:\d\d$/, back: 'Back to the arena', join: 'Join' },
  { locale: 'pt-BR', first: /^Preto: \d+ segundos para fazer o primeiro lance, ou a partida é cancelada/, white: /^Branco: /,
    abort: 'Cancelar a partida', aborted: /Partida cancelada: sem resultado/, ends: /^Termina em \d+:\d\d$/, back: 'Voltar à arena', join: 'Entrar' },
];

for (const c of CASES) {
  test(`no clock runs before its first move; abort until both have moved (${c.locale})`, { timeout: 90000 }, async () => {
    const a = await newPage(shared.browser, { locale: c.locale });
    const b = await newPage(shared.browser, { locale: c.locale, width: 390, height: 844, isMobile: true });
    const ana = a.page;
    const bia = b.page;
    try {
      await open(ana);
      const link = await createOnline(ana, { tc: '1+0', color: 'black', name: 'Ana' });
      await takeSeat(bia, link, 'Bia');
      for (const p of [ana, bia]) {
        // Black has not moved: its clock stands whole, the time for the first move counts down.
        await p.waitForSelector('#first-move:not([hidden])');
        assert.match(await p.textContent('#first-move'), c.first);
        assert.equal(await clockMs(p, 'black'), 60000);
        assert.equal(await p.$('#clock-black.running'), null);
        assert.equal((await p.textContent('#btn-abort')).trim(), c.abort);
        assert.equal(await p.isVisible('#btn-abort'), true);
      }
      const f0 = Number(await ana.getAttribute('#first-move', 'data-ms'));
      await ana.waitForFunction((from) => Number(document.getElementById('first-move').dataset.ms) <= from - 1000, f0);
      assert.equal(await clockMs(ana, 'black'), 60000, 'the clock still stands');
      await ana.screenshot({ path: screenshotPath(`first-move-${c.locale}.png`) });

      // Black moves: free; White's clock waits for White's first move, and White may abort.
      await clickFirstLegal(ana);
      await allAtPly([ana, bia], 1);
      await bia.waitForFunction((re) => new RegExp(re).test(document.getElementById('first-move').textContent), c.white.source);
      assert.equal(await clockMs(bia, 'black'), 60000);
      assert.equal(await bia.$('#clock-white.running'), null);
      assert.equal(await bia.isVisible('#btn-abort'), true, 'White has not moved: abort is offered');
      await bia.click('#btn-abort');
      for (const p of [ana, bia]) {
        await p.waitForSelector('#gameover:not([hidden])');
        assert.match(await p.textContent('#gameover-winner'), c.aborted);
        assert.equal(await p.isVisible('#first-move'), false);
      }
      const stored = await ana.evaluate(async (id) => (await fetch('/api/games/' + id)).json(), await gameIdOf(ana));
      assert.deepEqual(stored.online.end, { reason: 'abort', loser: null });
      assert.equal(stored.result, null);
      assert.deepEqual(ana.consoleErrors, []);
      assert.deepEqual(bia.consoleErrors, []);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
}

/** Signs `page` up as `username` (the session cookie stays in its context). */
async function signUp(page, username) {
  const status = await page.evaluate((u) => fetch('/api/accounts', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: u, password: 'a good long password' }),
  }).then((r) => r.status), username);
  assert.equal(status, 201);
}

test('an arena game names its arena, and its end takes both players to their next game', { timeout: 120000 }, async () => {
  const stamp = Date.now().toString(36);
  const [en, pt] = CASES;
  const a = await newPage(shared.browser, { locale: en.locale });
  const b = await newPage(shared.browser, { locale: pt.locale, width: 390, height: 844, isMobile: true });
  const ana = a.page;
  const bia = b.page;
  try {
    await ana.goto(BASE_URL + '/arenas');
    await signUp(ana, 'ana_' + stamp);
    const arena = await ana.evaluate((name) => fetch('/api/arenas', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, time_control: { kind: 'clock', minutes: 1, increment_seconds: 0 }, minutes: 30 }),
    }).then((r) => r.json()), 'Hand-over ' + stamp);
    const path = '/arenas/' + arena.id;
    await bia.goto(BASE_URL + path);
    await signUp(bia, 'bia_' + stamp);
    for (const [p, c] of [[ana, en], [bia, pt]]) {
      await p.goto(BASE_URL + path);
      await p.waitForSelector('#arena-join');
      assert.equal((await p.textContent('#arena-join')).trim(), c.join);
      await p.click('#arena-join');
    }

    // Paired: both pages open the game, which names the arena, counts its time and links back.
    for (const [p, c] of [[ana, en], [bia, pt]]) {
      await p.waitForFunction(() => new URLSearchParams(location.search).get('game'));
      await p.waitForSelector('#arena-bar:not([hidden])');
      assert.equal(await p.textContent('#arena-bar-link'), 'Hand-over ' + stamp);
      assert.equal(await p.getAttribute('#arena-bar-link', 'href'), path);
      assert.match(await p.textContent('#arena-bar-clock'), c.ends);
      assert.equal(await p.textContent('#arena-bar-back'), c.back);
    }
    const first = await gameIdOf(ana);
    assert.equal(await gameIdOf(bia), first);
    await bia.screenshot({ path: screenshotPath('arena-game-phone-pt.png') });

    // Whoever is Black resigns at once: the game ends; both are taken back to the arena, paired
    // again at once (nobody else waits), and the new game opens by itself on both screens.
    const black = (await ana.getAttribute('#board', 'data-seat')) === 'black' ? ana : bia;
    await black.click('#btn-resign');
    await black.click('#btn-resign-yes');
    for (const p of [ana, bia]) await p.waitForSelector('#arena-bar-next:not([hidden])');
    await ana.screenshot({ path: screenshotPath('arena-hand-over-en.png') });
    for (const p of [ana, bia]) {
      await p.waitForFunction((id) => {
        const g = new URLSearchParams(location.search).get('game');
        return g && g !== id && document.getElementById('board').dataset.game === g;
      }, first, { timeout: 20000 });
      await p.waitForSelector('#arena-bar:not([hidden])');
    }
    const second = await gameIdOf(ana);
    assert.equal(await gameIdOf(bia), second);
    const standings = await ana.evaluate((id) => fetch('/api/arenas/' + id).then((r) => r.json()), arena.id);
    assert.equal(standings.games.length, 2);
    assert.deepEqual(ana.consoleErrors, []);
    assert.deepEqual(bia.consoleErrors, []);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
