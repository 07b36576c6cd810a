// @ts-check
// Text of the learning pages (tutorial and lessons) in English and Brazilian Portuguese, in the
// rule sheets' vocabulary (peças, jogadas, casas, canto, casas X/C, mobilidade, paridade...).
// Kept apart from i18n.js so the game page does not load it.

import { addTexts, lang, t } from '../core/i18n.js';

const en = {
  'learn.title': 'Learn',
  'learn.intro': 'Learn the rules in a minute on the board, then the ideas strong players use, one lesson at a time.',
  'learn.tutorial': 'Learn in a minute',
  'learn.tutorialDesc': 'Five small positions: placing and flipping, several directions at once, a square that is not a move, passing, and the final count.',
  'learn.tutorialDone': 'Done',
  'learn.start': 'Start',
  'learn.lessons': 'Lessons',
  'learn.progress': '{done} of {total} solved',
  'learn.back': 'All lessons',
  'learn.step': 'Step {n} of {total}',
  'learn.position': 'Position {n} of {total}',
  'learn.retry': 'Try again',
  'learn.next': 'Next',
  'learn.finish': 'Finish',
  'learn.showAnswer': 'Show the answer',
  'learn.answerIs': 'The answer: {squares}.',
  'learn.toMove': '{color} to move: you play {color}.',
  'learn.task': 'Find the move this idea calls for.',
  'learn.notMove.white': '{square} flips nothing: no line of white discs runs from it to one of your discs. A square that flips nothing is not a move.',
  'learn.notMove.black': '{square} flips nothing: no line of black discs runs from it to one of your discs. A square that flips nothing is not a move.',
  'learn.right': 'Right!',
  'learn.wrong': 'Not this one.',
  'learn.lessonDone': 'Lesson complete: {done} of {total} positions solved.',
  'learn.source': 'From a tournament game (WTHOR {year}, game {game}, before move {move}).',
  'learn.failed': 'The server did not answer; try again.',
  'learn.play': 'Play a game',
  'learn.discs': '{n, plural, one {# disc} other {# discs}}',

  'tut.1.title': 'Place and flip',
  'tut.1.task': 'Black to move. A move puts a disc where it closes a line of white discs between it and another black disc. The marked square is the only one here: play it.',
  'tut.1.done': '{move} brackets {flipped} between your new disc and c4: they flip to black. Black now has {black} discs, White {white}.',
  'tut.2.title': 'Several directions at once',
  'tut.2.task': 'Black to move. Find the move that flips discs in more than one direction at once.',
  'tut.2.done': '{move} flips {flipped}: {dirs} directions at once. Every bracketed line flips, not only one.',
  'tut.2.wrong': '{move} flips only {flipped}, in one direction. Look for an empty square where several lines of white discs meet.',
  'tut.3.title': 'A square that flips nothing',
  'tut.3.task': 'The start of a game, Black to move. The marked square c5 touches a white disc. Try to play there.',
  'tut.3.notYet': '{move} is a real move; first try the marked square c5.',
  'tut.3.tried': 'c5 flips nothing: the white disc d4 next to it has an empty square behind it (e3), not a black disc. A square that flips nothing is not a move.',
  'tut.3.task2': 'Now play one of Black’s real moves (there are four).',
  'tut.3.done': '{move} flips {flipped}: a real move.',
  'tut.4.title': 'Passing',
  'tut.4.task': 'Black to move. Play the only move, d4, and watch what White can do after it.',
  'tut.4.passed': 'White has no legal move: no empty square closes a line of black discs against a white one. White must pass, and Black plays again.',
  'tut.4.task2': 'Black again: play another move.',
  'tut.4.done': 'Passing is never a choice: a player with a legal move must play it; one without passes.',
  'tut.5.title': 'The end and the count',
  'tut.5.task': 'Black to move. Play the only move and look at the count.',
  'tut.5.done': 'Neither side can move, so the game is over with {empties} empty squares. Black has {black} discs and White {white}; the empty squares go to the winner, so the score is {bs}–{ws}.',
  'tut.complete': 'You know the rules! Play a game, or learn the ideas strong players use in the lessons.',
};

const pt = {
  'learn.title': 'Aprender',
  'learn.intro': 'Aprenda as regras em um minuto no tabuleiro e depois as ideias dos jogadores fortes, uma lição de cada vez.',
  'learn.tutorial': 'Um minuto para aprender',
  'learn.tutorialDesc': 'Cinco posições pequenas: colocar e virar, várias direções de uma vez, uma casa que não é jogada, passar a vez e a contagem final.',
  'learn.tutorialDone': 'Feito',
  'learn.start': 'Começar',
  'learn.lessons': 'Lições',
  'learn.progress': '{done} de {total} resolvidas',
  'learn.back': 'Todas as lições',
  'learn.step': 'Passo {n} de {total}',
  'learn.position': 'Posição {n} de {total}',
  'learn.retry': 'Tentar de novo',
  'learn.next': 'Próxima',
  'learn.finish': 'Concluir',
  'learn.showAnswer': 'Mostrar a resposta',
  'learn.answerIs': 'A resposta: {squares}.',
  'learn.toMove': 'Vez do {color}: você joga com o {color}.',
  'learn.task': 'Encontre a jogada que esta ideia pede.',
  'learn.notMove.white': '{square} não vira nenhuma peça: nenhuma linha de peças brancas vai dela até uma peça sua. Uma casa que não vira nada não é jogada.',
  'learn.notMove.black': '{square} não vira nenhuma peça: nenhuma linha de peças pretas vai dela até uma peça sua. Uma casa que não vira nada não é jogada.',
  'learn.right': 'Certo!',
  'learn.wrong': 'Esta não.',
  'learn.lessonDone': 'Lição concluída: {done} de {total} posições resolvidas.',
  'learn.source': 'De uma partida de torneio (WTHOR {year}, partida {game}, antes da jogada {move}).',
  'learn.failed': 'O servidor não respondeu; tente de novo.',
  'learn.play': 'Jogar uma partida',
  'learn.discs': '{n, plural, one {# peça} other {# peças}}',

  'tut.1.title': 'Colocar e virar',
  'tut.1.task': 'Vez do Preto. Uma jogada coloca uma peça onde ela fecha uma linha de peças brancas entre ela e outra peça preta. A casa marcada é a única aqui: jogue nela.',
  'tut.1.done': '{move} cerca {flipped} entre a sua peça nova e c4: elas viram pretas. Agora o Preto tem {black} peças e o Branco {white}.',
  'tut.2.title': 'Várias direções de uma vez',
  'tut.2.task': 'Vez do Preto. Encontre a jogada que vira peças em mais de uma direção ao mesmo tempo.',
  'tut.2.done': '{move} vira {flipped}: {dirs} direções de uma vez. Toda linha cercada vira, não só uma.',
  'tut.2.wrong': '{move} vira só {flipped}, numa direção. Procure uma casa vazia onde várias linhas de peças brancas se encontram.',
  'tut.3.title': 'Uma casa que não vira nada',
  'tut.3.task': 'O início de uma partida, vez do Preto. A casa marcada c5 encosta numa peça branca. Tente jogar ali.',
  'tut.3.notYet': '{move} é uma jogada válida; primeiro tente a casa marcada c5.',
  'tut.3.tried': 'c5 não vira nada: atrás da peça branca d4, ao lado dela, há uma casa vazia (e3), e não uma peça preta. Uma casa que não vira nenhuma peça não é jogada.',
  'tut.3.task2': 'Agora faça uma das jogadas válidas do Preto (são quatro).',
  'tut.3.done': '{move} vira {flipped}: uma jogada válida.',
  'tut.4.title': 'Passar a vez',
  'tut.4.task': 'Vez do Preto. Faça a única jogada, d4, e veja o que o Branco pode fazer depois.',
  'tut.4.passed': 'O Branco não tem jogada válida: nenhuma casa vazia fecha uma linha de peças pretas contra uma branca. O Branco passa a vez, e o Preto joga de novo.',
  'tut.4.task2': 'O Preto de novo: faça outra jogada.',
  'tut.4.done': 'Passar a vez nunca é escolha: quem tem jogada válida precisa jogar; quem não tem, passa.',
  'tut.5.title': 'O fim e a contagem',
  'tut.5.task': 'Vez do Preto. Faça a única jogada e veja a contagem.',
  'tut.5.done': 'Nenhum dos dois pode jogar, então a partida termina com {empties} casas vazias. O Preto tem {black} peças e o Branco {white}; as casas vazias vão para o vencedor, e o placar fica {bs}–{ws}.',
  'tut.complete': 'Você já sabe as regras! Jogue uma partida ou aprenda nas lições as ideias dos jogadores fortes.',
};

export const LEARN_TEXTS = { en, pt };
addTexts('learn', LEARN_TEXTS);

/** "3 discs" / "3,5 peças" with one decimal at most. */
export function discs(n) {
  return t('learn.discs', { n: Math.round(n * 10) / 10 });
}

/** A list of squares: "c4, d4 and e4" / "c4, d4 e e4". */
export function squareList(squares) {
  const and = lang() === 'pt' ? ' e ' : ' and ';
  if (squares.length <= 1) return squares.join('');
  return squares.slice(0, -1).join(', ') + and + squares[squares.length - 1];
}
