// @ts-check
// The rules page, in English and Brazilian Portuguese, written for this project.
// Diagrams use 64-character boards: X black, O white, - empty, * a marked empty square.

const START = '---------------------------OX------XO---------------------------';
// Black plays d3 from the start: the white disc on d4 is bracketed by d3 and d5 and flips.
const AFTER_D3 = '-------------------X-------XX------XO---------------------------';
const LEGAL_START = '-------------------*------*OX------XO*------*-------------------';

function mini(board, label) {
  let cells = '';
  for (const c of board) cells += `<span class="${c === 'X' ? 'b' : c === 'O' ? 'w' : c === '*' ? 'm' : ''}"></span>`;
  return `<div class="mini-board" role="img" aria-label="${label}">${cells}</div>`;
}

const en = () => `
<h1>Rules of Reversi / Othello</h1>
<p>Reversi (sold as Othello) is a game for two players, Black and White, on a board of 8 × 8 squares.
Each disc is black on one side and white on the other. The aim is simple: have more discs of your
colour than your opponent when the game ends.</p>

<h2>The board and how squares are named</h2>
<p>Columns are the letters <strong>a</strong> to <strong>h</strong> from left to right; rows are the
numbers <strong>1</strong> to <strong>8</strong> from the <em>top</em> down. So <code>a1</code> is the
top-left corner and <code>h8</code> the bottom-right one. A game is written as the list of its moves:
<code>f5d6c3d3c4…</code> (this is the "transcript" you can copy and paste in the app).</p>

<h2>Starting position</h2>
<p>Four discs start in the middle: black on <code>d5</code> and <code>e4</code>, white on <code>d4</code>
and <code>e5</code>. <strong>Black moves first.</strong> Black has four possible first moves
(<code>d3</code>, <code>c4</code>, <code>f5</code>, <code>e6</code>, the marked squares below), and they are all the same move seen in a mirror.</p>
${mini(LEGAL_START, 'Starting position with the four legal first moves marked')}

<h2>Making a move</h2>
<p>On your turn you place one disc of your colour on an empty square so that it <strong>brackets</strong>
at least one line of your opponent's discs: a straight, unbroken row of their discs (across, up or down,
or diagonally) with your new disc at one end and another of your discs at the other end.</p>
<p>Every bracketed disc is <strong>flipped</strong> to your colour, in all eight directions at once. You
cannot choose to leave some unflipped. Only lines that end at the disc you just placed flip: discs that
changed colour do not start new flips, and a line stops at the first empty square.</p>
<p>If a square would flip nothing, you cannot play there, even if it is empty.</p>
${mini(AFTER_D3, 'After Black plays d3: the disc on d4 has turned black')}
<p>Example: from the start, Black plays <code>d3</code>. The white disc on <code>d4</code> sits between
<code>d3</code> and Black's <code>d5</code>, so it turns black. Black now has 4 discs, White 1.</p>

<h2>Passing</h2>
<p>If you have no legal move, you must <strong>pass</strong> and your opponent plays again. This can
happen at any moment of the game, more than once in a row. If you do have a legal move you may not
pass. The app passes for you automatically and tells you so.</p>

<h2>End of the game</h2>
<p>The game ends when <strong>neither</strong> player can move: usually when the board is full,
sometimes earlier with empty squares left, for example when one side has lost all its discs.</p>

<h2>Scoring</h2>
<p>Count the discs: whoever has more wins; equal counts are a draw.</p>
<p>Tournaments (and this app, by default) use the <strong>World Othello Federation</strong> score: if
empty squares remain at the end, they are all added to the <strong>winner's</strong> total, so the two
numbers always add up to 64. A draw with empty squares is split equally.</p>
<table>
  <thead><tr><th>On the board</th><th>Empty</th><th>Score</th></tr></thead>
  <tbody>
    <tr><td>Black 33, White 31</td><td>0</td><td>33–31</td></tr>
    <tr><td>Black 32, White 29</td><td>3</td><td>35–29</td></tr>
    <tr><td>Black 30, White 30</td><td>4</td><td>32–32 (draw)</td></tr>
    <tr><td>Black 0, White 40</td><td>24</td><td>0–64 (a wipe-out)</td></tr>
  </tbody>
</table>

<h2>XOT openings</h2>
<p>In XOT the game starts from a randomly drawn opening of 8 moves that is known to be balanced: 12
discs are already on the board and Black moves. Everything else is the same. Because the opening is
new every time, memorised opening lines help much less.</p>

<h2>Words players use</h2>
<dl>
  <dt>Corners (a1, h1, a8, h8)</dt><dd>A disc in a corner can never be flipped. Corners are precious.</dd>
  <dt>X-squares (b2, g2, b7, g7)</dt><dd>The squares diagonally next to a corner. Playing one while the
  corner is empty usually hands that corner to your opponent.</dd>
  <dt>C-squares (b1, g1, a2, h2, a7, h7, b8, g8)</dt><dd>The edge squares next to a corner: risky in the
  same way, a little less.</dd>
  <dt>Mobility</dt><dd>How many legal moves you have. Early on it is often better to have fewer discs and
  more moves; the player who runs out of good moves has to give something away.</dd>
  <dt>Stable discs</dt><dd>Discs that can never be flipped again, typically built out from a corner along
  the edges. They are the ones that count at the end.</dd>
  <dt>Parity</dt><dd>Near the end, the board splits into separate empty regions. Whoever gets the last
  move in a region usually gains from it.</dd>
</dl>
`;

const pt = () => `
<h1>Regras do Reversi / Othello</h1>
<p>O Reversi (vendido com o nome de Othello) é um jogo para duas pessoas, o Preto e o Branco, num
tabuleiro de 8 × 8 casas. Cada peça tem um lado preto e outro branco. O objetivo é simples: terminar a
partida com mais peças da sua cor do que o adversário.</p>

<h2>O tabuleiro e o nome das casas</h2>
<p>As colunas são as letras de <strong>a</strong> a <strong>h</strong>, da esquerda para a direita; as
linhas são os números de <strong>1</strong> a <strong>8</strong>, de <em>cima</em> para baixo. Assim,
<code>a1</code> é o canto de cima à esquerda e <code>h8</code> o canto de baixo à direita. Uma partida
se escreve como a lista das jogadas: <code>f5d6c3d3c4…</code> (é o "registro" que você pode copiar e
colar no aplicativo).</p>

<h2>Posição inicial</h2>
<p>Quatro peças começam no centro: pretas em <code>d5</code> e <code>e4</code>, brancas em
<code>d4</code> e <code>e5</code>. <strong>O Preto começa.</strong> Ele tem quatro primeiras jogadas
possíveis (<code>d3</code>, <code>c4</code>, <code>f5</code>, <code>e6</code>, as casas marcadas abaixo), e todas são a mesma
jogada vista num espelho.</p>
${mini(LEGAL_START, 'Posição inicial com as quatro primeiras jogadas válidas marcadas')}

<h2>Como jogar</h2>
<p>Na sua vez, você coloca uma peça da sua cor numa casa vazia de modo a <strong>cercar</strong> (ou
flanquear) pelo menos uma linha de peças do adversário: uma fileira reta e contínua de peças dele (na
horizontal, na vertical ou na diagonal) com a sua peça nova numa ponta e outra peça sua na outra.</p>
<p>Todas as peças cercadas <strong>viram</strong> para a sua cor, nas oito direções ao mesmo tempo. Não
dá para escolher deixar alguma sem virar. Só viram as linhas que terminam na peça que você acabou de
colocar: peças que mudaram de cor não provocam novas viradas, e uma linha para na primeira casa vazia.</p>
<p>Se uma casa não vira nenhuma peça, não é uma jogada válida, mesmo estando vazia.</p>
${mini(AFTER_D3, 'Depois de o Preto jogar d3: a peça de d4 ficou preta')}
<p>Exemplo: na posição inicial, o Preto joga <code>d3</code>. A peça branca de <code>d4</code> fica
entre <code>d3</code> e a peça preta de <code>d5</code>, então vira preta. O Preto fica com 4 peças e o
Branco com 1.</p>

<h2>Passar a vez</h2>
<p>Se você não tem nenhuma jogada válida, precisa <strong>passar a vez</strong>, e o adversário joga de
novo. Isso pode acontecer em qualquer momento da partida, até várias vezes seguidas. Quem tem jogada
válida não pode passar. O aplicativo passa a vez por você automaticamente e avisa.</p>

<h2>Fim de jogo</h2>
<p>A partida termina quando <strong>nenhum</strong> dos dois consegue jogar: normalmente com o tabuleiro
cheio, às vezes antes, com casas vazias, por exemplo quando um lado perdeu todas as peças.</p>

<h2>Placar</h2>
<p>Contam-se as peças: quem tiver mais vence; número igual é empate.</p>
<p>Nos torneios (e neste aplicativo, por padrão) vale o placar da <strong>Federação Mundial de
Othello</strong> (WOF): se sobrarem casas vazias no fim, todas são somadas ao <strong>vencedor</strong>,
e por isso os dois números sempre somam 64. Num empate com casas vazias, elas são divididas igualmente.</p>
<table>
  <thead><tr><th>No tabuleiro</th><th>Vazias</th><th>Placar</th></tr></thead>
  <tbody>
    <tr><td>Preto 33, Branco 31</td><td>0</td><td>33–31</td></tr>
    <tr><td>Preto 32, Branco 29</td><td>3</td><td>35–29</td></tr>
    <tr><td>Preto 30, Branco 30</td><td>4</td><td>32–32 (empate)</td></tr>
    <tr><td>Preto 0, Branco 40</td><td>24</td><td>0–64 (uma varrida)</td></tr>
  </tbody>
</table>

<h2>Aberturas XOT</h2>
<p>No XOT a partida começa a partir de uma abertura de 8 jogadas sorteada de uma lista de aberturas
equilibradas: já há 12 peças no tabuleiro e é a vez do Preto. O resto é igual. Como a abertura muda a
cada partida, decorar linhas de abertura ajuda bem menos.</p>

<h2>Vocabulário dos jogadores</h2>
<dl>
  <dt>Cantos (a1, h1, a8, h8)</dt><dd>Uma peça no canto nunca pode ser virada. Cantos valem ouro.</dd>
  <dt>Casas X (b2, g2, b7, g7)</dt><dd>As casas na diagonal ao lado de um canto. Jogar numa delas com o
  canto vazio costuma entregar o canto ao adversário.</dd>
  <dt>Casas C (b1, g1, a2, h2, a7, h7, b8, g8)</dt><dd>As casas da borda vizinhas a um canto: arriscadas
  do mesmo jeito, um pouco menos.</dd>
  <dt>Mobilidade</dt><dd>Quantas jogadas válidas você tem. No começo, muitas vezes é melhor ter menos
  peças e mais jogadas: quem fica sem boas jogadas acaba tendo que entregar alguma coisa.</dd>
  <dt>Peças estáveis</dt><dd>Peças que nunca mais podem ser viradas, em geral construídas a partir de um
  canto ao longo das bordas. São elas que contam no fim.</dd>
  <dt>Paridade</dt><dd>Perto do fim, o tabuleiro se divide em regiões vazias separadas. Quem faz a
  última jogada numa região costuma sair ganhando.</dd>
</dl>
`;

/** The rules page for `lang` ('en' or 'pt'). */
export function rulesHtml(lang) {
  return lang === 'pt' ? pt() : en();
}

export const BOARDS = { START, AFTER_D3, LEGAL_START };
