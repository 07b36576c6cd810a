// @ts-check
// The strategy lessons' words, in English and Brazilian Portuguese: each idea's title, its short
// text, and the feedback on a move, built from the counts web/lessons.json holds for every legal
// move of a position (made with the rules by crates/server/examples/lessons.rs). The positions
// themselves are in lessons.json.

import { addTexts, t, colorName } from './i18n.js';
import { discs } from './learn-text.js';

const en = {
  'lesson.corners.title': 'Corners are forever',
  'lesson.corners.text': 'A disc in a corner (a1, h1, a8, h8) can never be flipped: no line can bracket it. And the edge discs next to it become safe one by one. When a corner is yours to take, it is usually the move.',
  'lesson.corners.right': '{move} takes a corner: that disc is yours for the rest of the game.',
  'lesson.corners.wrong': '{move} is not a corner. The corner {answer} is free now and may not be later.',
  'lesson.xc.title': 'X- and C-squares next to an empty corner',
  'lesson.xc.text': 'X-squares (b2, g2, b7, g7) touch a corner diagonally, C-squares (b1, g1, a2, h2, a7, h7, b8, g8) along the edge. Playing one while the corner is empty usually lets the opponent into the corner. Find a move that keeps away from them.',
  'lesson.xc.right': '{move} keeps away from the X- and C-squares next to the empty corners: {other} gets no corner from it.',
  'lesson.xc.wrong': '{answer} touches no empty corner; {move} brings {other} closer to a corner.',
  'lesson.mobility.title': 'Fewer discs, more moves',
  'lesson.mobility.text': 'In the opening and the middle game the disc count means little. What matters is mobility: how many moves you have and how few you leave the opponent. Flipping many discs often gives the opponent new moves; flipping few keeps them short.',
  'lesson.mobility.right': 'After {move} {other} has only {moves, plural, one {# move} other {# moves}} (you flipped {flipped}).',
  'lesson.mobility.wrong': 'After {move} {other} has {moves, plural, one {# move} other {# moves}}; after {answer} only {answerMoves}.',
  'lesson.quiet.title': 'Quiet moves',
  'lesson.quiet.text': 'Discs next to empty squares are frontier discs: each gives the opponent somewhere to play. A quiet move flips few discs, inside your position, and makes few new frontier discs.',
  'lesson.quiet.right': '{move} is quiet: it flips {flipped} and leaves only {frontier} of the discs it placed or flipped next to empty squares.',
  'lesson.quiet.wrong': '{move} leaves {frontier} of your discs on the frontier; {answer} only {answerFrontier}.',
  'lesson.stable.title': 'Stable discs and edges',
  'lesson.stable.text': 'Stable discs can never be flipped again: a corner and the discs that grow from it along the edges. They are what counts at the end. A move that adds to them is usually worth more than a bigger count now.',
  'lesson.stable.right': '{move} adds {stable, plural, one {# stable disc: it is yours} other {# stable discs: they are yours}} for good.',
  'lesson.stable.wrong': '{move} adds {stable, plural, one {# stable disc} other {# stable discs}}; {answer} adds {answerStable}.',
  'lesson.parity.title': 'Parity in the endgame',
  'lesson.parity.text': 'Near the end the empty squares split into regions. Whoever plays the last move in a region usually gains from it. Playing into a region with an odd number of empty squares keeps that last move for you; an even one hands it to the opponent.',
  'lesson.parity.right': '{move} goes into a region of {region, plural, one {# empty square} other {# empty squares}} (odd): the last move there stays yours.',
  'lesson.parity.wrong': '{move} goes into a region of {region, plural, one {# empty square} other {# empty squares}}; {answer} into one of {answerRegion} (odd), keeping the last move.',
  'lesson.parity.wrongEven': '{move} goes into a region of {region, plural, one {# empty square} other {# empty squares}} (even); {answer} into one of {answerRegion} (odd), keeping the last move.',
  'lesson.tempo.title': 'Leave one move, or none',
  'lesson.tempo.text': 'The strongest squeeze leaves the opponent a single move (so you choose it for them) or none: they must pass and you move again.',
  'lesson.tempo.rightPass': 'After {move} {other} has no move and must pass: you play again.',
  'lesson.tempo.rightOne': 'After {move} {other} has a single move: you chose it for them.',
  'lesson.tempo.wrong': 'After {move} {other} has {moves, plural, one {# move} other {# moves}} to choose from; after {answer}, {answerMoves}.',
};

const pt = {
  'lesson.corners.title': 'Cantos são para sempre',
  'lesson.corners.text': 'Uma peça no canto (a1, h1, a8, h8) nunca pode ser virada: nenhuma linha consegue cercá-la. E as peças da borda ao lado dela vão ficando seguras uma a uma. Quando um canto está à sua disposição, costuma ser a jogada.',
  'lesson.corners.right': '{move} toma um canto: essa peça é sua até o fim da partida.',
  'lesson.corners.wrong': '{move} não é um canto. O canto {answer} está livre agora e pode não estar depois.',
  'lesson.xc.title': 'Casas X e C ao lado de um canto vazio',
  'lesson.xc.text': 'As casas X (b2, g2, b7, g7) tocam um canto na diagonal; as casas C (b1, g1, a2, h2, a7, h7, b8, g8), pela borda. Jogar numa delas com o canto vazio costuma abrir o canto para o adversário. Encontre uma jogada que fique longe delas.',
  'lesson.xc.right': '{move} fica longe das casas X e C ao lado dos cantos vazios: o {other} não ganha canto com ela.',
  'lesson.xc.wrong': '{answer} não encosta em canto vazio; {move} deixa o {other} mais perto de um canto.',
  'lesson.mobility.title': 'Menos peças, mais jogadas',
  'lesson.mobility.text': 'Na abertura e no meio-jogo, o número de peças importa pouco. O que importa é a mobilidade: quantas jogadas você tem e quão poucas deixa ao adversário. Virar muitas peças costuma dar jogadas novas ao adversário; virar poucas o deixa sem opções.',
  'lesson.mobility.right': 'Depois de {move} o {other} fica com só {moves, plural, one {# jogada} other {# jogadas}} (você virou {flipped}).',
  'lesson.mobility.wrong': 'Depois de {move} o {other} tem {moves, plural, one {# jogada} other {# jogadas}}; depois de {answer}, só {answerMoves}.',
  'lesson.quiet.title': 'Jogadas silenciosas',
  'lesson.quiet.text': 'Peças vizinhas de casas vazias são peças de fronteira: cada uma dá ao adversário um lugar para jogar. Uma jogada silenciosa vira poucas peças, por dentro da sua posição, e cria poucas peças de fronteira novas.',
  'lesson.quiet.right': '{move} é silenciosa: vira {flipped} e deixa só {frontier} das peças que colocou ou virou ao lado de casas vazias.',
  'lesson.quiet.wrong': '{move} deixa {frontier, plural, one {# peça sua} other {# peças suas}} na fronteira; {answer}, só {answerFrontier}.',
  'lesson.stable.title': 'Peças estáveis e bordas',
  'lesson.stable.text': 'Peças estáveis nunca mais podem ser viradas: o canto e as peças que crescem a partir dele pelas bordas. São elas que contam no fim. Uma jogada que aumenta esse grupo costuma valer mais do que uma contagem maior agora.',
  'lesson.stable.right': '{move} soma {stable, plural, one {# peça estável: ela é sua} other {# peças estáveis: elas são suas}} para sempre.',
  'lesson.stable.wrong': '{move} soma {stable, plural, one {# peça estável} other {# peças estáveis}}; {answer} soma {answerStable}.',
  'lesson.parity.title': 'Paridade no fim de jogo',
  'lesson.parity.text': 'Perto do fim, as casas vazias se dividem em regiões. Quem faz a última jogada numa região costuma ganhar com isso. Jogar numa região com número ímpar de casas vazias guarda essa última jogada para você; numa par, entrega-a ao adversário.',
  'lesson.parity.right': '{move} entra numa região de {region, plural, one {# casa vazia} other {# casas vazias}} (ímpar): a última jogada ali continua sua.',
  'lesson.parity.wrong': '{move} entra numa região de {region, plural, one {# casa vazia} other {# casas vazias}}; {answer}, numa de {answerRegion} (ímpar), e guarda a última jogada.',
  'lesson.parity.wrongEven': '{move} entra numa região de {region, plural, one {# casa vazia} other {# casas vazias}} (par); {answer}, numa de {answerRegion} (ímpar), e guarda a última jogada.',
  'lesson.tempo.title': 'Deixe uma jogada, ou nenhuma',
  'lesson.tempo.text': 'O aperto mais forte deixa ao adversário uma única jogada (e assim você a escolhe por ele) ou nenhuma: ele passa a vez e você joga de novo.',
  'lesson.tempo.rightPass': 'Depois de {move} o {other} não tem jogada e passa a vez: você joga de novo.',
  'lesson.tempo.rightOne': 'Depois de {move} o {other} tem uma única jogada: você a escolheu por ele.',
  'lesson.tempo.wrong': 'Depois de {move} o {other} tem {moves, plural, one {# jogada} other {# jogadas}} para escolher; depois de {answer}, {answerMoves}.',
};

addTexts('lessons', { en, pt });

/** The feedback's values for a move `c.move` (counts `c.m`) against the answer (`c.a`). */
function values(c) {
  const all = {
    move: c.move,
    answer: c.answer,
    other: c.other,
    moves: c.m.opp_moves,
    answerMoves: c.a ? c.a.opp_moves : undefined,
    flipped: discs(c.m.flips),
    frontier: c.m.frontier,
    answerFrontier: c.a ? c.a.frontier : undefined,
    stable: c.m.stable,
    answerStable: c.a ? c.a.stable : undefined,
    region: c.m.region,
    answerRegion: c.a ? c.a.region : undefined,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}

/** A lesson's words: `lesson.<id>.title`, `.text`, `.right`, `.wrong` with the move's values. */
function lesson(id, kinds, extra = {}) {
  return {
    kinds,
    title: () => t(`lesson.${id}.title`),
    text: () => t(`lesson.${id}.text`),
    right: (c) => t(`lesson.${id}.right`, values(c)),
    wrong: (c) => t(`lesson.${id}.wrong`, values(c)),
    ...extra,
  };
}

/**
 * Per lesson: `kinds` (the coach's reasons that speak the idea's language, preferred in the
 * feedback), `title`, `text`, and `right(c)` / `wrong(c)` where `c` holds the move (`move`, its
 * counts `m`), the answer (`answer`, its counts `a`), `color` and `other` (names), `loss`.
 */
export const LESSONS = {
  corners: lesson('corners', ['corner_missed', 'corner_given']),
  xc: lesson('xc', ['x_square', 'c_square', 'corner_given']),
  mobility: lesson('mobility', ['mobility', 'frontier']),
  quiet: lesson('quiet', ['quiet_move', 'frontier', 'mobility']),
  stable: lesson('stable', ['stability', 'edge_anchor', 'corner_given']),
  parity: lesson('parity', ['parity', 'exact_loss'], {
    wrong: (c) => t(c.m.region % 2 === 0 ? 'lesson.parity.wrongEven' : 'lesson.parity.wrong', values(c)),
  }),
  tempo: lesson('tempo', ['pass_forced', 'mobility'], {
    right: (c) => t(c.m.opp_moves === 0 ? 'lesson.tempo.rightPass' : 'lesson.tempo.rightOne', values(c)),
  }),
};

/** The names the feedback uses for the side to move and the other side. */
export function sides(color) {
  const other = color === 'black' ? 'white' : 'black';
  return { color: colorName(color), other: colorName(other) };
}
