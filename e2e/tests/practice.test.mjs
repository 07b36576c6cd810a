// Practice from your own mistakes (issue 53, item 5): an endgame of 8 empties played on one
// device with one big mistake (found and checked by the test's own exhaustive search, through
// lib/othello.mjs), analysed; "Practise these mistakes" opens the set on the learning page:
// the position before the mistake, the move played refused with its loss, the coach's words as
// the hint, a retry, a move the test's search says is within the margin accepted, the set's
// progress kept by the server for this guest browser and listed from the Learn page, then taken
// along to the account the browser signs up to. The review steps the played move's line beside
// the better line. English on a desktop, pt-BR on a phone; screenshots practice-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, boardString, goTo, ANALYSIS_WAIT } from '../lib/ui.mjs';
import { START, legalMoves, play, sq, idx, rng, other } from '../lib/othello.mjs';

const shared = browserForFile();

/** The final disc difference for `color` to move with best play (empties to the winner). */
function negamax(board, color) {
  const moves = legalMoves(board, color);
  if (!moves.length) {
    if (!legalMoves(board, other(color)).length) {
      let mine = 0;
      let theirs = 0;
      for (const ch of board) { if (ch === color) mine++; else if (ch === other(color)) theirs++; }
      const empties = 64 - mine - theirs;
      if (mine > theirs) mine += empties; else if (theirs > mine) theirs += empties;
      return mine - theirs;
    }
    return -negamax(board, other(color));
  }
  let best = -99;
  for (const i of moves) best = Math.max(best, -negamax(play(board, color, i), other(color)));
  return best;
}

/** Each legal move of `color` with its exact value. */
function values(board, color) {
  return legalMoves(board, color).map((i) => ({ move: sq(i), value: -negamax(play(board, color, i), other(color)) }));
}

/**
 * A position of 8 empties (from seeded random games) whose mover has a move losing 6 discs or
 * more; the game from there: that move, then the best moves of both sides to the end.
 */
function endgame() {
  for (let seed = 1; seed < 500; seed++) {
    const r = rng(seed);
    let board = START;
    let color = 'X';
    while (board.split('').filter((c) => c === '-').length > 8) {
      let moves = legalMoves(board, color);
      if (!moves.length) { color = other(color); moves = legalMoves(board, color); }
      if (!moves.length) break;
      board = play(board, color, moves[Math.floor(r() * moves.length)]);
      color = other(color);
    }
    if (board.split('').filter((c) => c === '-').length !== 8 || !legalMoves(board, color).length) continue;
    const v = values(board, color);
    const best = Math.max(...v.map((x) => x.value));
    const worst = v.reduce((a, b) => (b.value < a.value ? b : a));
    if (best - worst.value < 6) continue;
    const moves = [worst.move];
    let b = play(board, color, idx(worst.move));
    let c = other(color);
    for (;;) {
      if (!legalMoves(b, c).length) c = other(c);
      if (!legalMoves(b, c).length) break;
      const next = values(b, c).reduce((a, x) => (x.value > a.value ? x : a));
      moves.push(next.move);
      b = play(b, c, idx(next.move));
      c = other(c);
    }
    const accepted = v.filter((x) => x.value >= best - 1).map((x) => x.move).sort();
    return { board, color, moves, mistake: worst.move, loss: best - worst.value, accepted };
  }
  throw new Error('no seeded game reached such a position');
}

/** The game made through the API by this page's browser (its owner), then shown. */
async function makeGame(page, g) {
  const id = await page.evaluate(async ({ setup, moves }) => {
    const post = (path, body) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
    const game = await post('/api/games', { mode: 'friend', start: 'setup', setup });
    let ply = 0;
    for (const square of moves) {
      const after = await post(`/api/games/${game.id}/moves`, { square, ply });
      ply = after.plies.length;
    }
    return game.id;
  }, { setup: `${g.board} ${g.color}`, moves: g.moves });
  await open(page, `/?game=${id}`);
  // The game over on the board (every move made, passes included).
  await page.waitForFunction((gid) => {
    const b = document.getElementById('board');
    return b.dataset.game === gid && b.dataset.status === 'finished';
  }, id);
  return id;
}

/** Clicks a square of the learning board and waits for the answer of class `cls`. */
async function answer(page, square, cls) {
  const before = await page.evaluate(() => {
    const box = document.getElementById('learn-feedback');
    if (!box.said) {
      box.said = { n: 0 };
      new MutationObserver((records) => { box.said.n += records.length; }).observe(box, { childList: true });
    }
    return box.said.n;
  });
  await page.click(`#learn-board .cell[data-square="${square}"]`);
  await page.waitForFunction((n) => document.getElementById('learn-feedback').said.n > n, before);
  const got = { cls: await page.getAttribute('#learn-feedback', 'class'), text: await page.textContent('#learn-feedback') };
  assert.ok(got.cls.split(/\s+/).includes(cls), `the answer is "${cls}": ${JSON.stringify(got)}`);
  return got.text;
}

/**
 * The review steps the played move's line (the move, then the opponent's refutation) beside
 * the better line: each board checked against lib/othello.mjs.
 */
async function stepPlayedLine(page, g, name) {
  const id = await page.evaluate(() => new URLSearchParams(location.search).get('game'));
  const data = await page.evaluate((gid) => fetch(`/api/games/${gid}/analysis`).then((r) => r.json()), id);
  const m = data.plies[0];
  assert.equal(m.move, g.mistake);
  assert.equal(m.played_line[0], g.mistake);
  assert.ok(m.played_line.length >= 2, `the refutation follows the move: ${JSON.stringify(m.played_line)}`);
  await page.click('#analysis button.mistake[data-ply="0"]');
  await page.waitForSelector('#board[data-study="before"]');
  await page.click('#study-line-played');
  await page.waitForSelector('#study-line-played[aria-pressed="true"]');
  await page.waitForSelector('#study-forward:not([disabled])');
  let board = g.board;
  let color = g.color;
  const moves = m.played_line;
  for (let k = 0; k < Math.min(3, moves.length); k++) {
    // A pass in the line is a step of its own (the board stays).
    if (moves[k] !== 'pass') board = play(board, color, idx(moves[k]));
    color = other(color);
    await page.click('#study-forward');
    await page.waitForSelector(`#board[data-study="played:${k + 1}"]`);
    assert.equal(await boardString(page), board, `after ${k + 1} moves of the played line`);
  }
  assert.match(await page.textContent('#study-line'), new RegExp(`${g.mistake}`));
  await page.screenshot({ path: screenshotPath(`practice-review-played-line-${name}.png`), fullPage: true });
  // Back to the better line: it starts again from the position before the mistake.
  await page.click('#study-line-best');
  await page.waitForSelector('#board[data-study="before"]');
  assert.equal(await boardString(page), g.board);
}

async function practiseOnce(page, g, words) {
  await page.click('#btn-analyse');
  await page.waitForSelector('#analysis .graph', { timeout: ANALYSIS_WAIT });
  await stepPlayedLine(page, g, words.name);
  const side = g.color === 'X' ? 'black' : 'white';
  // Only the side that made the mistake is offered practice.
  assert.equal(await page.$(`#practice-${side === 'black' ? 'white' : 'black'}`), null);
  await page.click(`#practice-${side}`);
  await page.waitForFunction(() => new URLSearchParams(location.search).has('practice'), null, { timeout: ANALYSIS_WAIT });
  await page.waitForSelector('#learn-board[data-step="1"][data-state="playing"]');
  await page.waitForFunction(() => document.querySelectorAll('#learn-board .cell.black, #learn-board .cell.white').length > 0);
  // The position before the mistake, one position in the set.
  assert.equal(await boardString(page, 'learn-board'), g.board);
  assert.match(await page.textContent('#learn-counter'), words.counter);
  assert.match(await page.textContent('#learn-idea'), new RegExp(`${g.mistake}.*${g.loss}`));
  // The set the server keeps for this guest browser: what it accepted is what the test's
  // search says.
  const sets = () => page.evaluate(() => fetch('/api/practice').then((r) => r.json()));
  const kept = (await sets()).sets;
  assert.equal(kept.length, 1);
  assert.equal(kept[0].items.length, 1);
  assert.deepEqual([...kept[0].items[0].accepted].sort(), g.accepted);
  await page.screenshot({ path: screenshotPath(`practice-${words.name}-position.png`) });

  // The move played in the game: refused, with what it lost.
  const played = await answer(page, g.mistake, 'bad');
  assert.match(played, words.played);
  await page.click('#learn-retry');
  await page.waitForSelector('#learn-board[data-step="1"][data-state="playing"]');
  // The hint: the coach's words on this mistake (or the general advice when it has none).
  const hints = kept[0].items[0].hint.map((h) => h[words.lang]);
  await page.click('#learn-hint');
  if (hints.length) {
    await page.waitForFunction((want) => document.getElementById('learn-feedback').textContent === want, hints.join(' '));
  } else {
    await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('learn-feedback').textContent), words.noHint.source);
  }
  await page.screenshot({ path: screenshotPath(`practice-${words.name}-hint.png`) });
  // A move within the margin: accepted.
  const right = await answer(page, g.accepted[0], 'ok');
  assert.match(right, words.right);
  await page.click('#learn-next');
  await page.waitForSelector('#learn-complete');
  assert.match(await page.textContent('#learn-complete'), words.done);
  const after = await sets();
  assert.equal(after.signed_in, false);
  assert.deepEqual(after.sets[0].solved, [1]);

  // From the Learn page: the set is listed with its progress.
  await goTo(page, '/learn');
  await page.click('#learn-practice');
  await page.waitForSelector('#practice-list[data-state="ready"]');
  const row = await page.textContent(`#practice-list li[data-set="${kept[0].id}"]`);
  assert.match(row, words.listed);
  await page.screenshot({ path: screenshotPath(`practice-${words.name}-list.png`), fullPage: true });

  // Signed up from this browser, the set is the account's, progress included.
  const signUp = await page.evaluate((username) => fetch('/api/accounts', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'correct horse battery' }),
  }).then((r) => r.status), `learner_${words.lang}`);
  assert.equal(signUp, 201);
  const mine = await sets();
  assert.equal(mine.signed_in, true);
  assert.deepEqual(mine.sets.map((x) => [x.id, x.solved]), [[kept[0].id, [1]]]);
  await goTo(page, '/learn');
  await page.click('#learn-practice');
  await page.waitForSelector('#practice-list[data-state="ready"]');
  assert.match(await page.textContent(`#practice-list li[data-set="${kept[0].id}"]`), words.listed);
  assert.match(await page.textContent('#practice-kept'), words.account);
}

function checkClean(page) {
  const errors = page.consoleErrors.filter((e) => !e.startsWith('Failed to load resource'));
  assert.deepEqual(errors, [], 'no script errors in the console');
}

const g = endgame();

test('practice in English on a desktop: the mistake refused, the hint, a better move found, the set listed', { timeout: 700000 }, async () => {
  const { context, page } = await newPage(shared.browser);
  await open(page);
  await makeGame(page, g);
  await practiseOnce(page, g, {
    name: 'desktop-en', lang: 'en', counter: /Position 1 of 1/, played: /you played in the game: it lost \d+ discs/,
    noHint: /coach has no sentence/, right: /^Right! /, done: /1 of 1 found/, listed: /1 of 1 solved/, account: /Kept on your account/,
  });
  checkClean(page);
  await context.close();
});

test('practice in Portuguese on a phone (390x844)', { timeout: 700000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  await open(page);
  await makeGame(page, g);
  await practiseOnce(page, g, {
    name: 'phone-pt', lang: 'pt', counter: /Posição 1 de 1/, played: /você fez na partida: ela perdeu \d+ peças/,
    noHint: /treinador não tem uma frase/, right: /^Certo! /, done: /1 de 1 encontradas/, listed: /1 de 1 resolvidas/, account: /Guardados na sua conta/,
  });
  // The learning board is whole on the phone, without sideways scrolling.
  const wide = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(wide, 'no horizontal scrolling at 390 px');
  checkClean(page);
  await context.close();
});
