import i18next from 'i18next';
import { WALLET_CODE } from '@mw/contract/constants';
import { isErrorCode, slipReasonCodes, type SlipReasonCode } from '@mw/contract/errors';
import type { StatementItem } from '@mw/contract/statement';
import type { MoneySign } from '../../shared/ui/Money';

/**
 * Sign of a statement amount (amounts arrive unsigned): + for money coming in (deposit, bonus, a
 * transfer into the wallet), − for money going out (withdrawal, a transfer out of the wallet).
 */
export function statementSign(item: Pick<StatementItem, 'statementType' | 'from' | 'to'>): MoneySign {
  switch (item.statementType) {
    case 'deposit':
    case 'bonus':
      return '+';
    case 'withdraw':
      return '-';
    case 'transfer':
      if (item.to === WALLET_CODE) return '+';
      if (item.from === WALLET_CODE) return '-';
      return null;
    case 'finish_bonus':
      return null;
  }
}

export type StatusKind = 'success' | 'failed' | 'pending';

/** 'SUCCESS', 'FAILED', anything else is still in progress (spec section 4). */
export function statusKind(status: string): StatusKind {
  if (status === 'SUCCESS') return 'success';
  if (status === 'FAILED') return 'failed';
  return 'pending';
}

function isSlipReason(value: string): value is SlipReasonCode {
  return (slipReasonCodes as readonly string[]).includes(value);
}

/** A reason code of a failed item in words: an error code, a slip reason code, or the text as sent. */
export function reasonText(note: string | null | undefined): string | null {
  if (!note) return null;
  if (isSlipReason(note)) return i18next.t(`slipReasons.${note}`);
  if (isErrorCode(note)) return i18next.t(`errors.${note}`);
  return note;
}

/** The status as the member reads it, with the reason when it failed. */
export function statusText(status: string, note: string | null | undefined): string {
  const kind = statusKind(status);
  const label = i18next.t(`statement.status.${kind}`);
  const reason = kind === 'failed' ? reasonText(note) : null;
  return reason ? i18next.t('statement.statusWithReason', { status: label, reason }) : label;
}

/** An account code as a member reads it: the wallet by name, game codes as they are. */
function accountName(code: string): string {
  return code === WALLET_CODE ? i18next.t('wallet.walletName') : code;
}

/** What happened, in one line: "Transfer Wallet → PG", "Deposit (demo top-up)", "Withdrawal to KBANK 123…". */
export function activityText(item: StatementItem): string {
  const linked = item.bonus ?? item.promotion ?? item.invite ?? item.refund ?? item.luckydraw;
  switch (item.statementType) {
    case 'deposit':
      return item.from === 'SANDBOX'
        ? i18next.t('statement.activity.demoDeposit')
        : i18next.t('statement.activity.deposit', { source: item.from });
    case 'withdraw':
      return i18next.t('statement.activity.withdraw', { account: item.to });
    case 'transfer':
      return i18next.t('statement.activity.transfer', { from: accountName(item.from), to: accountName(item.to) });
    case 'bonus':
      return linked ? i18next.t('statement.activity.bonusOf', { name: linked.description }) : i18next.t('statement.activity.bonus');
    case 'finish_bonus':
      return linked ? i18next.t('statement.activity.finishBonusOf', { name: linked.description }) : i18next.t('statement.activity.finishBonus');
  }
}
