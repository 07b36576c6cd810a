// @ts-check
// The strategy lessons' words, in English and Brazilian Portuguese: each idea's title and its
// short text. The feedback on a move is in lessons.json, written in both languages for every
// legal move of every position by the engine's teaching facts (crates/engine/src/teach, run by
// crates/server/examples/lessons.rs), so its numbers and words are the ones the tests check.

import { addTexts, t, colorName } from '../core/i18n.js';

const en = {
  'lesson.corners.title': 'Corners are forever',
  'lesson.corners.text': 'A disc in a corner (a1, h1, a8, h8) can never be flipped: no line can bracket it. And the edge discs next to it become safe one by one. When a corner is yours to take, it is usually the move.',
  'lesson.xc.title': 'X- and C-squares next to an empty corner',
  'lesson.xc.text': 'X-squares (b2, g2, b7, g7) touch a corner diagonally, C-squares (b1, g1, a2, h2, a7, h7, b8, g8) along the edge. Playing one while the corner is empty usually lets the opponent into the corner. Find a move that keeps away from them.',
  'lesson.mobility.title': 'Fewer discs, more moves',
  'lesson.mobility.text': 'In the opening and the middle game the disc count means little. What matters is mobility: how many moves you have and how few you leave the opponent. Flipping many discs often gives the opponent new moves; flipping few keeps them short.',
  'lesson.quiet.title': 'Quiet moves',
  'lesson.quiet.text': 'Discs next to empty squares are frontier discs: each gives the opponent somewhere to play. A quiet move flips few discs, inside your position, and makes few new frontier discs.',
  'lesson.stable.title': 'Stable discs and edges',
  'lesson.stable.text': 'Stable discs can never be flipped again: a corner and the discs that grow from it along the edges. They are what counts at the end. A move that adds to them is usually worth more than a bigger count now.',
  'lesson.parity.title': 'Parity in the endgame',
  'lesson.parity.text': 'Near the end the empty squares split into regions. Whoever plays the last move in a region usually gains from it. Playing into a region with an odd number of empty squares keeps that last move for you; an even one hands it to the opponent.',
  'lesson.tempo.title': 'Leave one move, or none',
  'lesson.tempo.text': 'The strongest squeeze leaves the opponent a single move (so you choose it for them) or none: they must pass and you move again.',
};

const pt = {
  'lesson.corners.title': 'Cantos são para sempre',
  'lesson.corners.text': 'Uma peça no canto (a1, h1, a8, h8) nunca pode ser virada: nenhuma linha consegue cercá-la. E as peças da borda ao lado dela vão ficando seguras uma a uma. Quando um canto está à sua disposição, costuma ser a jogada.',
  'lesson.xc.title': 'Casas X e C ao lado de um canto vazio',
  'lesson.xc.text': 'As casas X (b2, g2, b7, g7) tocam um canto na diagonal; as casas C (b1, g1, a2, h2, a7, h7, b8, g8), pela borda. Jogar numa delas com o canto vazio costuma abrir o canto para o adversário. Encontre uma jogada que fique longe delas.',
  'lesson.mobility.title': 'Menos peças, mais jogadas',
  'lesson.mobility.text': 'Na abertura e no meio-jogo, o número de peças importa pouco. O que importa é a mobilidade: quantas jogadas você tem e quão poucas deixa ao adversário. Virar muitas peças costuma dar jogadas novas ao adversário; virar poucas o deixa sem opções.',
  'lesson.quiet.title': 'Jogadas silenciosas',
  'lesson.quiet.text': 'Peças vizinhas de casas vazias são peças de fronteira: cada uma dá ao adversário um lugar para jogar. Uma jogada silenciosa vira poucas peças, por dentro da sua posição, e cria poucas peças de fronteira novas.',
  'lesson.stable.title': 'Peças estáveis e bordas',
  'lesson.stable.text': 'Peças estáveis nunca mais podem ser viradas: o canto e as peças que crescem a partir dele pelas bordas. São elas que contam no fim. Uma jogada que aumenta esse grupo costuma valer mais do que uma contagem maior agora.',
  'lesson.parity.title': 'Paridade no fim de jogo',
  'lesson.parity.text': 'Perto do fim, as casas vazias se dividem em regiões. Quem faz a última jogada numa região costuma ganhar com isso. Jogar numa região com número ímpar de casas vazias guarda essa última jogada para você; numa par, entrega-a ao adversário.',
  'lesson.tempo.title': 'Deixe uma jogada, ou nenhuma',
  'lesson.tempo.text': 'O aperto mais forte deixa ao adversário uma única jogada (e assim você a escolhe por ele) ou nenhuma: ele passa a vez e você joga de novo.',
};

addTexts('lessons', { en, pt });

/** A lesson's words: `lesson.<id>.title` and `.text`. */
function lesson(id) {
  return {
    title: () => t(`lesson.${id}.title`),
    text: () => t(`lesson.${id}.text`),
  };
}

/** Per lesson: its `title()` and `text()` in the page's language. */
export const LESSONS = {
  corners: lesson('corners'),
  xc: lesson('xc'),
  mobility: lesson('mobility'),
  quiet: lesson('quiet'),
  stable: lesson('stable'),
  parity: lesson('parity'),
  tempo: lesson('tempo'),
};

/** The names the feedback uses for the side to move and the other side. */
export function sides(color) {
  const other = color === 'black' ? 'white' : 'black';
  return { color: colorName(color), other: colorName(other) };
}
