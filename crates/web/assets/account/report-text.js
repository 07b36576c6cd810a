// @ts-check
// Text of the report dialog (account/report.js) in English and Brazilian Portuguese, added to
// i18n.js's tables when the dialog is first loaded.

import { addTexts } from '../core/i18n.js';

const en = {
  'safety.reportWhy': 'Why do you report {name}?',
  'safety.reason.cheating': 'Cheating (help from an engine or another person)',
  'safety.reason.abuse': 'Insults or harassment',
  'safety.reason.spam': 'Spam or advertising',
  'safety.reason.stalling': 'Stalling or leaving games',
  'safety.reason.name': 'An offensive name',
  'safety.reason.other': 'Something else',
  'safety.reportDetails': 'Details (optional, at most 500 characters)',
  'safety.reportSend': 'Send the report',
  'safety.reportNeedsReason': 'Choose a reason or write what happened.',
};

const pt = {
  'safety.reportWhy': 'Por que você denuncia {name}?',
  'safety.reason.cheating': 'Trapaça (ajuda de um programa ou de outra pessoa)',
  'safety.reason.abuse': 'Insultos ou assédio',
  'safety.reason.spam': 'Spam ou propaganda',
  'safety.reason.stalling': 'Enrola ou abandona partidas',
  'safety.reason.name': 'Um nome ofensivo',
  'safety.reason.other': 'Outro motivo',
  'safety.reportDetails': 'Detalhes (opcional, até 500 caracteres)',
  'safety.reportSend': 'Enviar a denúncia',
  'safety.reportNeedsReason': 'Escolha um motivo ou escreva o que aconteceu.',
};

addTexts('report', { en, pt });
