// The designer's pass (issue 43, item 5): every page and state in both themes and languages, on a
// desktop and a phone, photographed into screenshots/design/<name>.png (a fixed list, committed)
// and checked the way a designer would: nothing wider than the window, no text cut off, and
// every text readable against what is behind it (WCAG contrast: 4.5:1, 3:1 for large text).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserForFile, newPage, screenshotPath } from '../lib/browser.mjs';
import { open, newGame, clickFirstLegal, goTo, ANALYSIS_WAIT } from '../lib/ui.mjs';
import { createOnline } from '../lib/online.mjs';

// a1 Black, b1 White, Black to move: c1 ends the game (a wipe-out).
const ONE_MOVE_LEFT = 'XO' + '-'.repeat(62) + ' X';
// A .wtb of two games (header, then 68 bytes a game): d3c3b3d2e1d6d7e3f4 and f5d6c3d3c4.
function wtb() {
  const games = ['d3c3b3d2e1d6d7e3f4', 'f5d6c3d3c4'];
  const out = Buffer.alloc(16 + 68 * games.length);
  out.writeUInt32LE(games.length, 4);
  out.writeUInt16LE(2025, 10);
  out.writeUInt8(8, 12);
  games.forEach((g, n) => {
    out.writeUInt16LE(n + 1, 16 + 68 * n + 2);
    out.writeUInt16LE(n + 7, 16 + 68 * n + 4);
    out.writeUInt8(n === 0 ? 64 : 33, 16 + 68 * n + 6);
    for (let k = 0; k < g.length; k += 2) {
      const col = g.charCodeAt(k) - 96;
      const row = Number(g[k + 1]);
      out.writeUInt8(10 * row + col, 16 + 68 * n + 8 + k / 2);
    }
  });
  return out;
}

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844, isMobile: true };

const shared = browserForFile();
let dir;
const problems = [];
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'virada-screens-'));
  fs.writeFileSync(path.join(dir, 'WTH_2025.wtb'), wtb());
});
after(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A page in one theme and language (saved choices, as a returning visitor has them). */
async function themed(size, theme, lang) {
  const { context, page } = await newPage(shared.browser, { ...size, colorScheme: theme, locale: lang === 'pt' ? 'pt-BR' : 'en-US' });
  await context.addInitScript(([th, l]) => {
    localStorage.setItem('virada.theme', th);
    localStorage.setItem('virada.lang', l);
  }, [theme, lang]);
  return { context, page };
}

/** What a designer checks on a screen, run in the page: see the file's comment. */
function audit() {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth + 1) out.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${innerWidth}px window`);
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (fg, bg) => ({ r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a), b: fg.b * fg.a + bg.b * (1 - fg.a), a: 1 });
  const lum = (c) => {
    const f = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  // The colour behind an element: its ancestors' backgrounds laid over each other (a modal
  // dialog over the page's); null behind a picture or a see-through (disabled) control.
  const behind = (el) => {
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.push(e);
    let bg = { r: 255, g: 255, b: 255, a: 1 };
    for (const e of chain.reverse()) {
      const cs = getComputedStyle(e);
      if (cs.backgroundImage !== 'none' || Number(cs.opacity) < 1) return null;
      const c = parse(cs.backgroundColor);
      if (c && c.a > 0) bg = over(c, bg);
    }
    return bg;
  };
  const open = document.querySelector('dialog[open]');
  for (const el of (open || document.body).querySelectorAll('*')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest('[hidden], .visually-hidden, .board-wrap, .graph, option, .skip-link')) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none' || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    // Off screen, or hidden for the eye but read out (a 1px clipped heading).
    if (r.bottom < 0 || r.top > innerHeight || r.width <= 1 || r.height <= 1) continue;
    const text = el.textContent.trim().slice(0, 40);
    // Cut off: a one-line text wider than its box, without an ellipsis saying so.
    if (el.scrollWidth > el.clientWidth + 1 && cs.overflowX !== 'visible' && cs.textOverflow !== 'ellipsis' && el.tagName !== 'TEXTAREA' && el.tagName !== 'INPUT') {
      out.push(`cut off: <${el.tagName.toLowerCase()} class="${el.className}"> "${text}" (${el.scrollWidth} > ${el.clientWidth})`);
    }
    const fg = parse(cs.color);
    const bg = behind(el);
    if (!fg || !bg) continue;
    const c = over(fg, bg);
    const [hi, lo] = [lum(c), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (size >= 18.5 && Number(cs.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) out.push(`contrast ${ratio.toFixed(2)}: <${el.tagName.toLowerCase()} class="${el.className}"> "${text}" (${cs.color} on rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)}))`);
  }
  return out;
}

/** Photographs the window (CSS pixels) and audits it. */
async function shot(page, name) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  for (const p of await page.evaluate(audit)) problems.push(`${name}: ${p}`);
  await page.screenshot({ path: screenshotPath(`design/${name}.png`), scale: 'css' });
}

/** Every state of the play page and the other pages, in one theme, language and size. */
async function tour(size, theme, lang, states) {
  const tag = `${size === PHONE ? 'phone' : 'desktop'}-${theme}-${lang}`;
  const { context, page } = await themed(size, theme, lang);
  await open(page);
  if (states.includes('start')) await shot(page, `${tag}-start`);
  if (states.includes('hints')) {
    await newGame(page, { mode: 'computer', level: 'lowest', color: 'black' });
    await clickFirstLegal(page);
    await page.waitForSelector('#board[data-turn="human"]');
    await page.click('#btn-hints');
    await page.waitForSelector('#board .cell .hint:not(:empty)');
    await shot(page, `${tag}-hints`);
    await page.click('#btn-hints');
  }
  if (states.includes('analysis')) {
    await newGame(page, { mode: 'friend' });
    for (let i = 0; i < 12; i++) await clickFirstLegal(page);
    await page.click('#btn-analyse');
    await page.waitForSelector('#analysis-body svg', { timeout: ANALYSIS_WAIT });
    await page.$eval('#analysis', (el) => el.scrollIntoView());
    await shot(page, `${tag}-analysis`);
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  if (states.includes('gameover')) {
    await newGame(page, { mode: 'friend', start: 'setup', setup: ONE_MOVE_LEFT });
    await page.click('#board .cell[data-square="c1"]');
    await page.waitForSelector('#gameover:not([hidden])');
    await shot(page, `${tag}-gameover`);
  }
  if (states.includes('new')) {
    await page.click('#btn-new');
    await page.waitForSelector('#new-dialog[open]');
    await shot(page, `${tag}-new-game`);
    await page.click('#new-cancel');
  }
  if (states.includes('editor')) {
    await page.click('#btn-new');
    await page.waitForSelector('#new-dialog[open]');
    await page.check('#new-dialog input[name="start"][value="editor"]');
    await page.$eval('#new-dialog .editor-only', (el) => el.scrollIntoView());
    await shot(page, `${tag}-editor`);
    await page.click('#new-cancel');
  }
  if (states.includes('settings')) {
    await page.click('#settings-btn');
    await page.waitForSelector('#settings-dialog[open]');
    await shot(page, `${tag}-settings`);
    await page.keyboard.press('Escape');
  }
  if (states.includes('keys')) {
    await page.click('#keys-btn');
    await page.waitForSelector('#keys-dialog[open]');
    await shot(page, `${tag}-shortcuts`);
    await page.keyboard.press('Escape');
  }
  if (states.includes('wthor') && (await page.$('#wthor-dialog'))) {
    await page.setInputFiles('#file-open', path.join(dir, 'WTH_2025.wtb'));
    await page.waitForSelector('#wthor-dialog[open]');
    await shot(page, `${tag}-wthor`);
    await page.click('#wthor-cancel');
  }
  if (states.includes('online')) {
    await createOnline(page, { tc: '3+2', name: 'Ana' });
    await shot(page, `${tag}-online-waiting`);
  }
  if (states.includes('games')) {
    await goTo(page, '/games');
    await page.waitForSelector('#games-finished li');
    // The one-move game (the game over above) says "1 move", not "1 moves".
    const list = await page.textContent('#view-games');
    assert.match(list, lang === 'pt' ? / 1 jogada · / : / 1 move · /);
    assert.doesNotMatch(list, /\b1 (moves|jogadas)\b/);
    await shot(page, `${tag}-saved-games`);
  }
  if (states.includes('rules')) {
    await goTo(page, '/rules');
    await page.waitForSelector('#rules-content h1');
    await shot(page, `${tag}-rules`);
  }
  await context.close();
}

test('desktop, light, English', { timeout: 600000 }, async () => {
  await tour(DESKTOP, 'light', 'en', ['start', 'hints', 'analysis', 'gameover', 'new', 'settings', 'wthor', 'online', 'games']);
});

test('desktop, dark, Portuguese', { timeout: 600000 }, async () => {
  await tour(DESKTOP, 'dark', 'pt', ['start', 'hints', 'analysis', 'gameover', 'editor', 'keys', 'wthor', 'online', 'rules']);
});

test('phone, light, Portuguese', { timeout: 600000 }, async () => {
  await tour(PHONE, 'light', 'pt', ['start', 'hints', 'analysis', 'gameover', 'new', 'online', 'games']);
});

test('phone, dark, English', { timeout: 600000 }, async () => {
  await tour(PHONE, 'dark', 'en', ['start', 'analysis', 'gameover', 'editor', 'settings', 'wthor', 'rules']);
});

test('no screen has overflow, cut-off text or text too faint to read', () => {
  assert.deepEqual(problems, []);
});
