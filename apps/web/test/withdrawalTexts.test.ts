import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementItem } from '@mw/contract/statement';
import { withdrawalNotice } from '../src/features/balance-push/withdrawalNotice';
import { activityText, statusText, type StatementNames } from '../src/features/statement/statementText';
import { en } from '../src/i18n/en';
import { la } from '../src/i18n/la';
import { th } from '../src/i18n/th';

/** A withdrawal paid reads "paid to <bank> <account>", one refused gives the operator's reason: the statement and the notice, in th, la and en. */
const MESSAGES = { th, la, en } as const;
const BANK = { th: 'ธนาคารกสิกรไทย', la: 'ທະນາຄານກະສິກອນໄທ', en: 'Kasikornbank' } as const;
const REASON = 'Account name does not match the registration';

const withdrawal = (status: string, note?: string): StatementItem => ({
  _id: `w-${status}`,
  statementType: 'withdraw',
  status,
  from: 'WALLET',
  to: 'KBANK 1234567890',
  amount: 300,
  createdAt: '2026-01-02T03:04:05.000Z',
  ...(note ? { note } : {}),
});

describe.each(['th', 'la', 'en'] as const)('withdrawal paid and refused in %s', (locale) => {
  const m = MESSAGES[locale];
  const names: StatementNames = { game: () => undefined, bank: (code) => (code === 'KBANK' ? BANK[locale] : undefined) };
  const account = `${BANK[locale]} 123-456-7890`;
  beforeAll(async () => {
    i18next.addResourceBundle(locale, 'translation', m, true, true);
    await i18next.changeLanguage(locale);
  });
  afterAll(async () => {
    await i18next.changeLanguage('th');
  });

  it('the statement: paid to the bank and account; in progress to it; refused with the operator\'s reason', () => {
    expect(m.statement.activity.withdrawPaid).toContain('{{account}}');
    expect(activityText(withdrawal('SUCCESS'), names)).toBe(m.statement.activity.withdrawPaid.replace('{{account}}', account));
    expect(activityText(withdrawal('PENDING'), names)).toBe(m.statement.activity.withdraw.replace('{{account}}', account));
    expect(activityText(withdrawal('FAILED', REASON), names)).toBe(m.statement.activity.withdraw.replace('{{account}}', account));
    expect(statusText('FAILED', REASON)).toBe(`${m.statement.status.failed}: ${REASON}`);
    // The bank's own refusal, in words.
    expect(statusText('FAILED', 'PAYOUT_NAME_MISMATCH')).toBe(`${m.statement.status.failed}: ${m.errors.PAYOUT_NAME_MISMATCH}`);
  });

  it('the notice: paid to the bank and account; refused with the operator\'s reason', () => {
    const paid = withdrawalNotice({ reason: 'withdrawal_paid', account: 'KBANK 1234567890' }, '฿300.00', names);
    expect(paid).toBe(m.balancePush.withdrawalPaidTo.replace('{{amount}}', '฿300.00').replace('{{account}}', account));
    const refused = withdrawalNotice({ reason: 'withdrawal_returned', account: 'KBANK 1234567890', note: REASON }, '₭500,000.00');
    expect(refused).toBe(m.balancePush.withdrawalRefused.replace('{{amount}}', '₭500,000.00').replace('{{reason}}', REASON));
    expect(withdrawalNotice({ reason: 'withdrawal_returned', note: 'PAYOUT_REFUSED' }, '฿1.00')).toContain(m.errors.PAYOUT_REFUSED);
    // Without the detail (an older server), the plain text is used.
    expect(withdrawalNotice({ reason: 'withdrawal_paid' }, '฿1.00')).toBeNull();
    expect(withdrawalNotice({ reason: 'deposit', account: 'KBANK 1' }, '฿1.00')).toBeNull();
  });
});
