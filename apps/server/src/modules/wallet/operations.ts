import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { DB, OperationsTable, OperationStatus, OperationType } from '../../db/schema';
import { AppError, badRequest, conflict } from '../../lib/errors';
import { account, runPosting, type Posting } from '../../ledger/ledger';

/**
 * Operations are what a member sees in the statement (a deposit, a withdrawal, a transfer).
 * Each is written in the same statement as the money it moves, together with the request's
 * Idempotency-Key, so a key always points at an operation that really happened.
 *
 * Idempotency rule: a retry with the same key and body answers the outcome of the operation the
 * first request recorded (same reference, status and amount; balances as they are now) and moves
 * nothing; the same key with another body is refused (409 IDEMPOTENCY_KEY_REUSED); while the
 * first request is still running, 409 REQUEST_IN_PROGRESS. A request refused before it recorded
 * anything (bad input, not enough money) stores nothing, so its retry is evaluated afresh.
 */
export type OperationRow = Omit<Selectable<OperationsTable>, 'created_at' | 'updated_at'>;

export interface Idem {
  key: string;
  hash: string;
}

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;

/** Reads the Idempotency-Key header (optional; a malformed one is KEY_INVALID). */
export function idempotencyOf(header: string | string[] | undefined, endpoint: string, body: unknown): Idem | null {
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !KEY_PATTERN.test(key)) throw badRequest('KEY_INVALID', { fields: [{ path: 'Idempotency-Key', code: 'invalid' }] });
  return { key, hash: createHash('sha256').update(`${endpoint}\n${JSON.stringify(body ?? null)}`).digest('hex') };
}

/** A key derived for one step of a composite call (withdrawAll's transfers). */
export function derive(idem: Idem | null, step: string): Idem | null {
  return idem ? { key: `${idem.key}:${step}`.slice(0, 160), hash: idem.hash } : null;
}

/** The operation a key already recorded, or null. */
export async function priorOperation(db: Kysely<DB>, memberId: string, idem: Idem | null): Promise<OperationRow | null> {
  if (!idem) return null;
  const row = await db
    .selectFrom('idempotency_keys')
    .innerJoin('operations', 'operations.id', 'idempotency_keys.operation_id')
    .select(['idempotency_keys.request_hash', 'operations.id', 'operations.member_id', 'operations.type', 'operations.status', 'operations.source', 'operations.target', 'operations.amount', 'operations.note'])
    .where('idempotency_keys.member_id', '=', memberId)
    .where('idempotency_keys.key', '=', idem.key)
    .executeTakeFirst();
  if (!row) return null;
  if (row.request_hash !== idem.hash) throw conflict('IDEMPOTENCY_KEY_REUSED');
  const { request_hash: _hash, ...op } = row;
  return { ...op, amount: Number(op.amount) };
}

export interface NewOperation {
  id: string;
  memberId: string;
  type: OperationType;
  status: OperationStatus;
  source: string;
  target: string;
  amount: number;
  note?: string | null;
}

/** CTEs that record the operation (and the key) inside a posting statement. */
export function recordOperation(op: NewOperation, idem: Idem | null): RawBuilder<unknown>[] {
  const ctes: RawBuilder<unknown>[] = [
    sql`op AS (
      INSERT INTO operations (id, member_id, type, status, source, target, amount, note)
      VALUES (${op.id}, ${op.memberId}, ${op.type}, ${op.status}, ${op.source}, ${op.target}, ${op.amount}::bigint, ${op.note ?? null})
      RETURNING id)`,
  ];
  if (idem) {
    ctes.push(sql`idem AS (
      INSERT INTO idempotency_keys (member_id, key, request_hash, operation_id)
      VALUES (${op.memberId}, ${idem.key}, ${idem.hash}, ${op.id}))`);
  }
  return ctes;
}

export function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === '23505' &&
    String((error as { constraint?: unknown }).constraint ?? '').startsWith('idempotency_keys')
  );
}

/** Error answers of settled operations, by their note. */
export function failure(op: OperationRow): AppError {
  if (op.note === 'TRANSFER_FAIL') return new AppError(502, 'TRANSFER_FAIL', { reference: op.id });
  return new AppError(409, 'REQUEST_IN_PROGRESS', { reference: op.id });
}

/** How a transfer operation moves money: where it was held and where it ends. */
export function transferLegs(op: Pick<OperationRow, 'member_id' | 'source' | 'target'>): { direction: 'in' | 'out'; code: string } {
  return op.source === 'WALLET' ? { direction: 'in', code: op.target } : { direction: 'out', code: op.source };
}

/**
 * Settles a pending transfer, once: "applied" completes it (money from in-flight to the
 * destination), "absent" reverses it (money back where it came from, TRANSFER_FAIL). Answers
 * the operation's final status, whoever settled it, and the new balances when this call did.
 */
export async function settleTransfer(db: Kysely<DB>, op: OperationRow, outcome: 'applied' | 'absent'): Promise<{ status: OperationStatus; balances: Map<string, number> | null }> {
  const { direction, code } = transferLegs(op);
  const member = op.member_id;
  const gameAccount = account.game(member, code);
  const walletAccount = account.wallet(member);
  const destination = outcome === 'applied' ? (direction === 'in' ? gameAccount : walletAccount) : direction === 'in' ? walletAccount : gameAccount;
  const status: OperationStatus = outcome === 'applied' ? 'SUCCESS' : 'FAILED';
  const postings: Posting[] = [
    { account: account.inflight(member), amount: -op.amount },
    { account: destination, amount: op.amount },
  ];
  const settled = await runPosting(
    db,
    { kind: outcome === 'applied' ? 'transfer_complete' : 'transfer_reverse', operationId: op.id, postings },
    {
      before: [
        sql`settled AS (
          UPDATE operations SET status = ${status}, note = ${outcome === 'applied' ? null : 'TRANSFER_FAIL'}, updated_at = now()
          WHERE id = ${op.id} AND status = 'PENDING' RETURNING id)`,
      ],
      guard: 'settled',
    },
  );
  if (settled) return { status, balances: settled };
  const now = await db.selectFrom('operations').select('status').where('id', '=', op.id).executeTakeFirstOrThrow();
  return { status: now.status, balances: null };
}
