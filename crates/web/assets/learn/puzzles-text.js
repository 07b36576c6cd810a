// @ts-check
// Text of the puzzle page in English and Brazilian Portuguese, in the rule sheets' vocabulary
// (peças, jogadas, casas). Numbers go through formatNumber (comma decimals in pt-BR).

import { addTexts, t, formatNumber } from '../core/i18n.js';

const en = {
  'pz.title': 'Puzzles',
  'pz.desc': 'Endgame positions from real games where exactly one move keeps the best result, proven by Virada’s solver. Find it, then keep finding it.',
  'pz.solve': 'Solve puzzles',
  'pz.daily': 'Daily puzzle',
  'pz.dailyOf': 'Daily puzzle, {day}',
  'pz.back': 'Learn',
  'pz.theme': 'Theme',
  'pz.allThemes': 'All themes',
  'pz.themeCount': '{name} ({n})',
  'pz.rating': 'Your puzzle rating: {rating} (±{rd}) · {solved} of {attempts} solved',
  'pz.ratingNew': 'Your puzzle rating: {rating} (±{rd}), not yet rated',
  'pz.change': 'Your rating: {rating} ({delta}).',
  'pz.unrated': 'Not rated: only your first try at a puzzle counts.',
  'pz.info': 'Puzzle rated {rating} · {empties, plural, one {# empty square} other {# empty squares}} · {themes}',
  'pz.task': '{color} to move. Find the best move: the best result for {color} is {result}.',
  'pz.taskMid': '{color} to move. Find the best move: a deep search rates it at least 6 discs above every other.',
  'pz.moves': '{n, plural, =1 {One move to find.} one {# move to find.} other {# moves to find; the opponent’s answers are played for you.}}',
  'pz.line': 'The line: {line}.',
  'pz.notMove': '{square} is not a legal move here (it flips nothing).',
  'pz.hintRegion': 'Hint: the move is in the marked quarter of the board.',
  'pz.hintSquare': 'Hint: the move is {square}.',
  'pz.hintRated': 'A hint counts as a miss for your rating.',
  'pz.hint': 'Hint',
  'pz.retry': 'Try again',
  'pz.next': 'Next puzzle',
  'pz.failed': 'The server did not answer; try again.',
  'pz.notFound': 'There is no such puzzle.',
  'pz.busy': 'Too many tries at once; wait a moment.',
  'pz.pass': 'pass',
  'pz.win': 'a win by {n, plural, one {# disc} other {# discs}}',
  'pz.draw': 'a draw',
  'pz.lose': 'a loss by {n, plural, one {# disc} other {# discs}}',
  'theme.corner': 'corners',
  'theme.edge': 'edges',
  'theme.parity': 'parity',
  'theme.wipeout': 'wipe-out',
  'theme.stability': 'stable discs',
  'theme.mobility': 'mobility',
  'theme.tempo': 'tempo (passes)',
  'theme.quiet_move': 'quiet moves',
};

const pt = {
  'pz.title': 'Problemas',
  'pz.desc': 'Posições de final de partidas reais em que só uma jogada mantém o melhor resultado, provadas pelo solucionador da Virada. Encontre essa jogada, e depois as seguintes.',
  'pz.solve': 'Resolver problemas',
  'pz.daily': 'Problema do dia',
  'pz.dailyOf': 'Problema do dia, {day}',
  'pz.back': 'Aprender',
  'pz.theme': 'Tema',
  'pz.allThemes': 'Todos os temas',
  'pz.themeCount': '{name} ({n})',
  'pz.rating': 'Seu rating em problemas: {rating} (±{rd}) · {solved} de {attempts} resolvidos',
  'pz.ratingNew': 'Seu rating em problemas: {rating} (±{rd}), ainda sem resultados',
  'pz.change': 'Seu rating: {rating} ({delta}).',
  'pz.unrated': 'Sem rating: só a primeira tentativa em cada problema conta.',
  'pz.info': 'Problema de rating {rating} · {empties, plural, one {# casa vazia} other {# casas vazias}} · {themes}',
  'pz.task': 'Vez do {color}. Encontre a melhor jogada: o melhor resultado para o {color} é {result}.',
  'pz.taskMid': 'Vez do {color}. Encontre a melhor jogada: uma busca profunda a avalia pelo menos 6 peças acima de todas as outras.',
  'pz.moves': '{n, plural, =1 {Uma jogada para encontrar.} one {# jogada para encontrar.} other {# jogadas para encontrar; as respostas do adversário são jogadas automaticamente.}}',
  'pz.line': 'A linha: {line}.',
  'pz.notMove': '{square} não é uma jogada válida aqui (não vira nenhuma peça).',
  'pz.hintRegion': 'Dica: a jogada está no quarto do tabuleiro marcado.',
  'pz.hintSquare': 'Dica: a jogada é {square}.',
  'pz.hintRated': 'Uma dica conta como erro para o seu rating.',
  'pz.hint': 'Dica',
  'pz.retry': 'Tentar de novo',
  'pz.next': 'Próximo problema',
  'pz.failed': 'O servidor não respondeu; tente de novo.',
  'pz.notFound': 'Esse problema não existe.',
  'pz.busy': 'Tentativas demais de uma vez; espere um pouco.',
  'pz.pass': 'passa',
  'pz.win': 'uma vitória por {n, plural, one {# peça} other {# peças}}',
  'pz.draw': 'um empate',
  'pz.lose': 'uma derrota por {n, plural, one {# peça} other {# peças}}',
  'theme.corner': 'cantos',
  'theme.edge': 'bordas',
  'theme.parity': 'paridade',
  'theme.wipeout': 'varrida',
  'theme.stability': 'peças estáveis',
  'theme.mobility': 'mobilidade',
  'theme.tempo': 'tempo (passar a vez)',
  'theme.quiet_move': 'jogadas silenciosas',
};

export const PUZZLE_TEXTS = { en, pt };
addTexts('puzzles', PUZZLE_TEXTS);

/** A final result for the solver: "a win by 6 discs", "a draw", "a loss by 2 discs". */
export function resultText(score) {
  if (score === 0) return t('pz.draw');
  return t(score > 0 ? 'pz.win' : 'pz.lose', { n: Math.abs(score) });
}

/** Moves as text ("b7, pass, a8"). */
export function movesText(moves) {
  return moves.map((m) => (m === 'pass' ? t('pz.pass') : m)).join(', ');
}

/** A rating change with its sign ("+12", "−8"). */
export function deltaText(d) {
  return (d > 0 ? '+' : d < 0 ? '−' : '±') + formatNumber(Math.abs(d));
}
