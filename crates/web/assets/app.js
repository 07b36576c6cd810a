// @ts-check
// Virada web app: start-up, routing between the pages, and the controls' wiring. State lives in
// store.js (the game comes from the live channel, live.js); views render from it (view-*.js).

import { api } from './core/api.js';
import * as store from './core/store.js';
import * as actions from './play/actions.js';
import { initLanguage, lang, setLanguage, t, translateDom, safeGet, safeSet } from './core/i18n.js';
import { NewGameDialog } from './play/dialog.js';
import { mountBoard } from './play/view-board.js';
import { mountPanels, levelName } from './play/view-panels.js';
import { mountMoves, copyTranscript } from './play/view-moves.js';
import { mountAnalysis, openAnalysis } from './play/view-analysis.js';
import { mountHints, toggleHints } from './play/hints.js';
import { setNotice, clearNotice, showError, mountPassNotices } from './core/notice.js';
import { mountOnline } from './play/view-online.js';
import { mountChat } from './play/view-chat.js';
import { mountClocks } from './play/clocks.js';
import { mountArenaBar } from './play/arena-bar.js';
import { mountAttention, refreshTitle } from './play/attention.js';
import { mountSettings } from './core/settings.js';
import { replayLink, openGameText, MAX_TEXT } from './play/share.js';
import { mountWthor, openWthorFile, isWthorFile, fill as fillWthor, MAX_WTHOR } from './play/wthor.js';
import { mountAccount } from './account/account.js';
import { mountSafety } from './account/safety.js';

import { renderMyGames, hideMyGames } from './games/mygames.js';
import { mountLeaveGuard, mayLeave } from './play/leave-guard.js';
import { mountBadge } from './watch/badge.js';
import './lobby/lobby-text.js';
import './arena/arena-text.js';
import './explorer/explorer-text.js';
import { $input, targetOf } from './core/dom.js';

const $ = (id) => document.getElementById(id);
let dialog;
let typed = ''; // first letter of a square being typed outside the board
let lobbyShown = false; // the lobby page follows its socket while shown

function init() {
  store.update({ lang: initLanguage(), showLegal: safeGet('virada.legal') !== 'off' });
  applyTheme(safeGet('virada.theme'));
  translateDom();
  dialog = new NewGameDialog($('new-dialog'), {
    levels: () => store.get().levels,
    onCreated: (game) => {
      clearNotice();
      actions.showGame(game.id);
      navigate('/', true);
    },
  });
  const playSquare = (square) => actions.play(square, () => dialog.defaults());
  mountBoard($('board-root'), { onPlay: playSquare });
  mountPanels();
  mountMoves({ onPly: actions.viewPly });
  mountAnalysis({
    onPly: actions.viewPly,
    level: () => dialog.defaults().level || 5,
    // "Try again from here": a new game against the computer from a studied mistake.
    tryAgain: async (options) => {
      clearNotice();
      await actions.createGame(options);
      navigate('/', true);
    },
    // "Practise these mistakes": the practice set opens on the learning page.
    navigate: (path) => navigate(path),
  });
  mountHints();
  mountPassNotices();
  mountOnline({ openGame: (id) => openGame(id) });
  mountChat();
  mountClocks();
  mountArenaBar({ navigate });
  mountAttention();
  // A new palette or speed redraws nothing by itself: the CSS follows the page's attributes.
  mountSettings({ onChange: () => {} });
  mountWthor();
  mountAccount().finally(() => mountSafety());
  mountLeaveGuard();
  // The badge opens my other live game; leaving a live one for it asks first.
  mountBadge({ openGame: async (id) => { if (await mayLeave()) openGame(id); } });
  store.subscribe((s, prev) => {
    // The address names the game shown, so a reload or a shared link opens it again.
    if (s.gameId !== prev.gameId && s.route === '/') {
      const url = s.gameId ? '/?game=' + encodeURIComponent(s.gameId) : '/';
      if (url !== location.pathname + location.search) history.replaceState(null, '', url);
    }
    if (s.lang === prev.lang) return;
    translateDom();
    applyTheme(document.documentElement.dataset.theme);
    dialog.fillLevels();
    fillWthor();
    if (s.route !== '/') showPage(s.route);
  });
  $input('chk-legal').checked = store.get().showLegal;
  wireControls(playSquare);
  api.levels().then((levels) => {
    store.update({ levels: Array.isArray(levels) ? levels : [] });
    dialog.fillLevels();
  }).catch(() => {});
  window.addEventListener('popstate', () => routeFromLocation());
  routeFromLocation(true);
  offerTutorial();
}

/**
 * A first visit (nothing remembered) gets the tutorial offered beside the board, once; the
 * tutorial stays in the menu ("Learn"). The offer goes away when a game is shown.
 */
function offerTutorial() {
  const box = $('learn-offer');
  if (safeGet('virada.tutorialOffered') || safeGet('virada.tutorialDone') || store.get().gameId) return;
  safeSet('virada.tutorialOffered', '1');
  box.hidden = false;
  $('learn-offer-no').addEventListener('click', () => { box.hidden = true; });
  box.querySelector('a').addEventListener('click', () => { box.hidden = true; });
  const off = store.subscribe((s) => {
    if (s.gameId) { box.hidden = true; off(); }
  });
}

function wireControls(playSquare) {
  // The skip link takes the keyboard to the board (its square that takes the focus) when the play
  // page is shown, else to the page's main part.
  document.querySelector('.skip-link').addEventListener('click', (ev) => {
    ev.preventDefault();
    const cell = $('view-play').hidden ? null : /** @type {HTMLElement | null} */ (document.querySelector('#board .cell[tabindex="0"]'));
    (cell || $('main')).focus();
  });
  document.addEventListener('click', (ev) => {
    const a = /** @type {HTMLAnchorElement | null} */ (targetOf(ev).closest('a[data-route]'));
    if (a && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey) {
      ev.preventDefault();
      const to = a.dataset.route;
      // Another page while my live game is shown: ask first (the game stays reachable by the badge).
      if (store.get().route === '/' && to !== '/') mayLeave().then((ok) => { if (ok) navigate(to); });
      else navigate(to);
      return;
    }
    const act = /** @type {HTMLElement | null} */ (targetOf(ev).closest('[data-action]'));
    if (act && act.dataset.action === 'new') mayLeave().then((ok) => { if (ok) dialog.open(); });
    if (act && act.dataset.action === 'analyse') openAnalysis();
  });
  $('btn-undo').addEventListener('click', () => actions.undoRedo('undo'));
  $('btn-redo').addEventListener('click', () => actions.undoRedo('redo'));
  $('btn-hints').addEventListener('click', toggleHints);
  $('chk-legal').addEventListener('change', (ev) => {
    store.update({ showLegal: targetOf(ev).checked });
    safeSet('virada.legal', targetOf(ev).checked ? null : 'off');
  });
  $('btn-copy').addEventListener('click', async () => {
    const ok = await copyTranscript();
    setNotice(t(ok ? 'notice.copied' : 'notice.copyFailed'), !ok);
  });
  $('btn-paste').addEventListener('click', () => dialog.open({ start: 'setup' }));
  $('btn-replay-link').addEventListener('click', async () => {
    const g = store.get().game;
    if (!g) return;
    try {
      const link = await replayLink(g);
      await navigator.clipboard.writeText(link);
      setNotice(t('share.copied'));
    } catch {
      setNotice(t('notice.copyFailed'), true);
    }
  });
  $('file-open').addEventListener('change', async (ev) => {
    const file = targetOf(ev).files && targetOf(ev).files[0];
    targetOf(ev).value = ''; // the same file may be chosen again
    if (!file) return;
    // A WTHOR database (binary, many games) is read by the server, which lists its games.
    const head = await file.slice(0, 256).text();
    if (isWthorFile(file, head)) {
      if (file.size > MAX_WTHOR) { setNotice(t('wthor.tooLong'), true); return; }
      clearNotice();
      try {
        await openWthorFile(file, { onError: showError });
      } catch (e) {
        showError(e);
      }
      return;
    }
    if (file.size > MAX_TEXT) { setNotice(t('share.tooLong'), true); return; }
    const text = await file.text();
    clearNotice();
    try {
      await openGameText(text);
    } catch (e) {
      showError(e);
    }
  });
  $('back-to-game').addEventListener('click', () => actions.viewPly(null));
  // Phones: the sections are behind the menu button; a choice, Escape or a click elsewhere closes it.
  const bar = $('menu-btn').closest('.topbar');
  const setMenu = (open) => {
    bar.classList.toggle('menu-open', open);
    $('menu-btn').setAttribute('aria-expanded', String(open));
  };
  $('menu-btn').addEventListener('click', () => setMenu(!bar.classList.contains('menu-open')));
  const within = (ev, sel) => ev.target instanceof Element && !!ev.target.closest(sel);
  $('mainnav').addEventListener('click', (ev) => { if (within(ev, 'a')) setMenu(false); });
  document.addEventListener('click', (ev) => { if (!within(ev, '.topbar')) setMenu(false); });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && bar.classList.contains('menu-open')) { setMenu(false); $('menu-btn').focus(); }
  });
  $('lang-btn').addEventListener('click', () => {
    setLanguage(lang() === 'pt' ? 'en' : 'pt');
    store.update({ lang: lang() });
  });
  $('theme-btn').addEventListener('click', () => {
    const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
    safeSet('virada.theme', next);
    applyTheme(next);
  });
  document.addEventListener('keydown', (ev) => onKey(ev, playSquare));
}

/** Keys outside the board: type a square ("d3") to play it, arrows step through the moves. */
function onKey(ev, playSquare) {
  const s = store.get();
  if (s.route !== '/' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const tag = (targetOf(ev).tagName || '').toLowerCase();
  if (tag === 'input' || tag === 'textarea' || tag === 'select' || targetOf(ev).closest('dialog, .board')) return;
  const k = ev.key.toLowerCase();
  if (k.length === 1 && k >= 'a' && k <= 'h') { typed = k; return; }
  if (k.length === 1 && k >= '1' && k <= '8' && typed) {
    const square = typed + k;
    typed = '';
    playSquare(square);
    return;
  }
  typed = '';
  if (!s.game) return;
  const n = s.game.plies.length;
  const cur = store.shownPly(s);
  if (ev.key === 'ArrowLeft' && cur > 0) { actions.viewPly(cur - 1); ev.preventDefault(); }
  if (ev.key === 'ArrowRight' && cur < n) { actions.viewPly(cur + 1); ev.preventDefault(); }
}

// ---------------------------------------------------------------- theme

function effectiveTheme() {
  const set = document.documentElement.dataset.theme;
  if (set === 'dark' || set === 'light') return set;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function applyTheme(theme) {
  if (theme === 'dark' || theme === 'light') document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  const label = t(effectiveTheme() === 'dark' ? 'theme.light' : 'theme.dark');
  $('theme-btn').title = label;
  $('theme-btn').setAttribute('aria-label', label);
}

// ---------------------------------------------------------------- routing

function navigate(path, replace = false) {
  const id = store.get().gameId;
  const url = path === '/' && id ? '/?game=' + encodeURIComponent(id) : path;
  if (url !== location.pathname + location.search) {
    if (replace) history.replaceState(null, '', url); else history.pushState(null, '', url);
  }
  routeFromLocation();
}

/** Shows game `id` and puts it in the address (a new history entry: Back returns). */
function openGame(id) {
  history.pushState(null, '', '/?game=' + encodeURIComponent(id));
  actions.showGame(id);
  routeFromLocation();
}

/**
 * `/join/<token>`: a private link for another device of a seat holder. The token is redeemed
 * once (this browser then holds the seat too) and the address becomes the game's.
 */
async function redeemJoin(token) {
  history.replaceState(null, '', '/');
  try {
    const res = await api.join(token);
    history.replaceState(null, '', '/?game=' + encodeURIComponent(res.game));
    actions.showGame(res.game);
  } catch (e) {
    if (e.code === 'not_found' || e.status === 404 || e.status === 410) setNotice(t('online.joinInvalid'), true);
    else showError(e);
  }
}

function routeFromLocation(first = false) {
  const join = /^\/join\/([^/]+)\/?$/.exec(location.pathname);
  if (join) {
    redeemJoin(decodeURIComponent(join[1])); // the address is '/' from here on
    first = false; // not the last game: the one of the link is about to open
  }
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const arenas = path === '/arenas' || path.startsWith('/arenas/');
  // `/@/<name>`: a player's profile.
  const route = path === '/rules' || path === '/games' || path === '/learn' || path === '/lobby' || path === '/watch' || path === '/explorer' ? path : path.startsWith('/@/') ? '/@' : arenas ? '/arenas' : '/';
  store.update({ route });
  $('view-play').hidden = route !== '/';
  $('view-games').hidden = route !== '/games';
  $('view-rules').hidden = route !== '/rules';
  $('view-learn').hidden = route !== '/learn';
  $('view-explorer').hidden = route !== '/explorer';
  $('view-profile').hidden = route !== '/@';
  if (route !== '/games') hideMyGames();
  $('view-lobby').hidden = route !== '/lobby';
  if (route !== '/lobby' && lobbyShown) import('./lobby/lobby.js').then((m) => m.leaveLobby());
  lobbyShown = route === '/lobby';
  $('view-arenas').hidden = route !== '/arenas';
  $('view-watch').hidden = route !== '/watch';
  for (const a of document.querySelectorAll('.mainnav a')) {
    if (!(a instanceof HTMLElement)) continue;
    if (a.dataset.route === route) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  const replay = route === '/' ? new URLSearchParams(location.search).get('replay') : null;
  if (replay !== null) {
    // A replay link: the game text becomes a game of this browser, shown from its start.
    history.replaceState(null, '', '/');
    first = false;
    if (replay.length > MAX_TEXT) setNotice(t('share.tooLong'), true);
    else openGameText(replay).catch(showError);
  }
  if (route === '/') {
    const wanted = new URLSearchParams(location.search).get('game') || (first ? safeGet('virada.lastGame') : null);
    if (wanted && store.get().gameId !== wanted) actions.showGame(wanted);
  }
  showPage(route);
}

async function showPage(route) {
  if (route === '/rules') {
    const mod = await import('./learn/rules.js');
    $('rules-content').innerHTML = mod.rulesHtml(lang());
  } else if (route === '/learn') {
    const mod = await import('./learn/learn.js');
    await mod.renderLearn($('learn-root'), location.search, { navigate });
    return; // the page names itself (the lesson or step shown)
  } else if (route === '/explorer') {
    const mod = await import('./explorer/explorer.js');
    await mod.renderExplorer($('explorer-root'), location.search, { navigate });
    return; // the page names itself
  } else if (route === '/@') {
    let name = '';
    try { name = decodeURIComponent(location.pathname.slice(3).replace(/\/+$/, '')); } catch { /* a bad escape: no such player */ }
    const { renderProfile } = await import('./account/profile.js');
    await renderProfile($('profile-root'), name, { open: (id) => openGame(id) });
    return; // the page names itself (the player)
  } else if (route === '/lobby') {
    const mod = await import('./lobby/lobby.js');
    mod.renderLobby($('lobby-root'), {
      openGame: (id) => openGame(id),
      playComputer: async (level) => {
        clearNotice();
        try { await actions.createGame({ mode: 'computer', level }); navigate('/', true); } catch (e) { showError(e); }
      },
    });
    document.title = t('lobby.title') + ' · Virada';
    return;
  } else if (route === '/watch') {
    const mod = await import('./watch/watch.js');
    mod.renderWatch($('view-watch'), { openGame });
    return; // the page names itself
  } else if (route === '/arenas') {
    const mod = await import('./arena/arena.js');
    const path = location.pathname.replace(/\/+$/, '');
    await mod.renderArenas($('view-arenas'), path, { navigate, openGame });
    return; // the page names itself
  } else if (route === '/games') {
    // Signed in: the account's games from every device first.
    renderMyGames($('my-games'), { open: (id) => openGame(id), onError: showError });
    const mod = await import('./games/games.js');
    mod.renderGamesList($('view-games'), {
      levelName,
      open: (id) => openGame(id),
      deleted: actions.forget,
      onError: showError,
    });
  }
  if (route === '/') refreshTitle();
  else document.title = route === '/rules' ? t('nav.rules') + ' · Virada' : t('nav.games') + ' · Virada';
}

init();
