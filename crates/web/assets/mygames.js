// @ts-check
// "My games" for a signed-in player, on the saved-games page: the account's online games from
// every device, "your move" first (the nearest deadline first), then the other running games,
// then the finished ones. A move of an opponent in any of them arrives on the live channel
// (live.js, `your_move`): a notice says so (with the attention sound when it is on) and the list,
// if shown, is drawn again. No polling.

import './profile-text.js';
import { api } from './api.js';
import { t, lang } from './i18n.js';
import { setNotice, errorText } from './notice.js';
import { onOtherGame } from './live.js';
import { soundOn, beep } from './attention.js';
import { gameItem, signedInAs } from './profile.js';

const $ = (id) => document.getElementById(id);
let shown = null; // { root, ctx } while the list is on screen

function deadlineText(g) {
  if (!g.deadline || !g.time_control || g.time_control.kind !== 'correspondence') return null;
  const when = new Intl.DateTimeFormat(lang() === 'pt' ? 'pt-BR' : 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(g.deadline));
  return t('mine.deadline', { when });
}

function stateText(g) {
  if (g.phase === 'finished') return [t('mine.finished')];
  if (g.phase === 'waiting') return [t('mine.waiting')];
  const parts = [t(g.your_move ? 'mine.yourMove' : 'mine.theirMove')];
  const d = deadlineText(g);
  if (d) parts.push(d);
  return parts;
}

/** Draws "my games" into `root` (hidden for a guest). */
export async function renderMyGames(root, ctx) {
  const user = await signedInAs();
  root.hidden = !user;
  shown = user ? { root, ctx } : null;
  if (!user) return;
  const ul = root.querySelector('.game-list');
  const profile = root.querySelector('.my-profile');
  profile.href = '/@/' + encodeURIComponent(user);
  profile.dataset.route = profile.getAttribute('href');
  ul.setAttribute('aria-busy', 'true');
  try {
    const res = await api.myGames();
    ul.textContent = '';
    const games = (res && res.games) || [];
    if (!games.length) {
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = t('mine.empty');
      ul.append(li);
    }
    for (const g of games) ul.append(gameItem(g, { open: ctx.open, extra: stateText }));
  } catch (e) {
    ul.textContent = '';
    ctx.onError(e);
    const li = document.createElement('li');
    li.className = 'muted';
    li.textContent = errorText(e);
    ul.append(li);
  } finally {
    ul.removeAttribute('aria-busy');
  }
}

/** Stops redrawing the list (the page left). */
export function hideMyGames() {
  shown = null;
}

onOtherGame((msg) => {
  setNotice(t('mine.notice', { name: msg.opponent || '?' }));
  if (soundOn()) beep();
  if (shown && !shown.root.hidden && !$('view-games').hidden) renderMyGames(shown.root, shown.ctx);
});
