// The strategy lessons' words, in English and Brazilian Portuguese: each idea's title, its short
// text, and the feedback on a move, built from the counts web/lessons.json holds for every legal
// move of a position (made with the rules by crates/server/examples/lessons.rs). The positions
// themselves are in lessons.json.

import { lang, colorName } from './i18n.js';
import { discs } from './learn-text.js';

const pt = () => lang() === 'pt';

/**
 * Per lesson: `kinds` (the coach's reasons that speak the idea's language, preferred in the
 * feedback), `title`, `text`, and `right(c)` / `wrong(c)` where `c` holds the move (`move`, its
 * counts `m`), the answer (`answer`, its counts `a`), `color` and `other` (names), `loss`.
 */
export const LESSONS = {
  corners: {
    kinds: ['corner_missed', 'corner_given'],
    title: () => (pt() ? 'Cantos são para sempre' : 'Corners are forever'),
    text: () => (pt()
      ? 'Uma peça no canto (a1, h1, a8, h8) nunca pode ser virada: nenhuma linha consegue cercá-la. E as peças da borda ao lado dela vão ficando seguras uma a uma. Quando um canto está à sua disposição, costuma ser a jogada.'
      : 'A disc in a corner (a1, h1, a8, h8) can never be flipped: no line can bracket it. And the edge discs next to it become safe one by one. When a corner is yours to take, it is usually the move.'),
    right: (c) => (pt()
      ? `${c.move} toma um canto: essa peça é sua até o fim da partida.`
      : `${c.move} takes a corner: that disc is yours for the rest of the game.`),
    wrong: (c) => (pt()
      ? `${c.move} não é um canto. O canto ${c.answer} está livre agora e pode não estar depois.`
      : `${c.move} is not a corner. The corner ${c.answer} is free now and may not be later.`),
  },
  xc: {
    kinds: ['x_square', 'c_square', 'corner_given'],
    title: () => (pt() ? 'Casas X e C ao lado de um canto vazio' : 'X- and C-squares next to an empty corner'),
    text: () => (pt()
      ? 'As casas X (b2, g2, b7, g7) tocam um canto na diagonal; as casas C (b1, g1, a2, h2, a7, h7, b8, g8), pela borda. Jogar numa delas com o canto vazio costuma abrir o canto para o adversário. Encontre uma jogada que fique longe delas.'
      : 'X-squares (b2, g2, b7, g7) touch a corner diagonally, C-squares (b1, g1, a2, h2, a7, h7, b8, g8) along the edge. Playing one while the corner is empty usually lets the opponent into the corner. Find a move that keeps away from them.'),
    right: (c) => (pt()
      ? `${c.move} fica longe das casas X e C ao lado dos cantos vazios: o ${c.other} não ganha canto com ela.`
      : `${c.move} keeps away from the X- and C-squares next to the empty corners: ${c.other} gets no corner from it.`),
    wrong: (c) => (pt()
      ? `${c.answer} não encosta em canto vazio; ${c.move} deixa o ${c.other} mais perto de um canto.`
      : `${c.answer} touches no empty corner; ${c.move} brings ${c.other} closer to a corner.`),
  },
  mobility: {
    kinds: ['mobility', 'frontier'],
    title: () => (pt() ? 'Menos peças, mais jogadas' : 'Fewer discs, more moves'),
    text: () => (pt()
      ? 'Na abertura e no meio-jogo, o número de peças importa pouco. O que importa é a mobilidade: quantas jogadas você tem e quão poucas deixa ao adversário. Virar muitas peças costuma dar jogadas novas ao adversário; virar poucas o deixa sem opções.'
      : 'In the opening and the middle game the disc count means little. What matters is mobility: how many moves you have and how few you leave the opponent. Flipping many discs often gives the opponent new moves; flipping few keeps them short.'),
    right: (c) => (pt()
      ? `Depois de ${c.move} o ${c.other} fica com só ${c.m.opp_moves} jogadas (você virou ${discs(c.m.flips)}).`
      : `After ${c.move} ${c.other} has only ${c.m.opp_moves} moves (you flipped ${discs(c.m.flips)}).`),
    wrong: (c) => (pt()
      ? `Depois de ${c.move} o ${c.other} tem ${c.m.opp_moves} jogadas; depois de ${c.answer}, só ${c.a.opp_moves}.`
      : `After ${c.move} ${c.other} has ${c.m.opp_moves} moves; after ${c.answer} only ${c.a.opp_moves}.`),
  },
  quiet: {
    kinds: ['quiet_move', 'frontier', 'mobility'],
    title: () => (pt() ? 'Jogadas silenciosas' : 'Quiet moves'),
    text: () => (pt()
      ? 'Peças vizinhas de casas vazias são peças de fronteira: cada uma dá ao adversário um lugar para jogar. Uma jogada silenciosa vira poucas peças, por dentro da sua posição, e cria poucas peças de fronteira novas.'
      : 'Discs next to empty squares are frontier discs: each gives the opponent somewhere to play. A quiet move flips few discs, inside your position, and makes few new frontier discs.'),
    right: (c) => (pt()
      ? `${c.move} é silenciosa: vira ${discs(c.m.flips)} e deixa só ${c.m.frontier} das peças que colocou ou virou ao lado de casas vazias.`
      : `${c.move} is quiet: it flips ${discs(c.m.flips)} and leaves only ${c.m.frontier} of the discs it placed or flipped next to empty squares.`),
    wrong: (c) => (pt()
      ? `${c.move} deixa ${c.m.frontier} peças suas na fronteira; ${c.answer}, só ${c.a.frontier}.`
      : `${c.move} leaves ${c.m.frontier} of your discs on the frontier; ${c.answer} only ${c.a.frontier}.`),
  },
  stable: {
    kinds: ['stability', 'edge_anchor', 'corner_given'],
    title: () => (pt() ? 'Peças estáveis e bordas' : 'Stable discs and edges'),
    text: () => (pt()
      ? 'Peças estáveis nunca mais podem ser viradas: o canto e as peças que crescem a partir dele pelas bordas. São elas que contam no fim. Uma jogada que aumenta esse grupo costuma valer mais do que uma contagem maior agora.'
      : 'Stable discs can never be flipped again: a corner and the discs that grow from it along the edges. They are what counts at the end. A move that adds to them is usually worth more than a bigger count now.'),
    right: (c) => (pt()
      ? `${c.move} soma ${c.m.stable} peças estáveis: elas são suas para sempre.`
      : `${c.move} adds ${c.m.stable} stable discs: they are yours for good.`),
    wrong: (c) => (pt()
      ? `${c.move} soma ${c.m.stable} peças estáveis; ${c.answer} soma ${c.a.stable}.`
      : `${c.move} adds ${c.m.stable} stable discs; ${c.answer} adds ${c.a.stable}.`),
  },
  parity: {
    kinds: ['parity', 'exact_loss'],
    title: () => (pt() ? 'Paridade no fim de jogo' : 'Parity in the endgame'),
    text: () => (pt()
      ? 'Perto do fim, as casas vazias se dividem em regiões. Quem faz a última jogada numa região costuma ganhar com isso. Jogar numa região com número ímpar de casas vazias guarda essa última jogada para você; numa par, entrega-a ao adversário.'
      : 'Near the end the empty squares split into regions. Whoever plays the last move in a region usually gains from it. Playing into a region with an odd number of empty squares keeps that last move for you; an even one hands it to the opponent.'),
    right: (c) => (pt()
      ? `${c.move} entra numa região de ${c.m.region} casas vazias (ímpar): a última jogada ali continua sua.`
      : `${c.move} goes into a region of ${c.m.region} empty squares (odd): the last move there stays yours.`),
    wrong: (c) => (pt()
      ? `${c.move} entra numa região de ${c.m.region} casas vazias${c.m.region % 2 === 0 ? ' (par)' : ''}; ${c.answer}, numa de ${c.a.region} (ímpar), e guarda a última jogada.`
      : `${c.move} goes into a region of ${c.m.region} empty squares${c.m.region % 2 === 0 ? ' (even)' : ''}; ${c.answer} into one of ${c.a.region} (odd), keeping the last move.`),
  },
  tempo: {
    kinds: ['pass_forced', 'mobility'],
    title: () => (pt() ? 'Deixe uma jogada, ou nenhuma' : 'Leave one move, or none'),
    text: () => (pt()
      ? 'O aperto mais forte deixa ao adversário uma única jogada (e assim você a escolhe por ele) ou nenhuma: ele passa a vez e você joga de novo.'
      : 'The strongest squeeze leaves the opponent a single move (so you choose it for them) or none: they must pass and you move again.'),
    right: (c) => {
      if (c.m.opp_moves === 0) return pt() ? `Depois de ${c.move} o ${c.other} não tem jogada e passa a vez: você joga de novo.` : `After ${c.move} ${c.other} has no move and must pass: you play again.`;
      return pt() ? `Depois de ${c.move} o ${c.other} tem uma única jogada: você a escolheu por ele.` : `After ${c.move} ${c.other} has a single move: you chose it for them.`;
    },
    wrong: (c) => (pt()
      ? `Depois de ${c.move} o ${c.other} tem ${c.m.opp_moves} jogadas para escolher; depois de ${c.answer}, ${c.a.opp_moves}.`
      : `After ${c.move} ${c.other} has ${c.m.opp_moves} moves to choose from; after ${c.answer}, ${c.a.opp_moves}.`),
  },
};

/** The names the feedback uses for the side to move and the other side. */
export function sides(color) {
  const other = color === 'black' ? 'white' : 'black';
  return { color: colorName(color), other: colorName(other) };
}
