// @ts-check
// The parts of the play page only online games have: the waiting panel (invite link, copy,
// share), taking the free seat, the spectator line, the opponent's connection, takeback offers,
// the players' buttons (resign with a confirmation, abort, takeback, another device), the
// result's reason and the rematch. Resignation (with its confirmation) and the reason a game
// ended serve games on one device too. Everything is drawn from the store; actions go over the
// game's socket (actions.js, live.js).

import * as store from '../core/store.js';
import * as actions from './actions.js';
import { t, colorName, safeSet, signedRating } from '../core/i18n.js';
import { savedName, validName, NAME_KEY } from './dialog.js';
import { setNotice } from '../core/notice.js';
import { setIsolated } from '../core/bidi.js';
import { api } from '../core/api.js';
import { $button, $input } from '../core/dom.js';

const $ = (id) => document.getElementById(id);
const other = (c) => (c === 'black' ? 'white' : 'black');

/** The display name of seat `color` ('' when free). */
export function seatName(s, color) {
  const seats = store.seats(s);
  const seat = seats && seats[color];
  return (seat && seat.taken && seat.name) || '';
}

/** A seat's name, or its colour when it has none. */
export function nameOr(s, color) {
  return seatName(s, color) || colorName(color);
}

/** "3+2", "no clock", "3 days per move". */
export function timeControlText(tc) {
  if (!tc || tc.kind === 'none') return t('tc.showNone');
  if (tc.kind === 'correspondence') return t('tc.showDays', { days: tc.days });
  return t('tc.showClock', { minutes: tc.minutes, increment: tc.increment_seconds });
}

/** The status line of an online game. */
export function onlineStatus(s) {
  const g = s.game;
  const phase = g.online.phase;
  if (phase === 'waiting') return store.mySeat(g) ? t('online.waiting') : t('online.seatFree');
  if (g.status === 'finished' || phase === 'finished') return t('status.finished');
  if (store.isHumanTurn(g)) return t('status.yourTurn', { color: colorName(g.side_to_move) });
  return t('online.toMove', { name: nameOr(s, g.side_to_move), color: colorName(g.side_to_move) });
}

/** The game-over panel's texts for an online game: { winner, reason, aborted }. */
export function onlineResult(s) {
  const g = s.game;
  const end = g.online.end;
  const mine = store.mySeat(g);
  if (end && end.reason === 'abort') return { winner: t('over.aborted'), reason: '', aborted: true };
  const r = g.result;
  let winner = t('over.draw');
  if (r && r.winner) {
    if (mine) winner = r.winner === mine ? t('over.youWin') : t('over.youLoseOnline', { name: nameOr(s, r.winner) });
    else winner = t('over.nameWins', { name: nameOr(s, r.winner) });
  }
  let reason = '';
  if (end && end.loser && ['time', 'resign', 'deadline'].includes(end.reason)) {
    reason = t('over.reason.' + end.reason, { name: nameOr(s, end.loser) });
  }
  return { winner, reason, aborted: false };
}

export function mountOnline({ openGame }) {
  wire();
  const followed = new Set(); // rematch games this page has already gone to
  store.subscribe((s, prev) => {
    draw(s);
    const g = s.game;
    const next = store.isOnline(g) && g.online.rematch_game;
    if (next && next !== g.id && store.mySeat(g) && !followed.has(next)) {
      followed.add(next);
      openGame(next);
    }
    if (s.gameId !== prev.gameId) resetTransient();
  });
  // "left 2 minutes ago" grows while nothing else changes.
  setInterval(() => { if (store.isOnline(store.get().game)) draw(store.get()); }, 20000);
  draw(store.get());
}

function resetTransient() {
  $('resign-confirm').hidden = true;
  $('btn-resign').hidden = false;
  $('device-box').hidden = true;
  $input('device-link').value = '';
}

function wire() {
  $('btn-copy-invite').addEventListener('click', () => copyField('invite-link'));
  $('btn-copy-device').addEventListener('click', () => copyField('device-link'));
  const share = $('btn-share');
  share.addEventListener('click', async () => {
    try {
      await navigator.share({ title: 'Virada', text: t('online.shareText'), url: $input('invite-link').value });
    } catch { /* the person closed the share sheet */ }
  });
  $('online-join').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const name = validName($input('join-name').value);
    if (!name) {
      setNotice(t('online.badName'), true);
      $('join-name').focus();
      return;
    }
    $button('btn-take-seat').disabled = true;
    const res = await actions.takeSeat(name);
    $button('btn-take-seat').disabled = false;
    if (res === 'seated') safeSet(NAME_KEY, name);
  });
  $('btn-resign').addEventListener('click', () => {
    $('btn-resign').hidden = true;
    $('resign-confirm').hidden = false;
    $('btn-resign-no').focus();
  });
  $('btn-resign-no').addEventListener('click', () => {
    resetTransient();
    $('btn-resign').focus();
  });
  $('btn-resign-yes').addEventListener('click', () => {
    actions.resign();
    resetTransient();
  });
  $('btn-abort').addEventListener('click', () => actions.onlineAct('abort'));
  $('btn-takeback').addEventListener('click', () => actions.onlineAct('takeback'));
  $('btn-offer-accept').addEventListener('click', () => actions.onlineAct('takeback_answer', { accept: true }));
  $('btn-offer-decline').addEventListener('click', () => actions.onlineAct('takeback_answer', { accept: false }));
  $('btn-rematch').addEventListener('click', () => {
    const s = store.get();
    const g = s.game;
    if (!store.isOnline(g)) return;
    const rematch = g.online.rematch_game;
    if (rematch && !store.mySeat(g)) { actions.showGame(rematch); return; }
    const offer = g.online.offers && g.online.offers.rematch;
    if (offer && offer !== store.mySeat(g)) actions.onlineSend({ type: 'rematch_answer', accept: true });
    else actions.onlineSend({ type: 'rematch' });
  });
  $('btn-rematch-decline').addEventListener('click', () => actions.onlineSend({ type: 'rematch_answer', accept: false }));
  $('btn-device').addEventListener('click', async () => {
    $button('btn-device').disabled = true;
    const url = await actions.deviceLink();
    $button('btn-device').disabled = false;
    if (!url) return;
    $input('device-link').value = url;
    $('device-box').hidden = false;
    $input('device-link').select();
  });
}

async function copyField(id) {
  const box = $input(id);
  let ok = false;
  try {
    await navigator.clipboard.writeText(box.value);
    ok = true;
  } catch {
    box.select();
    try { ok = document.execCommand('copy'); } catch { ok = false; }
  }
  setNotice(t(ok ? 'online.linkCopied' : 'notice.copyFailed'), !ok);
}

/** Who `color` is in a game on one device: "You" / "The computer" against it, else the colour. @param {GameView} g */
function localName(g, color) {
  if (g.mode === 'computer') return color === g.human_color ? t('local.you') : t('local.computer');
  return colorName(color);
}

/**
 * A rated game's end shows the player's new rating and its change, read from "my games" (the
 * end and the ratings are stored in one transaction, so the list has them once the end is
 * seen; read again a few times if another instance's write is not visible yet).
 */
let rating = { id: null, line: null };
function ratingChange(g, show) {
  const p = $('gameover-rating');
  if (!show) { p.hidden = true; return; }
  const paint = () => {
    const r = rating.line;
    p.hidden = !r;
    if (r) p.textContent = t('over.rating', { after: Math.round(r.after), change: signedRating(r.change) });
  };
  if (rating.id === g.id) { paint(); return; }
  rating = { id: g.id, line: null };
  paint();
  const look = (tries) => api.myGames().then((list) => {
    if (rating.id !== g.id) return;
    const line = ((list && list.games) || []).find((x) => x.id === g.id);
    if (line && line.rating) { rating.line = line.rating; paint(); }
    else if (tries > 1) setTimeout(() => look(tries - 1), 1000);
  }).catch(() => { /* no rating shown; the profile has it */ });
  look(5);
}

function draw(s) {
  const g = s.game;
  const on = store.isOnline(g);
  $('online').hidden = !on;
  $('gameover').classList.toggle('online', on);
  // A game on one device may be resigned too (the same button and confirmation).
  const local = !!g && !on && !g.record && (g.mode === 'computer' || g.mode === 'friend');
  const seated = on && !!store.mySeat(g) && g.online.phase !== 'finished' && g.status !== 'finished';
  $('online-controls').hidden = !(seated || (local && g.status === 'ongoing'));
  for (const color of ['black', 'white']) presenceDot(s, color);
  $('btn-device').hidden = !on;
  if (!on) {
    $('gameover-rating').hidden = true;
    for (const id of ['btn-abort', 'btn-takeback']) $(id).hidden = true;
    $('chk-sound').closest('label').hidden = true;
    $button('btn-resign').disabled = s.connection !== 'live' || s.awaiting !== null;
    // Why a game on one device ended, when the board did not end it.
    const end = local && g.status === 'finished' ? g.end : null;
    const why = end && end.loser && (end.reason === 'time' || end.reason === 'resign')
      ? t('over.reason.' + end.reason, { name: localName(g, end.loser) }) : '';
    $('gameover-reason').hidden = !why;
    setText('gameover-reason', why);
    $('rematch-status').hidden = true;
    $('btn-rematch').hidden = true;
    $('btn-rematch-decline').hidden = true;
    return;
  }
  const o = g.online;
  const mine = store.mySeat(g);
  const finished = o.phase === 'finished' || g.status === 'finished';
  const seats = store.seats(s) || {};
  const free = ['black', 'white'].find((c) => !(seats[c] && seats[c].taken));

  // Waiting for the opponent: the link to send (the seat holder who made the game).
  const waiting = o.phase === 'waiting' && !!mine;
  $('online-waiting').hidden = !waiting;
  if (waiting) {
    const url = new URL('/?game=' + encodeURIComponent(g.id), location.origin).href;
    if ($input('invite-link').value !== url) $input('invite-link').value = url;
    $('btn-share').hidden = typeof navigator.share !== 'function';
  }

  // A visitor while a seat is free: a name and "Take the seat".
  const joinable = !mine && !finished && !!free;
  $('online-join').hidden = !joinable;
  if (joinable) {
    const host = other(free);
    setIsolated($('join-text'), 'online.invited', { name: nameOr(s, host), tc: timeControlText(o.time_control), color: colorName(free) }, ['name']);
    const input = $input('join-name');
    if (!input.value && document.activeElement !== input) input.value = savedName();
  }

  // Time control and spectators (and, for a spectator, that they are one).
  const n = store.spectators(s);
  const watchers = t('online.spectators', { n });
  const parts = [t(o.rated ? 'online.rated' : 'online.casual'), timeControlText(o.time_control), watchers];
  if (!mine && !joinable) parts.unshift(t('online.watching'));
  setText('online-info', parts.join(' · '));
  $('online-info').dataset.spectators = String(n);

  // The opponent's connection.
  const opp = mine ? other(mine) : null;
  const oppSeat = opp && seats[opp];
  const showOpp = !!(oppSeat && oppSeat.taken);
  $('online-opponent').hidden = !showOpp;
  if (showOpp) {
    const [key, params] = presenceKey(nameOr(s, opp), oppSeat);
    setIsolated($('online-opponent'), key, params, ['name']);
    $('online-opponent').dataset.presence = oppSeat.presence || 'none';
  }

  // A takeback offer.
  const tb = o.offers && o.offers.takeback;
  const offerShown = !!(tb && mine && !finished);
  $('online-offer').hidden = !offerShown;
  if (offerShown) {
    const fromMe = tb === mine;
    setIsolated($('online-offer-text'), fromMe ? 'online.takebackSent' : 'online.takebackAsked', { name: nameOr(s, opp) }, ['name']);
    $('btn-offer-accept').hidden = fromMe;
    $('btn-offer-decline').hidden = fromMe;
    $('online-offer').dataset.from = fromMe ? 'me' : 'opponent';
  }

  // The players' buttons.
  const busy = s.connection !== 'live' || s.awaiting !== null;
  const playing = o.phase === 'playing' && !finished;
  $button('btn-resign').disabled = !playing || busy;
  // Abort (no result, unrated) until both sides have made a move, as on lichess.
  const moved = (c) => g.plies.some((p) => p.color === c && p.move !== 'pass');
  $('btn-abort').hidden = !(!!mine && !(moved('black') && moved('white')) && !finished);
  $button('btn-abort').disabled = busy;
  const tcKind = (o.time_control && o.time_control.kind) || 'none';
  const takebacks = tcKind === 'none' || tcKind === 'correspondence';
  $('btn-takeback').hidden = !takebacks || !playing;
  const myMoves = g.plies.some((p) => p.color === mine && p.move !== 'pass');
  $button('btn-takeback').disabled = busy || !!tb || !myMoves;
  $('chk-sound').closest('label').hidden = !mine;

  // After the game: why it ended, the rating change, and the rematch.
  ratingChange(g, finished && o.rated && !!mine);
  const result = finished ? onlineResult(s) : null;
  $('gameover-reason').hidden = !(result && result.reason);
  if (result) setText('gameover-reason', result.reason);
  const rm = o.offers && o.offers.rematch;
  const next = o.rematch_game;
  let status = '';
  let btn = false;
  let decline = false;
  if (finished && next && !mine) btn = true;
  else if (finished && mine && !next) {
    if (!rm) btn = true;
    else if (rm === mine) status = t('online.rematchSent', { name: nameOr(s, opp) });
    else { status = t('online.rematchOffered', { name: nameOr(s, opp) }); btn = true; decline = true; }
  }
  $('btn-rematch').hidden = !btn;
  $button('btn-rematch').disabled = s.connection !== 'live';
  setText('btn-rematch', next && !mine ? t('online.watchRematch') : decline ? t('online.acceptRematch') : t('online.rematch'));
  $('btn-rematch-decline').hidden = !decline;
  $('rematch-status').hidden = !status;
  setText('rematch-status', status);
}

function presenceDot(s, color) {
  const el = $('presence-' + color);
  const seats = store.seats(s);
  const seat = seats && seats[color];
  if (!seat || !seat.taken || !seat.presence || seat.presence === 'none') {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  el.dataset.presence = seat.presence;
  const label = t('online.presenceDot.' + (seat.presence === 'online' || seat.presence === 'reconnecting' ? seat.presence : 'left'));
  el.setAttribute('aria-label', label);
  el.title = label;
}

/** "Bia is online", "Bia is reconnecting…", "Bia left 2 min ago". */
/** The text key and params saying where the opponent `name` is (`seat.presence`). */
function presenceKey(name, seat) {
  if (seat.presence === 'online') return ['online.presenceOnline', { name }];
  if (seat.presence === 'reconnecting') return ['online.presenceReconnecting', { name }];
  const since = seat.since ? Date.parse(seat.since) : NaN;
  if (Number.isNaN(since)) return ['online.presenceLeftNow', { name }];
  const min = Math.floor((Date.now() - since) / 60000);
  if (min < 1) return ['online.presenceLeftNow', { name }];
  if (min < 120) return ['online.presenceLeft', { name, n: min }];
  return ['online.presenceLeftHours', { name, n: Math.floor(min / 60) }];
}

function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}
