// Text of the puzzle page in English and Brazilian Portuguese, in the rule sheets' vocabulary
// (peças, jogadas, casas). Numbers go through formatNumber (comma decimals in pt-BR).

import { lang, formatNumber } from './i18n.js';

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
  'pz.info': 'Puzzle rated {rating} · {empties} empty squares · {themes}',
  'pz.task': '{color} to move. Find the best move: the best result for {color} is {result}.',
  'pz.taskMid': '{color} to move. Find the best move: a deep search rates it at least 6 discs above every other.',
  'pz.solvedMid': 'Solved! That is the move the deep search prefers.',
  'pz.wrongMid': 'Not this one: after {move}, {other} answers {reply}. The deep search rates {move} {loss} below the best move.',
  'pz.moves1': 'One move to find.',
  'pz.movesN': '{n} moves to find; the opponent’s answers are played for you.',
  'pz.movesLeft': 'Right! {reply} Now find the next move ({n} of {total}).',
  'pz.reply': 'The answer: {moves}.',
  'pz.solved': 'Solved! {color} keeps the best result: {result}.',
  'pz.wrong': 'Not this one: after {move}, {other} answers {reply}. With best play from there this leads to {got} instead of {best}.',
  'pz.wrongEnd': 'Not this one: {move} ends the game with {got} instead of {best}.',
  'pz.wrongUnknown': 'Not this one: {move} gives {other} the answer {reply}; it keeps less than the best result ({best}).',
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
  'pz.win': 'a win by {n}',
  'pz.winOne': 'a win by 1 disc',
  'pz.draw': 'a draw',
  'pz.lose': 'a loss by {n}',
  'pz.loseOne': 'a loss by 1 disc',
  'pz.discs': '{n} discs',
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
  'pz.info': 'Problema de rating {rating} · {empties} casas vazias · {themes}',
  'pz.task': 'Vez do {color}. Encontre a melhor jogada: o melhor resultado para o {color} é {result}.',
  'pz.taskMid': 'Vez do {color}. Encontre a melhor jogada: uma busca profunda a avalia pelo menos 6 peças acima de todas as outras.',
  'pz.solvedMid': 'Resolvido! Essa é a jogada que a busca profunda prefere.',
  'pz.wrongMid': 'Esta não: depois de {move}, o {other} responde {reply}. A busca profunda avalia {move} {loss} abaixo da melhor jogada.',
  'pz.moves1': 'Uma jogada para encontrar.',
  'pz.movesN': '{n} jogadas para encontrar; as respostas do adversário são jogadas automaticamente.',
  'pz.movesLeft': 'Certo! {reply} Agora encontre a próxima jogada ({n} de {total}).',
  'pz.reply': 'A resposta: {moves}.',
  'pz.solved': 'Resolvido! O {color} mantém o melhor resultado: {result}.',
  'pz.wrong': 'Esta não: depois de {move}, o {other} responde {reply}. Com o melhor jogo a partir daí, isso leva a {got} em vez de {best}.',
  'pz.wrongEnd': 'Esta não: {move} termina a partida com {got} em vez de {best}.',
  'pz.wrongUnknown': 'Esta não: {move} dá ao {other} a resposta {reply}; fica abaixo do melhor resultado ({best}).',
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
  'pz.win': 'uma vitória por {n}',
  'pz.winOne': 'uma vitória por 1 peça',
  'pz.draw': 'um empate',
  'pz.lose': 'uma derrota por {n}',
  'pz.loseOne': 'uma derrota por 1 peça',
  'pz.discs': '{n} peças',
  'theme.corner': 'cantos',
  'theme.edge': 'bordas',
  'theme.parity': 'paridade',
  'theme.wipeout': 'varrida',
  'theme.stability': 'peças estáveis',
  'theme.mobility': 'mobilidade',
  'theme.tempo': 'tempo (passar a vez)',
  'theme.quiet_move': 'jogadas silenciosas',
};

export const PUZZLE_STRINGS = { en, pt };

/** A puzzle-page text in the page's language, `{name}` filled from `params`. */
export function P(key, params) {
  const table = lang() === 'pt' ? pt : en;
  let s = table[key] !== undefined ? table[key] : en[key] !== undefined ? en[key] : key;
  if (params) {
    s = s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? (typeof params[name] === 'number' ? formatNumber(params[name]) : String(params[name])) : m));
  }
  return s;
}

/** A final result for the solver: "a win by 6 discs", "a draw", "a loss by 2 discs". */
export function resultText(score) {
  if (score === 0) return P('pz.draw');
  const n = Math.abs(score);
  if (n === 1) return P(score > 0 ? 'pz.winOne' : 'pz.loseOne');
  return P(score > 0 ? 'pz.win' : 'pz.lose', { n: P('pz.discs', { n }) });
}

/** Moves as text ("b7, pass, a8"). */
export function movesText(moves) {
  return moves.map((m) => (m === 'pass' ? P('pz.pass') : m)).join(', ');
}

/** A rating change with its sign ("+12", "−8"). */
export function deltaText(d) {
  return (d > 0 ? '+' : d < 0 ? '−' : '±') + formatNumber(Math.abs(d));
}
