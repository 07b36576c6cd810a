// Launches Debian's headless Chromium through playwright-core, with the network quiet
// (no background services, no external hosts). playwright-core gives every launch a fresh
// temporary profile (--user-data-dir) and deletes it on close.
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';

export const BASE_URL = process.env.VIRADA_URL || 'http://127.0.0.1:8080';
export const SCREENSHOTS = process.env.VIRADA_SCREENSHOTS || path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'screenshots');

export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-default-apps', '--disable-extensions', '--metrics-recording-only',
    ],
  });
  const close = async () => {
    await browser.close().catch(() => {});
  };
  return { browser, close };
}

/**
 * One browser for a test file: launched before its first test and closed after its last
 * (`shared.browser`; the file may add its own `before`/`after` hooks beside these).
 */
export function browserForFile() {
  const shared = { browser: null };
  let close;
  before(async () => {
    ({ browser: shared.browser, close } = await launch());
  });
  after(async () => {
    if (close) await close();
  });
  return shared;
}

/**
 * A new page whose requests are all recorded (`page.requests`: method and path, in order); any
 * request leaving the origin of `base` (default BASE_URL) is noted in `page.external`.
 */
export async function newPage(browser, { width = 1280, height = 860, locale = 'en-US', colorScheme = 'light', reducedMotion = 'reduce', isMobile = false, base = BASE_URL } = {}) {
  const context = await browser.newContext({
    viewport: { width, height }, locale, colorScheme, reducedMotion, isMobile, hasTouch: isMobile,
    deviceScaleFactor: isMobile ? 2 : 1,
  });
  const page = await context.newPage();
  const origin = new URL(base).origin;
  page.external = [];
  page.requests = [];
  page.consoleErrors = [];
  // The live channel: each WebSocket opened (its path) and every message the page sent on it.
  page.sockets = [];
  page.sent = [];
  page.on('websocket', (ws) => {
    page.sockets.push(new URL(ws.url()).pathname);
    ws.on('framesent', (f) => {
      try { page.sent.push(JSON.parse(f.payload)); } catch { /* not JSON */ }
    });
  });
  page.on('request', (req) => {
    const u = req.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) page.external.push(u);
    else if (u.startsWith(origin)) page.requests.push({ method: req.method(), path: u.slice(origin.length) });
  });
  page.on('console', (msg) => { if (msg.type() === 'error') page.consoleErrors.push(msg.text()); });
  page.on('pageerror', (e) => page.consoleErrors.push(String(e)));
  return { context, page };
}

export function screenshotPath(name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return path.join(SCREENSHOTS, name);
}
