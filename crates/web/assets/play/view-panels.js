// @ts-check
// Everything around the board drawn from the store: players and who moves, the status line
// (the computer's progress, the connection), the notice, the "viewing move n" banner, the game
// over box and the state of the buttons.

import * as store from '../core/store.js';
import { formatValue } from '../core/board.js';
import { lang, t, colorName } from '../core/i18n.js';
import { seatName, onlineStatus, onlineResult } from './view-online.js';
import { bdi } from '../core/bidi.js';
import { $button } from '../core/dom.js';

const $ = (id) => document.getElementById(id);

export function mountPanels() {
  const draw = (s) => {
    players(s);
    status(s);
    openingName(s);
    notice(s);
    gameOver(s);
    buttons(s);
  };
  store.subscribe(draw);
  draw(store.get());
}

/** A level's name in the current language ("3 · Club player"). */
export function levelName(level, s = store.get()) {
  const l = s.levels.find((x) => x.level === level);
  const name = l && l.name ? l.name[lang()] || l.name.en : '';
  if (!name) return String(level);
  return name.includes(String(level)) ? name : `${level} · ${name}`;
}

function players(s) {
  const g = s.game;
  for (const color of ['black', 'white']) {
    const box = $('player-' + color);
    let who = '';
    if (!s.gameId) who = color === 'black' ? t('player.you') : t('player.computer');
    else if (store.isOnline(g)) {
      const name = seatName(s, color);
      who = name || t('online.freeSeat');
      if (store.mySeat(g) === color) who += ' · ' + t('online.you');
    } else if (g && g.mode === 'computer') {
      who = g.human_color === color ? t('player.you') : `${t('player.computer')}${g.level ? ' · ' + levelName(g.level, s) : ''}`;
    } else if (g && g.record) {
      // A game record: the players it names, else which side.
      who = g.record[color] || colorName(color);
    } else if (g) {
      // Two people at this device.
      who = t(color === 'black' ? 'player.first' : 'player.second');
    }
    const whoEl = box.querySelector('.pwho');
    const typed = s.gameId && store.isOnline(g) ? seatName(s, color)
      : g && g.record && g.record[color] ? g.record[color] : '';
    if (whoEl.textContent !== who || (typed && !whoEl.querySelector('bdi'))) {
      // A seat's name is what someone typed: isolated in a <bdi>.
      if (typed) whoEl.replaceChildren(bdi(typed), who.slice(typed.length));
      else whoEl.textContent = who;
    }
    box.classList.toggle('mine', !!g && store.mySeat(g) === color);
    const toMove = !s.gameId ? color === 'black' : !!g && s.viewPly === null && g.side_to_move === color;
    box.classList.toggle('to-move', toMove);
  }
}

function status(s) {
  const g = s.game;
  let text;
  if (!s.gameId) text = t('status.yourTurn', { color: colorName('black') });
  else if (!g) text = t('status.loading');
  else if (store.isOnline(g)) text = onlineStatus(s);
  else if (g.record) text = t('status.record');
  else if (g.status === 'finished') text = t('status.finished');
  else if (g.mode === 'friend') text = t('status.toMove', { color: colorName(g.side_to_move) });
  else if (store.isHumanTurn(g)) text = t('status.yourTurn', { color: colorName(g.side_to_move) });
  else text = t('status.computerTurn', { color: colorName(g.side_to_move) });
  setText('status-text', text);

  const thinking = !!(g && g.computer_thinking && s.connection === 'live');
  $('thinking').hidden = !thinking;
  let detail = t('status.thinking');
  if (thinking && s.thinking && s.thinking.best) {
    detail += ' ' + t('status.thinkingDetail', { depth: s.thinking.depth, best: s.thinking.best, value: formatValue(s.thinking.value) });
  }
  setText('thinking-text', detail);

  const offline = s.connection === 'reconnecting';
  $('connection').hidden = !offline;
  setText('connection-text', offline ? t('live.reconnecting') : '');

  $('view-banner').hidden = !g || s.viewPly === null;
  if (g && s.viewPly !== null) {
    setText('view-banner-text', s.viewPly === 0 ? t('status.viewingStart') : t('status.viewing', { ply: s.viewPly, total: g.plies.length }));
  }
}

/** The named opening the game has reached ("Opening: Rose" / "Abertura: Rose"). */
export function openingText(named) {
  if (!named || !named.name) return '';
  return t('opening.name', { name: named.name[lang()] || named.name.en });
}

function openingName(s) {
  const text = openingText(s.game && s.game.opening_name);
  const el = $('opening-name');
  el.hidden = !text;
  setText('opening-name', text);
}

function notice(s) {
  const n = $('notice');
  setText('notice', s.notice ? s.notice.text : '');
  n.classList.toggle('error', !!(s.notice && s.notice.error));
}

function gameOver(s) {
  const g = s.game;
  const online = store.isOnline(g) && g.status === 'finished';
  const show = !!(g && g.status === 'finished' && (g.result || online) && s.viewPly === null);
  $('gameover').hidden = !show;
  if (!show) return;
  const r = g.result;
  const res = online ? onlineResult(s) : null;
  $('gameover-score').hidden = !r;
  if (!r) {
    // An aborted online game has no result.
    setText('gameover-winner', res.winner);
    $('gameover-discs').hidden = true;
    return;
  }
  let winner;
  if (res) winner = res.winner;
  else if (!r.winner) winner = t('over.draw');
  else if (g.mode === 'computer') winner = r.winner === g.human_color ? t('over.youWin') : t('over.youLose');
  else winner = t('over.winner', { color: colorName(r.winner) });
  setText('gameover-winner', winner);
  const wipe = r.black_score === 64 || r.white_score === 64 ? ' · ' + t('over.wipeout') : '';
  setText('gameover-score', t('over.score', { black: r.black_score, white: r.white_score }) + wipe);
  $('gameover-discs').hidden = !r.wof_differs;
  setText('gameover-discs', r.wof_differs
    ? t('over.discs', { black: r.black_discs, white: r.white_discs, empties: 64 - r.black_discs - r.white_discs })
    : '');
}

function buttons(s) {
  const g = s.game;
  const thinking = !!(g && g.computer_thinking);
  const busy = s.awaiting !== null || s.connection !== 'live'; // the game shown may be out of date
  // Online games: no undo (takebacks are asked for), no engine help while the game goes on.
  const online = store.isOnline(g);
  for (const id of ['btn-undo', 'btn-redo', 'btn-hints', 'btn-paste']) $(id).hidden = online;
  // A clock's time cannot be given back, nor a resignation or a flag fall undone.
  const timed = !!(g && g.clocks);
  const forfeited = !!(g && g.end && g.end.reason !== 'normal');
  if (timed) for (const id of ['btn-undo', 'btn-redo']) $(id).hidden = true;
  // A record keeps its moves: nothing to undo or redo.
  if (g && g.record) for (const id of ['btn-undo', 'btn-redo']) $(id).hidden = true;
  $('btn-analyse').hidden = online && g.status !== 'finished';
  $button('btn-undo').disabled = !g || g.plies.length === 0 || busy || forfeited;
  $button('btn-redo').disabled = !g || !g.redo || g.redo.length === 0 || thinking || busy || forfeited;
  $('btn-hints').setAttribute('aria-pressed', String(s.hintsOn));
  $button('btn-analyse').disabled = !g || g.plies.length === 0;
  $button('btn-copy').disabled = !g;
  // An online game's own address already shows it to anyone; a local game shares a copy.
  $('btn-replay-link').hidden = online;
  $button('btn-replay-link').disabled = !g || g.plies.length === 0;
  const info = $('hint-info');
  info.hidden = !s.hintsOn;
  if (s.hintsOn) {
    const ready = s.hints && s.hints.key === store.hintKey(s);
    const fromBook = ready && [...s.hints.map.values()].some((m) => m.book);
    const legend = t('hint.legend') + (fromBook ? ' ' + t('hint.bookLegend') : '');
    setText('hint-info', ready || !store.canPlay(s) ? legend : t('hint.loading'));
  }
}

/** Sets text only when it changes, so live regions do not repeat themselves. */
function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}
