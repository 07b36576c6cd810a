// @ts-check
// Saved games: unfinished games to resume and finished games to review.

import { api } from './api.js';
import { lang, t, colorName } from './i18n.js';
import { setIsolated } from './bidi.js';

export async function renderGamesList(root, { levelName, open, deleted, onError }) {
  const lists = { ongoing: root.querySelector('#games-ongoing'), finished: root.querySelector('#games-finished') };
  for (const [status, ul] of Object.entries(lists)) {
    ul.setAttribute('aria-busy', 'true');
    try {
      const res = await api.listGames(status);
      fill(ul, (res && res.games) || [], status, { levelName, open, deleted, onError, root });
    } catch (e) {
      ul.textContent = '';
      onError(e);
    } finally {
      ul.removeAttribute('aria-busy');
    }
  }
}

function fill(ul, games, status, ctx) {
  ul.textContent = '';
  if (games.length === 0) {
    const li = document.createElement('li');
    li.className = 'muted';
    li.textContent = t('games.empty');
    ul.append(li);
    return;
  }
  const fmt = new Intl.DateTimeFormat(lang() === 'pt' ? 'pt-BR' : 'en', { dateStyle: 'medium', timeStyle: 'short' });
  for (const g of games) {
    const li = document.createElement('li');
    li.dataset.gameId = g.id;
    const meta = document.createElement('div');
    meta.className = 'meta';
    const title = document.createElement('strong');
    let opponent;
    if (g.mode === 'online') {
      // Online games: the two names when the list has them, and an "online" badge.
      // (The list answer may not carry the names: the game itself always does.)
      const seats = (g.online && g.online.seats) || {};
      const nm = (c) => (seats[c] && seats[c].name) || (typeof g[c + '_name'] === 'string' && g[c + '_name']) || '';
      opponent = nm('black') && nm('white') ? { key: 'games.online', params: { black: nm('black'), white: nm('white') } } : t('games.onlineGame');
      li.dataset.mode = 'online';
    } else if (g.mode === 'computer') {
      opponent = t('games.vsComputer', { level: ctx.levelName(g.level), color: colorName(g.human_color || 'black') });
    } else {
      opponent = t('games.vsFriend');
    }
    // Names people typed are isolated (<bdi>) inside the sentence.
    if (typeof opponent === 'string') title.textContent = opponent;
    else setIsolated(title, opponent.key, opponent.params, ['black', 'white']);
    if (g.mode === 'online') {
      const badge = document.createElement('span');
      badge.className = 'badge online';
      badge.textContent = t('games.onlineBadge');
      title.prepend(badge, ' ');
    }
    const info = document.createElement('small');
    const when = g.updated_at ? fmt.format(new Date(g.updated_at)) : '';
    let score = `● ${g.black_discs} – ${g.white_discs} ○`;
    if (g.result) score = `● ${g.result.black_score} – ${g.result.white_score} ○`;
    // Online games that did not end on the board say how they ended.
    if (g.end_reason && g.end_reason !== 'normal') score += ` (${t('games.end.' + g.end_reason)})`;
    const opening = g.opening_name ? ` · ${g.opening_name.name[lang()] || g.opening_name.name.en}` : '';
    info.textContent = `${when} · ${t('games.plies', { n: g.ply_count })} · ${score}${opening}`;
    meta.append(title, info);
    const openBtn = document.createElement('button');
    openBtn.type = 'button';
    openBtn.className = 'btn small primary';
    openBtn.textContent = status === 'ongoing' ? t('actions.resume') : t('actions.review');
    openBtn.addEventListener('click', () => ctx.open(g.id));
    const del = document.createElement('button');
    del.type = 'button';
    del.className = 'btn small';
    del.textContent = t('actions.delete');
    del.addEventListener('click', async () => {
      if (!window.confirm(t('games.confirmDelete'))) return;
      try {
        await api.deleteGame(g.id);
        li.remove();
        ctx.deleted(g.id);
      } catch (e) {
        ctx.onError(e);
      }
    });
    li.append(meta, openBtn, del);
    ul.append(li);
  }
}
