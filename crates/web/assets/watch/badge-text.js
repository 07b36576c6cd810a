// @ts-check
// What every page needs of the watch feature, in English and Brazilian Portuguese (added to
// i18n.js's tables when this module loads): the menu's name of the watch page, the badge naming
// my live games, and the warning before leaving one. The watch page's own text is watch-text.js,
// loaded with the page.

import { addTexts } from '../core/i18n.js';

const en = {
  'nav.watch': 'Watch',
  'leave.title': 'Leave your game?',
  'leave.text': 'Your game is still being played and your clock keeps running while you are away: you may lose on time. You can come back to it from the badge at the top.',
  'leave.yes': 'Leave',
  'leave.stay': 'Stay in the game',
  'badge.live': '{n, plural, one {# live game} other {# live games}}',
  'badge.yourMove': '{n, plural, one {Your move in # game} other {Your move in # games}}',
  'badge.liveYourMove': '{n, plural, one {Your move: # live game} other {Your move: # live games}}',
  'badge.title': 'Open it (against {opponent})',
};

const pt = {
  'nav.watch': 'Assistir',
  'leave.title': 'Sair da sua partida?',
  'leave.text': 'Sua partida continua e o seu relógio corre enquanto você estiver fora: você pode perder por tempo. Dá para voltar a ela pelo aviso no alto da página.',
  'leave.yes': 'Sair',
  'leave.stay': 'Ficar na partida',
  'badge.live': '{n, plural, one {# partida ao vivo} other {# partidas ao vivo}}',
  'badge.yourMove': '{n, plural, one {Sua vez em # partida} other {Sua vez em # partidas}}',
  'badge.liveYourMove': '{n, plural, one {Sua vez: # partida ao vivo} other {Sua vez: # partidas ao vivo}}',
  'badge.title': 'Abrir (contra {opponent})',
};

addTexts('badge', { en, pt });
