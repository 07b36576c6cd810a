// Profiles and "my games" in the browser: two accounts in two contexts (a desktop in English, a
// phone in Portuguese) play a short rated game (made through the API, played by clicking), then
// both profiles show the ratings and the game, which opens for replay; a move in another game
// is told on the open page ("your move"), and "my games" lists it first; an unknown name says
// so in the page's language. A phone-sized screenshot of a profile: profile-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';
import { open, clickFirstLegal, goTo, textMatches } from '../lib/ui.mjs';
import { allAtPly } from '../lib/online.mjs';

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

async function signUp(page, username) {
  const r = await call(page, 'POST', '/api/accounts', { username, password: 'a good long password' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
}

/** A game made by `black` through the API, `white` taking the other seat; its id. */
async function apiGame(black, white, timeControl, rated) {
  const r = await call(black, 'POST', '/api/games', { mode: 'online', time_control: timeControl, color: 'black', rated });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const s = await call(white, 'POST', `/api/games/${r.body.id}/seat`, { name: 'ignored' });
  assert.equal(s.status, 200, JSON.stringify(s.body));
  return r.body.id;
}

/** Opens a page that is not the board (a profile). */
async function visit(page, path) {
  await page.goto(BASE_URL + path);
}

async function showGame(page, id) {
  await open(page, `/?game=${id}`);
  await page.waitForFunction(() => ['black', 'white'].includes(document.getElementById('board').dataset.seat));
}

test('two accounts play a rated game; both profiles show the ratings and the game; my games and the notice', { timeout: 120000 }, async () => {
  const stamp = Date.now().toString(36).slice(-6);
  const anaName = 'ana_' + stamp;
  const biaName = 'bia_' + stamp;
  const ana = await newPage(shared.browser);
  const bia = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  await open(ana.page);
  await open(bia.page);
  await signUp(ana.page, anaName);
  await signUp(bia.page, biaName);

  // A rated 3+2 game: two moves by clicking, then Bia resigns (after confirming).
  const id = await apiGame(ana.page, bia.page, { kind: 'clock', minutes: 3, increment_seconds: 2 }, true);
  await showGame(ana.page, id);
  await showGame(bia.page, id);
  assert.match(await ana.page.textContent('#online-info'), /Rated game · 3\+2/);
  assert.match(await bia.page.textContent('#online-info'), /Partida valendo rating/);
  await clickFirstLegal(ana.page);
  await allAtPly([bia.page], 1);
  await clickFirstLegal(bia.page);
  await allAtPly([ana.page], 2);
  await bia.page.click('#btn-resign');
  await bia.page.waitForSelector('#resign-confirm', { state: 'visible' });
  await bia.page.click('#btn-resign-yes');
  await ana.page.waitForFunction(() => document.getElementById('board').dataset.status === 'finished');
  // The game's end shows each player's new rating and its change, in their language.
  await textMatches(ana.page, '#gameover-rating', /^Your rating: 1[6-7]\d\d \(\+\d+\)\.$/);
  await textMatches(bia.page, '#gameover-rating', /^Seu rating: 1[3-4]\d\d \(−\d+\)\.$/);

  // Ana's profile: the blitz rating (provisional), the record, the game among the recent ones.
  await visit(ana.page, `/@/${anaName}`);
  await ana.page.waitForSelector('#profile-root[data-state="found"]');
  await ana.page.waitForSelector('.rating-card[data-category="blitz"] svg.rating-chart');
  assert.match(await ana.page.textContent('.rating-card[data-category="blitz"] .rating-value'), /^1[6-7]\d\d\?$/);
  assert.match(await ana.page.textContent('.profile-record'), /Wins\s*1/);
  await ana.page.waitForSelector(`.recent-list li[data-game-id="${id}"]`);
  assert.match(await ana.page.textContent(`.recent-list li[data-game-id="${id}"]`), /Rated.*Won \(by resignation\).*rating \+\d+ \(1[6-7]\d\d\)/s);
  assert.equal(await ana.page.isVisible('#profile-download'), true, 'the download on her own profile');
  await ana.page.waitForSelector(`.archive-list li[data-game-id="${id}"]`);
  // The archive's result filter: no losses.
  await ana.page.selectOption('.archive-filters select[name="result"]', 'loss');
  await ana.page.click('.archive-filters button[type="submit"]');
  await ana.page.waitForFunction(() => document.querySelector('.archive-list').textContent.includes('No games match'));

  // Bia's profile on the phone, in Portuguese: her rating went down; the game is there too.
  await visit(bia.page, `/@/${biaName}`);
  await bia.page.waitForSelector('#profile-root[data-state="found"]');
  await bia.page.waitForSelector('.rating-card[data-category="blitz"] svg.rating-chart');
  assert.match(await bia.page.textContent('.rating-card[data-category="blitz"] .rating-value'), /^1[3-4]\d\d\?$/);
  assert.match(await bia.page.textContent('.profile-record'), /Derrotas\s*1/);
  await bia.page.waitForSelector(`.recent-list li[data-game-id="${id}"]`);
  assert.match(await bia.page.textContent(`.recent-list li[data-game-id="${id}"]`), /Valendo rating.*Derrota \(por desistência\).*rating −\d+ \(1[3-4]\d\d\)/s);
  assert.equal(await bia.page.isVisible('#profile-download'), true, 'her own profile has the download');
  const overflow = await bia.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling at 390 px (${overflow} px too wide)`);
  await bia.page.screenshot({ path: screenshotPath('profile-phone.png'), fullPage: true });
  // The opponent's name links to her profile; the recent game opens for replay.
  await bia.page.click(`.recent-list li[data-game-id="${id}"] a.player-link`);
  await bia.page.waitForFunction((n) => document.querySelector('#profile-root h1') && document.querySelector('#profile-root h1').textContent === n, anaName);
  assert.equal(await bia.page.isVisible('#profile-download'), false, "no download on another player's profile");
  await bia.page.click(`.recent-list li[data-game-id="${id}"] button`);
  await bia.page.waitForFunction((g) => new URLSearchParams(location.search).get('game') === g, id);
  await bia.page.waitForFunction(() => document.getElementById('board').dataset.status === 'finished');

  // An unknown name: said in the page's language.
  await visit(bia.page, '/@/nobody_' + stamp);
  await bia.page.waitForSelector('#profile-root[data-state="missing"]');
  assert.match(await bia.page.textContent('#profile-root h1'), /Nenhum jogador se chama/);

  // Correspondence: Ana watches the finished game; Bia moves in another game: Ana's page says
  // so, and "my games" lists that game first, as her move.
  const corr = await apiGame(bia.page, ana.page, { kind: 'correspondence', days: 3 }, false);
  await showGame(ana.page, id);
  await showGame(bia.page, corr);
  await clickFirstLegal(bia.page);
  await ana.page.waitForFunction((n) => document.getElementById('notice').textContent.includes(`${n} moved`), biaName);
  await goTo(ana.page, '/games');
  await ana.page.waitForSelector('#my-games:not([hidden]) .my-games-list li[data-game-id]');
  const first = await ana.page.$eval('.my-games-list li[data-game-id]', (li) => ({ id: li.dataset.gameId, mine: li.classList.contains('your-move'), text: li.textContent }));
  assert.equal(first.id, corr);
  assert.equal(first.mine, true);
  assert.match(first.text, /Your move · Move by/);
  assert.match(first.text, /Casual/);
  await ana.page.screenshot({ path: screenshotPath('my-games.png') });

  for (const p of [ana.page, bia.page]) assert.deepEqual(p.consoleErrors.filter((e) => !e.includes('status of 404')), [], 'no script errors');
  await ana.context.close();
  await bia.context.close();
});
