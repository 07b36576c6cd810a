// The online game's pure parts, checked without a browser: clock display and interpolation
// (it counts down from the server's value and never below zero; it decides nothing), chat
// merging, and the screen-reader sentence for a move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatClock, formatDeadline, clockState } from '../../crates/web/assets/play/clocks.js';
import { mergeChat } from '../../crates/web/assets/core/store.js';
import { describe } from '../../crates/web/assets/play/attention.js';
import { replay, count, flips, idx, START } from '../lib/othello.mjs';

test('clock texts', () => {
  assert.equal(formatClock(180000), '3:00');
  assert.equal(formatClock(61000), '1:01');
  assert.equal(formatClock(3723000), '1:02:03');
  assert.equal(formatClock(19999), '0:19.9');
  assert.equal(formatClock(20000), '0:20');
  assert.equal(formatClock(-5), '0:00.0');
  assert.equal(formatDeadline(3 * 86400000), '3 d');
  assert.equal(formatDeadline(2 * 86400000 + 5 * 3600000 + 59000), '2 d 5 h');
  assert.equal(formatDeadline(5 * 3600000), '5 h');
  assert.equal(formatDeadline(5 * 3600000 + 12 * 60000), '5 h 12 min');
  assert.equal(formatDeadline(59000), '0 min');
});

function onlineGame({ phase = 'playing', running = 'black', kind = 'clock' } = {}) {
  return {
    id: 'g', mode: 'online', plies: [],
    online: {
      phase,
      time_control: kind === 'clock' ? { kind, minutes: 3, increment_seconds: 2 } : { kind, days: 2 },
      clocks: { black_ms: 10000, white_ms: 90000, running, server_time_ms: 1, deadline_ms: 10001 },
    },
  };
}

test('the running clock counts down from the server value, stops at zero, and only while playing', () => {
  const s = { game: onlineGame(), clockAt: 1000 };
  const at = (now) => clockState(s, now);
  assert.equal(at(1000).black.ms, 10000);
  assert.equal(at(3500).black.ms, 7500);
  assert.equal(at(3500).white.ms, 90000, 'the other clock stands');
  assert.equal(at(99999).black.ms, 0, 'never below zero');
  assert.equal(at(3500).black.running, true);
  const over = { game: onlineGame({ phase: 'finished' }), clockAt: 1000 };
  assert.equal(clockState(over, 5000).black.ms, 10000, 'a finished game\'s clocks stand');
  assert.equal(clockState({ game: { ...onlineGame(), online: { ...onlineGame().online, time_control: { kind: 'none' }, clocks: null } }, clockAt: 0 }), null);
  const corr = clockState({ game: onlineGame({ kind: 'correspondence' }), clockAt: 0 }, 0);
  assert.equal(corr.black.kind, 'days');
  assert.equal(corr.white.text, '1 min');
});

test('a game against the computer shows its clocks from the same fields', () => {
  const clocks = { black_ms: 5000, white_ms: 62000, running: 'black', server_time_ms: 1, deadline_ms: 5001 };
  const g = { id: 'c', mode: 'computer', human_color: 'black', status: 'ongoing', plies: [], online: null,
    time_control: { kind: 'clock', minutes: 1, increment_seconds: 2 }, clocks };
  const st = clockState({ game: g, clockAt: 0 }, 1500);
  assert.equal(st.black.ms, 3500);
  assert.equal(st.black.text, '0:03.5');
  assert.equal(st.white.running, false);
  const over = { ...g, status: 'finished', clocks: { ...clocks, black_ms: 0, running: null } };
  assert.equal(clockState({ game: over, clockAt: 0 }, 9000).black.ms, 0);
  assert.equal(clockState({ game: { ...g, time_control: { kind: 'none' }, clocks: null }, clockAt: 0 }), null);
});

test('chat lines merge by number, in order, without repeats, the last 50', () => {
  const l = (n) => ({ n, from: 'black', text: 't' + n, at: '' });
  const a = mergeChat([], [l(2), l(1)]);
  assert.deepEqual(a.map((x) => x.n), [1, 2]);
  assert.equal(mergeChat(a, [l(1)]), a, 'nothing new: the same array');
  const many = mergeChat(a, Array.from({ length: 60 }, (_, i) => l(i + 3)));
  assert.equal(many.length, 50);
  assert.equal(many[49].n, 62);
  assert.deepEqual(mergeChat([], [{ n: 'x', text: 1 }]), [], 'malformed lines are dropped');
});

test('a move is read out with the number of discs it flipped', () => {
  const moves = 'f5d6c3d3c4f4f6b4';
  const plies = [];
  for (let k = 2; k <= moves.length; k += 2) {
    const b = replay(moves.slice(0, k)).board;
    const c = count(b);
    plies.push({ move: moves.slice(k - 2, k), color: (k / 2) % 2 ? 'black' : 'white', board: b, black_discs: c.black, white_discs: c.white });
  }
  const g = { plies, start: { board: START } };
  assert.equal(describe(g, 0), 'Black played f5, 1 disc flipped');
  assert.equal(describe(g, 1), 'White played d6, 1 disc flipped');
  // The number of flips from the independent rules model.
  const flipped = flips(replay('f5d6c3d3c4f4f6').board, 'O', idx('b4')).length;
  assert.ok(flipped > 1, `b4 flips ${flipped}`);
  assert.equal(describe(g, 7), `White played b4, ${flipped} discs flipped`);
  assert.equal(describe({ plies: [{ move: 'pass', color: 'white' }], start: { board: START } }, 0), 'White passed');
});
