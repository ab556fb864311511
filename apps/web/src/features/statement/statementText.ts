import i18next from 'i18next';
import { WALLET_CODE } from '@mw/contract/constants';
import { formatAccountNo } from '@mw/contract/rules';
import { isErrorCode, slipReasonCodes, type SlipReasonCode } from '@mw/contract/errors';
import type { StatementItem } from '@mw/contract/statement';
import type { MoneySign } from '../../shared/ui/Money';

/**
 * Sign of a statement amount (amounts arrive unsigned): + for money coming in (deposit, bonus, a
 * transfer into the wallet), − for money going out (withdrawal, a transfer out of the wallet).
 */
export function statementSign(item: Pick<StatementItem, 'statementType' | 'from' | 'to' | 'takenBack'>): MoneySign {
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
      // Out only when the end took money back (a cancel, a payout's give-back); otherwise nothing moved.
      return item.takenBack ? '-' : null;
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

/** Why a deposit was held by the responsible-play rules, or returned to its sender (the operations' note). */
const HELD_NOTES = ['DEPOSIT_LIMIT', 'TIME_OUT', 'SELF_EXCLUDED', 'DEPOSIT_RETURNED'] as const;
type HeldNote = (typeof HELD_NOTES)[number];
function isHeldNote(value: string): value is HeldNote {
  return (HELD_NOTES as readonly string[]).includes(value);
}

/** A reason code of a failed item in words: a held deposit's rule, an error code, a slip reason code, or the text as sent. */
export function reasonText(note: string | null | undefined): string | null {
  if (!note) return null;
  if (isHeldNote(note)) return i18next.t(`responsible.reason${note}`);
  if (isSlipReason(note)) return i18next.t(`slipReasons.${note}`);
  if (isErrorCode(note)) return i18next.t(`errors.${note}`);
  return note;
}

/** The status as the member reads it, with the reason when it failed. */
export function statusText(status: string, note: string | null | undefined): string {
  const kind = statusKind(status);
  const label = i18next.t(`statement.status.${kind}`);
  // A deposit held by the member's limit or break is in progress with its rule's reason; a failed item with its reason.
  const reason = kind === 'failed' || (kind === 'pending' && note && isHeldNote(note)) ? reasonText(note) : null;
  return reason ? i18next.t('statement.statusWithReason', { status: label, reason }) : label;
}

/**
 * Names a statement shows in place of codes: games by name (from the wallet's game list), banks in
 * the UI language (from the bank list). A code neither knows (a payment provider such as WW or
 * ZPAY, a game the list has not loaded yet) shows as it is.
 */
export interface StatementNames {
  game: (code: string) => string | undefined;
  bank: (code: string) => string | undefined;
}

export const NO_NAMES: StatementNames = { game: () => undefined, bank: () => undefined };

/** An account code as a member reads it: the wallet and games by name. */
function accountName(code: string, names: StatementNames): string {
  return code === WALLET_CODE ? i18next.t('wallet.walletName') : (names.game(code) ?? code);
}

/** QR payment providers (a deposit's source): named as a QR payment, the provider in brackets. */
const QR_PROVIDERS: ReadonlySet<string> = new Set(['WW', 'PAYTIMZ', 'PAYONEX', 'ZPAY']);
/** E-wallets by their brand name (the same in every language). */
const EWALLETS: Readonly<Record<string, string>> = { TRUEWALLET: 'TrueMoney Wallet' };

/** A deposit's source: a bank by its name, a staff top-up in words, a QR provider or an e-wallet by name. */
function sourceName(code: string, names: StatementNames): string {
  if (code === 'MANUAL') return i18next.t('statement.activity.manualSource');
  if (EWALLETS[code]) return EWALLETS[code];
  if (QR_PROVIDERS.has(code)) return i18next.t('statement.activity.qrSource', { provider: code });
  return names.bank(code) ?? code;
}

/** A promotion's name in a statement row: payouts and the wheel in words, a bonus or code by its code. */
function promotionName(code: string): string {
  if (code === 'INVITE') return i18next.t('statement.activity.payoutInvite');
  if (code === 'REFUND') return i18next.t('statement.activity.payoutRefund');
  return code;
}

/** How a condition ended, in words (the row's note): turnover met, bust, or cancelled. */
function finishText(item: StatementItem, name: string): string {
  if (item.note === 'TURNOVER_MET') return i18next.t('statement.activity.finishMet', { name });
  if (item.note === 'BUST') return i18next.t('statement.activity.finishBust', { name });
  if (item.note === 'BONUS_CLEAR') return i18next.t('statement.activity.finishCleared', { name });
  return i18next.t('statement.activity.finishBonusOf', { name });
}

/** A withdrawal's target "KBANK 1234567890" as the profile shows an account: "Kasikornbank 123-456-7890". */
export function bankAccountName(target: string, names: StatementNames): string {
  const [code = '', accountNo = ''] = target.split(' ');
  const bank = names.bank(code) ?? code;
  return accountNo ? `${bank} ${formatAccountNo(accountNo)}` : bank;
}

/** What happened, in one line: "Transfer Wallet → PG Soft", "Demo top-up", "Withdrawal to Kasikornbank 123-456-7890". */
export function activityText(item: StatementItem, names: StatementNames = NO_NAMES): string {
  const linked = item.bonus ?? item.promotion ?? item.invite ?? item.refund ?? item.luckydraw;
  switch (item.statementType) {
    case 'deposit':
      return item.from === 'SANDBOX'
        ? i18next.t('statement.activity.demoDeposit')
        : i18next.t('statement.activity.deposit', { source: sourceName(item.from, names) });
    case 'withdraw':
      // Paid: "Paid to Kasikornbank 123-456-7890"; refused: the status says why (the operator's reason, or the bank's).
      return i18next.t(item.status === 'SUCCESS' ? 'statement.activity.withdrawPaid' : 'statement.activity.withdraw', { account: bankAccountName(item.to, names) });
    case 'transfer':
      return i18next.t('statement.activity.transfer', { from: accountName(item.from, names), to: accountName(item.to, names) });
    case 'bonus':
      if (linked) return i18next.t('statement.activity.bonusOf', { name: linked.description });
      // Every credit names its source: the invite or refund payout, the wheel, the bonus or code.
      if (item.from === 'INVITE') return i18next.t('statement.activity.invitePayout');
      if (item.from === 'REFUND') return i18next.t('statement.activity.refundPayout');
      if (item.from === 'SPIN') return i18next.t('statement.activity.wheelPrize');
      return item.from ? i18next.t('statement.activity.bonusOf', { name: item.from }) : i18next.t('statement.activity.bonus');
    case 'finish_bonus':
      return finishText(item, linked ? linked.description : promotionName(item.from));
  }
}
