// @ts-check
// The report dialog (loaded when a report is first made): the reasons the server accepts
// (`safety::REPORT_REASONS`) as boxes to tick, and details in words, in the app's own dialog.

import './report-text.js';
import { t } from '../core/i18n.js';
import { el } from '../core/dom.js';
import { askForm } from '../core/ask.js';

/** The reasons a report may give (the server's `safety::REPORT_REASONS`, in its order). */
const REASONS = ['cheating', 'abuse', 'spam', 'stalling', 'name', 'other'];
const DETAILS_MAX = 500;

/**
 * The report dialog's answer for player `name`: the reasons ticked and the details, or null
 * (cancelled). At least one of the two is asked for before it closes.
 * @param {string} name
 * @returns {Promise<{ reasons: string[], details: string } | null>}
 */
export function askReport(name) {
  const box = el('fieldset', 'report-reasons');
  box.append(el('legend', '', t('safety.reportWhy', { name })));
  for (const r of REASONS) {
    const label = el('label', 'report-reason');
    const input = /** @type {HTMLInputElement} */ (el('input'));
    input.type = 'checkbox';
    input.name = 'reason';
    input.value = r;
    label.append(input, ' ', t('safety.reason.' + r));
    box.append(label);
  }
  const detailsLabel = el('label', 'field-label', t('safety.reportDetails'));
  const details = /** @type {HTMLTextAreaElement} */ (el('textarea', 'report-details'));
  details.id = 'report-details';
  detailsLabel.setAttribute('for', details.id);
  details.maxLength = DETAILS_MAX;
  details.rows = 3;
  return /** @type {Promise<{ reasons: string[], details: string } | null>} */ (askForm({
    id: 'report-dialog',
    title: t('safety.report', { name }),
    body: [box, detailsLabel, details],
    ok: t('safety.reportSend'),
    cancel: t('actions.cancel'),
    read: () => {
      const reasons = [...box.querySelectorAll('input:checked')].map((i) => /** @type {HTMLInputElement} */ (i).value);
      const text = details.value.trim();
      if (!reasons.length && !text) return { error: t('safety.reportNeedsReason') };
      return { reasons, details: text };
    },
  }));
}
