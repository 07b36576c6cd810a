// @ts-check
// Text of the practice pages (your own mistakes played again) in English and Brazilian
// Portuguese. The analysis panel's button and notices are in core/i18n.js.

import { addTexts } from '../core/i18n.js';

const en = {
  'pr.title': 'Your mistakes',
  'pr.desc': 'Positions from your reviewed games where a move lost 4 discs or more. Find a better move, with the coach’s words as a hint. Practice is never rated.',
  'pr.open': 'Practise',
  'pr.list': 'Your mistakes',
  'pr.none': 'No practice sets yet. After a game, open its analysis and choose “Practise these mistakes”.',
  'pr.set': '{color}, game of {date}: {n, plural, one {# position} other {# positions}}',
  'pr.delete': 'Delete',
  'pr.kept.guest': 'Kept for this browser (at most {max} sets). Sign up or sign in and they move to your account.',
  'pr.kept.account': 'Kept on your account (at most {max} sets; a new one replaces the oldest).',
  'pr.back': 'All practice sets',
  'pr.missing': 'This practice set is not here any more.',
  'pr.itemTitle': 'Your mistake: move {label}',
  'pr.idea': 'In the game you played {played} here and lost {loss}. Find a better move: any move within {margin} of the engine’s best counts.',
  'pr.task': 'Find a better move.',
  'pr.rightBest': 'Right! {move} is the better move of the review.',
  'pr.right': 'Right! {move} is within {margin} of the best move.',
  'pr.played': '{move} is the move you played in the game: it lost {loss}.',
  'pr.wrong': 'Not this one: {move} loses more than {margin} against the best move.',
  'pr.hint': 'Hint',
  'pr.hintNone': 'The coach has no sentence for this one: look at what each move gives your opponent (corners, moves, quiet squares).',
  'pr.done': 'Practice complete: {done} of {total} found.',
};

const pt = {
  'pr.title': 'Seus erros',
  'pr.desc': 'Posições das suas partidas analisadas em que uma jogada perdeu 4 peças ou mais. Encontre uma jogada melhor, com as palavras do treinador como dica. A prática nunca vale rating.',
  'pr.open': 'Praticar',
  'pr.list': 'Seus erros',
  'pr.none': 'Ainda não há conjuntos para praticar. Depois de uma partida, abra a análise e escolha “Praticar estes erros”.',
  'pr.set': '{color}, partida de {date}: {n, plural, one {# posição} other {# posições}}',
  'pr.delete': 'Apagar',
  'pr.kept.guest': 'Guardados para este navegador (no máximo {max} conjuntos). Crie uma conta ou entre nela e eles passam para a sua conta.',
  'pr.kept.account': 'Guardados na sua conta (no máximo {max} conjuntos; um novo substitui o mais antigo).',
  'pr.back': 'Todos os conjuntos',
  'pr.missing': 'Este conjunto de prática não está mais aqui.',
  'pr.itemTitle': 'Seu erro: jogada {label}',
  'pr.idea': 'Na partida você jogou {played} aqui e perdeu {loss}. Encontre uma jogada melhor: vale qualquer jogada a até {margin} da melhor do motor.',
  'pr.task': 'Encontre uma jogada melhor.',
  'pr.rightBest': 'Certo! {move} é a jogada melhor da análise.',
  'pr.right': 'Certo! {move} fica a até {margin} da melhor jogada.',
  'pr.played': '{move} é a jogada que você fez na partida: ela perdeu {loss}.',
  'pr.wrong': 'Esta não: {move} perde mais de {margin} em relação à melhor jogada.',
  'pr.hint': 'Dica',
  'pr.hintNone': 'O treinador não tem uma frase para esta: veja o que cada jogada dá ao adversário (cantos, jogadas, casas quietas).',
  'pr.done': 'Prática concluída: {done} de {total} encontradas.',
};

export const PRACTICE_TEXTS = { en, pt };
addTexts('practice', PRACTICE_TEXTS);
