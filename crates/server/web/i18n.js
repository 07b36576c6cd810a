// UI text in English and Brazilian Portuguese. Portuguese follows the vocabulary of RULES.md
// (Preto/Branco, casa, jogada válida, passar a vez, canto, casas X/C, mobilidade, paridade...).

const en = {
  'app.tagline': 'Reversi / Othello',
  'nav.play': 'Play',
  'nav.games': 'Saved games',
  'nav.rules': 'Rules',
  'nav.language': 'Language',
  'nav.theme': 'Theme',
  'theme.light': 'Light theme',
  'theme.dark': 'Dark theme',
  'theme.auto': 'Theme follows the system',
  'lang.switch': 'Português',
  'lang.switchLabel': 'Mudar para português',

  'color.black': 'Black',
  'color.white': 'White',
  'disc.black': 'black',
  'disc.white': 'white',
  'square.empty': 'empty',
  'square.legal': 'legal move',
  'square.last': 'last move',
  'square.hint': 'hint {value}',
  'square.best': 'best',
  'board.label': 'Board: columns a to h, rows 1 to 8 from the top',
  'board.help': 'Arrow keys move, Enter plays, or type a square such as d3.',

  'status.toMove': '{color} to move',
  'status.yourTurn': 'Your turn ({color})',
  'status.computerTurn': 'Computer to move ({color})',
  'status.thinking': 'Computer is thinking…',
  'status.thinkingDetail': 'depth {depth}, best so far {best} ({value})',
  'status.finished': 'Game over',
  'status.viewing': 'Viewing move {ply} of {total}',
  'status.viewingStart': 'Viewing the starting position',
  'status.backToGame': 'Back to the game',
  'status.noGame': 'No game yet. Start one!',
  'status.loading': 'Loading…',
  'notice.pass': '{color} has no legal move and passes.',
  'notice.passYou': 'You have no legal move and must pass. {other} plays again.',
  'notice.copied': 'Transcript copied.',
  'notice.copyFailed': 'Could not copy; select the text and copy it by hand.',
  'notice.undoComputer': 'Took back your last move and the computer’s reply.',
  'notice.stale': 'The game had moved on; this is its current position.',
  'live.reconnecting': 'Connection lost. Reconnecting…',

  'counts.label': '{black} black discs, {white} white discs',
  'player.you': 'you',
  'player.computer': 'computer',
  'player.friend': 'friend',

  'actions.newGame': 'New game',
  'actions.undo': 'Undo',
  'actions.redo': 'Redo',
  'actions.hints': 'Hints',
  'actions.legal': 'Show legal moves',
  'actions.analyse': 'Analyse',
  'actions.copy': 'Copy transcript',
  'actions.paste': 'Paste / set up',
  'actions.ggf': 'Download GGF',
  'actions.close': 'Close',
  'actions.start': 'Start game',
  'actions.cancel': 'Cancel',
  'actions.resume': 'Resume',
  'actions.review': 'Review',
  'actions.delete': 'Delete',
  'actions.refresh': 'Refresh',

  'moves.title': 'Moves',
  'moves.start': 'Start',
  'moves.startXot': 'Start: XOT opening {opening}',
  'moves.startSetup': 'Start: set-up position',
  'moves.pass': 'pass',
  'moves.none': 'No moves yet.',
  'moves.transcript': 'Transcript',

  'over.title': 'Game over',
  'over.winner': '{color} wins',
  'over.youWin': 'You win!',
  'over.youLose': 'The computer wins.',
  'over.draw': 'Draw',
  'over.score': 'Score {black}–{white}',
  'over.discs': 'Discs on the board: {black}–{white} (the {empties} empty squares go to the winner)',
  'over.wipeout': 'Wipe-out!',

  'new.title': 'New game',
  'new.opponent': 'Opponent',
  'new.computer': 'The computer',
  'new.friend': 'A friend on this device',
  'new.level': 'Level',
  'new.color': 'You play',
  'new.random': 'Random',
  'new.start': 'Start from',
  'new.standard': 'The standard position',
  'new.xot': 'XOT: a balanced random 8-move opening',
  'new.setup': 'A position I paste',
  'new.setupHelp':
    'Paste a transcript (f5d6c3…), a board of 64 characters (X black, O white, - empty) followed by the side to move, or a GGF game record.',
  'new.setupLabel': 'Game text',

  'hint.title': 'Hints',
  'hint.loading': 'Computing hints…',
  'hint.legend': 'Numbers are the final disc margin the engine expects for each move (best one highlighted).',
  'hint.exact': 'exact',
  'hint.book': 'book',
  'hint.bookLegend': 'Values marked “book” come from the opening book (deep searches of known openings).',
  'opening.name': 'Opening: {name}',
  'analysis.book': 'by the opening book',

  'analysis.title': 'Analysis',
  'analysis.loading': 'Analysing the game… this can take a few seconds.',
  'analysis.graph': 'Evaluation for Black after each move',
  'analysis.graphDesc': 'Above the middle line Black is ahead, below it White is ahead.',
  'analysis.mistakes': 'Mistakes of {color}',
  'analysis.noMistakes': 'No mistakes found.',
  'analysis.mistake': '{n}. {move} lost {loss}; better was {best}.',
  'analysis.discs': '{n} discs',
  'analysis.disc': '1 disc',
  'analysis.none': 'No moves to analyse yet.',
  'analysis.incomplete': 'The engine was busy: this review is shallower than usual. Open the analysis again for a full one.',
  'tag.corner_given': 'it gave the opponent a corner',
  'tag.x_square': 'it played an X-square next to an empty corner',
  'tag.c_square': 'it played a C-square next to an empty corner',
  'tag.mobility': 'it lost mobility (the opponent got more moves)',
  'tag.parity': 'it lost parity (the opponent gets the last move in a region)',
  'tag.wipeout_risk': 'it risked being wiped out',

  'games.title': 'Saved games',
  'games.ongoing': 'Unfinished games',
  'games.finished': 'Finished games',
  'games.empty': 'None yet.',
  'games.vsComputer': 'vs computer (level {level}), you are {color}',
  'games.vsFriend': 'two players on this device',
  'games.plies': '{n} moves',
  'games.confirmDelete': 'Delete this game?',

  'error.generic': 'Something went wrong: {message}',
  'error.network': 'The server cannot be reached.',
  'error.illegal_move': 'That move is not legal.',
  'error.not_your_turn': 'Wait: it is not your turn.',
  'error.game_over': 'The game is over.',
  'error.not_found': 'That game no longer exists.',
  'error.bad_request': 'The text could not be read.',

  'rules.title': 'Rules of Reversi / Othello',
};

const pt = {
  'app.tagline': 'Reversi / Othello',
  'nav.play': 'Jogar',
  'nav.games': 'Partidas salvas',
  'nav.rules': 'Regras',
  'nav.language': 'Idioma',
  'nav.theme': 'Tema',
  'theme.light': 'Tema claro',
  'theme.dark': 'Tema escuro',
  'theme.auto': 'Tema segue o sistema',
  'lang.switch': 'English',
  'lang.switchLabel': 'Switch to English',

  'color.black': 'Preto',
  'color.white': 'Branco',
  'disc.black': 'preta',
  'disc.white': 'branca',
  'square.empty': 'vazia',
  'square.legal': 'jogada válida',
  'square.last': 'última jogada',
  'square.hint': 'dica {value}',
  'square.best': 'melhor',
  'board.label': 'Tabuleiro: colunas de a a h, linhas de 1 a 8 a partir do alto',
  'board.help': 'Use as setas para andar e Enter para jogar, ou digite uma casa como d3.',

  'status.toMove': 'Vez do {color}',
  'status.yourTurn': 'Sua vez ({color})',
  'status.computerTurn': 'Vez do computador ({color})',
  'status.thinking': 'O computador está pensando…',
  'status.thinkingDetail': 'profundidade {depth}, melhor até agora {best} ({value})',
  'status.finished': 'Fim de jogo',
  'status.viewing': 'Vendo a jogada {ply} de {total}',
  'status.viewingStart': 'Vendo a posição inicial',
  'status.backToGame': 'Voltar à partida',
  'status.noGame': 'Nenhuma partida ainda. Comece uma!',
  'status.loading': 'Carregando…',
  'notice.pass': 'O {color} não tem jogada válida e passa a vez.',
  'notice.passYou': 'Você não tem jogada válida e passa a vez. O {other} joga de novo.',
  'notice.copied': 'Registro copiado.',
  'notice.copyFailed': 'Não deu para copiar; selecione o texto e copie à mão.',
  'notice.undoComputer': 'Sua última jogada e a resposta do computador foram desfeitas.',
  'notice.stale': 'A partida tinha mudado; esta é a posição atual.',
  'live.reconnecting': 'Conexão perdida. Reconectando…',

  'counts.label': '{black} peças pretas, {white} peças brancas',
  'player.you': 'você',
  'player.computer': 'computador',
  'player.friend': 'amigo',

  'actions.newGame': 'Nova partida',
  'actions.undo': 'Desfazer',
  'actions.redo': 'Refazer',
  'actions.hints': 'Dicas',
  'actions.legal': 'Mostrar jogadas válidas',
  'actions.analyse': 'Analisar',
  'actions.copy': 'Copiar registro',
  'actions.paste': 'Colar / montar',
  'actions.ggf': 'Baixar GGF',
  'actions.close': 'Fechar',
  'actions.start': 'Começar',
  'actions.cancel': 'Cancelar',
  'actions.resume': 'Continuar',
  'actions.review': 'Rever',
  'actions.delete': 'Apagar',
  'actions.refresh': 'Atualizar',

  'moves.title': 'Jogadas',
  'moves.start': 'Início',
  'moves.startXot': 'Início: abertura XOT {opening}',
  'moves.startSetup': 'Início: posição montada',
  'moves.pass': 'passa',
  'moves.none': 'Nenhuma jogada ainda.',
  'moves.transcript': 'Registro',

  'over.title': 'Fim de jogo',
  'over.winner': 'Vitória do {color}',
  'over.youWin': 'Você venceu!',
  'over.youLose': 'O computador venceu.',
  'over.draw': 'Empate',
  'over.score': 'Placar {black}–{white}',
  'over.discs': 'Peças no tabuleiro: {black}–{white} (as {empties} casas vazias vão para o vencedor)',
  'over.wipeout': 'Varrida!',

  'new.title': 'Nova partida',
  'new.opponent': 'Adversário',
  'new.computer': 'O computador',
  'new.friend': 'Um amigo, neste aparelho',
  'new.level': 'Nível',
  'new.color': 'Você joga com',
  'new.random': 'Sorteio',
  'new.start': 'Começar de',
  'new.standard': 'A posição inicial padrão',
  'new.xot': 'XOT: uma abertura equilibrada de 8 lances, sorteada',
  'new.setup': 'Uma posição que eu colar',
  'new.setupHelp':
    'Cole um registro (f5d6c3…), um tabuleiro de 64 caracteres (X preta, O branca, - vazia) seguido de quem joga, ou uma partida em GGF.',
  'new.setupLabel': 'Texto da partida',

  'hint.title': 'Dicas',
  'hint.loading': 'Calculando as dicas…',
  'hint.legend': 'Os números mostram a margem final de peças que o motor espera para cada jogada (a melhor fica destacada).',
  'hint.exact': 'exato',
  'hint.book': 'livro',
  'hint.bookLegend': 'Valores marcados com “livro” vêm do livro de aberturas (buscas profundas das aberturas conhecidas).',
  'opening.name': 'Abertura: {name}',
  'analysis.book': 'pelo livro de aberturas',

  'analysis.title': 'Análise',
  'analysis.loading': 'Analisando a partida… isso pode levar alguns segundos.',
  'analysis.graph': 'Avaliação para o Preto depois de cada jogada',
  'analysis.graphDesc': 'Acima da linha do meio o Preto está na frente; abaixo, o Branco.',
  'analysis.mistakes': 'Erros do {color}',
  'analysis.noMistakes': 'Nenhum erro encontrado.',
  'analysis.mistake': '{n}. {move} perdeu {loss}; melhor era {best}.',
  'analysis.discs': '{n} peças',
  'analysis.disc': '1 peça',
  'analysis.none': 'Ainda não há jogadas para analisar.',
  'analysis.incomplete': 'O motor estava ocupado: esta análise é mais rasa do que o normal. Abra a análise de novo para uma completa.',
  'tag.corner_given': 'entregou um canto ao adversário',
  'tag.x_square': 'jogou numa casa X com o canto vazio',
  'tag.c_square': 'jogou numa casa C com o canto vazio',
  'tag.mobility': 'perdeu mobilidade (o adversário ficou com mais jogadas)',
  'tag.parity': 'perdeu a paridade (o adversário fica com a última jogada da região)',
  'tag.wipeout_risk': 'arriscou levar uma varrida',

  'games.title': 'Partidas salvas',
  'games.ongoing': 'Partidas em andamento',
  'games.finished': 'Partidas terminadas',
  'games.empty': 'Nenhuma ainda.',
  'games.vsComputer': 'contra o computador (nível {level}), você de {color}',
  'games.vsFriend': 'dois jogadores neste aparelho',
  'games.plies': '{n} jogadas',
  'games.confirmDelete': 'Apagar esta partida?',

  'error.generic': 'Algo deu errado: {message}',
  'error.network': 'Não foi possível falar com o servidor.',
  'error.illegal_move': 'Essa jogada não é válida.',
  'error.not_your_turn': 'Espere: não é a sua vez.',
  'error.game_over': 'A partida já terminou.',
  'error.not_found': 'Essa partida não existe mais.',
  'error.bad_request': 'Não foi possível ler o texto.',

  'rules.title': 'Regras do Reversi / Othello',
};

export const STRINGS = { en, pt };
const STORAGE_KEY = 'virada.lang';
let current = 'en';

/** Picks the saved language, else the browser's first language we have. */
export function initLanguage() {
  const saved = safeGet(STORAGE_KEY);
  if (saved === 'en' || saved === 'pt') {
    current = saved;
  } else {
    const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
    current = 'en';
    for (const l of prefs) {
      const tag = String(l).toLowerCase();
      if (tag.startsWith('pt')) { current = 'pt'; break; }
      if (tag.startsWith('en')) break;
    }
  }
  applyLangAttr();
  return current;
}

export function lang() { return current; }

/** Switches and remembers the language. */
export function setLanguage(code) {
  current = code === 'pt' ? 'pt' : 'en';
  safeSet(STORAGE_KEY, current);
  applyLangAttr();
}

function applyLangAttr() {
  document.documentElement.lang = current === 'pt' ? 'pt-BR' : 'en';
}

/** Translates `key`, filling `{name}` placeholders from `params`. */
export function t(key, params) {
  let s = STRINGS[current][key];
  if (s === undefined) s = en[key] !== undefined ? en[key] : key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return s;
}

export function colorName(color) { return t(color === 'black' ? 'color.black' : 'color.white'); }

/** Fills every element carrying data-i18n (text) or data-i18n-<attr> (attribute). */
export function translateDom(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const attr of ['aria-label', 'title', 'placeholder']) {
    const data = 'i18n' + attr.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase());
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) el.setAttribute(attr, t(el.dataset[data]));
  }
}

export function safeGet(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}
export function safeSet(key, value) {
  try {
    if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
  } catch { /* storage disabled: the choice just is not remembered */ }
}
