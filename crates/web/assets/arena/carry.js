// @ts-check
// The hand-over from a finished arena game to the arena's page (play/arena-bar.js sets it,
// arena.js reads it once): the game the player comes from, so that the arena page opens the
// next game it finds them paired in, where a visit of their own would leave it closed.

/** @type {{ from: string | null }} */
export const carry = { from: null };
