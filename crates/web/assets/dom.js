// @ts-check
// Small DOM builders shared by the pages' modules.

/** A new `tag` element with class `cls` and text `text` (both optional). */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A `type="button"` button with class `cls`, text `text`, optional `id`, calling `onClick`. */
export function button(cls, text, id, onClick) {
  const b = el('button', cls, text);
  b.type = 'button';
  if (id) b.id = id;
  b.addEventListener('click', onClick);
  return b;
}

// The page's elements by id, as the kind index.html makes them (the type checker cannot read the
// HTML; these say it once). Each is `document.getElementById`, nothing more.

/** @param {string} id @returns {HTMLButtonElement} */
export const $button = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));
/** An `<input>` or `<textarea>` (`value`, `select()`, `checked`). @param {string} id @returns {HTMLInputElement} */
export const $input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {string} id @returns {HTMLSelectElement} */
export const $select = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));
/** @param {string} id @returns {HTMLDialogElement} */
export const $dialog = (id) => /** @type {HTMLDialogElement} */ (document.getElementById(id));
/** @param {string} id @returns {HTMLFormElement} */
export const $form = (id) => /** @type {HTMLFormElement} */ (document.getElementById(id));

/**
 * A form's controls by name (`controls(form).password.value`): `form.elements`, whose named
 * items the page knows to be inputs (a radio group's `RadioNodeList` has `value` too).
 * @param {HTMLFormElement} form
 * @returns {Record<string, HTMLInputElement>}
 */
export const controls = (form) => /** @type {any} */ (form.elements);

/** An event's target as an element (`closest`, `checked`...): listeners here are on elements. */
export const targetOf = (/** @type {Event} */ ev) => /** @type {HTMLInputElement} */ (ev.target);
