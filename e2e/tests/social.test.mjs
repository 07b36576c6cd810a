// Issue 54, items 4 and 7 in the browser (English on a desktop, Portuguese on a phone):
// leaving a live online game asks first (the menu's pages and "New game" with the app's dialog,
// closing the tab with the browser's), and a badge on every page names the game and opens it;
// the watch page lists the game being played (opened to spectate), a leaderboard per category as
// the server answers it, and the players online by name; blocking asks first, a report's reasons
// are chosen in the app's dialog, and the account lists the blocked players with unblock; quick
// pairing says in words that it passed over a blocked player.
// Screenshots: badge-phone.png, watch-desktop.png, watch-phone.png, report-dialog-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, clickFirstLegal, goTo, textMatches } from '../lib/ui.mjs';
import { createOnline, takeSeat, allAtPly, gameIdOf } from '../lib/online.mjs';

const shared = browserForFile();

/** A JSON request from inside the page (its cookies); { status, body }. */
function call(page, method, path, body) {
  return page.evaluate(async ([m, p, b]) => {
    const r = await fetch(p, { method: m, headers: b ? { 'Content-Type': 'application/json' } : {}, body: b ? JSON.stringify(b) : undefined });
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, body: json };
  }, [method, path, body]);
}

/** Both pages make a move (Black then White), so the game is well under way. */
async function bothMove(black, white) {
  await clickFirstLegal(black);
  await allAtPly([black, white], 1);
  await clickFirstLegal(white);
  await allAtPly([black, white], 2);
}

test('leaving a live game asks first; the badge names it on every page and opens it', { timeout: 120000 }, async () => {
  const ana = await newPage(shared.browser);
  const bia = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  await open(ana.page);
  const link = await createOnline(ana.page, { tc: '10+5', name: 'Ana' });
  await takeSeat(bia.page, link, 'Bia');
  await bothMove(ana.page, bia.page);
  const id = await gameIdOf(ana.page);

  // English, desktop: "Learn" asks; staying keeps the game on screen.
  await goTo(ana.page, '/learn');
  await ana.page.waitForSelector('#leave-dialog[open]');
  assert.match(await ana.page.textContent('#leave-dialog'), /Leave your game\?.*clock keeps running/s);
  await ana.page.click('#leave-dialog .ask-no');
  await ana.page.waitForSelector('#leave-dialog', { state: 'detached' });
  assert.equal(await ana.page.isVisible('#view-play'), true);
  assert.equal(new URL(ana.page.url()).searchParams.get('game'), id);
  // The game on screen is not named again by the badge.
  assert.equal(await ana.page.isVisible('#live-badge'), false);
  // Leaving: the learn page, with the badge naming the game.
  await goTo(ana.page, '/learn');
  await ana.page.click('#leave-dialog .ask-yes');
  await ana.page.waitForSelector('#view-learn', { state: 'visible' });
  await ana.page.waitForSelector('#live-badge', { state: 'visible' });
  // It is Ana's move (Black, after one move each).
  assert.equal(await ana.page.textContent('#live-badge-text'), 'Your move: 1 live game');
  assert.equal(await ana.page.getAttribute('#live-badge', 'data-game'), id);
  // The badge opens the game again (no question: nothing live is being left).
  await ana.page.click('#live-badge');
  await ana.page.waitForSelector('#view-play', { state: 'visible' });
  await ana.page.waitForFunction((g) => new URL(location.href).searchParams.get('game') === g
    && document.getElementById('board').dataset.seat === 'black', id);
  await ana.page.waitForSelector('#live-badge', { state: 'hidden' });

  // Portuguese, phone: "Nova partida" asks in Portuguese; leaving opens the new-game dialog.
  await bia.page.click('#btn-new');
  await bia.page.waitForSelector('#leave-dialog[open]');
  assert.match(await bia.page.textContent('#leave-dialog'), /Sair da sua partida\?.*relógio corre/s);
  await bia.page.click('#leave-dialog .ask-yes');
  await bia.page.waitForSelector('#new-dialog[open]');
  await bia.page.keyboard.press('Escape');
  await bia.page.waitForSelector('#new-dialog', { state: 'hidden' });
  // The rules through the menu: asked again, then the badge (short on a phone) is on that page.
  await goTo(bia.page, '/rules');
  await bia.page.click('#leave-dialog .ask-yes');
  await bia.page.waitForSelector('#view-rules', { state: 'visible' });
  await bia.page.waitForSelector('#live-badge', { state: 'visible' });
  // Not Bia's move: the game is only named.
  assert.equal(await bia.page.getAttribute('#live-badge', 'aria-label'), '1 partida ao vivo');
  assert.equal(await bia.page.textContent('#live-badge-short'), '1');
  // One row of top bar with the badge in it.
  const bar = await bia.page.$eval('.topbar', (e) => e.getBoundingClientRect().height);
  assert.ok(bar < 60, `the top bar is one row (${bar}px)`);
  await bia.page.screenshot({ path: screenshotPath('badge-phone.png') });

  // Closing the tab during the game: the browser's own question (beforeunload).
  const asked = ana.page.waitForEvent('dialog');
  ana.page.close({ runBeforeUnload: true }).catch(() => {});
  const dialog = await asked;
  assert.equal(dialog.type(), 'beforeunload');
  await dialog.dismiss();
  assert.equal(ana.page.isClosed(), false, 'staying keeps the page');
  await ana.context.close();
  await bia.context.close();
});

test('watch: live games, leaderboards and players online; block asks first, report reasons, unblock from the account', { timeout: 120000 }, async () => {
  const stamp = Date.now().toString(36).slice(-6);
  const anaName = 'ana_' + stamp;
  const biaName = 'bia_' + stamp;
  const ana = await newPage(shared.browser);
  const bia = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  await open(ana.page);
  await open(bia.page);
  for (const [page, username] of [[ana.page, anaName], [bia.page, biaName]]) {
    const r = await call(page, 'POST', '/api/accounts', { username, password: 'a good long password' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await page.reload(); // signed in: the page starts again as the account
  }
  const made = await call(ana.page, 'POST', '/api/games', { mode: 'online', time_control: { kind: 'clock', minutes: 10, increment_seconds: 5 }, color: 'black' });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  assert.equal((await call(bia.page, 'POST', `/api/games/${id}/seat`, { name: 'x' })).status, 200);
  await open(ana.page, `/?game=${id}`);
  await open(bia.page, `/?game=${id}`);
  await ana.page.waitForFunction(() => document.getElementById('board').dataset.seat === 'black');
  await bia.page.waitForFunction(() => document.getElementById('board').dataset.seat === 'white');
  await bothMove(ana.page, bia.page);

  // A third person, English on a desktop, opens the watch page.
  const eve = await newPage(shared.browser);
  await open(eve.page);
  await goTo(eve.page, '/watch');
  await eve.page.waitForSelector(`#view-watch li.live-game[data-game="${id}"]`);
  const row = await eve.page.textContent(`li.live-game[data-game="${id}"]`);
  assert.ok(row.includes(anaName) && row.includes(biaName), row);
  assert.match(row, /10\+5 · Rapid · casual · 2 moves/);
  // Both players' pages asked for their games: both are online, by name.
  await eve.page.waitForFunction(([a, b]) => {
    const t = document.querySelector('#view-watch .online-players').textContent;
    return t.includes(a) && t.includes(b);
  }, [anaName, biaName]);
  await textMatches(eve.page, '#view-watch .online-count', /^\d+ players online$/);
  // A leaderboard shows what the server answers for its category.
  const answer = eve.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/watch/leaders/bullet');
  await eve.page.click('.watch-tabs button[data-category="bullet"]');
  const leaders = await (await answer).json();
  await eve.page.waitForSelector('.watch-tabs button[data-category="bullet"][aria-pressed="true"]');
  await eve.page.waitForFunction((n) => {
    const ol = document.querySelector('#view-watch ol.leaders');
    return n === 0 ? /established rating/.test(ol.textContent) : ol.querySelectorAll('li.leader').length === n;
  }, leaders.players.length);
  await eve.page.screenshot({ path: screenshotPath('watch-desktop.png') });
  // Watching the game: the board as a spectator.
  await eve.page.click(`li.live-game[data-game="${id}"] button`);
  await eve.page.waitForFunction((g) => new URL(location.href).searchParams.get('game') === g
    && document.getElementById('board').dataset.seat === 'spectator', id);

  // Bia (Portuguese, phone) blocks Ana: asked first; "Cancelar" blocks nobody.
  await bia.page.waitForSelector('#btn-block', { state: 'visible' });
  await bia.page.click('#btn-block');
  await bia.page.waitForSelector('#block-dialog[open]');
  assert.match(await bia.page.textContent('#block-dialog'), new RegExp(`Bloquear ${anaName}\\?`));
  await bia.page.click('#block-dialog .ask-no');
  await bia.page.waitForSelector('#block-dialog', { state: 'detached' });
  assert.equal((await call(bia.page, 'GET', '/api/account/blocks')).body.blocks.length, 0);
  await bia.page.click('#btn-block');
  const blocked = bia.page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/account\/blocks\//.test(r.url()));
  await bia.page.click('#block-dialog .ask-yes');
  assert.equal((await blocked).status(), 200);
  await textMatches(bia.page, '#notice', /Você bloqueou/);

  // The report: reasons in the app's dialog (none chosen: said so, nothing sent).
  await bia.page.click('#btn-report');
  await bia.page.waitForSelector('#report-dialog[open]');
  await bia.page.click('#report-dialog .ask-yes');
  await textMatches(bia.page, '#report-dialog .form-error', /Escolha um motivo/);
  await bia.page.check('#report-dialog input[value="stalling"]');
  await bia.page.fill('#report-details', 'não joga');
  await bia.page.screenshot({ path: screenshotPath('report-dialog-phone.png') });
  const sent = bia.page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/reports');
  const reported = bia.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/reports');
  await bia.page.click('#report-dialog .ask-yes');
  assert.deepEqual(JSON.parse((await sent).postData()), { player: anaName, reasons: ['stalling'], reason: 'não joga', game: id });
  assert.equal((await reported).status(), 201);
  await textMatches(bia.page, '#notice', /Obrigado/);

  // The account lists the blocked player; unblocking empties the list.
  await bia.page.click('#account-btn');
  await bia.page.waitForSelector(`#account-blocks li[data-name="${anaName}"]`);
  await bia.page.click(`#account-blocks li[data-name="${anaName}"] button`);
  await textMatches(bia.page, '#account-blocks', /Você não bloqueia ninguém/);
  assert.equal((await call(bia.page, 'GET', '/api/account/blocks')).body.blocks.length, 0);
  await bia.page.keyboard.press('Escape');

  // The watch page in Portuguese on the phone.
  await goTo(bia.page, '/watch');
  await bia.page.click('#leave-dialog .ask-yes');
  await bia.page.waitForSelector(`#view-watch li.live-game[data-game="${id}"]`);
  assert.equal(await bia.page.textContent('#watch-title'), 'Assistir');
  await textMatches(bia.page, '#view-watch .online-count', /^\d+ pessoas on-line$/);
  assert.match(await bia.page.textContent(`li.live-game[data-game="${id}"]`), /10\+5 · Rápidas · amistosa · 2 jogadas/);
  const wide = await bia.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(wide, 'no sideways scrolling on the phone');
  await bia.page.screenshot({ path: screenshotPath('watch-phone.png'), fullPage: true });
  for (const p of [ana, bia, eve]) await p.context.close();
});

test('quick pairing says in words that it skipped a blocked player (English and Portuguese)', { timeout: 90000 }, async () => {
  const stamp = Date.now().toString(36).slice(-6);
  const anaName = 'ana_q' + stamp;
  const biaName = 'bia_q' + stamp;
  const ana = await newPage(shared.browser);
  const bia = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  for (const [page, username] of [[ana.page, anaName], [bia.page, biaName]]) {
    await open(page);
    const r = await call(page, 'POST', '/api/accounts', { username, password: 'a good long password' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
  assert.equal((await call(bia.page, 'POST', `/api/account/blocks/${anaName}`, {})).status, 200);
  for (const p of [ana.page, bia.page]) {
    await p.reload(); // as the accounts
    await goTo(p, '/lobby');
    await p.waitForSelector('#lobby-status[data-state="live"]');
  }
  // The XOT pool (the one other tests use least): Ana waits, Bia joins; they would be paired.
  await ana.page.click('button[data-pool="xot-3+2"]');
  await ana.page.waitForSelector('.lobby-wait', { state: 'visible' });
  await bia.page.click('button[data-pool="xot-3+2"]');
  await textMatches(ana.page, '#lobby-message', /^1 waiting player was skipped: one of you blocked the other\. Still looking…$/);
  await textMatches(bia.page, '#lobby-message', /^1 pessoa na fila foi pulada: uma de vocês bloqueou a outra\. Continuamos procurando…$/);
  // Both still wait.
  assert.equal(await ana.page.isVisible('.lobby-wait'), true);
  assert.equal(await bia.page.isVisible('.lobby-wait'), true);
  await ana.context.close();
  await bia.context.close();
});
