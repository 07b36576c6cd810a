// The UI text modules, checked without a browser: every text module of the app (`i18n.js` and
// each `*-text.js`) has the same keys in English and Portuguese, with the same placeholders,
// and every plural has the forms its language needs; plurals read right ("1 move", "2 moves");
// and the rules page has the same sections in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { addedTexts, t, pluralForms } from '../../crates/web/assets/core/i18n.js';
import { rulesHtml, BOARDS } from '../../crates/web/assets/learn/rules.js';
import { replay, count } from '../lib/othello.mjs';

const WEB = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'crates', 'web', 'assets');
const LOCALES = { en: 'en', pt: 'pt-BR' };

/** Every text module of the app, loaded: each adds its texts to the one table `t` reads. */
async function loadTextModules() {
  const files = fs.readdirSync(WEB, { recursive: true }).map(String).filter((f) => /(^|\/)[\w-]+-text\.js$/.test(f));
  assert.ok(files.length >= 7, `the text modules: ${files.join(', ')}`);
  for (const f of files) await import(path.join(WEB, f));
  return files;
}

/** The placeholders of a text (plural ones and those inside their forms), sorted, each once. */
function placeholders(text) {
  const names = new Set();
  const walk = (s) => {
    let i = 0;
    while ((i = s.indexOf('{', i)) >= 0) {
      let depth = 0;
      let j = i;
      for (; j < s.length; j++) {
        if (s[j] === '{') depth++;
        else if (s[j] === '}' && --depth === 0) break;
      }
      const inner = s.slice(i + 1, j);
      const plural = /^\s*(\w+)\s*,\s*plural\s*,([\s\S]*)$/.exec(inner);
      if (plural) {
        names.add(plural[1]);
        for (const form of pluralForms(plural[2]).values()) walk(form);
      } else if (/^\w+$/.test(inner)) {
        names.add(inner);
      }
      i = j + 1;
    }
  };
  walk(text);
  return [...names].sort();
}

/** The plural categories a language uses for the numbers a page shows (0-1000, halves). */
function categories(lang) {
  const rules = new Intl.PluralRules(LOCALES[lang]);
  const seen = new Set();
  for (let n = 0; n <= 1000; n += 0.5) seen.add(rules.select(n));
  return seen;
}

/** Each plural placeholder of `text`: its form names. */
function plurals(text) {
  const found = [];
  const re = /\{\s*(\w+)\s*,\s*plural\s*,/g;
  let m;
  while ((m = re.exec(text))) {
    let depth = 0;
    let j = m.index;
    for (; j < text.length; j++) {
      if (text[j] === '{') depth++;
      else if (text[j] === '}' && --depth === 0) break;
    }
    found.push({ name: m[1], forms: [...pluralForms(text.slice(re.lastIndex, j)).keys()] });
  }
  return found;
}

test('every text module: the same keys, placeholders and plural forms in English and Portuguese', async () => {
  const files = await loadTextModules();
  const modules = addedTexts();
  // Each module file added its texts (by its name: `arena-text.js` adds `arena`), and i18n.js.
  const names = files.map((f) => path.basename(f).replace(/-text\.js$/, '')).sort();
  assert.deepEqual([...modules.keys()].filter((n) => n !== 'i18n').sort(), names);
  assert.ok(modules.has('i18n'));
  const needed = { en: categories('en'), pt: categories('pt') };
  let checked = 0;
  for (const [name, { en, pt }] of modules) {
    assert.deepEqual(Object.keys(pt).sort(), Object.keys(en).sort(), `${name}: the same keys`);
    for (const key of Object.keys(en)) {
      for (const [lang, text] of [['en', en[key]], ['pt', pt[key]]]) {
        assert.equal(typeof text, 'string', `${name} ${key} (${lang})`);
        assert.ok(text.trim().length > 0, `${name} ${key} (${lang}) has a text`);
        for (const p of plurals(text)) {
          for (const c of needed[lang]) assert.ok(p.forms.includes(c), `${name} ${key} (${lang}): {${p.name}} has its "${c}" form`);
        }
      }
      assert.deepEqual(placeholders(pt[key]), placeholders(en[key]), `${name} ${key}: the same placeholders`);
      checked++;
    }
  }
  assert.ok(checked > 600, `${checked} keys checked`);
});

test('counts take the plural their language gives them', async () => {
  await loadTextModules();
  assert.equal(t('games.plies', { n: 1 }, 'en'), '1 move');
  assert.equal(t('games.plies', { n: 2 }, 'en'), '2 moves');
  assert.equal(t('games.plies', { n: 1 }, 'pt'), '1 jogada');
  assert.equal(t('games.plies', { n: 0 }, 'pt'), '0 jogada', 'CLDR: 0 takes the singular in Brazilian Portuguese');
  assert.equal(t('games.plies', { n: 0 }, 'en'), '0 moves');
  assert.equal(t('arena.players', { n: 1 }, 'pt'), '1 jogador');
  assert.equal(t('arena.players', { n: 7 }, 'pt'), '7 jogadores');
  assert.equal(t('counts.label', { black: 1, white: 3 }, 'en'), '1 black disc, 3 white discs');
  assert.equal(t('counts.label', { black: 2, white: 1 }, 'pt'), '2 peças pretas, 1 peça branca');
  assert.equal(t('online.spectators', { n: 0 }, 'en'), 'nobody watching');
  assert.equal(t('online.spectators', { n: 1 }, 'en'), '1 watching');
  assert.equal(t('analysis.discs', { n: 2.5 }, 'pt'), '2,5 peças');
  assert.equal(t('analysis.discs', { n: 1.5 }, 'pt'), '1,5 peça', 'CLDR: below 2 takes the singular in Brazilian Portuguese');
  assert.equal(t('analysis.discs', { n: 1.5 }, 'en'), '1.5 discs');
  assert.equal(t('pz.moves', { n: 1 }, 'en'), 'One move to find.');
  assert.match(t('over.discs', { black: 40, white: 23, empties: 1 }, 'en'), /the 1 empty square goes to the winner/);
  assert.match(t('over.discs', { black: 40, white: 20, empties: 4 }, 'pt'), /as 4 casas vazias vão para o vencedor/);
  // A placeholder without its value stays as written; a key without a text is the key.
  assert.equal(t('games.plies', {}, 'en'), '{n}');
  assert.equal(t('no.such.key', {}, 'en'), 'no.such.key');
});

test('Portuguese uses the vocabulary of RULES.md', async () => {
  await loadTextModules();
  assert.equal(t('color.black', {}, 'pt'), 'Preto');
  assert.equal(t('color.white', {}, 'pt'), 'Branco');
  assert.equal(t('square.legal', {}, 'pt'), 'jogada válida');
  assert.equal(t('actions.undo', {}, 'pt'), 'Desfazer');
  assert.equal(t('actions.hints', {}, 'pt'), 'Dicas');
  assert.match(t('notice.pass', {}, 'pt'), /passa a vez/);
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
