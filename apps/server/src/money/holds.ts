import { sameConnection, type Connection } from '../db/database';
import { LedgerError, account, memberCurrency } from './ledger';
import { recordWithMoney, settleOnce, type NewOperation } from './operations';
import type { Idem } from './idempotency';
import type { MoneyDb } from './tables';

/**
 * Money held for a payment that leaves us: one pending → post / void primitive (TigerBeetle's
 * pending transfer). `place` moves the amount from the member's wallet to the member's hold
 * account with the PENDING operation (and its Idempotency-Key) in one statement; `post` ends it
 * SUCCESS, paid out (hold → the system payouts account of the currency); `void` ends it FAILED,
 * back to the wallet. Each end is a compare-and-set on PENDING, so a hold ends once whoever ends
 * it and however often; the amount and the member come from the operation itself, never from the
 * caller. A withdrawal is the one flow that holds money (a transfer moves its money when it
 * starts), so the hold's transfer codes are `withdraw_hold`, `withdraw_complete`, `withdraw_reject`.
 *
 * No expiry: unlike TigerBeetle's timeout, no clock may end one of ours — a payout sent to a bank
 * may be paid at any moment (the payout settler asks the bank by reference instead), and a
 * withdrawal waiting for an operator is the member's standing request (the member's cancel or an
 * operator's return ends it).
 */
export class Holds {
  /** Places a hold for a PENDING operation: its money leaves the wallet; null when its key had placed it already. Throws InsufficientFunds. */
  place(connection: Connection, op: NewOperation, idem: Idem | null): Promise<Map<string, number> | null> {
    if (op.status !== 'PENDING') throw new LedgerError(`a hold's operation is PENDING, not ${op.status}`);
    return recordWithMoney(connection, op, idem, [{ account: account.wallet(op.memberId), amount: -op.amount }, { account: account.withdrawal(op.memberId), amount: op.amount }], 'withdraw_hold');
  }

  /** Ends a hold paid out (SUCCESS): null when it had ended already (nothing moved now). */
  post(connection: Connection, operationId: string): Promise<Map<string, number> | null> {
    return this.end(connection, operationId, 'post', null);
  }

  /** Ends a hold returned to the wallet (FAILED, with the statement's note): null when it had ended already. */
  void(connection: Connection, operationId: string, note: string | null): Promise<Map<string, number> | null> {
    return this.end(connection, operationId, 'void', note);
  }

  private async end(connection: Connection, operationId: string, how: 'post' | 'void', note: string | null): Promise<Map<string, number> | null> {
    const db = sameConnection<MoneyDb>(connection);
    const op = await db.selectFrom('operations').select(['member_id', 'amount', 'status', 'type']).where('id', '=', operationId).executeTakeFirst();
    if (!op || op.type !== 'withdraw') throw new LedgerError(`no hold ${operationId}`);
    if (op.status !== 'PENDING') return null;
    const member = op.member_id;
    const amount = Number(op.amount);
    const to = how === 'post' ? account.withdrawals(await memberCurrency(db, member)) : account.wallet(member);
    return settleOnce(connection, operationId, how === 'post' ? 'SUCCESS' : 'FAILED', note, {
      kind: how === 'post' ? 'withdraw_complete' : 'withdraw_reject',
      operationId,
      postings: [
        { account: account.withdrawal(member), amount: -amount },
        { account: to, amount },
      ],
    });
  }
}
