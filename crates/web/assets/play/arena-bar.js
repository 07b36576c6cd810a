// @ts-check
// The game page of an arena game: the arena's name, the time left in it and a link back
// (`GET /api/games/<id>/arena`, once per game shown), and the hand-over at the game's end: a
// player of the game is taken back to the arena's page, which opens their next game as soon as
// they are paired (or shows the standings while they wait or are paused).

import '../arena/arena-text.js';
import * as store from '../core/store.js';
import { t } from '../core/i18n.js';
import { carry } from '../arena/carry.js';

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** How long the finished game stays on show before the player is taken back to the arena. */
export const HAND_OVER_MS = 2500;

function remaining(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Mounts the bar; `navigate(path)` goes to a page of the app. */
export function mountArenaBar({ navigate }) {
  let gameId = null; // the game the arena was asked for
  let arena = null; // { id, name, ends_at_ms, starts_at_ms, skew } of the game shown, or null
  let tick = 0;
  let handOver = 0; // the timer taking the player back to the arena
  let handedFor = null; // the game whose end started it
  let sawPlaying = null; // the game last seen unfinished on this page

  const drawClock = () => {
    const clock = $('arena-bar-clock');
    if (!arena) return;
    const now = Date.now() - arena.skew;
    const text = now < arena.starts_at_ms ? t('arena.startsIn', { time: remaining(arena.starts_at_ms - now) })
      : now < arena.ends_at_ms ? t('arena.endsIn', { time: remaining(arena.ends_at_ms - now) })
      : t('arena.ended');
    if (clock.textContent !== text) clock.textContent = text;
    clock.dataset.ms = String(Math.max(0, Math.round(arena.ends_at_ms - now)));
  };

  const draw = () => {
    const bar = $('arena-bar');
    bar.hidden = !arena;
    clearInterval(tick);
    tick = 0;
    if (!arena) return;
    const link = /** @type {HTMLAnchorElement} */ ($('arena-bar-link'));
    link.textContent = arena.name;
    link.href = '/arenas/' + encodeURIComponent(arena.id);
    link.dataset.route = '/arenas/' + arena.id;
    const back = /** @type {HTMLAnchorElement} */ ($('arena-bar-back'));
    back.href = link.href;
    back.dataset.route = link.dataset.route;
    back.textContent = t('arena.backToArena');
    drawClock();
    tick = window.setInterval(drawClock, 1000);
  };

  const handOverIfOver = (s) => {
    const g = s.game;
    if (!arena || !g || g.id !== gameId || handedFor === g.id) return;
    const finished = g.status === 'finished' || (g.online && g.online.phase === 'finished');
    // Only an end seen while the page showed the game playing: a finished game opened later
    // (from the arena's list) stays on show.
    if (!finished) { sawPlaying = g.id; return; }
    if (sawPlaying !== g.id || !store.mySeat(g)) return;
    handedFor = g.id;
    const target = arena.id;
    $('arena-bar-next').hidden = false;
    $('arena-bar-next').textContent = t('arena.handOver');
    handOver = window.setTimeout(() => {
      handOver = 0;
      const now = store.get();
      // The player went elsewhere meanwhile: they stay there.
      if (now.route !== '/' || now.gameId !== g.id) return;
      carry.from = g.id;
      navigate('/arenas/' + target);
    }, HAND_OVER_MS);
  };

  const look = (id) => {
    gameId = id;
    arena = null;
    handedFor = null;
    clearTimeout(handOver);
    handOver = 0;
    $('arena-bar-next').hidden = true;
    draw();
    if (!id) return;
    fetch('/api/games/' + encodeURIComponent(id) + '/arena').then((r) => (r.ok ? r.json() : null)).then((body) => {
      const a = body && body.arena;
      if (gameId !== id || !a) return;
      arena = { id: a.id, name: a.name, starts_at_ms: a.starts_at_ms, ends_at_ms: a.ends_at_ms, skew: Date.now() - a.server_time_ms };
      draw();
      handOverIfOver(store.get());
    }).catch(() => { /* no bar: the game plays the same */ });
  };

  store.subscribe((s, prev) => {
    const g = s.game;
    // Only online games can be arena games; each game is asked about once.
    const id = g && store.isOnline(g) ? g.id : null;
    if (id !== gameId && (id || s.gameId !== gameId)) look(id);
    else if (s.game !== prev.game) handOverIfOver(s);
    if (s.lang !== prev.lang) draw();
  });
}
