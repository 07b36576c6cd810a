// The opening explorer (issue 53, item 6): opened from the move list at the position shown, a
// move of the table clicked, a move of the board clicked, back to the start by the line and by
// the browser's Back; in English on a desktop and in pt-BR on a phone. Every figure on the page
// is checked against the server's answer for that line (GET /api/explorer), and the board
// against the independent rules model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';
import { open, newGame, boardString } from '../lib/ui.mjs';
import { replay } from '../lib/othello.mjs';
import { EXPLORER_TEXTS } from '../../crates/web/assets/explorer/explorer-text.js';

const shared = browserForFile();

/** Waits until the explorer shows `line`, ready. */
async function at(page, line) {
  await page.waitForSelector(`#explorer-root[data-state="ready"][data-line="${line}"]`);
}

/** The server's answer for `line`, fetched by the page. */
async function answer(page, line) {
  return page.evaluate(async (l) => (await fetch('/api/explorer?line=' + l)).json(), line);
}

/** The table as shown: each row's square and games cell. */
async function rows(page) {
  return page.$$eval('#explorer-root tbody tr', (trs) => trs.map((tr) => ({
    square: tr.dataset.square,
    games: tr.querySelector('.col-games').textContent.trim(),
    opening: tr.querySelector('.col-opening').textContent.trim(),
    players: tr.querySelector('.col-players').textContent.trim(),
  })));
}

/** The table agrees with the server's answer, in the page's language. */
async function checkTable(page, line, lang) {
  const v = await answer(page, line);
  const shown = await rows(page);
  assert.deepEqual(shown.map((r) => r.square), v.moves.map((m) => m.square), `${line}: the moves in the server's order`);
  const locale = lang === 'pt' ? 'pt-BR' : 'en';
  v.moves.forEach((m, i) => {
    if (m.results.games > 0) assert.equal(shown[i].games, new Intl.NumberFormat(locale, { useGrouping: false }).format(m.results.games));
    if (m.opening) assert.equal(shown[i].opening, m.opening.name[lang]);
    for (const p of m.players) assert.ok(shown[i].players.includes(`${p.name} (${p.elo})`), `${m.square}: ${p.name}`);
  });
  const status = await page.textContent('#explorer-root .explorer-status');
  if (v.known) {
    assert.ok(status.includes(`${v.results.games} ${lang === 'pt' ? 'partidas' : 'games'}`), status);
  }
  // The source in the page's language: "137135 partidas", never the English word on a pt page.
  const words = lang === 'pt' ? 'partidas' : 'games';
  assert.ok((await page.textContent('#explorer-root .explorer-source')).includes(`${v.source_games} ${words}`));
  // The board is the line's position (the rules model, not the server).
  assert.equal(await boardString(page, 'explorer-board'), replay(line).board);
  return v;
}

for (const { name, lang, viewport } of [
  { name: 'desktop, English', lang: 'en', viewport: { width: 1280, height: 860, locale: 'en-US' } },
  { name: 'phone, pt-BR', lang: 'pt', viewport: { width: 390, height: 844, locale: 'pt-BR', isMobile: true } },
]) {
  test(`the explorer from the move list, deeper and back (${name})`, { timeout: 90000 }, async () => {
    const { context, page } = await newPage(shared.browser, viewport);
    await open(page);
    await newGame(page, { mode: 'friend' });
    await page.focus('#board [data-square="f5"]');
    await page.keyboard.type('f5');
    await page.waitForFunction(() => document.getElementById('board').dataset.ply === '1');
    await page.keyboard.type('d6');
    await page.waitForFunction(() => document.getElementById('board').dataset.ply === '2');
    // The move list's link follows the position shown.
    await page.waitForSelector('#link-explorer[href="/explorer?line=f5d6"]:not([hidden])');
    await page.click('#move-list button[data-ply="1"]');
    await page.waitForSelector('#link-explorer[href="/explorer?line=f5"]');
    await page.click('#move-list button[data-ply="2"]');
    await page.waitForSelector('#link-explorer[href="/explorer?line=f5d6"]');
    await page.click('#link-explorer');
    await at(page, 'f5d6');
    assert.equal((await page.textContent('#explorer-title')).trim(), EXPLORER_TEXTS[lang]['ex.title']);
    const perpendicular = await checkTable(page, 'f5d6', lang);
    assert.ok(perpendicular.results.games > 10000, 'most games go through f5 d6');
    assert.match(await page.textContent('#explorer-root .explorer-opening'), /Perpendicular/);

    // A move of the table: c3, then one of the board: d3 (the Tiger's c4 is named).
    await page.click('#explorer-root tbody tr[data-square="c3"] a');
    await at(page, 'f5d6c3');
    await checkTable(page, 'f5d6c3', lang);
    await page.click('#explorer-board .cell[data-square="d3"]');
    await at(page, 'f5d6c3d3');
    await checkTable(page, 'f5d6c3d3', lang);
    const c4 = (await rows(page)).find((r) => r.square === 'c4');
    assert.equal(c4.opening, 'Tiger');
    await page.screenshot({ path: screenshotPath(`explorer-${lang === 'pt' ? 'phone-pt' : 'desktop-en'}.png`), fullPage: true });

    // Back to the start through the line: one move, the four first moves by symmetry.
    await page.click('#explorer-root .explorer-line a[href="/explorer"]');
    await at(page, '');
    const start = await checkTable(page, '', lang);
    assert.equal(start.moves.length, 1);
    const sameAs = await page.textContent('#explorer-root tbody tr .same-as');
    for (const sq of start.moves[0].same_as) assert.ok(sameAs.includes(sq), sameAs);
    // The browser's Back returns to the Tiger's position.
    await page.goBack();
    await at(page, 'f5d6c3d3');

    // The language switch phrases the page again without asking the server for another line.
    await page.click('#lang-btn');
    const other = lang === 'pt' ? 'en' : 'pt';
    await page.waitForFunction((title) => document.getElementById('explorer-title').textContent.trim() === title, EXPLORER_TEXTS[other]['ex.title']);
    await checkTable(page, 'f5d6c3d3', other);
    assert.deepEqual(page.consoleErrors, [], 'no script errors in the console');
    await context.close();
  });
}

test('a bad line in the address says what is wrong, in the page', { timeout: 60000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 1280, height: 860 });
  await page.goto(BASE_URL + '/explorer?line=f5f5');
  await page.waitForSelector('#explorer-root[data-state="error"]');
  assert.equal(await page.textContent('#explorer-root .explorer-status'), EXPLORER_TEXTS.en['ex.illegal'].replace('{square}', 'f5'));
  await page.goto(BASE_URL + '/explorer?line=' + 'f5d6'.repeat(11));
  await page.waitForSelector('#explorer-root[data-state="error"]');
  assert.equal(await page.textContent('#explorer-root .explorer-status'), EXPLORER_TEXTS.en['ex.badLine'].replace('{max}', '20'));
  await context.close();
});
