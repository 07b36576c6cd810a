// @ts-check
// Text of the safety controls (block, report, chat off) and of the computer levels' ratings in
// English and Brazilian Portuguese, added to the page's tables (i18n.js) when this module loads.

import { addTexts } from '../core/i18n.js';

const en = {
  'safety.chatOff': 'Chat off',
  'safety.chatOffHelp': 'You see no chat. Kept for every game (on this device for a guest).',
  'safety.youChatOff': 'Your chat is off.',
  'safety.theyChatOff': 'Your opponent turned chat off.',
  'safety.block': 'Block {name}',
  'safety.unblock': 'Unblock {name}',
  'safety.blocked': 'You blocked {name}: you get none of their chat, and neither of you can join the other’s games.',
  'safety.unblocked': 'You unblocked {name}.',
  'safety.report': 'Report {name}',
  'safety.reportLine': 'Report this message',
  'safety.blockAsk': 'Block {name}? You will get none of their chat, and neither of you can join the other’s games or be paired together. You can unblock them from your account.',
  'safety.blockYes': 'Block',
  'safety.blockedList': 'Blocked players',
  'safety.noBlocks': 'You block nobody.',
  'error.invalid_reason': 'That is not one of the reasons offered.',
  'safety.reported': 'Thank you: the report is kept for review.',
  'safety.needAccount': 'Sign in to block or report a player.',
  'bots.rating': 'Rating as a bot: {rating} (±{rd})',
  'bots.rated': 'Rated game against this level (needs a clock)',
  'error.blocked': 'You cannot play this player: one of you blocked the other.',
  'error.no_such_player': 'No player is called {name}.',
  'error.cannot_block_yourself': 'You cannot block yourself.',
  'error.not_blocked': 'You do not block {name}.',
  'error.too_many_blocks': 'You already block {max} players: unblock one first.',
  'error.too_many_reports': 'At most {max} reports a day.',
  'error.banned': 'This account is banned: {reason}',
  'error.admin_only': 'Only an admin may do this.',
};

const pt = {
  'safety.chatOff': 'Conversa desligada',
  'safety.chatOffHelp': 'Você não vê a conversa. Vale para todas as partidas (neste aparelho, para quem joga sem conta).',
  'safety.youChatOff': 'Sua conversa está desligada.',
  'safety.theyChatOff': 'Seu adversário desligou a conversa.',
  'safety.block': 'Bloquear {name}',
  'safety.unblock': 'Desbloquear {name}',
  'safety.blocked': 'Você bloqueou {name}: não recebe mais as mensagens dessa pessoa, e nenhum dos dois pode entrar nas partidas do outro.',
  'safety.unblocked': 'Você desbloqueou {name}.',
  'safety.report': 'Denunciar {name}',
  'safety.reportLine': 'Denunciar esta mensagem',
  'safety.blockAsk': 'Bloquear {name}? Você não recebe mais as mensagens dessa pessoa, e nenhum dos dois pode entrar nas partidas do outro nem ser pareado com ele. Dá para desbloquear na sua conta.',
  'safety.blockYes': 'Bloquear',
  'safety.blockedList': 'Pessoas bloqueadas',
  'safety.noBlocks': 'Você não bloqueia ninguém.',
  'error.invalid_reason': 'Esse não é um dos motivos oferecidos.',
  'safety.reported': 'Obrigado: a denúncia fica guardada para análise.',
  'safety.needAccount': 'Entre na sua conta para bloquear ou denunciar alguém.',
  'bots.rating': 'Rating como robô: {rating} (±{rd})',
  'bots.rated': 'Partida valendo rating contra este nível (precisa de relógio)',
  'error.blocked': 'Você não pode jogar com esta pessoa: um de vocês bloqueou o outro.',
  'error.no_such_player': 'Ninguém se chama {name}.',
  'error.cannot_block_yourself': 'Você não pode bloquear a si mesmo.',
  'error.not_blocked': 'Você não bloqueia {name}.',
  'error.too_many_blocks': 'Você já bloqueia {max} pessoas: desbloqueie alguém antes.',
  'error.too_many_reports': 'No máximo {max} denúncias por dia.',
  'error.banned': 'Esta conta foi banida: {reason}',
  'error.admin_only': 'Só um administrador pode fazer isso.',
};

addTexts('safety', { en, pt });
