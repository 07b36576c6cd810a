// @ts-check
// A live game is never lost by leaving: while this browser holds a seat in an online game being
// played with a clock (not untimed or correspondence, where nothing is lost by a while away),
// leaving it asks first: in the app (the menu's pages, "New game") with the app's own
// dialog, and when the tab is closed or reloaded with the browser's (`beforeunload`, whose text
// the browser writes).

import '../watch/badge-text.js';
import * as store from '../core/store.js';
import { t } from '../core/i18n.js';

/**
 * Whether the shown game is one of mine being played where leaving costs time.
 * @param {GameView | null | undefined} g
 */
export function isLiveForMe(g) {
  return !!(g && store.mySeat(g) && g.online.phase === 'playing' && g.online.time_control.kind === 'clock');
}

/**
 * Resolves true when leaving the page is fine: the play page does not show a game live for me
 * (another page already left it), or I say so.
 * @returns {Promise<boolean>}
 */
export async function mayLeave() {
  const s = store.get();
  if (s.route !== '/' || !isLiveForMe(s.game)) return true;
  const { askConfirm } = await import('../core/ask.js'); // loaded when first needed
  return askConfirm({
    id: 'leave-dialog',
    title: t('leave.title'),
    text: t('leave.text'),
    ok: t('leave.yes'),
    cancel: t('leave.stay'),
    danger: true,
  });
}

export function mountLeaveGuard() {
  window.addEventListener('beforeunload', (ev) => {
    if (!isLiveForMe(store.get().game)) return;
    ev.preventDefault();
    // Older browsers show the dialog only when a value is set.
    ev.returnValue = '';
  });
}
