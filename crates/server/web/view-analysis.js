// The analysis panel: asks the server for a review of the game and draws it with analysis.js
// (loaded on first use, so the first page view stays light).

import { api } from './api.js';
import * as store from './store.js';
import { t } from './i18n.js';
import { errorText } from './notice.js';

const $ = (id) => document.getElementById(id);
let renderer = null; // analysis.js, once loaded

export function mountAnalysis({ onPly }) {
  store.subscribe((s, prev) => {
    if (s.analysis !== prev.analysis || s.lang !== prev.lang) draw(s, onPly);
  });
}

export async function openAnalysis() {
  const s = store.get();
  if (!s.game) return;
  const gameId = s.game.id;
  store.update({ analysis: { gameId, status: 'loading' } });
  $('analysis').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  const current = () => store.get().analysis && store.get().analysis.gameId === gameId;
  try {
    const [mod, data] = await Promise.all([import('./analysis.js'), api.analysis(gameId)]);
    renderer = mod;
    if (current()) store.update({ analysis: { gameId, status: 'ready', data } });
  } catch (e) {
    if (current()) store.update({ analysis: { gameId, status: 'failed', error: e } });
  }
}

function draw(s, onPly) {
  const a = s.analysis;
  $('analysis').hidden = !a;
  if (!a) return;
  const body = $('analysis-body');
  if (a.status === 'loading') body.textContent = t('analysis.loading');
  else if (a.status === 'failed') body.textContent = errorText(a.error);
  else if (renderer && s.game) renderer.renderAnalysis(body, a.data, s.game, { onPly });
}
