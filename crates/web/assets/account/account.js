// @ts-check
// The account dialog (header button "Sign in" / the username): sign in, create an account
// (its recovery code shown once), recover a password with the code, and when signed in the
// ratings, sign out, change password and delete. A change of who is signed in reloads the page:
// the games, lists and sockets then belong to the new identity (docs/API.md, "Accounts").

import './account-text.js';
import { api } from '../core/api.js';
import { t } from '../core/i18n.js';
import { errorText } from '../core/notice.js';
import { $button, $dialog, $form, controls } from '../core/dom.js';

const $ = (id) => document.getElementById(id);
let user = null;

/** The signed-in username, or null for a guest (known after `mountAccount` resolved). */
export function currentUser() {
  return user;
}

export async function mountAccount() {
  const dialog = $dialog('account-dialog');
  const guest = $('account-guest');
  $('account-btn').addEventListener('click', () => open());
  for (const b of dialog.querySelectorAll('.account-close')) b.addEventListener('click', () => dialog.close());
  guest.addEventListener('change', () => syncGuest());
  guest.addEventListener('submit', (ev) => {
    ev.preventDefault();
    submitGuest();
  });
  $('account-code-ok').addEventListener('click', () => location.reload());
  $('account-signout').addEventListener('click', async () => {
    try { await api.signOut(); } catch { /* signed out or not, the page starts again */ }
    location.reload();
  });
  $('account-change').addEventListener('submit', (ev) => {
    ev.preventDefault();
    changePassword();
  });
  $('account-delete').addEventListener('submit', (ev) => {
    ev.preventDefault();
    deleteAccount();
  });
  try {
    const s = await api.session();
    user = s && typeof s.username === 'string' ? s.username : null;
  } catch {
    user = null;
  }
  label();
}

/** The header button: the username, or "Sign in". */
export function label() {
  const el = $('account-label');
  if (user) {
    el.removeAttribute('data-i18n');
    el.textContent = user;
  } else {
    el.dataset.i18n = 'account.signIn';
    el.textContent = t('account.signIn');
  }
}

function open() {
  const dialog = $dialog('account-dialog');
  $('account-guest').hidden = !!user;
  $('account-user').hidden = !user;
  $('account-code').hidden = true;
  for (const id of ['account-error', 'account-change-msg', 'account-delete-msg']) $(id).textContent = '';
  if (user) showUser(); else syncGuest();
  if (!dialog.open) dialog.showModal();
}

function syncGuest() {
  const f = $form('account-guest');
  const what = controls(f).what.value;
  for (const el of f.querySelectorAll('.signup-only')) /** @type {HTMLElement} */ (el).hidden = what !== 'signup';
  /** @type {HTMLElement} */ (f.querySelector('.recover-only')).hidden = what !== 'recover';
  const pw = controls(f).password;
  pw.autocomplete = what === 'signin' ? 'current-password' : 'new-password';
  $('acc-password-label').textContent = t(what === 'recover' ? 'account.newPassword' : 'account.password');
  const submit = $button('account-submit');
  submit.dataset.i18n = { signin: 'account.signIn', signup: 'account.signUp', recover: 'account.recover' }[what];
  submit.textContent = t(submit.dataset.i18n);
}

async function submitGuest() {
  const f = $form('account-guest');
  const what = controls(f).what.value;
  const name = controls(f).username.value.trim();
  const password = controls(f).password.value;
  const err = $('account-error');
  err.textContent = '';
  const submit = $button('account-submit');
  submit.disabled = true;
  try {
    if (what === 'signin') {
      await api.signIn(name, password);
      location.reload();
      return;
    }
    const answer = what === 'signup'
      ? await api.signUp(name, password)
      : await api.recover(name, controls(f).code.value, password);
    // Signed in already; the code is shown once, then the page starts again as the account.
    f.hidden = true;
    $('account-code-text').textContent = answer.recovery_code;
    $('account-code').hidden = false;
    $('account-code-ok').focus();
  } catch (e) {
    err.textContent = errorText(e);
  } finally {
    submit.disabled = false;
  }
}

async function showUser() {
  $('account-who').textContent = t('account.signedInAs', { name: user });
  // The blocked players, each with unblock.
  import('./blocks.js').then((m) => m.renderBlockedList($('account-blocks')));
  const list = $('account-ratings');
  list.textContent = '';
  try {
    const p = await api.player(user);
    const entries = Object.entries(p.ratings || {});
    if (!entries.length) {
      const li = document.createElement('li');
      li.textContent = t('account.noRatings');
      list.append(li);
    }
    for (const [category, r] of entries) {
      const li = document.createElement('li');
      li.textContent = t('account.rating', {
        category: t('rating.' + category),
        rating: Math.round(r.rating),
        rd: Math.round(r.deviation),
        games: r.games,
      }) + (r.provisional ? ' ' + t('account.provisional') : '');
      list.append(li);
    }
  } catch (e) {
    const li = document.createElement('li');
    li.textContent = errorText(e);
    list.append(li);
  }
}

async function changePassword() {
  const f = $form('account-change');
  const msg = $('account-change-msg');
  msg.textContent = '';
  try {
    await api.changePassword(controls(f).old.value, controls(f).new.value);
    f.reset();
    msg.textContent = t('account.changed');
  } catch (e) {
    msg.textContent = errorText(e);
  }
}

async function deleteAccount() {
  const f = $form('account-delete');
  const msg = $('account-delete-msg');
  msg.textContent = '';
  try {
    await api.deleteAccount(controls(f).password.value);
    location.reload();
  } catch (e) {
    msg.textContent = errorText(e);
  }
}
