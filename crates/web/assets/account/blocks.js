// @ts-check
// The account dialog's list of blocked players, each with unblock (loaded when the dialog shows
// a signed-in account).

import { apiRequest } from '../core/api.js';
import { t } from '../core/i18n.js';
import { setNotice, showError, errorText } from '../core/notice.js';
import { el, button } from '../core/dom.js';
import { setBlocked } from './safety.js';

/**
 * The account's blocked players into `ul` (the account dialog), each with an unblock button;
 * "nobody" when there are none.
 * @param {HTMLElement} ul
 */
export async function renderBlockedList(ul) {
  ul.textContent = '';
  /** @type {{ blocks: { username: string, at: string }[] }} */
  let list;
  try {
    list = await apiRequest('GET', '/api/account/blocks');
  } catch (e) {
    ul.append(el('li', 'form-error', errorText(e)));
    return;
  }
  setBlocked(list.blocks.map((b) => b.username));
  if (!list.blocks.length) ul.append(el('li', 'muted', t('safety.noBlocks')));
  for (const b of list.blocks) {
    const li = el('li', 'blocked-player');
    li.dataset.name = b.username;
    li.append(el('span', '', b.username), ' ', button('btn small', t('safety.unblock', { name: b.username }), '', async () => {
      try {
        await apiRequest('DELETE', `/api/account/blocks/${encodeURIComponent(b.username)}`);
        setNotice(t('safety.unblocked', { name: b.username }));
      } catch (e) {
        showError(e);
      }
      await renderBlockedList(ul);
    }));
    ul.append(li);
  }
}
