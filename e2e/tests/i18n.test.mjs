// The UI text modules, checked without a browser: both languages have the same keys and
// placeholders, and the rules page has the same sections in both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRINGS } from '../../crates/web/assets/i18n.js';
import { rulesHtml, BOARDS } from '../../crates/web/assets/rules.js';
import { replay, count } from '../lib/othello.mjs';

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('English and Portuguese have the same keys and placeholders', () => {
  const en = Object.keys(STRINGS.en).sort();
  const pt = Object.keys(STRINGS.pt).sort();
  assert.deepEqual(pt, en);
  for (const k of en) {
    assert.deepEqual(placeholders(STRINGS.pt[k]), placeholders(STRINGS.en[k]), `placeholders of ${k}`);
    assert.ok(STRINGS.pt[k].trim().length > 0, `pt text of ${k}`);
  }
});

test('Portuguese uses the vocabulary of RULES.md', () => {
  assert.equal(STRINGS.pt['color.black'], 'Preto');
  assert.equal(STRINGS.pt['color.white'], 'Branco');
  assert.equal(STRINGS.pt['square.legal'], 'jogada válida');
  assert.equal(STRINGS.pt['actions.undo'], 'Desfazer');
  assert.equal(STRINGS.pt['actions.hints'], 'Dicas');
  assert.match(STRINGS.pt['notice.pass'], /passa a vez/);
});

test('the rules page has the same sections in both languages, and correct diagrams', () => {
  const sections = (html) => [...html.matchAll(/<h2>/g)].length;
  const en = rulesHtml('en');
  const pt = rulesHtml('pt');
  assert.ok(sections(en) >= 8);
  assert.equal(sections(pt), sections(en));
  for (const word of ['passar a vez', 'canto', 'Casas X', 'mobilidade', 'Paridade', 'varrida', 'XOT']) {
    assert.ok(pt.toLowerCase().includes(word.toLowerCase()), `pt rules mention ${word}`);
  }
  // The diagrams agree with the rules: the start, and the position after d3.
  assert.equal(BOARDS.START, replay('').board);
  assert.equal(BOARDS.AFTER_D3, replay('d3').board);
  assert.deepEqual(count(BOARDS.AFTER_D3), { black: 4, white: 1 });
});
