// @ts-check
// Text of the watch page (games being played now, leaderboards, players online) in English and
// Brazilian Portuguese, added to i18n.js's tables when this module loads.

import { addTexts } from '../core/i18n.js';

const en = {
  'watch.title': 'Watch',
  'watch.live': 'Being played now',
  'watch.noLive': 'Nobody is playing a public game right now.',
  'watch.open': 'Watch',
  'watch.plies': '{n, plural, one {# move} other {# moves}}',
  'watch.rated': 'rated',
  'watch.casual': 'casual',
  'watch.untimed': 'no clock',
  'watch.days': '{n, plural, one {# day} other {# days}} a move',
  'watch.leaders': 'Leaderboard',
  'watch.noLeaders': 'Nobody has an established rating here yet (it takes a few rated games).',
  'watch.games': '{n, plural, one {# game} other {# games}}',
  'watch.online': 'Online',
  'watch.onlineCount': '{n, plural, =0 {Nobody online} one {# player online} other {# players online}}',
  'watch.onlineHelp': 'Guests are counted, not named.',
  'watch.guest': 'guest',
  'error.unknown_category': 'There is no such rating category.',
};

const pt = {
  'watch.title': 'Assistir',
  'watch.live': 'Partidas em andamento',
  'watch.noLive': 'Ninguém está jogando uma partida pública agora.',
  'watch.open': 'Assistir',
  'watch.plies': '{n, plural, one {# jogada} other {# jogadas}}',
  'watch.rated': 'valendo rating',
  'watch.casual': 'amistosa',
  'watch.untimed': 'sem relógio',
  'watch.days': '{n, plural, one {# dia} other {# dias}} por jogada',
  'watch.leaders': 'Classificação',
  'watch.noLeaders': 'Ninguém tem rating estabelecido aqui ainda (são necessárias algumas partidas valendo rating).',
  'watch.games': '{n, plural, one {# partida} other {# partidas}}',
  'watch.online': 'On-line',
  'watch.onlineCount': '{n, plural, =0 {Ninguém on-line} one {# pessoa on-line} other {# pessoas on-line}}',
  'watch.onlineHelp': 'Quem joga sem conta é contado, não nomeado.',
  'watch.guest': 'sem conta',
  'error.unknown_category': 'Essa categoria de rating não existe.',
};

addTexts('watch', { en, pt });
