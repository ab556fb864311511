import i18next from 'i18next';
import { currentLocale } from '../../i18n/i18n';
import { formatDateTime } from '../format/date';
import { formatMoney } from '../format/money';
import { currencySign, currentMoneyCurrency } from '../format/moneyCurrency';
import { ApiError } from './ApiError';
import { errorMessage } from './errorMessage';

/**
 * What a refusal's figures say, after its code's text (contract error-details.ts): the reason and
 * turnover of a BONUS_CONDITION, when an already-credited slip was credited, the amount of a
 * minimum. Member screens only (its texts are the member half's `explain`, loaded after the first
 * screen), so the guest pages' first download does not carry it.
 */
function money(value: unknown): string {
  return `${currencySign(currentMoneyCurrency())}${formatMoney(typeof value === 'number' ? value : 0, currentLocale())}`;
}

function conditionName(extra: Readonly<Record<string, unknown>>): string {
  const origin = extra.origin;
  if (origin === 'invite') return i18next.t('explain.conditionInvite');
  if (origin === 'refund') return i18next.t('explain.conditionRefund');
  return i18next.t('explain.conditionBonus', { code: typeof extra.bonusCode === 'string' ? extra.bonusCode : '' });
}

function explainError(error: ApiError): string | null {
  // The explanations come with the texts after the first screen (i18n.ts loadLaterMessages).
  if (!i18next.exists('explain.minimum')) return null;
  const { detail, extra } = error;
  if (error.code === 'BONUS_CONDITION' && typeof extra.reason === 'string') {
    const key = `explain.BONUS_CONDITION_${extra.reason}`;
    if (!i18next.exists(key)) return null;
    const games = Array.isArray(extra.games) ? extra.games.filter((g): g is string => typeof g === 'string').join(', ') : '';
    const values = {
      condition: conditionName(extra),
      remaining: money(detail.remainingTurnover),
      turnover: money(detail.turnover),
      target: money(detail.target),
      minDeposit: money(detail.minDeposit),
      minutes: detail.depositWindowMinutes ?? 0,
      deposit: money(detail.deposit),
      wallet: money(detail.wallet),
      games,
    };
    return i18next.t(key as 'explain.BONUS_CONDITION_WITHDRAW_LOCKED', values);
  }
  if (error.code === 'SLIP_REFNO_DUPLICATED' && typeof extra.creditedAt === 'string') {
    return i18next.t('explain.slipCredited', { amount: money(detail.creditedAmount), time: formatDateTime(extra.creditedAt) });
  }
  const minimum = detail.minimum ?? detail.withdrawMin;
  if (minimum !== undefined) return i18next.t('explain.minimum', { amount: money(minimum) });
  if (detail.withdrawMax !== undefined) return i18next.t('explain.maximum', { amount: money(detail.withdrawMax) });
  return null;
}

/** A failed call's text on a member screen: errorMessage, then what the answer's figures say and what to do next. */
export function refusalMessage(error: unknown): string {
  const base = errorMessage(error);
  const more = error instanceof ApiError && error.kind === 'server' ? explainError(error) : null;
  return more ? `${base} ${more}` : base;
}
