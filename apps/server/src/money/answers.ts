import { sameConnection, type Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { WALLET_CODE } from '@mw/contract/constants';
import { toBaht } from '@mw/contract/money';
import type { MoneyResult } from '@mw/contract/wallet';
import { AppError } from '../lib/errors';
import { account } from './ledger';
import type { OperationRow } from './operations';

/**
 * The answer of a money call, as a function of its operation alone:
 * - `reference` is the operation, `amount` the amount it moved;
 * - `wallet` (and `game` for a transfer) are the balances right after the operation's own last
 *   posting on that account: the `balance_after` its ledger entry recorded. Later movements do
 *   not change an answer that was already given;
 * - a transfer still PENDING answers 409 REQUEST_IN_PROGRESS (never 200), a FAILED one 502
 *   TRANSFER_FAIL (its money went back); a withdrawal answers 200 once its hold is recorded,
 *   whatever the operator later decides (the statement shows that).
 * The first request builds the same answer from the balances its statements returned; a retry
 * reads it here.
 */
function gameOf(op: Pick<OperationRow, 'type' | 'source' | 'target'>): string | null {
  if (op.type !== 'transfer') return null;
  return op.source === WALLET_CODE ? op.target : op.source;
}

/** The answer of a settled or held operation from the balances its postings left. */
export function answerFrom(op: OperationRow, wallet: number | undefined, game: number | undefined): MoneyResult {
  if (op.type === 'transfer' && op.status === 'PENDING') throw new AppError(409, 'REQUEST_IN_PROGRESS', { reference: op.id });
  if (op.type === 'transfer' && op.status === 'FAILED') throw new AppError(502, 'TRANSFER_FAIL', { reference: op.id });
  const result: MoneyResult = { ok: true, wallet: { amount: toBaht(wallet ?? 0) }, amount: toBaht(op.amount), reference: op.id };
  const code = gameOf(op);
  if (code !== null && game !== undefined) result.game = { code, amount: toBaht(game) };
  return result;
}

/** The answer of an operation, read from its ledger entries (a retry's answer). */
export async function answerOf(dbIn: Connection, op: OperationRow): Promise<MoneyResult> {
  const db = sameConnection<MoneyDb>(dbIn);
  if (op.type === 'transfer' && op.status !== 'SUCCESS') return answerFrom(op, undefined, undefined);
  const walletId = account.wallet(op.member_id);
  const code = gameOf(op);
  const gameId = code ? account.game(op.member_id, code) : null;
  const ids = await db.selectFrom('operations').select(['start_tx', 'settle_tx']).where('id', '=', op.id).executeTakeFirst();
  // The hold and the settlement (an operator completing or rejecting a withdrawal came after the
  // answer and is not part of it).
  const txs = [ids?.start_tx, op.type === 'withdraw' ? null : ids?.settle_tx].filter((id): id is number => id !== null && id !== undefined);
  const rows =
    txs.length === 0
      ? []
      : await db
          .selectFrom('ledger_entries as e')
          .select(['e.account_id', 'e.balance_after', 'e.transaction_id as tx'])
          .where('e.transaction_id', 'in', txs)
          .where('e.account_id', 'in', gameId ? [walletId, gameId] : [walletId])
          .orderBy('e.transaction_id', 'desc')
          .execute();
  const latest = (id: string) => {
    const row = rows.find((r) => r.account_id === id);
    return row?.balance_after === null || row?.balance_after === undefined ? undefined : Number(row.balance_after);
  };
  return answerFrom(op, latest(walletId), gameId ? latest(gameId) : undefined);
}
