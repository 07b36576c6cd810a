// @ts-check
// The app's own question dialogs (never the browser's confirm or prompt): a yes/no question
// (`askConfirm`: leaving a live game, blocking a player) and a form whose answer is read when
// the person confirms (`askForm`: a report's reasons). Each makes its `<dialog>`, waits for the
// answer and removes it again; Escape or the cancel button answers no.

import { el, button } from './dom.js';

/**
 * Asks `text` (under the heading `title`); resolves true when `ok` is chosen.
 * @param {{ title: string, text: string, ok: string, cancel: string, danger?: boolean, id?: string }} q
 * @returns {Promise<boolean>}
 */
export function askConfirm(q) {
  return askForm({ ...q, body: [el('p', '', q.text)], read: () => true }).then((v) => v === true);
}

/**
 * A dialog with `body` (elements) and two buttons; resolves with `read()` when `ok` is chosen
 * (a `read` that returns a string shows it as the form's error and keeps the dialog open), or
 * null when cancelled.
 * @template T
 * @param {{ title: string, body: HTMLElement[], ok: string, cancel: string, danger?: boolean, id?: string,
 *           read: () => T | { error: string } }} q
 * @returns {Promise<T | null>}
 */
export function askForm(q) {
  return new Promise((resolve) => {
    const dialog = /** @type {HTMLDialogElement} */ (el('dialog', 'ask-dialog'));
    if (q.id) dialog.id = q.id;
    const heading = el('h2', '', q.title);
    heading.id = (q.id || 'ask') + '-title';
    dialog.setAttribute('aria-labelledby', heading.id);
    const form = el('form');
    const error = el('p', 'form-error');
    error.setAttribute('role', 'alert');
    let answer = /** @type {T | null} */ (null);
    const no = button('btn ask-no', q.cancel, '', () => dialog.close());
    const yes = el('button', 'btn ask-yes ' + (q.danger ? 'danger' : 'primary'), q.ok);
    /** @type {HTMLButtonElement} */ (yes).type = 'submit';
    const row = el('div', 'row-btns end');
    row.append(no, yes);
    form.append(...q.body, error, row);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const v = q.read();
      if (v && typeof v === 'object' && 'error' in v) {
        error.textContent = /** @type {{ error: string }} */ (v).error;
        return;
      }
      answer = /** @type {T} */ (v);
      dialog.close();
    });
    dialog.append(heading, form);
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(answer);
    });
    document.body.append(dialog);
    dialog.showModal();
    /** @type {HTMLElement} */ (q.danger ? no : yes).focus();
  });
}
