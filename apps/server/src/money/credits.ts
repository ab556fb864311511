import { sql, type Kysely } from 'kysely';
import { WALLET_CODE } from '@mw/contract/constants';
import type { DB } from '../db/schema';
import { AppError } from '../lib/errors';
import { newId } from '../lib/ids';
import { isDuplicateKey, KeyTaken, type Idem } from './idempotency';
import { account, memberCurrency, openMemberAccounts, runPosting, type Currency, type PostingKind } from './ledger';

/** Money an outside system says arrived for a member. */
export interface ExternalCredit {
  /** Who says so: `gateway:WW`, `bank:KBANK`, `manual`, … */
  source: string;
  /** Their reference for it: one credit per (source, ref), ever. */
  ref: string;
  memberId: string;
  /** Minor units (satang, or LAK's hundredths). */
  amount: number;
  /** The money's currency; it must be the member's (there is no exchange). */
  currency: Currency;
  kind: Extract<PostingKind, 'deposit' | 'adjustment'>;
  /** What the statement shows as "from": the channel (`WW`, `KBANK`, `MANUAL`). */
  from: string;
  note?: string | null;
  /** The Idempotency-Key of the call that asked for it (operator calls), recorded with it. */
  idem?: Idem | null;
}

export interface CreditResult {
  operationId: string;
  /** false when (source, ref) had been credited before: nothing moved now. */
  created: boolean;
  /** The wallet's balance right after this credit (when created). */
  wallet: number | null;
}

/**
 * Credits a member once per (source, ref): the external_credits row, the operation (a SUCCESS
 * deposit to the wallet), the Idempotency-Key when there is one and the ledger posting (from the
 * system deposits account of the currency) are one statement. A repeated message finds the row
 * and moves nothing, also when the two arrive at the same moment (the primary key decides).
 */
export async function creditOnce(db: Kysely<DB>, credit: ExternalCredit): Promise<CreditResult> {
  if (!Number.isSafeInteger(credit.amount) || credit.amount <= 0) throw new AppError(400, 'KEY_INVALID');
  if ((await memberCurrency(db, credit.memberId)) !== credit.currency) throw new AppError(400, 'CURRENCY_MISMATCH');
  await openMemberAccounts(db, credit.memberId);
  const id = newId();
  const before = [
    sql`ext AS (
      INSERT INTO external_credits (source, ref, operation_id) VALUES (${credit.source}, ${credit.ref}, ${id})
      ON CONFLICT (source, ref) DO NOTHING RETURNING operation_id)`,
    sql`op AS (
      INSERT INTO operations (id, member_id, type, status, source, target, amount, note, start_tx)
      SELECT ext.operation_id, ${credit.memberId}, 'deposit', 'SUCCESS', ${credit.from}, ${WALLET_CODE}, ${credit.amount}::bigint, ${credit.note ?? null},
        nextval(pg_get_serial_sequence('ledger_transactions', 'id'))
      FROM ext RETURNING id, start_tx AS tx_id)`,
  ];
  if (credit.idem) {
    before.push(sql`idem AS (
      INSERT INTO idempotency_keys (member_id, key, request_hash, operation_id)
      SELECT ${credit.memberId}, ${credit.idem.key}, ${credit.idem.hash}, op.id FROM op)`);
  }
  let balances;
  try {
    balances = await runPosting(
      db,
      {
        kind: credit.kind,
        operationId: id,
        postings: [
          { account: account.deposits(credit.currency), amount: -credit.amount },
          { account: account.wallet(credit.memberId), amount: credit.amount },
        ],
      },
      { before, guard: 'op', txIdFrom: 'op' },
    );
  } catch (error) {
    if (isDuplicateKey(error)) throw new KeyTaken();
    throw error;
  }
  if (balances) return { operationId: id, created: true, wallet: balances.get(account.wallet(credit.memberId)) ?? null };
  const row = await db.selectFrom('external_credits').select('operation_id').where('source', '=', credit.source).where('ref', '=', credit.ref).executeTakeFirstOrThrow();
  return { operationId: row.operation_id, created: false, wallet: null };
}

/** The operation an outside message made, if it was credited. */
export async function creditedBy(db: Kysely<DB>, source: string, ref: string): Promise<string | null> {
  const row = await db.selectFrom('external_credits').select('operation_id').where('source', '=', source).where('ref', '=', ref).executeTakeFirst();
  return row?.operation_id ?? null;
}
