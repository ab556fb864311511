import i18next from 'i18next';
import type { BalanceEvent } from '@mw/contract/balance-push';
import { bankAccountName, NO_NAMES, reasonText, type StatementNames } from '../statement/statementText';

/**
 * The notice of a withdrawal paid or refused: "฿300.00 paid to Kasikornbank 123-456-7890", or
 * "Withdrawal refused, ฿300.00 returned to your wallet: <the operator's reason>" (a bank's PAYOUT_…
 * code in words). Null for any other event, or one without the detail (the plain text then).
 */
export function withdrawalNotice(event: Pick<BalanceEvent, 'reason' | 'account' | 'note'>, amount: string, names: StatementNames = NO_NAMES): string | null {
  if (event.reason === 'withdrawal_paid' && event.account) {
    return i18next.t('balancePush.withdrawalPaidTo', { amount, account: bankAccountName(event.account, names) });
  }
  if (event.reason === 'withdrawal_returned' && event.note) {
    return i18next.t('balancePush.withdrawalRefused', { amount, reason: reasonText(event.note) ?? event.note });
  }
  return null;
}
