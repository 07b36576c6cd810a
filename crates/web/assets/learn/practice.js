// @ts-check
// Practice from your own mistakes (/learn?practice): the list of sets and, for one set, its
// positions as steps of the learning page's run (learn.js): the position before the mistake,
// any move the server's re-check accepted counts (within the set's margin of the best), the
// coach's words as the hint, retry, then the next. Sets are kept by practice-store.js.

import { colorName, lang, t } from '../core/i18n.js';
import { el, button } from '../core/dom.js';
import { discs } from './learn-text.js';
import './practice-text.js';
import { deleteSet, listSets, markSolved, MAX_GUEST_SETS } from './practice-store.js';
import { sides } from './lessons-text.js';

export { findSet } from './practice-store.js';

/** The list of practice sets in `root`; `navigate` opens one. */
export async function renderPracticeList(root, { navigate }) {
  root.textContent = '';
  document.title = t('pr.title') + ' · Virada';
  const head = el('div', 'learn-head');
  const h1 = el('h1', '', t('pr.title'));
  h1.id = 'learn-title';
  head.append(h1, button('btn small', t('learn.back'), 'learn-back', () => navigate('/learn')));
  root.append(head, el('p', 'learn-intro', t('pr.desc')));
  const status = el('p', 'muted');
  status.id = 'practice-kept';
  root.append(status);
  const list = el('ul', 'lesson-list practice-list');
  list.id = 'practice-list';
  root.append(list);
  const { signedIn, sets } = await listSets();
  status.textContent = t(signedIn ? 'pr.kept.account' : 'pr.kept.guest', { max: MAX_GUEST_SETS });
  list.dataset.state = 'ready';
  if (sets.length === 0) {
    root.append(el('p', 'muted', t('pr.none')));
    return;
  }
  for (const set of sets) {
    const li = el('li', '');
    li.dataset.set = set.id;
    const date = new Date(set.created_at).toLocaleDateString(lang() === 'pt' ? 'pt-BR' : 'en');
    const label = t('pr.set', { color: colorName(set.color), date, n: set.items.length });
    const open = button('lesson-link', label, 'practice-' + set.id, () => navigate('/learn?practice=' + encodeURIComponent(set.id)));
    const done = set.items.filter((i) => set.solved.includes(i.ply)).length;
    const progress = el('span', 'lesson-progress', ' ' + t('learn.progress', { done, total: set.items.length }));
    const del = button('btn small', t('pr.delete'), '', async () => {
      await deleteSet(set);
      renderPracticeList(root, { navigate });
    });
    del.dataset.key = 'practice-delete-' + set.id;
    li.append(open, progress, ' ', del);
    list.append(li);
  }
}

/** What the run of `set` needs besides its steps: where "back" goes, the closing words. */
export function runOptions(set) {
  return {
    back: '/learn?practice',
    backKey: 'pr.back',
    finishText: () => t('pr.done', { done: set.items.filter((i) => set.solved.includes(i.ply)).length, total: set.items.length }),
  };
}

/** One step a position of `set` (learn.js runs them). */
export function practiceSteps(set) {
  const margin = () => discs(set.margin);
  return set.items.map((item) => {
    const color = item.color === 'white' ? 'white' : 'black';
    const label = `${item.number}${color === 'white' ? '...' : '.'}`;
    const code = () => (lang() === 'pt' ? 'pt' : 'en');
    return {
      id: `${set.id}:${item.ply}`,
      setup: `${item.board} ${color === 'black' ? 'X' : 'O'}`,
      showLegal: true,
      answers: item.accepted,
      solvedAfterRetry: true,
      title: () => t('pr.itemTitle', { label }),
      idea: () => t('pr.idea', { played: item.played, loss: discs(item.loss), margin: margin() }),
      task: () => t('learn.toMove', { color: sides(color).color }) + ' ' + t('pr.task'),
      // The coach's explanations of the mistake, in the page's language at the time.
      hint: () => {
        const words = (item.hint || []).map((h) => h[code()] || h.en).filter(Boolean);
        return words.length ? words.join(' ') : t('pr.hintNone');
      },
      onSolved: async () => {
        if (!set.solved.includes(item.ply)) set.solved = [...set.solved, item.ply];
        try {
          const after = await markSolved(set, item.ply);
          if (after && Array.isArray(after.solved)) set.solved = after.solved;
        } catch {
          // Not kept this time: the position stays to find again.
        }
      },
      judge: (ctx, sq) => {
        if (item.accepted.includes(sq)) {
          return { ok: true, text: () => (sq === item.best ? t('pr.rightBest', { move: sq }) : t('pr.right', { move: sq, margin: margin() })) };
        }
        if (sq === item.played) return { ok: false, text: () => t('pr.played', { move: sq, loss: discs(item.loss) }) };
        return { ok: false, text: () => t('pr.wrong', { move: sq, margin: margin() }) };
      },
    };
  });
}
