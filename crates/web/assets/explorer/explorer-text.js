// @ts-check
// Text of the opening explorer in English and Brazilian Portuguese. Results are Black's, as
// the tables of tournament statistics give them; numbers go through formatNumber.

import { addTexts } from '../core/i18n.js';

const en = {
  'ex.title': 'Opening explorer',
  'ex.desc': 'What tournament players chose here: the WTHOR database’s games, the first {plies} moves, with transpositions and turned boards counted together.',
  'ex.start': 'Start',
  'ex.line': 'Moves so far',
  'ex.games': '{n, plural, one {# game} other {# games}}',
  'ex.summary': '{games} · Black won {wins}, drew {draws}, lost {losses} · Black’s score {score}% · Black’s average {avg}',
  'ex.opening': 'Opening: {name}',
  'ex.noOpening': 'No named opening yet.',
  'ex.book': 'Book value for Black: {value} (search of {depth} plies)',
  'ex.bookExact': 'Book value for Black: {value} (proven)',
  'ex.unknown': '{n, plural, one {No tournament game reached this position.} other {Fewer than # tournament games reached this position: it is not in the explorer.}}',
  'ex.over': 'The game is over.',
  'ex.col.move': 'Move',
  'ex.col.games': 'Games',
  'ex.col.score': 'Black’s score',
  'ex.col.avg': 'Black’s average',
  'ex.col.book': 'Book (Black)',
  'ex.col.opening': 'Opening',
  'ex.col.players': 'Strongest players who chose it',
  'ex.sameAs': 'same as {squares}',
  'ex.bookOnly': 'book only',
  'ex.player': '{name} ({elo})',
  'ex.noPlayers': '—',
  'ex.playMove': 'Explore after {move}',
  'ex.source': 'Source: {source} (WTHOR, the French Othello Federation’s database). Players are ranked by an Elo rating computed over the database (start 1500, K 20, from 20 games). Book values are Virada’s searched values.',
  'ex.open': 'Opening explorer',
  'ex.illegal': 'The line of moves in the address cannot be played: {square} is not a legal move there.',
  'ex.badLine': 'The line of moves in the address cannot be read: write at most {max} moves from the start, as f5d6c3.',
};

const pt = {
  'ex.title': 'Explorador de aberturas',
  'ex.desc': 'O que jogadores de torneio escolheram aqui: as partidas da base WTHOR, as primeiras {plies} jogadas, com transposições e tabuleiros girados contados juntos.',
  'ex.start': 'Início',
  'ex.line': 'Jogadas até aqui',
  'ex.games': '{n, plural, one {# partida} other {# partidas}}',
  'ex.summary': '{games} · o Preto venceu {wins}, empatou {draws}, perdeu {losses} · aproveitamento do Preto {score}% · média do Preto {avg}',
  'ex.opening': 'Abertura: {name}',
  'ex.noOpening': 'Ainda sem abertura com nome.',
  'ex.book': 'Valor do livro para o Preto: {value} (busca de {depth} lances)',
  'ex.bookExact': 'Valor do livro para o Preto: {value} (provado)',
  'ex.unknown': '{n, plural, one {Nenhuma partida de torneio chegou a esta posição.} other {Menos de # partidas de torneio chegaram a esta posição: ela não está no explorador.}}',
  'ex.over': 'A partida terminou.',
  'ex.col.move': 'Jogada',
  'ex.col.games': 'Partidas',
  'ex.col.score': 'Aproveitamento do Preto',
  'ex.col.avg': 'Média do Preto',
  'ex.col.book': 'Livro (Preto)',
  'ex.col.opening': 'Abertura',
  'ex.col.players': 'Jogadores mais fortes que a escolheram',
  'ex.sameAs': 'o mesmo que {squares}',
  'ex.bookOnly': 'só no livro',
  'ex.player': '{name} ({elo})',
  'ex.noPlayers': '—',
  'ex.playMove': 'Explorar depois de {move}',
  'ex.source': 'Fonte: {source} (WTHOR, a base da Federação Francesa de Othello). Os jogadores são ordenados por um rating Elo calculado sobre a base (início 1500, K 20, a partir de 20 partidas). Os valores do livro são buscas do Virada.',
  'ex.open': 'Explorador de aberturas',
  'ex.illegal': 'A sequência de jogadas do endereço não pode ser jogada: {square} não é uma jogada válida ali.',
  'ex.badLine': 'A sequência de jogadas do endereço não pode ser lida: escreva no máximo {max} jogadas desde o início, como f5d6c3.',
};

export const EXPLORER_TEXTS = { en, pt };
addTexts('explorer', EXPLORER_TEXTS);
