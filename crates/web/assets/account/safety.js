// @ts-check
// Safety on the game page: chat off (the account's setting, or this browser's for a guest, and
// the game's), blocking and reporting the opponent or one of their chat lines, the opponent's
// "chat is off"; the account's list of blocked players (with unblock); and the computer levels'
// ratings as bots for the new-game dialog. Blocking asks first and a report's reasons are
// chosen in the app's own dialog (core/ask.js), from the list the server checks.

import './safety-text.js';
import { apiRequest } from '../core/api.js';
import * as store from '../core/store.js';
import { t, safeGet, safeSet } from '../core/i18n.js';
import { currentUser } from './account.js';
import { setNotice, showError } from '../core/notice.js';
import { $input, targetOf } from '../core/dom.js';

const $ = (id) => document.getElementById(id);
const GUEST_KEY = 'virada.chatOff';
let bots = null;
let chatOff = safeGet(GUEST_KEY) === '1';
let blocked = new Set();
let sentFor = null; // the game whose chat setting was sent

/** Level `n`'s rating as a bot ({ rating, deviation }) in `category` (blitz by default), or null. */
export function botRating(level, category = 'blitz') {
  const b = bots && bots.find((x) => x.level === level);
  return b && b.ratings[category] ? b.ratings[category] : null;
}

/** The line under the level choice: the level's rating as a bot. */
export function botRatingText(level) {
  const r = botRating(level);
  return r ? t('bots.rating', { rating: Math.round(r.rating), rd: Math.round(r.deviation) }) : '';
}

/** Whether chat is off for this person (account setting or this browser's). */
export function isChatOff() { return chatOff; }

/** @param {GameView} g */
function opponent(g) {
  const mine = store.mySeat(g);
  if (!mine) return null;
  const other = mine === 'black' ? 'white' : 'black';
  const seat = g.online.seats && g.online.seats[other];
  return seat && seat.name ? { color: other, name: seat.name } : null;
}

/** @param {GameView} g */
async function sendGameSetting(g) {
  if (!store.mySeat(g)) return;
  try {
    await apiRequest('PUT', `/api/games/${encodeURIComponent(g.id)}/chat`, { off: chatOff });
  } catch (e) {
    showError(e);
  }
}

async function setChatOff(off) {
  chatOff = off;
  safeSet(GUEST_KEY, off ? '1' : '0');
  try {
    if (currentUser()) await apiRequest('PUT', '/api/account/settings', { chat_off: off });
    const g = store.get().game;
    if (store.isOnline(g)) await sendGameSetting(g);
  } catch (e) {
    showError(e);
  }
  draw(store.get());
}

async function report(name, game, line) {
  if (!currentUser()) return setNotice(t('safety.needAccount'), true);
  const { askReport } = await import('./report.js'); // the dialog is loaded when first needed
  const answer = await askReport(name);
  if (!answer) return;
  /** @type {{ player: string, reasons: string[], reason?: string, game?: string, chat_line?: number }} */
  const body = { player: name, reasons: answer.reasons };
  if (answer.details) body.reason = answer.details;
  if (game) body.game = game;
  if (line) body.chat_line = line;
  try {
    await apiRequest('POST', '/api/reports', body);
    setNotice(t('safety.reported'));
  } catch (e) {
    showError(e);
  }
}

async function toggleBlock(name) {
  if (!currentUser()) return setNotice(t('safety.needAccount'), true);
  const key = name.toLowerCase();
  try {
    if (blocked.has(key)) {
      await apiRequest('DELETE', `/api/account/blocks/${encodeURIComponent(name)}`);
      blocked.delete(key);
      setNotice(t('safety.unblocked', { name }));
    } else {
      const { askConfirm } = await import('../core/ask.js');
      const sure = await askConfirm({
        id: 'block-dialog',
        title: t('safety.block', { name }),
        text: t('safety.blockAsk', { name }),
        ok: t('safety.blockYes'),
        cancel: t('actions.cancel'),
        danger: true,
      });
      if (!sure) return;
      await apiRequest('POST', `/api/account/blocks/${encodeURIComponent(name)}`, {});
      blocked.add(key);
      setNotice(t('safety.blocked', { name }));
    }
  } catch (e) {
    showError(e);
  }
  draw(store.get());
}

function draw(s) {
  const g = s.game;
  const bar = $('safety-bar');
  if (!bar) return;
  const online = store.isOnline(g);
  bar.hidden = !online || !store.mySeat(g);
  $input('chat-off').checked = chatOff;
  const off = (online && g.online.chat_off) || {};
  const mine = online ? store.mySeat(g) : null;
  const other = mine && (mine === 'black' ? 'white' : 'black');
  const meOff = chatOff || (mine && off[mine]);
  $('chat-off-note').hidden = !online || !(meOff || (other && off[other]));
  $('chat-off-note').textContent = meOff ? t('safety.youChatOff') : t('safety.theyChatOff');
  // With chat off, neither the lines nor the form are shown.
  $('chat-lines').hidden = !!meOff;
  if (mine) $('chat-form').hidden = !!meOff;
  const opp = online ? opponent(g) : null;
  const signedIn = !!currentUser();
  for (const id of ['btn-block', 'btn-report']) $(id).hidden = !opp || !signedIn;
  if (opp) {
    $('btn-block').textContent = t(blocked.has(opp.name.toLowerCase()) ? 'safety.unblock' : 'safety.block', { name: opp.name });
    $('btn-report').textContent = t('safety.report', { name: opp.name });
  }
  // A report button on each of the opponent's lines.
  for (const li of $('chat-lines').querySelectorAll('li[data-n]')) {
    if (!opp || !signedIn || li.classList.contains('own') || li.querySelector('.chat-report')) continue;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'link-btn chat-report';
    b.textContent = '⚑';
    b.title = t('safety.reportLine');
    b.setAttribute('aria-label', t('safety.reportLine'));
    li.append(' ', b);
  }
}

/**
 * Block and report buttons for player `name` (a profile page, a lobby line) in `container`:
 * shown to a signed-in person other than `name`.
 */
export function playerSafetyButtons(container, name) {
  container.textContent = '';
  const me = currentUser();
  if (!me || me.toLowerCase() === String(name).toLowerCase()) return;
  const block = document.createElement('button');
  block.type = 'button';
  block.className = 'btn small';
  const label = () => { block.textContent = t(blocked.has(name.toLowerCase()) ? 'safety.unblock' : 'safety.block', { name }); };
  label();
  block.addEventListener('click', async () => { await toggleBlock(name); label(); });
  const rep = document.createElement('button');
  rep.type = 'button';
  rep.className = 'btn small';
  rep.textContent = t('safety.report', { name });
  rep.addEventListener('click', () => report(name, null, null));
  container.append(block, ' ', rep);
}

/**
 * The accounts blocked, as the account's list (account/blocks.js) read them: the buttons' labels
 * follow.
 * @param {string[]} names
 */
export function setBlocked(names) {
  blocked = new Set(names.map((n) => n.toLowerCase()));
  draw(store.get());
}

export async function mountSafety() {
  $('chat-off').addEventListener('change', (ev) => setChatOff(targetOf(ev).checked));
  $('btn-block').addEventListener('click', () => {
    const opp = opponent(store.get().game);
    if (opp) toggleBlock(opp.name);
  });
  $('btn-report').addEventListener('click', () => {
    const g = store.get().game;
    const opp = opponent(g);
    if (opp) report(opp.name, g.id, null);
  });
  $('chat-lines').addEventListener('click', (ev) => {
    const b = targetOf(ev).closest('.chat-report');
    if (!b) return;
    const g = store.get().game;
    const opp = opponent(g);
    const n = Number(b.closest('li').dataset.n);
    if (opp && Number.isInteger(n)) report(opp.name, g.id, n);
  });
  store.subscribe((s, prev) => {
    const g = s.game;
    if (store.isOnline(g) && store.mySeat(g) && sentFor !== g.id) {
      sentFor = g.id;
      // A guest's (or this browser's) setting is the game's too.
      if (chatOff) sendGameSetting(g);
    }
    if (s.game !== prev.game || s.chat !== prev.chat || s.lang !== prev.lang || s.connection !== prev.connection) draw(s);
  });
  try {
    const b = await apiRequest('GET', '/api/bots');
    bots = b.bots;
  } catch { bots = null; }
  if (currentUser()) {
    try {
      const [settings, list] = await Promise.all([apiRequest('GET', '/api/account/settings'), apiRequest('GET', '/api/account/blocks')]);
      chatOff = !!settings.chat_off;
      blocked = new Set(list.blocks.map((b) => b.username.toLowerCase()));
    } catch { /* signed out meanwhile */ }
  }
  draw(store.get());
}
