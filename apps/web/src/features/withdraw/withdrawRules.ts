import type { Satang } from '@mw/contract/money';
import { parseAmountInput } from '../../shared/format/amountInput';

export interface WithdrawLimits {
  withdrawMin: number;
  withdrawMax: number;
}

export type WithdrawRuleFailure = { rule: 'minAmountMsg'; value: number } | { rule: 'maxAmountMsg'; value: number };

/** Spec section 5: below withdrawMin → minAmountMsg, above withdrawMax → maxAmountMsg, each with its value. */
export function checkWithdraw(amountText: string, limits: WithdrawLimits): { ok: true; amount: Satang } | { ok: false; failure: WithdrawRuleFailure } {
  const amount = parseAmountInput(amountText);
  if (amount === null || amount < Math.round(limits.withdrawMin * 100) || amount <= 0) {
    return { ok: false, failure: { rule: 'minAmountMsg', value: limits.withdrawMin } };
  }
  if (amount > Math.round(limits.withdrawMax * 100)) return { ok: false, failure: { rule: 'maxAmountMsg', value: limits.withdrawMax } };
  return { ok: true, amount };
}
