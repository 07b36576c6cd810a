// @ts-check
// UI text in English and Brazilian Portuguese. Portuguese follows the vocabulary of RULES.md
// (Preto/Branco, casa, jogada válida, passar a vez, canto, casas X/C, mobilidade, paridade...).

const en = {
  'app.tagline': 'Reversi / Othello',
  'nav.play': 'Play',
  'nav.skip': 'Skip to the board',
  'nav.games': 'Saved games',
  'nav.rules': 'Rules',
  'nav.menu': 'Menu',
  'nav.learn': 'Learn',
  'learnOffer.text': 'New to Othello? Learn the rules in a minute, on the board.',
  'learnOffer.start': 'Learn in a minute',
  'learnOffer.no': 'No, thanks',
  'nav.language': 'Language',
  'nav.theme': 'Theme',
  'theme.light': 'Light theme',
  'theme.dark': 'Dark theme',
  'theme.auto': 'Theme follows the system',
  'settings.title': 'Settings',
  'settings.palette': 'Board colours',
  'palette.green': 'Green',
  'palette.blue': 'Blue',
  'palette.wood': 'Wood',
  'palette.contrast': 'High contrast',
  'settings.speed': 'Flips',
  'speed.off': 'Instant',
  'speed.fast': 'Fast',
  'speed.normal': 'Normal',
  'speed.slow': 'Slow',
  'settings.speedHelp': 'With “reduce motion” set in your system, flips are always instant.',
  'settings.sounds': 'Sounds in games on this device (each move)',
  'keys.title': 'Keyboard shortcuts',
  'keys.type': 'Type a square to play it (a–h, then 1–8)',
  'keys.arrowsBoard': 'On the board: move between the squares',
  'keys.space': 'Space',
  'keys.enter': 'On the board: play the square',
  'keys.homeEnd': 'On the board: first or last square of the row',
  'keys.arrowsMoves': 'Off the board: step back and forward through the moves',
  'keys.tab': 'The first Tab offers “Skip to the board”',
  'keys.help': 'This list',
  'keys.esc': 'Close a window like this one',
  'lang.switch': 'Português',
  'lang.switchShort': 'PT',
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
  'status.record': 'A game record: step through it with ◀ ▶ or analyse it',
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

  'counts.label': '{black, plural, one {# black disc} other {# black discs}}, {white, plural, one {# white disc} other {# white discs}}',
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
  'share.copyLink': 'Copy replay link',
  'share.copied': 'Replay link copied: whoever opens it gets a copy of this game to step through (not this game itself).',
  'share.openFile': 'Open a game file…',
  'share.tooLong': 'That file is too long to be a game (at most 32 KB).',
  'player.first': 'player 1',
  'player.second': 'player 2',
  'wthor.title': 'Games in the file',
  'wthor.summary': '{file}: {count, plural, one {# game} other {# games}} of {year} (in brackets, the players\' numbers).',
  'wthor.choose': 'Choose a game (arrows, then Enter)',
  'wthor.open': 'Open the game',
  'wthor.players': '({black} × {white})',
  'wthor.game': '{n}. {black}–{white}, {moves} moves {players}',
  'wthor.broken': '{n}. unreadable from move {ply} {players}',
  'wthor.tooLong': 'That WTHOR file is too large (at most 1 MB).',
  'wthor.badAt': 'The game file could not be read ({where}).',
  'setup.format.wthor': 'WTHOR file',
  'setup.byte': 'byte {n}',
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
  'nav.label': 'Step through the moves',
  'nav.first': 'First position',
  'nav.prev': 'Previous move',
  'nav.next': 'Next move',
  'nav.last': 'Last position',
  'nav.where': 'Move {ply} of {count}',
  'nav.start': 'Start of {count, plural, one {# move} other {# moves}}',

  'over.title': 'Game over',
  'over.winner': '{color} wins',
  'over.youWin': 'You win!',
  'over.youLose': 'The computer wins.',
  'over.draw': 'Draw',
  'over.score': 'Score {black}–{white}',
  'over.discs': 'Discs on the board: {black}–{white} ({empties, plural, one {the # empty square goes} other {the # empty squares go}} to the winner)',
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
  'new.xot': 'XOT: a balanced random 8‑move opening',
  'new.setup': 'A position I paste',
  'new.setupHelp':
    'Paste a transcript (f5d6c3…), a board of 64 characters (X black, O white, - empty) followed by the side to move, or a GGF game record.',
  'new.editor': 'A position I set up on a board',
  'editor.paint': 'A click on a square puts',
  'editor.paintBlack': 'Black',
  'editor.paintWhite': 'White',
  'editor.paintEmpty': 'Empty',
  'editor.board': 'Board to set up',
  'editor.standard': 'Standard start',
  'editor.clear': 'Clear the board',
  'editor.toMove': 'To move',
  'editor.emptySquare': 'empty',
  'editor.counts': '{black} black, {white} white.',
  'editor.empty': 'Put some discs on the board first.',
  'editor.noMoves': 'Neither side has a legal move here: the game would be over before it starts.',
  'editor.passFirst': '{color} has no legal move here and passes; {other} plays first.',
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
  'analysis.mistake': '{n} {move} lost {loss}; better was {best}.',
  'analysis.discs': '{n, plural, one {# disc} other {# discs}}',
  'analysis.none': 'No moves to analyse yet.',
  'analysis.incomplete': 'The engine was busy: this review is shallower than usual. Open the analysis again for a full one.',
  'analysis.accuracy': 'Accuracy',
  'analysis.player': 'Player',
  'analysis.meanLoss': 'Mean loss a move',
  'analysis.bestShare': 'Best moves',
  'analysis.bestShareValue': '{pct}% ({best} of {moves})',
  'analysis.eval': 'Evaluation',
  'analysis.evalValue': '{color} ahead by {value}',
  'analysis.evalEven': 'Even',
  'analysis.evalStart': 'The start: no evaluation',
  'analysis.evalLabel': 'Evaluation bar: black part is Black’s share',
  'analysis.legend': 'On the board: ✕ the move played, ★ the better move, yellow squares the reason.',
  'analysis.line': 'Better line',
  'analysis.playedLine': 'After {move}',
  'analysis.atAfter': '(after {moves})',
  'analysis.atBefore': '(before the move)',
  'analysis.lines': 'Which line',
  'analysis.lineStep': 'Move {step} of {total}',
  'analysis.lineStart': 'The position before the mistake',
  'analysis.back': '◀ Back',
  'analysis.forward': 'Forward ▶',
  'analysis.tryAgain': 'Try again from here',
  'analysis.tryAgainHelp': 'A new game against the computer from the position before this move.',
  'analysis.lineFailed': 'Could not replay the line.',
  'analysis.practice': 'Practise these mistakes',
  'analysis.practiceBusy': 'Preparing the practice…',
  'analysis.practiceNone': 'The engine’s re-check confirmed no mistake of 4 discs or more: nothing to practise.',
  'mark.played': 'the move played',
  'mark.best': 'the better move',
  'mark.coach': 'named by the explanation',
  'mark.target': 'the square asked about',
  'mark.right': 'right answer',
  'mark.wrong': 'wrong answer',

  'games.title': 'Saved games',
  'games.ongoing': 'Unfinished games',
  'games.finished': 'Finished games',
  'games.empty': 'None yet.',
  'games.vsComputer': 'vs computer (level {level}), you are {color}',
  'games.vsFriend': 'two players on this device',
  'games.plies': '{n, plural, one {# move} other {# moves}}',
  'games.confirmDelete': 'Delete this game?',

  'error.generic': 'Something went wrong: {message}',
  'error.network': 'The server cannot be reached.',
  'error.illegal_move': 'That move is not legal.',
  'error.not_your_turn': 'Wait: it is not your turn.',
  'error.game_over': 'The game is over.',
  'error.not_found': 'That game no longer exists.',
  'error.bad_request': 'The text could not be read.',
  'error.code': 'Something went wrong (error “{code}”).',
  'error.unexpected': 'Something went wrong.',
  'error.payload_too_large': 'That is too long for the server.',
  'error.request_timeout': 'The request took too long; try again.',
  'error.engine_busy': 'The computer is busy with other games; try again in a moment.',
  'error.too_many_computer_moves': 'You already have {max} games waiting for the computer to move; wait for one of them.',
  'error.invisible_character': 'That text contains an invisible or formatting character ({char}); remove it.',
  'error.blank_text': 'That text looks blank: write some letters, digits or symbols.',
  'error.finished_position': 'That position is finished: nobody has a move left, so there is no game to play.',
  'error.corrupt_game': 'This saved game is damaged and cannot be opened; you can delete it.',
  'error.internal': 'The server had a problem; try again.',
  'setup.empty': 'Paste a game or a position first.',
  'setup.bad': 'The game text could not be read.',
  'setup.badAt': 'The game text could not be read ({where}).',
  'setup.format.transcript': 'transcript',
  'setup.format.board': 'board string',
  'setup.format.obf': 'OBF line',
  'setup.format.ggf': 'GGF record',
  'setup.line': 'line {n}',
  'setup.column': 'character {n}',
  'setup.square': 'square {n}',
  'setup.ply': 'move {n}',

  'new.online': 'A friend, online',
  'new.timeControl': 'Time control',
  'new.onlineHelp': 'You get a link to send to your friend; the game starts when they take the other seat.',
  'tc.none': 'No clock',
  'tc.custom': 'Custom',
  'tc.correspondence': 'Correspondence',
  'tc.presetsHelp': 'Minutes for the whole game + seconds added after each move. Takebacks only without a clock or by correspondence.',
  'tc.minutes': 'Minutes',
  'tc.increment': 'Increment (seconds)',
  'tc.days': 'Days per move',
  'tc.badMinutes': 'Minutes: a whole number from 1 to 180.',
  'tc.badIncrement': 'Increment: a whole number of seconds from 0 to 180.',
  'tc.badDays': 'Days per move: a whole number from 1 to 14.',
  'tc.showNone': 'no clock',
  'tc.showClock': '{minutes}+{increment}',
  'tc.showDays': '{days, plural, one {# day} other {# days}} per move',
  'tc.computerHelp': 'Minutes for the whole game + seconds added after each move. Each side\'s clock starts with its first move (the computer\'s runs while it thinks); no undo with a clock.',
  'local.you': 'You',
  'local.computer': 'The computer',

  'online.title': 'Online game',
  'online.yourName': 'Your name',
  'online.badName': 'Your name: 1 to 24 characters.',
  'online.create': 'Create and get the link',
  'online.waiting': 'Waiting for your opponent',
  'online.inviteTitle': 'Invite your opponent',
  'online.seatFree': 'A seat is free',
  'online.sendLink': 'Send this link to your friend:',
  'online.copyLink': 'Copy link',
  'online.linkCopied': 'Link copied.',
  'online.share': 'Share…',
  'online.shareText': 'Play Reversi with me on Virada',
  'online.invited': '{name} invites you to a game ({tc}); you would play {color}.',
  'online.takeSeat': 'Take the seat',
  'online.seatTaken': 'Both seats are taken: you are watching this game.',
  'online.watching': 'You are watching',
  'online.spectators': '{n, plural, =0 {nobody watching} one {# watching} other {# watching}}',
  'online.you': 'you',
  'online.freeSeat': 'free seat',
  'online.toMove': '{name} to move ({color})',
  'online.presenceOnline': '{name} is online',
  'online.presenceReconnecting': '{name} is reconnecting…',
  'online.presenceLeftNow': '{name} left just now',
  'online.presenceLeft': '{name} left {n} min ago',
  'online.presenceLeftHours': '{name} left {n} h ago',
  'online.presenceDot.online': 'online',
  'online.presenceDot.reconnecting': 'reconnecting',
  'online.presenceDot.left': 'away',
  'online.accept': 'Accept',
  'online.decline': 'Decline',
  'online.resign': 'Resign',
  'online.resignConfirm': 'Resign this game?',
  'online.resignYes': 'Yes, resign',
  'online.resignNo': 'Keep playing',
  'online.abort': 'Abort',
  'online.takeback': 'Ask to take back',
  'online.takebackAsked': '{name} asks to take back the last move.',
  'online.takebackSent': 'Takeback asked; waiting for {name}.',
  'online.rematch': 'Rematch',
  'online.acceptRematch': 'Accept the rematch',
  'online.rematchOffered': '{name} offers a rematch with colours swapped.',
  'online.rematchSent': 'Rematch offered; waiting for {name}.',
  'online.watchRematch': 'Watch the rematch',
  'online.device': 'Continue on another device',
  'online.deviceLabel': 'Open this private link on your other device (valid 24 hours, once). Do not share it: it gives your seat.',
  'online.sound': 'Sound when it is my move',
  'online.titleYourMove': 'Your move',
  'online.joinInvalid': 'This link is not valid any more (it works once, for 24 hours).',

  'chat.title': 'Chat',
  'chat.label': 'Message',
  'chat.placeholder': 'Say something…',
  'chat.send': 'Send',
  'chat.limit': '{n}/200 characters · at most 5 messages in 10 seconds',
  'chat.none': 'No messages yet.',

  'clock.label': 'Clock of {color}: {time}',
  'clock.firstMove': '{color}: {n, plural, one {# second} other {# seconds}} left to make a first move, or the game is aborted (no result). The clock starts with it.',
  'clock.firstMoveHours': '{color}: {n, plural, one {# hour} other {# hours}} left to make a first move, or the game is aborted (no result).',
  'announce.move': '{color} played {square}, {n, plural, one {# disc} other {# discs}} flipped',
  'announce.pass': '{color} passed',

  'over.nameWins': '{name} wins',
  'over.youLoseOnline': '{name} wins. You lose.',
  'over.aborted': 'Game aborted: no result.',
  'over.reason.time': '{name} lost on time.',
  'over.rating': 'Your rating: {after} ({change}).',
  'over.reason.resign': '{name} resigned.',
  'over.reason.deadline': '{name} ran out of days for a move.',
  'games.online': '{black} (Black) vs {white} (White)',
  'games.onlineBadge': 'online',
  'games.onlineGame': 'a game against a friend, online',
  'games.end.time': 'on time',
  'games.end.resign': 'by resignation',
  'games.end.deadline': 'out of days',
  'games.end.abort': 'aborted',

  'error.stale': 'The game had moved on; this is its current position.',
  'error.not_your_seat': 'You do not hold a seat in this game: you are watching.',
  'error.seat_taken': 'Both seats are taken: you are watching this game.',
  'error.too_many_requests': 'Too many messages at once; wait a moment.',
  'error.bad_message': 'The server did not understand the message.',
  'error.not_allowed': 'That is not possible now.',
  'error.takeback_not_allowed': 'Takebacks are only for games without a clock or by correspondence.',

  'rules.title': 'Rules of Reversi / Othello',
};

const pt = {
  'app.tagline': 'Reversi / Othello',
  'nav.play': 'Jogar',
  'nav.skip': 'Pular para o tabuleiro',
  'nav.games': 'Partidas salvas',
  'nav.rules': 'Regras',
  'nav.menu': 'Menu',
  'nav.learn': 'Aprender',
  'learnOffer.text': 'Novo no Othello? Aprenda as regras em um minuto, no tabuleiro.',
  'learnOffer.start': 'Um minuto para aprender',
  'learnOffer.no': 'Não, obrigado',
  'nav.language': 'Idioma',
  'nav.theme': 'Tema',
  'theme.light': 'Tema claro',
  'theme.dark': 'Tema escuro',
  'theme.auto': 'Tema segue o sistema',
  'settings.title': 'Configurações',
  'settings.palette': 'Cores do tabuleiro',
  'palette.green': 'Verde',
  'palette.blue': 'Azul',
  'palette.wood': 'Madeira',
  'palette.contrast': 'Alto contraste',
  'settings.speed': 'Viradas das peças',
  'speed.off': 'Instantâneas',
  'speed.fast': 'Rápidas',
  'speed.normal': 'Normais',
  'speed.slow': 'Lentas',
  'settings.speedHelp': 'Com “reduzir movimento” ativado no seu sistema, as viradas são sempre instantâneas.',
  'settings.sounds': 'Sons nas partidas neste aparelho (cada jogada)',
  'keys.title': 'Atalhos de teclado',
  'keys.type': 'Digite uma casa para jogar nela (a–h, depois 1–8)',
  'keys.arrowsBoard': 'No tabuleiro: andar entre as casas',
  'keys.space': 'Espaço',
  'keys.enter': 'No tabuleiro: jogar na casa',
  'keys.homeEnd': 'No tabuleiro: primeira ou última casa da linha',
  'keys.arrowsMoves': 'Fora do tabuleiro: voltar e avançar pelas jogadas',
  'keys.tab': 'O primeiro Tab oferece “Pular para o tabuleiro”',
  'keys.help': 'Esta lista',
  'keys.esc': 'Fechar uma janela como esta',
  'lang.switch': 'English',
  'lang.switchShort': 'EN',
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
  'status.record': 'Registro de partida: percorra com ◀ ▶ ou analise',
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

  'counts.label': '{black, plural, one {# peça preta} other {# peças pretas}}, {white, plural, one {# peça branca} other {# peças brancas}}',
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
  'share.copyLink': 'Copiar link do replay',
  'share.copied': 'Link do replay copiado: quem abrir recebe uma cópia desta partida para rever (não esta partida).',
  'share.openFile': 'Abrir arquivo de partida…',
  'share.tooLong': 'Esse arquivo é longo demais para ser uma partida (no máximo 32 KB).',
  'player.first': 'jogador 1',
  'player.second': 'jogador 2',
  'wthor.title': 'Partidas do arquivo',
  'wthor.summary': '{file}: {count, plural, one {# partida} other {# partidas}} de {year} (entre parênteses, os números dos jogadores).',
  'wthor.choose': 'Escolha uma partida (setas, depois Enter)',
  'wthor.open': 'Abrir a partida',
  'wthor.players': '({black} × {white})',
  'wthor.game': '{n}. {black}–{white}, {moves} jogadas {players}',
  'wthor.broken': '{n}. ilegível a partir da jogada {ply} {players}',
  'wthor.tooLong': 'Esse arquivo WTHOR é grande demais (no máximo 1 MB).',
  'wthor.badAt': 'Não foi possível ler o arquivo de partidas ({where}).',
  'setup.format.wthor': 'arquivo WTHOR',
  'setup.byte': 'byte {n}',
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
  'nav.label': 'Percorrer as jogadas',
  'nav.first': 'Posição inicial',
  'nav.prev': 'Jogada anterior',
  'nav.next': 'Próxima jogada',
  'nav.last': 'Última posição',
  'nav.where': 'Jogada {ply} de {count}',
  'nav.start': 'Início de {count, plural, one {# jogada} other {# jogadas}}',

  'over.title': 'Fim de jogo',
  'over.winner': 'Vitória do {color}',
  'over.youWin': 'Você venceu!',
  'over.youLose': 'O computador venceu.',
  'over.draw': 'Empate',
  'over.score': 'Placar {black}–{white}',
  'over.discs': 'Peças no tabuleiro: {black}–{white} ({empties, plural, one {a # casa vazia vai} other {as # casas vazias vão}} para o vencedor)',
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
  'new.xot': 'XOT: uma abertura equilibrada de 8 jogadas, sorteada',
  'new.setup': 'Uma posição que eu colar',
  'new.setupHelp':
    'Cole um registro (f5d6c3…), um tabuleiro de 64 caracteres (X preta, O branca, - vazia) seguido de quem joga, ou uma partida em GGF.',
  'new.editor': 'Uma posição que eu monto num tabuleiro',
  'editor.paint': 'Um clique numa casa coloca',
  'editor.paintBlack': 'Preta',
  'editor.paintWhite': 'Branca',
  'editor.paintEmpty': 'Vazia',
  'editor.board': 'Tabuleiro para montar',
  'editor.standard': 'Posição inicial',
  'editor.clear': 'Limpar o tabuleiro',
  'editor.toMove': 'Quem joga',
  'editor.emptySquare': 'vazia',
  'editor.counts': '{black} pretas, {white} brancas.',
  'editor.empty': 'Coloque algumas peças no tabuleiro primeiro.',
  'editor.noMoves': 'Nenhum dos lados tem jogada válida aqui: a partida terminaria antes de começar.',
  'editor.passFirst': '{color} não tem jogada válida aqui e passa a vez; {other} joga primeiro.',
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
  'analysis.mistake': '{n} {move} perdeu {loss}; melhor era {best}.',
  'analysis.discs': '{n, plural, one {# peça} other {# peças}}',
  'analysis.none': 'Ainda não há jogadas para analisar.',
  'analysis.incomplete': 'O motor estava ocupado: esta análise é mais rasa do que o normal. Abra a análise de novo para uma completa.',
  'analysis.accuracy': 'Precisão',
  'analysis.player': 'Jogador',
  'analysis.meanLoss': 'Perda média por jogada',
  'analysis.bestShare': 'Melhores jogadas',
  'analysis.bestShareValue': '{pct}% ({best} de {moves})',
  'analysis.eval': 'Avaliação',
  'analysis.evalValue': '{color} na frente por {value}',
  'analysis.evalEven': 'Equilibrado',
  'analysis.evalStart': 'O início: sem avaliação',
  'analysis.evalLabel': 'Barra de avaliação: a parte preta é a do Preto',
  'analysis.legend': 'No tabuleiro: ✕ a jogada feita, ★ a melhor jogada, casas amarelas o motivo.',
  'analysis.line': 'Melhor sequência',
  'analysis.playedLine': 'Depois de {move}',
  'analysis.atAfter': '(depois de {moves})',
  'analysis.atBefore': '(antes da jogada)',
  'analysis.lines': 'Qual sequência',
  'analysis.lineStep': 'Jogada {step} de {total}',
  'analysis.lineStart': 'A posição antes do erro',
  'analysis.back': '◀ Voltar',
  'analysis.forward': 'Avançar ▶',
  'analysis.tryAgain': 'Tentar de novo daqui',
  'analysis.tryAgainHelp': 'Uma nova partida contra o computador a partir da posição antes desta jogada.',
  'analysis.lineFailed': 'Não deu para reproduzir a sequência.',
  'analysis.practice': 'Praticar estes erros',
  'analysis.practiceBusy': 'Preparando a prática…',
  'analysis.practiceNone': 'A nova verificação do motor não confirmou nenhum erro de 4 peças ou mais: nada para praticar.',
  'mark.played': 'a jogada feita',
  'mark.best': 'a melhor jogada',
  'mark.coach': 'citada na explicação',
  'mark.target': 'a casa da pergunta',
  'mark.right': 'resposta certa',
  'mark.wrong': 'resposta errada',

  'games.title': 'Partidas salvas',
  'games.ongoing': 'Partidas em andamento',
  'games.finished': 'Partidas terminadas',
  'games.empty': 'Nenhuma ainda.',
  'games.vsComputer': 'contra o computador (nível {level}), você de {color}',
  'games.vsFriend': 'dois jogadores neste aparelho',
  'games.plies': '{n, plural, one {# jogada} other {# jogadas}}',
  'games.confirmDelete': 'Apagar esta partida?',

  'error.generic': 'Algo deu errado: {message}',
  'error.network': 'Não foi possível falar com o servidor.',
  'error.illegal_move': 'Essa jogada não é válida.',
  'error.not_your_turn': 'Espere: não é a sua vez.',
  'error.game_over': 'A partida já terminou.',
  'error.not_found': 'Essa partida não existe mais.',
  'error.bad_request': 'Não foi possível ler o texto.',
  'error.code': 'Algo deu errado (erro “{code}”).',
  'error.unexpected': 'Algo deu errado.',
  'error.payload_too_large': 'Isso é longo demais para o servidor.',
  'error.request_timeout': 'O pedido demorou demais; tente de novo.',
  'error.engine_busy': 'O computador está ocupado com outras partidas; tente de novo daqui a pouco.',
  'error.too_many_computer_moves': 'Você já tem {max} partidas esperando a jogada do computador; espere uma delas.',
  'error.invisible_character': 'O texto tem um caractere invisível ou de formatação ({char}); tire-o.',
  'error.blank_text': 'Esse texto parece vazio: escreva letras, números ou símbolos.',
  'error.finished_position': 'Essa posição já terminou: ninguém tem jogada, então não há partida a jogar.',
  'error.corrupt_game': 'Esta partida salva está danificada e não pode ser aberta; você pode apagá-la.',
  'error.internal': 'O servidor teve um problema; tente de novo.',
  'setup.empty': 'Cole primeiro uma partida ou uma posição.',
  'setup.bad': 'Não foi possível ler o texto da partida.',
  'setup.badAt': 'Não foi possível ler o texto da partida ({where}).',
  'setup.format.transcript': 'registro',
  'setup.format.board': 'texto do tabuleiro',
  'setup.format.obf': 'linha OBF',
  'setup.format.ggf': 'registro GGF',
  'setup.line': 'linha {n}',
  'setup.column': 'caractere {n}',
  'setup.square': 'casa {n}',
  'setup.ply': 'jogada {n}',

  'new.online': 'Um amigo, on-line',
  'new.timeControl': 'Controle de tempo',
  'new.onlineHelp': 'Você recebe um link para mandar ao seu amigo; a partida começa quando ele ocupar o outro lugar.',
  'tc.none': 'Sem relógio',
  'tc.custom': 'Personalizado',
  'tc.correspondence': 'Por correspondência',
  'tc.presetsHelp': 'Minutos para a partida inteira + segundos somados depois de cada jogada. Voltar jogada só sem relógio ou por correspondência.',
  'tc.minutes': 'Minutos',
  'tc.increment': 'Incremento (segundos)',
  'tc.days': 'Dias por jogada',
  'tc.badMinutes': 'Minutos: um número inteiro de 1 a 180.',
  'tc.badIncrement': 'Incremento: um número inteiro de segundos de 0 a 180.',
  'tc.badDays': 'Dias por jogada: um número inteiro de 1 a 14.',
  'tc.showNone': 'sem relógio',
  'tc.showClock': '{minutes}+{increment}',
  'tc.showDays': '{days, plural, one {# dia} other {# dias}} por jogada',
  'tc.computerHelp': 'Minutos para a partida inteira + segundos somados depois de cada jogada. O relógio de cada lado começa com o seu primeiro lance (o do computador corre enquanto ele pensa); sem desfazer com relógio.',
  'local.you': 'Você',
  'local.computer': 'O computador',

  'online.title': 'Partida on-line',
  'online.yourName': 'Seu nome',
  'online.badName': 'Seu nome: de 1 a 24 caracteres.',
  'online.create': 'Criar e pegar o link',
  'online.waiting': 'Esperando o seu adversário',
  'online.inviteTitle': 'Convide o seu adversário',
  'online.seatFree': 'Há um lugar livre',
  'online.sendLink': 'Mande este link para o seu amigo:',
  'online.copyLink': 'Copiar link',
  'online.linkCopied': 'Link copiado.',
  'online.share': 'Compartilhar…',
  'online.shareText': 'Jogue Reversi comigo no Virada',
  'online.invited': '{name} convida você para uma partida ({tc}); você jogaria com {color}.',
  'online.takeSeat': 'Ocupar o lugar',
  'online.seatTaken': 'Os dois lugares estão ocupados: você está assistindo a esta partida.',
  'online.watching': 'Você está assistindo',
  'online.spectators': '{n, plural, =0 {ninguém assistindo} one {# assistindo} other {# assistindo}}',
  'online.you': 'você',
  'online.freeSeat': 'lugar livre',
  'online.toMove': 'Vez de {name} ({color})',
  'online.presenceOnline': '{name} está on-line',
  'online.presenceReconnecting': '{name} está reconectando…',
  'online.presenceLeftNow': '{name} saiu agora há pouco',
  'online.presenceLeft': '{name} saiu há {n} min',
  'online.presenceLeftHours': '{name} saiu há {n} h',
  'online.presenceDot.online': 'on-line',
  'online.presenceDot.reconnecting': 'reconectando',
  'online.presenceDot.left': 'ausente',
  'online.accept': 'Aceitar',
  'online.decline': 'Recusar',
  'online.resign': 'Desistir',
  'online.resignConfirm': 'Desistir desta partida?',
  'online.resignYes': 'Sim, desistir',
  'online.resignNo': 'Continuar jogando',
  'online.abort': 'Cancelar a partida',
  'online.takeback': 'Pedir para voltar',
  'online.takebackAsked': '{name} pede para voltar a última jogada.',
  'online.takebackSent': 'Pedido para voltar enviado; esperando {name}.',
  'online.rematch': 'Revanche',
  'online.acceptRematch': 'Aceitar a revanche',
  'online.rematchOffered': '{name} propõe uma revanche, com as cores trocadas.',
  'online.rematchSent': 'Revanche proposta; esperando {name}.',
  'online.watchRematch': 'Assistir à revanche',
  'online.device': 'Continuar em outro aparelho',
  'online.deviceLabel': 'Abra este link particular no seu outro aparelho (vale 24 horas, uma vez). Não o compartilhe: ele dá o seu lugar.',
  'online.sound': 'Som quando for a minha vez',
  'online.titleYourMove': 'Sua vez',
  'online.joinInvalid': 'Este link não vale mais (funciona uma vez, por 24 horas).',

  'chat.title': 'Conversa',
  'chat.label': 'Mensagem',
  'chat.placeholder': 'Diga alguma coisa…',
  'chat.send': 'Enviar',
  'chat.limit': '{n}/200 caracteres · no máximo 5 mensagens em 10 segundos',
  'chat.none': 'Nenhuma mensagem ainda.',

  'clock.label': 'Relógio do {color}: {time}',
  'clock.firstMove': '{color}: {n, plural, one {# segundo} other {# segundos}} para fazer o primeiro lance, ou a partida é cancelada (sem resultado). O relógio começa com ele.',
  'clock.firstMoveHours': '{color}: {n, plural, one {# hora} other {# horas}} para fazer o primeiro lance, ou a partida é cancelada (sem resultado).',
  'announce.move': '{color} jogou {square}, {n, plural, one {# peça virada} other {# peças viradas}}',
  'announce.pass': '{color} passou a vez',

  'over.nameWins': 'Vitória de {name}',
  'over.youLoseOnline': 'Vitória de {name}. Você perdeu.',
  'over.aborted': 'Partida cancelada: sem resultado.',
  'over.reason.time': '{name} perdeu por tempo.',
  'over.rating': 'Seu rating: {after} ({change}).',
  'over.reason.resign': '{name} desistiu.',
  'over.reason.deadline': '{name} esgotou os dias para jogar.',
  'games.online': '{black} (Preto) x {white} (Branco)',
  'games.onlineBadge': 'on-line',
  'games.onlineGame': 'uma partida contra um amigo, on-line',
  'games.end.time': 'por tempo',
  'games.end.resign': 'por desistência',
  'games.end.deadline': 'sem dias',
  'games.end.abort': 'anulada',

  'error.stale': 'A partida tinha mudado; esta é a posição atual.',
  'error.not_your_seat': 'Você não ocupa um lugar nesta partida: está assistindo.',
  'error.seat_taken': 'Os dois lugares estão ocupados: você está assistindo a esta partida.',
  'error.too_many_requests': 'Mensagens demais de uma vez; espere um pouco.',
  'error.bad_message': 'O servidor não entendeu a mensagem.',
  'error.not_allowed': 'Isso não é possível agora.',
  'error.takeback_not_allowed': 'Voltar jogada só vale em partidas sem relógio ou por correspondência.',

  'rules.title': 'Regras do Reversi / Othello',
};

// One table for every text of the app, by language. Each text module adds its texts with
// `addTexts` when it is loaded (the learning and puzzle pages load theirs with their page), and
// `t` reads them all.
const TABLES = { en: {}, pt: {} };
/** Which module added each key (a key added twice is a mistake, reported at once). */
const OWNERS = new Map();
/** The texts of each module as it added them, for the parity test. */
const MODULES = new Map();

/**
 * Adds the texts of module `name` (`{ en, pt }`, the same keys in both) to the table `t` reads.
 * A key another module already added is refused: two meanings must not share a name.
 */
export function addTexts(name, texts) {
  for (const key of Object.keys(texts.en)) {
    if (OWNERS.has(key)) throw new Error(`text ${key} of ${name} is already defined by ${OWNERS.get(key)}`);
    OWNERS.set(key, name);
  }
  Object.assign(TABLES.en, texts.en);
  Object.assign(TABLES.pt, texts.pt);
  MODULES.set(name, texts);
}

/** Every module's texts as added (`name` → `{ en, pt }`), for tests. */
export function addedTexts() { return new Map(MODULES); }

addTexts('i18n', { en, pt });

const STORAGE_KEY = 'virada.lang';
/** @type {'en' | 'pt'} */
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
  document.documentElement.lang = LOCALES[current];
}

const LOCALES = { en: 'en', pt: 'pt-BR' };
/** Which plural form a number takes in each language (CLDR's rules, as the browser has them). */
const PLURALS = { en: new Intl.PluralRules('en'), pt: new Intl.PluralRules('pt-BR') };

/**
 * Translates `key` into the page's language (English if the key has no text there).
 *
 * In the text, `{name}` is `params.name` (numbers written the language's way), and
 * `{name, plural, one {…} other {…}}` is the form `Intl.PluralRules` picks for the number
 * `params.name` (`=0 {…}` matches that number exactly), where `#` is the number: "1 disc",
 * "2 discs"; "1 peça", "2 peças". A placeholder without a value stays as written.
 */
export function t(key, params, language = current) {
  const s = TABLES[language][key] ?? TABLES.en[key] ?? key;
  return fill(s, params || {}, language);
}

/** `text` with its placeholders filled (see `t`). */
export function fill(text, params, language = current) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open < 0) { out += text.slice(i); break; }
    out += text.slice(i, open);
    const close = closing(text, open);
    const inner = text.slice(open + 1, close);
    const plural = /^\s*(\w+)\s*,\s*plural\s*,([\s\S]*)$/.exec(inner);
    if (plural) out += pluralForm(plural[1], plural[2], params, language);
    else if (/^\w+$/.test(inner) && inner in params) out += paramText(params[inner], language);
    else out += text.slice(open, close + 1);
    i = close + 1;
  }
  return out;
}

/** The index of the `}` that closes the `{` at `open`. */
function closing(text, open) {
  let depth = 0;
  for (let j = open; j < text.length; j++) {
    if (text[j] === '{') depth++;
    else if (text[j] === '}' && --depth === 0) return j;
  }
  throw new Error(`unbalanced braces in ${JSON.stringify(text)}`);
}

/** The forms of a plural placeholder's body (`one {…} other {…}`): category → text. */
export function pluralForms(body) {
  const forms = new Map();
  const re = /\s*(=\d+|zero|one|two|few|many|other)\s*\{/y;
  let i = 0;
  while (i < body.length && body.slice(i).trim() !== '') {
    re.lastIndex = i;
    const m = re.exec(body);
    if (!m) throw new Error(`a plural form expected at ${JSON.stringify(body.slice(i))}`);
    const open = re.lastIndex - 1;
    const close = closing(body, open);
    forms.set(m[1], body.slice(open + 1, close));
    i = close + 1;
  }
  if (!forms.has('other')) throw new Error(`a plural without its "other" form: ${JSON.stringify(body)}`);
  return forms;
}

function pluralForm(name, body, params, language) {
  const forms = pluralForms(body);
  if (!(name in params)) return `{${name}}`;
  const n = Number(params[name]);
  const form = forms.get(`=${n}`) ?? forms.get(PLURALS[language].select(n)) ?? forms.get('other');
  return fill(form.replace(/#/g, paramText(n, language)), params, language);
}

function paramText(v, language) {
  return typeof v === 'number' ? formatNumber(v, 3, language) : String(v);
}

/** A number as the language writes it: "2.5" in English, "2,5" in Portuguese (no grouping). */
export function formatNumber(n, maxDigits = 3, language = current) {
  return new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: maxDigits, useGrouping: false }).format(n);
}

/** A rating change as players read it: "+12", "−8" (a minus sign, not a hyphen), "±0". */
export function signedRating(change) {
  const n = Math.round(change);
  if (n === 0) return '±0';
  return (n > 0 ? '+' : '−') + Math.abs(n);
}

export function colorName(color) { return t(color === 'black' ? 'color.black' : 'color.white'); }

/** Fills every element carrying data-i18n (text) or data-i18n-<attr> (attribute). */
export function translateDom(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n);
  for (const attr of ['aria-label', 'title', 'placeholder']) {
    const data = 'i18n' + attr.replace(/(^|-)(\w)/g, (m, d, c) => c.toUpperCase());
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) el.setAttribute(attr, t(/** @type {HTMLElement} */ (el).dataset[data]));
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
