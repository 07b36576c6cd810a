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
