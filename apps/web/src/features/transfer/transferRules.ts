import { MIN_TRANSFER_BAHT, WALLET_CODE } from '@mw/contract/constants';
import type { Satang } from '@mw/contract/money';
import type { WalletResponse } from '@mw/contract/wallet';
import { parseAmountInput } from '../../shared/format/amountInput';

/** Why a transfer cannot be sent (spec section 5), in the spec's message names. */
export type TransferRuleFailure =
  | { field: 'accounts'; rule: 'selectAccMsg' | 'canNotTransferMsg' }
  | { field: 'amount'; rule: 'minAmountMsg'; minimum: number };

/** Both accounts chosen, two different accounts, at least 1 baht. Answers the amount in satang. */
export function checkTransfer(
  from: string,
  to: string,
  amountText: string,
): { ok: true; amount: Satang } | { ok: false; failure: TransferRuleFailure } {
  if (!from || !to) return { ok: false, failure: { field: 'accounts', rule: 'selectAccMsg' } };
  if (from === to) return { ok: false, failure: { field: 'accounts', rule: 'canNotTransferMsg' } };
  const amount = parseAmountInput(amountText);
  if (amount === null || amount < MIN_TRANSFER_BAHT * 100) {
    return { ok: false, failure: { field: 'amount', rule: 'minAmountMsg', minimum: MIN_TRANSFER_BAHT } };
  }
  return { ok: true, amount };
}

/** An account a transfer can use: the wallet or an active game account, with its balance. */
export interface TransferAccount {
  code: string;
  name: string;
  amount: number;
}

/** The wallet first, then every active game account (spec section 5: the sources and targets). */
export function transferAccounts(wallet: WalletResponse, walletName: string): TransferAccount[] {
  return [
    { code: WALLET_CODE, name: walletName, amount: wallet.wallet.amount },
    ...wallet.slots.filter((game) => game.isActive).map((game) => ({ code: game.code, name: game.name, amount: game.amount })),
  ];
}
