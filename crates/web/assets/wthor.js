// @ts-check
// Opening a WTHOR database file (.wtb, the French federation's binary format, many games a
// file): the server reads it (POST /api/wthor, nothing stored) and lists its games; the one
// picked opens like any game file, a game of this browser shown from its start, to step through
// and analyse.

import { api } from './api.js';
import { t } from './i18n.js';
import { openGameText } from './share.js';
import { $button, $dialog, $form, $input, $select } from './dom.js';

/** Largest WTHOR file the server reads (docs/SECURITY.md). */
export const MAX_WTHOR = 1024 * 1024;

const $ = (id) => document.getElementById(id);
let games = [];
let year = 0;
let fileName = '';

/** Whether a chosen file is a WTHOR game file: by its name, or a binary that is no text. */
export function isWthorFile(file, head) {
  return /\.wtb$/i.test(file.name) || (head && head.includes('\u0000'));
}

/** Sends the file to the server and shows its games to choose from; errors go to `onError`. */
export async function openWthorFile(file, { onError }) {
  const list = await api.wthorGames(await file.arrayBuffer());
  games = Array.isArray(list.games) ? list.games : [];
  year = list.year || 0;
  fileName = file.name;
  fill();
  const dialog = $dialog('wthor-dialog');
  $('wthor-error').textContent = '';
  $('wthor-form').onsubmit = async (ev) => {
    ev.preventDefault();
    const g = games.find((x) => String(x.number) === $input('wthor-list').value);
    if (!g || !g.transcript) return;
    try {
      dialog.close();
      await openGameText(g.transcript);
    } catch (e) {
      onError(e);
    }
  };
  if (!dialog.open) dialog.showModal();
  $('wthor-list').focus();
}

/** One game's line: its number, the recorded score, the moves, the players' numbers. */
function gameLine(g) {
  const players = t('wthor.players', { black: g.black_player, white: g.white_player });
  if (!g.transcript) return t('wthor.broken', { n: g.number, players, ply: g.error_ply || 1 });
  return t('wthor.game', { n: g.number, players, black: g.black_score, white: 64 - g.black_score, moves: g.moves });
}

/** Fills the list (again when the language changes). */
export function fill() {
  const dialog = $dialog('wthor-dialog');
  if (!dialog) return;
  $('wthor-summary').textContent = t('wthor.summary', { file: fileName, count: games.length, year });
  const list = $select('wthor-list');
  list.size = Math.min(10, Math.max(4, games.length));
  const chosen = list.value;
  list.textContent = '';
  for (const g of games) {
    const o = document.createElement('option');
    o.value = String(g.number);
    o.textContent = gameLine(g);
    o.disabled = !g.transcript;
    list.append(o);
  }
  const first = games.find((g) => g.transcript);
  list.value = chosen && games.some((g) => String(g.number) === chosen) ? chosen : first ? String(first.number) : '';
  $button('wthor-open').disabled = !first;
}

/** Wires the dialog's own controls once. */
export function mountWthor() {
  const dialog = $dialog('wthor-dialog');
  $('wthor-cancel').addEventListener('click', () => dialog.close());
  // A double click or Enter on a game opens it, like the button.
  $('wthor-list').addEventListener('dblclick', () => $form('wthor-form').requestSubmit());
  $('wthor-list').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); $form('wthor-form').requestSubmit(); }
  });
}
