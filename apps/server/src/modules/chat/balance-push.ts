import type { BalanceEvent, BalanceReason } from '@mw/contract/balance-push';
import { toBaht } from '@mw/contract/money';
import type { BalanceChange, BalanceFeed } from '../../money';

/** The reason a push names, by transfer code (the core's and the modules' own codes). */
const REASONS: Partial<Record<string, BalanceReason>> = {
  deposit: 'deposit',
  withdraw_hold: 'withdrawal',
  withdraw_complete: 'withdrawal_paid',
  withdraw_reject: 'withdrawal_returned',
  transfer_start: 'transfer',
  transfer_complete: 'transfer',
  transfer_reverse: 'transfer_returned',
  transfer: 'transfer',
  transfer_return: 'transfer_returned',
  game_result: 'game_result',
  bonus: 'bonus',
  refund: 'refund',
  invite: 'invite',
  spin_prize: 'spin_prize',
  adjustment: 'adjustment',
};

/**
 * The socket's `balance` event for a change of the money core's balance feed, or null when the
 * member sees nothing change (a kind of posting the app shows no figure of).
 */
export function balanceEventOf(change: BalanceChange): BalanceEvent | null {
  const reason = REASONS[change.kind];
  if (!reason) return null;
  const event: BalanceEvent = { reason, versions: {} };
  if (change.wallet) {
    event.wallet = toBaht(change.wallet.balance);
    event.amount = toBaht(change.wallet.amount);
    event.versions.wallet = change.wallet.version;
  }
  const codes = Object.keys(change.games);
  if (codes.length > 0) {
    event.games = {};
    for (const code of codes) {
      const game = change.games[code];
      if (!game) continue;
      event.games[code] = toBaht(game.balance);
      event.versions[code] = game.version;
    }
  }
  // A payout paid: the money left the hold, not the wallet; the amount is what was paid.
  if (reason === 'withdrawal_paid') event.amount = toBaht(-change.held);
  if (!change.wallet && codes.length === 0 && reason !== 'withdrawal_paid') return null;
  return event;
}

/**
 * A withdrawal's event with what the member's notice says of it: the account it was paid to
 * (`account`, "KBANK 1234567890"), and for one refused, why (`note`: the operator's reason, or the
 * bank's PAYOUT_… code). Any other event, or an operation not found, is answered as it is.
 */
export async function withWithdrawalDetail(feed: Pick<BalanceFeed, 'operationDetail'>, event: BalanceEvent, operationId: string | null): Promise<BalanceEvent> {
  if ((event.reason !== 'withdrawal_paid' && event.reason !== 'withdrawal_returned') || !operationId) return event;
  const op = await feed.operationDetail(operationId);
  if (!op) return event;
  return { ...event, ...(op.target ? { account: op.target } : {}), ...(event.reason === 'withdrawal_returned' && op.note ? { note: op.note } : {}) };
}
