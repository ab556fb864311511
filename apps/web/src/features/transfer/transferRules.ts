import { MIN_TRANSFER_BAHT, WALLET_CODE } from '@mw/contract/constants';
import type { Satang } from '@mw/contract/money';
import type { WalletResponse } from '@mw/contract/wallet';
import { parseAmountInput } from '../../shared/format/amountInput';

/** Why a transfer cannot be sent (spec section 5), in the spec's message names. */
export type TransferRuleFailure =
  | { field: 'accounts'; rule: 'selectAccMsg' | 'canNotTransferMsg' }
  | { field: 'amount'; rule: 'minAmountMsg'; minimum: number };

/**
 * Both accounts chosen, two different accounts, at least the minimum of the member's currency
 * (major units: ฿1, ₭1,000; GET /api/lookup/withdraw's transferMin). Answers the amount in minor units.
 */
export function checkTransfer(
  from: string,
  to: string,
  amountText: string,
  minimum: number = MIN_TRANSFER_BAHT,
): { ok: true; amount: Satang } | { ok: false; failure: TransferRuleFailure } {
  if (!from || !to) return { ok: false, failure: { field: 'accounts', rule: 'selectAccMsg' } };
  if (from === to) return { ok: false, failure: { field: 'accounts', rule: 'canNotTransferMsg' } };
  const amount = parseAmountInput(amountText);
  if (amount === null || amount < Math.round(minimum * 100)) {
    return { ok: false, failure: { field: 'amount', rule: 'minAmountMsg', minimum } };
  }
  return { ok: true, amount };
}

/** An account a transfer can use: the wallet or an active game account, with its balance. */
export interface TransferAccount {
  code: string;
  name: string;
  amount: number;
}

/** The wallet first, then every active game account (spec section 5: the sources and targets); a seamless game has no balance to move and is left out. */
export function transferAccounts(wallet: WalletResponse, walletName: string): TransferAccount[] {
  return [
    { code: WALLET_CODE, name: walletName, amount: wallet.wallet.amount },
    ...wallet.slots.filter((game) => game.isActive && !game.seamless).map((game) => ({ code: game.code, name: game.name, amount: game.amount })),
  ];
}
