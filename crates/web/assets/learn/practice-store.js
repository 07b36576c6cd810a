// @ts-check
// Where practice sets are kept: in the server's store (GET /api/practice, progress by POST
// /api/practice/{id}/solved), an account's or this guest browser's; a guest's become the
// account's at sign-up or sign-in, as its games do. Sets made before the server kept guests'
// stay in this browser (localStorage, at most MAX_GUEST_SETS) and are listed for the guest.

import { apiRequest } from '../core/api.js';
import { safeGet, safeSet } from '../core/i18n.js';

const GUEST_KEY = 'virada.practice';
/** Sets a guest's browser keeps (the server keeps as many for an account). */
export const MAX_GUEST_SETS = 20;

function guestSets() {
  try {
    const v = JSON.parse(safeGet(GUEST_KEY) || '[]');
    return Array.isArray(v) ? v.filter((s) => s && typeof s.id === 'string' && Array.isArray(s.items)) : [];
  } catch {
    return [];
  }
}

function saveGuestSets(sets) {
  safeSet(GUEST_KEY, JSON.stringify(sets.slice(0, MAX_GUEST_SETS)));
}

/**
 * Builds the practice set of `color`'s mistakes in game `gameId` (the server reviews and
 * re-checks them, and keeps a set with items for the account or the guest browser).
 */
export async function createSet(gameId, color) {
  const set = await apiRequest('POST', `/api/games/${encodeURIComponent(gameId)}/practice`, { color });
  if (!set.stored && set.items.length > 0) {
    const rest = guestSets().filter((s) => !(s.game_id === set.game_id && s.color === set.color));
    saveGuestSets([set, ...rest]);
  }
  return set;
}

/**
 * Every set this player has, the newest first: the account's (`signedIn`), or this browser's.
 * @returns {Promise<{signedIn: boolean, sets: any[]}>}
 */
export async function listSets() {
  let res = null;
  try {
    res = await apiRequest('GET', '/api/practice');
  } catch {
    res = null;
  }
  if (res && res.signed_in) return { signedIn: true, sets: res.sets };
  const kept = res ? res.sets : [];
  const ids = new Set(kept.map((s) => s.id));
  return { signedIn: false, sets: [...kept, ...guestSets().filter((s) => !ids.has(s.id))] };
}

/** The set `id`, or null. */
export async function findSet(id) {
  return (await listSets()).sets.find((s) => s.id === id) || null;
}

/** Item `ply` of set `set` found again: kept where the set is. Returns the set afterwards. */
export async function markSolved(set, ply) {
  if (set.stored) return apiRequest('POST', `/api/practice/${encodeURIComponent(set.id)}/solved`, { ply });
  const sets = guestSets();
  const mine = sets.find((s) => s.id === set.id);
  if (mine && !mine.solved.includes(ply)) {
    mine.solved = [...mine.solved, ply].sort((a, b) => a - b);
    saveGuestSets(sets);
  }
  return mine || set;
}

/** Removes set `set`. */
export async function deleteSet(set) {
  if (set.stored) {
    await apiRequest('DELETE', `/api/practice/${encodeURIComponent(set.id)}`);
    return;
  }
  saveGuestSets(guestSets().filter((s) => s.id !== set.id));
}
