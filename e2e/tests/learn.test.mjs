// Learning (issue 40): the tutorial offered on a first visit and completed by clicking; a
// strategy lesson solved (a wrong move explained, then the answers); a mistake of a game studied
// in the analysis (the better line stepped on the board, the marks, the evaluation bar and the
// accuracy) and "try again from here"; the pages in pt-BR and on a phone (screenshots).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { browserForFile, newPage, screenshotPath, BASE_URL } from '../lib/browser.mjs';
import { open, newGame, boardString, goTo, ANALYSIS_WAIT } from '../lib/ui.mjs';
import { START, flips, legalMoves, play, idx, sq, replay } from '../lib/othello.mjs';

const LESSONS = JSON.parse(fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'crates', 'web', 'assets', 'learn', 'lessons.json'), 'utf8'));

const shared = browserForFile();

function checkClean(page) {
  // A square that is no move is refused by the server (422): the browser logs the answer.
  const errors = page.consoleErrors.filter((e) => !e.startsWith('Failed to load resource'));
  assert.deepEqual(errors, [], 'no script errors in the console');
}

/**
 * Clicks a square of the learning board. Before, it counts the messages the page says in
 * `#learn-feedback` (a mutation observer: every message replaces the element's text, even one
 * with the same words or class as the one before), so `feedback()` can wait for the answer.
 */
async function click(page, square) {
  page.saidBeforeClick = await page.evaluate(() => {
    const box = document.getElementById('learn-feedback');
    if (!box.said) {
      box.said = { n: 0 };
      new MutationObserver((records) => { box.said.n += records.length; }).observe(box, { childList: true });
    }
    return box.said.n;
  });
  await page.click(`#learn-board .cell[data-square="${square}"]`);
}

/** Waits for the message that answers the last click, checks its class, returns its text. */
async function feedback(page, cls) {
  const before = page.saidBeforeClick;
  assert.ok(before !== undefined, 'feedback() follows a click()');
  await page.waitForFunction((n) => {
    const box = document.getElementById('learn-feedback');
    return box.said !== undefined && box.said.n > n;
  }, before);
  const box = await page.$('#learn-feedback');
  const got = { cls: await box.getAttribute('class'), text: await box.textContent() };
  assert.ok(got.cls.split(/\s+/).includes(cls), `the answer is "${cls}": ${JSON.stringify(got)}`);
  return got.text;
}

/** Waits until the learning board shows step `n` ready for a move. */
async function atStep(page, n) {
  await page.waitForSelector(`#learn-board[data-step="${n}"][data-state="playing"]`);
  await page.waitForFunction(() => document.querySelectorAll('#learn-board .cell.black, #learn-board .cell.white').length > 0);
}

function mk(x, o) {
  const b = new Array(64).fill('-');
  for (const s of x) b[idx(s)] = 'X';
  for (const s of o) b[idx(s)] = 'O';
  return b.join('');
}

test('the tutorial is offered on a first visit and completed by clicking', { timeout: 90000 }, async () => {
  const { context, page } = await newPage(shared.browser);
  await open(page);
  await page.waitForSelector('#learn-offer:not([hidden])');
  await page.click('#learn-offer-start');
  await page.waitForURL(/\/learn\?tutorial/);

  // 1. Place and flip: f4 flips d4 and e4.
  await atStep(page, 1);
  const b1 = mk(['c4'], ['d4', 'e4']);
  assert.equal(await boardString(page, 'learn-board'), b1);
  assert.match(await page.getAttribute('#learn-board .cell[data-square="f4"]', 'data-mark'), /target/);
  await click(page, 'f4');
  assert.match(await feedback(page, 'ok'), /d4 and e4/);
  assert.equal(await boardString(page, 'learn-board'), play(b1, 'X', idx('f4')));
  await page.click('#learn-next');

  // 2. Several directions: h6 flips one line (wrong, explained), then d4 flips three.
  await atStep(page, 2);
  const b2 = mk(['b4', 'f4', 'd6'], ['c4', 'e4', 'd5', 'g5']);
  assert.equal(await boardString(page, 'learn-board'), b2);
  await click(page, 'h6');
  assert.match(await feedback(page, 'bad'), /only g5, in one direction/);
  await page.click('#learn-retry');
  await atStep(page, 2);
  assert.equal(await boardString(page, 'learn-board'), b2, 'the position is set again');
  // A square that flips nothing is refused by the rules, and said so.
  await click(page, 'a1');
  assert.match(await feedback(page, 'bad'), /a1 flips nothing/);
  await click(page, 'd4');
  assert.match(await feedback(page, 'ok'), /3 directions/);
  assert.equal(await boardString(page, 'learn-board'), play(b2, 'X', idx('d4')));
  assert.equal(flips(b2, 'X', idx('d4')).length, 3);
  await page.click('#learn-next');

  // 3. A square that flips nothing: c5 on the start, then a real move.
  await atStep(page, 3);
  assert.equal(await boardString(page, 'learn-board'), START);
  await click(page, 'c5');
  assert.match(await feedback(page, 'ok'), /c5 flips nothing/);
  await page.waitForSelector('#learn-board[data-phase="1"]');
  await click(page, 'd3');
  assert.match(await feedback(page, 'ok'), /d3 flips d4/);
  await page.click('#learn-next');

  // 4. A forced pass: after d4 White has no move; Black plays again.
  await atStep(page, 4);
  const b4 = mk(['c3', 'f6'], ['e3', 'c5', 'e5']);
  const after4 = play(b4, 'X', idx('d4'));
  assert.equal(legalMoves(after4, 'O').length, 0, 'White has no move (the model agrees)');
  await click(page, 'd4');
  assert.match(await feedback(page, 'ok'), /must pass/);
  await page.waitForSelector('#learn-board[data-phase="1"][data-turn="black"]');
  await click(page, legalMoves(after4, 'X').map(sq)[0]);
  assert.match(await feedback(page, 'ok'), /never a choice/);
  await page.click('#learn-next');

  // 5. The end and the count: 4-1 on the board, 59 empty squares to the winner: 63-1.
  await atStep(page, 5);
  await click(page, 'd4');
  const end = await feedback(page, 'ok');
  assert.match(end, /59 empty squares/);
  assert.match(end, /63–1/);
  await page.screenshot({ path: screenshotPath('learn-tutorial-end.png') });
  await page.click('#learn-next');
  await page.waitForSelector('#learn-complete');
  assert.equal(await page.evaluate(() => localStorage.getItem('virada.tutorialDone')), '1');

  // Reachable from the menu at any time; the offer is not made twice.
  await page.click('#learn-menu');
  await page.waitForSelector('#learn-tutorial');
  await goTo(page, '/');
  await page.waitForSelector('#view-play:not([hidden])');
  assert.equal(await page.isVisible('#learn-offer'), false);
  await goTo(page, '/learn');
  await page.waitForSelector('#learn-tutorial');
  checkClean(page);
  await context.close();
});

test('a lesson: a move against the idea is explained, the answers are accepted, progress is kept', { timeout: 120000 }, async () => {
  const { context, page } = await newPage(shared.browser);
  await page.goto(BASE_URL + '/learn'); // the game board is hidden on this page
  const lesson = LESSONS.lessons.find((l) => l.id === 'corners');
  assert.ok(lesson && lesson.positions.length >= 5);
  await page.click('#lesson-corners');
  for (let i = 0; i < lesson.positions.length; i++) {
    const p = lesson.positions[i];
    await atStep(page, i + 1);
    const board = await boardString(page, 'learn-board');
    assert.equal(board, p.board, `${p.id} is shown`);
    if (i === 0) {
      // A legal move that is not an answer: refused with the reason and the engine's figure.
      const wrong = Object.keys(p.moves).find((m) => !p.answers.includes(m));
      await click(page, wrong);
      const text = await feedback(page, 'bad');
      assert.ok(text.includes(wrong) && /loses/.test(text), text);
      // The words are the file's, written and checked for that move (tests/it/lesson_walk.rs).
      assert.equal(text, 'Not this one. ' + p.moves[wrong].text.en);
      // A language switch mid-lesson: the feedback, the side to move and the source follow.
      await page.click('#lang-btn');
      await page.waitForFunction(() => document.documentElement.lang === 'pt-BR');
      const pt = 'Esta não. ' + p.moves[wrong].text.pt;
      await page.waitForFunction((want) => document.getElementById('learn-feedback').textContent === want, pt);
      const task = await page.textContent('#learn-task');
      assert.match(task, /^Vez do (Preto|Branco)/);
      assert.doesNotMatch(task, /Black|White/);
      const source = await page.textContent('.learn-panel .muted.small');
      assert.match(source, /^De uma partida de torneio \(WTHOR \d{4}, partida \d+, antes da jogada \d+\)\.$/);
      await page.click('#lang-btn');
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      assert.match(await page.textContent('#learn-task'), /^(Black|White) to move: you play (Black|White)\./);
      await page.click('#learn-retry');
      await atStep(page, 1);
      await page.screenshot({ path: screenshotPath('learn-lesson.png') });
    }
    await click(page, p.answers[0]);
    const ok = await feedback(page, 'ok');
    assert.match(ok, /corner/);
    assert.equal(ok, 'Right! ' + p.moves[p.answers[0]].text.en);
    const color = p.to_move === 'black' ? 'X' : 'O';
    assert.equal(await boardString(page, 'learn-board'), play(p.board, color, idx(p.answers[0])));
    await page.click('#learn-next');
  }
  await page.waitForSelector('#learn-complete');
  assert.match(await page.textContent('#learn-complete'), new RegExp(`${lesson.positions.length - 1} of ${lesson.positions.length}`));
  await page.click('#learn-menu');
  await page.waitForSelector('#lesson-corners');
  const shown = await page.$eval('#lesson-corners', (b) => b.parentElement.textContent);
  assert.match(shown, new RegExp(`${lesson.positions.length - 1} of ${lesson.positions.length} solved`));
  // The progress survives a reload (this browser's storage).
  await page.reload();
  await page.waitForSelector('#lesson-corners');
  assert.match(await page.$eval('#lesson-corners', (b) => b.parentElement.textContent), /of \d+ solved/);
  checkClean(page);
  await context.close();
});

/** A game where each side plays its first legal move (a1..h8 order): full of mistakes. */
function naiveGame(plies) {
  let board = START;
  let color = 'X';
  let t = '';
  for (let k = 0; k < plies; k++) {
    let moves = legalMoves(board, color);
    if (!moves.length) { color = color === 'X' ? 'O' : 'X'; moves = legalMoves(board, color); }
    if (!moves.length) break;
    board = play(board, color, moves[0]);
    t += sq(moves[0]);
    color = color === 'X' ? 'O' : 'X';
  }
  return t;
}

test('analysis: a mistake studied on the board, its better line stepped, then "try again from here"', { timeout: 600000 }, async () => {
  const { context, page } = await newPage(shared.browser);
  await open(page);
  const transcript = naiveGame(30);
  await newGame(page, { mode: 'friend', start: 'setup', setup: transcript });
  await page.click('#btn-analyse');
  await page.waitForSelector('#analysis .graph', { timeout: ANALYSIS_WAIT });
  // Accuracy per player and the evaluation bar.
  const rows = await page.$$eval('#accuracy tr[data-color]', (trs) => trs.map((tr) => [tr.dataset.color, tr.querySelector('.mean-loss').textContent, tr.querySelector('.best-share').textContent]));
  assert.equal(rows.length, 2);
  for (const [, loss, share] of rows) {
    assert.match(loss, /^\d+(\.\d)? discs?$/);
    assert.match(share, /^\d+% \(\d+ of \d+\)$/);
  }
  assert.ok(await page.$('#evalbar[role="meter"]'));

  // The mistake with the longest better line.
  const game = await page.evaluate(() => fetch('/api/games/' + new URLSearchParams(location.search).get('game')).then((r) => r.json()));
  const data = await page.evaluate((id) => fetch(`/api/games/${id}/analysis`).then((r) => r.json()), game.id);
  const mistakes = data.plies.map((p, i) => ({ ...p, index: i })).filter((p) => p.move !== 'pass' && p.loss >= 2);
  assert.ok(mistakes.length > 0, 'the naive game has mistakes');
  const m = mistakes.reduce((a, b) => ((b.best_line || []).length > (a.best_line || []).length ? b : a));
  assert.ok((m.best_line || []).length >= 2, `a better line of 2 moves or more: ${JSON.stringify(m.best_line)}`);
  const label = await page.textContent(`#analysis button.mistake[data-ply="${m.index}"]`);
  assert.ok(label.startsWith(m.color === 'white' ? `${m.number}... ${m.move}` : `${m.number}. ${m.move}`), `numbered as the move list: ${label}`);

  await page.click(`#analysis button.mistake[data-ply="${m.index}"]`);
  await page.waitForSelector('#board[data-study="before"]');
  await boardInView(page, 'a mistake clicked in the analysis (desktop)');
  const before = m.index === 0 ? START : game.plies[m.index - 1].board;
  assert.equal(await boardString(page), before, 'the position before the mistake');
  assert.match(await page.getAttribute(`#board .cell[data-square="${m.move}"]`, 'data-mark'), /played/);
  assert.match(await page.getAttribute(`#board .cell[data-square="${m.best_move}"]`, 'data-mark'), /best/);
  const evalBefore = await page.getAttribute('#evalbar', 'data-value');
  const bestBlack = m.color === 'black' ? m.best_value : -m.best_value;
  assert.equal(Number(evalBefore), Math.round(bestBlack * 10) / 10);

  // The better line, step by step, agrees with the rules model.
  await page.waitForSelector('#study-forward:not([disabled])');
  let board = before;
  let color = m.color === 'black' ? 'X' : 'O';
  for (let k = 0; k < 2; k++) {
    if (!legalMoves(board, color).length) color = color === 'X' ? 'O' : 'X';
    board = play(board, color, idx(m.best_line[k]));
    color = color === 'X' ? 'O' : 'X';
    await page.click('#study-forward');
    await page.waitForSelector(`#board[data-study="line:${k + 1}"]`);
    assert.equal(await boardString(page), board, `after ${k + 1} moves of the better line`);
    assert.ok(await page.$(`#board .cell.last[data-square="${m.best_line[k]}"]`));
  }
  await page.screenshot({ path: screenshotPath('analysis-better-line.png') });
  await page.click('#study-back');
  await page.waitForSelector('#board[data-study="line:1"]');
  await page.click('#study-back');
  await page.waitForSelector('#board[data-study="before"]');

  // Each claim of the coach on the board it holds on (issue 53, item 3): that ply of its line,
  // its squares marked there, each a disc or a legal move there, or the empty square it is about.
  for (const [j, e] of (m.explanations || []).entries()) {
    await page.click(`#claim-${m.index}-${j}`);
    const want = e.at.line === 'before' ? 'before' : `${e.at.line === 'played' ? 'played' : 'line'}:${e.at.ply}`;
    await page.waitForSelector(`#board[data-study="${want}"]`);
    const shown = await boardString(page);
    for (const s of e.squares) {
      assert.match(await page.getAttribute(`#board .cell[data-square="${s}"]`, 'data-mark') || '', /coach/, `${s} is marked`);
    }
    const occupied = e.squares.filter((s) => shown[idx(s)] !== '-');
    if (!['mobility', 'parity', 'x_square', 'c_square', 'wedge', 'corner_given', 'wipeout_risk'].includes(e.kind)) {
      assert.deepEqual(occupied, e.squares, `${e.kind}: its squares hold discs on the board shown`);
    }
  }
  await page.click(`#analysis button.mistake[data-ply="${m.index}"]`);
  await page.waitForSelector('#board[data-study="before"]');

  // Try again from here: a game against the computer from the position before the mistake.
  const oldId = game.id;
  await page.click('#study-try');
  await page.waitForFunction((o) => {
    const id = new URLSearchParams(location.search).get('game');
    const b = document.getElementById('board');
    return id && id !== o && b.dataset.game === id && b.dataset.turn === 'human';
  }, oldId);
  assert.equal(await boardString(page), before);
  const fresh = await page.evaluate(() => fetch('/api/games/' + new URLSearchParams(location.search).get('game')).then((r) => r.json()));
  assert.equal(fresh.mode, 'computer');
  assert.equal(fresh.human_color, m.color);
  assert.equal(fresh.start.kind, 'setup');
  assert.equal(fresh.plies.length, 0);
  assert.deepEqual(fresh.legal_moves.sort(), legalMoves(before, m.color === 'black' ? 'X' : 'O').map(sq).sort());
  checkClean(page);
  await context.close();
});

test('pt-BR and phone: the learning page and the analysis in Portuguese at 390x844', { timeout: 600000 }, async () => {
  const { context, page } = await newPage(shared.browser, { width: 390, height: 844, isMobile: true, locale: 'pt-BR' });
  await open(page);
  await page.waitForSelector('#learn-offer:not([hidden])');
  assert.equal((await page.textContent('#learn-offer-start')).trim(), 'Um minuto para aprender');
  await page.screenshot({ path: screenshotPath('learn-offer-phone-pt.png') });
  await goTo(page, '/learn');
  await page.waitForSelector('#learn-tutorial');
  assert.match(await page.textContent('#view-learn h1'), /Aprender/);
  await page.screenshot({ path: screenshotPath('learn-menu-phone-pt.png'), fullPage: true });
  await page.click('#learn-tutorial');
  await atStep(page, 1);
  await click(page, 'f4');
  assert.match(await feedback(page, 'ok'), /viram pretas/);
  // The board fits the phone's width.
  const box = await page.$eval('#learn-board', (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right }; });
  assert.ok(box.left >= 0 && box.right <= 390, JSON.stringify(box));
  await page.screenshot({ path: screenshotPath('learn-tutorial-phone-pt.png'), fullPage: true });
  await page.click('#learn-back');
  await page.click('#lesson-mobility');
  await atStep(page, 1);
  const p = LESSONS.lessons.find((l) => l.id === 'mobility').positions[0];
  const wrong = Object.keys(p.moves).find((x) => !p.answers.includes(x));
  await click(page, wrong);
  const text = await feedback(page, 'bad');
  assert.match(text, /jogadas/);
  assert.doesNotMatch(text, /\d\.\d/, 'no decimal point in Portuguese');
  await page.screenshot({ path: screenshotPath('learn-lesson-phone-pt.png'), fullPage: true });

  // The analysis in Portuguese: comma decimals, "peças".
  await goTo(page, '/');
  await newGame(page, { mode: 'friend', start: 'setup', setup: naiveGame(24) });
  await page.click('#btn-analyse');
  await page.waitForSelector('#analysis .graph', { timeout: ANALYSIS_WAIT });
  const analysis = await page.textContent('#analysis');
  assert.match(analysis, /peças/);
  // Values and losses (the page's text runs items together, so "9." + "8 jogadas" is no number).
  assert.doesNotMatch(analysis, /(perdeu |por |[+−-])\d+\.\d/, 'no decimal point in Portuguese');
  assert.match(analysis, /perdeu \d+,\d/, 'comma decimals');
  // The last mistake listed, far down the page: the board sticks in view when it is clicked.
  const marks = await page.$$('#analysis button.mistake');
  assert.ok(marks.length > 0, 'the naive game has mistakes');
  await marks[marks.length - 1].scrollIntoViewIfNeeded();
  await marks[marks.length - 1].click();
  await page.waitForSelector('#board[data-study="before"]');
  await boardInView(page, 'a mistake clicked in the analysis (phone)');
  await page.$eval('#analysis', (el) => el.scrollIntoView());
  await page.screenshot({ path: screenshotPath('analysis-phone-pt.png'), fullPage: true });
  assert.equal(replay('').board, START);
  checkClean(page);
  await context.close();
});

/** The whole board is inside the window (after the page's scrolling settles). */
async function boardInView(page, what) {
  await page.waitForFunction(() => {
    const r = document.getElementById('board').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  }, null, { timeout: 5000 }).catch(async () => {
    const r = await page.$eval('#board', (b) => { const x = b.getBoundingClientRect(); return { top: x.top, bottom: x.bottom, height: window.innerHeight }; });
    assert.fail(`${what}: the board is out of view ${JSON.stringify(r)}`);
  });
}
