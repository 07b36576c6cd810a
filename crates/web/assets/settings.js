// @ts-check
// The person's display settings, remembered in this browser: the board's colours (three palettes
// and a high-contrast one), the speed of the flips, and sounds in games on this device. The
// dialog that changes them, and the list of keyboard shortcuts.

import { safeGet, safeSet } from './i18n.js';
import { $dialog, $form, controls, targetOf } from './dom.js';

const KEY = 'virada.settings';
export const PALETTES = ['green', 'blue', 'wood', 'contrast'];
/** Pause between two plies drawn one after another, per speed (0: drawn at once). */
const STEP_MS = { off: 0, fast: 180, normal: 380, slow: 700 };
const DEFAULTS = { palette: 'green', speed: 'normal', sounds: false };

let current = load();

function load() {
  let saved = {};
  try { saved = JSON.parse(safeGet(KEY) || '{}') || {}; } catch { saved = {}; }
  return {
    palette: PALETTES.includes(saved.palette) ? saved.palette : DEFAULTS.palette,
    speed: saved.speed in STEP_MS ? saved.speed : DEFAULTS.speed,
    sounds: saved.sounds === true,
  };
}

export function settings() { return current; }

/** The pause between plies drawn in turn; 0 when flips are off or the system asks for less motion. */
export function stepMs() {
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return 0;
  return STEP_MS[current.speed];
}

/** Whether flips and new discs are animated at all. */
export function animated() {
  return stepMs() > 0;
}

export function update(changes) {
  current = { ...current, ...changes };
  safeSet(KEY, JSON.stringify(current));
  apply();
}

/** The settings as attributes of the page: data-palette, and the flip's length for the CSS. */
export function apply() {
  const root = document.documentElement;
  if (current.palette === 'green') delete root.dataset.palette; else root.dataset.palette = current.palette;
  root.dataset.speed = current.speed;
  root.style.setProperty('--flip-ms', `${Math.round(STEP_MS[current.speed] * 1.1)}ms`);
}

/** Wires the settings dialog (opened by #settings-btn) and the shortcuts list (#keys-btn, "?"). */
export function mountSettings({ onChange }) {
  apply();
  const dialog = $dialog('settings-dialog');
  const form = $form('settings-form');
  const keys = $dialog('keys-dialog');
  const fill = () => {
    controls(form).palette.value = current.palette;
    controls(form).speed.value = current.speed;
    controls(form).sounds.checked = current.sounds;
  };
  document.getElementById('settings-btn').addEventListener('click', () => {
    fill();
    dialog.showModal();
  });
  form.addEventListener('change', () => {
    update({ palette: controls(form).palette.value, speed: controls(form).speed.value, sounds: controls(form).sounds.checked });
    onChange(current);
  });
  const openKeys = () => { if (!keys.open) keys.showModal(); };
  document.getElementById('keys-btn').addEventListener('click', openKeys);
  document.getElementById('settings-keys').addEventListener('click', () => { dialog.close(); openKeys(); });
  document.addEventListener('keydown', (ev) => {
    if (ev.key !== '?' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (targetOf(ev).tagName || '').toLowerCase();
    if (tag === 'input' || tag === 'textarea' || tag === 'select' || document.querySelector('dialog[open]')) return;
    ev.preventDefault();
    openKeys();
  });
}
