import { sameConnection, type Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { OperationsTable, OperationStatus, OperationType } from './tables';
import { Batcher, oneByOne, type Outcome } from '../lib/batcher';
import type { Idem } from './idempotency';
import { account, InsufficientFunds, LedgerError, runPosting, runPostingBatch, type Currency, type PostInput, type Posting } from './ledger';

/**
 * Operations are what a member sees in the statement (a deposit, a withdrawal, a transfer).
 * Each is written in the same statement as the money it moves, together with the request's
 * Idempotency-Key, so a key always points at an operation that really happened. A two-phase
 * operation (a transfer, a withdrawal) is written PENDING with its hold, and later settled by one
 * compare-and-set (`settled` CTE: still PENDING?) in the statement that moves the held money.
 */
export type OperationRow = Omit<Selectable<OperationsTable>, 'created_at' | 'updated_at' | 'start_tx' | 'settle_tx' | 'credited_at'>;

export interface NewOperation {
  id: string;
  memberId: string;
  type: OperationType;
  status: OperationStatus;
  source: string;
  target: string;
  amount: number;
  note?: string | null;
  /** When a deposit reached the wallet by the money core's clock (deposit limits count by it). */
  creditedAt?: Date | null;
}

/** The next ledger transaction id, drawn when an operation row is written or settled (its own transaction's id). */
const NEXT_TX = sql`nextval(pg_get_serial_sequence('ledger_transactions', 'id'))`;

/**
 * CTEs that record the operation (and the key) inside a posting statement; the CTE `op` returns
 * the transaction id the posting takes (use `txIdFrom: 'op'`).
 */
export function recordOperation(op: NewOperation, idem: Idem | null): RawBuilder<unknown>[] {
  const ctes: RawBuilder<unknown>[] = [
    sql`op AS (
      INSERT INTO operations (id, member_id, type, status, source, target, amount, note, start_tx, credited_at)
      VALUES (${op.id}, ${op.memberId}, ${op.type}, ${op.status}, ${op.source}, ${op.target}, ${op.amount}::bigint, ${op.note ?? null}, ${NEXT_TX}, ${op.creditedAt ?? null}::timestamptz)
      RETURNING id, start_tx AS tx_id)`,
  ];
  if (idem) {
    ctes.push(sql`idem AS (
      INSERT INTO idempotency_keys (member_id, key, request_hash, operation_id)
      VALUES (${op.memberId}, ${idem.key}, ${idem.hash}, ${op.id}))`);
  }
  return ctes;
}

/** How a transfer operation moves money: where it was held and where it ends. */
export function transferLegs(op: Pick<OperationRow, 'member_id' | 'source' | 'target'>): { direction: 'in' | 'out'; code: string } {
  return op.source === 'WALLET' ? { direction: 'in', code: op.target } : { direction: 'out', code: op.source };
}

/** The money of a settlement: in-flight to the destination ("applied") or back ("absent"). */
function settlement(op: OperationRow, outcome: 'applied' | 'absent'): { status: Exclude<OperationStatus, 'PENDING'>; note: string | null; input: PostInput & { operationId: string } } {
  const { direction, code } = transferLegs(op);
  const member = op.member_id;
  const gameAccount = account.game(member, code);
  const walletAccount = account.wallet(member);
  const destination = outcome === 'applied' ? (direction === 'in' ? gameAccount : walletAccount) : direction === 'in' ? walletAccount : gameAccount;
  const postings: Posting[] = [
    { account: account.inflight(member), amount: -op.amount },
    { account: destination, amount: op.amount },
  ];
  // The game account is touched when no money lands on it: a balance read that this transfer
  // overtook at the provider can then not be booked as a game result (GameService.sync).
  const touch = destination === gameAccount ? [] : [gameAccount];
  return {
    status: outcome === 'applied' ? 'SUCCESS' : 'FAILED',
    note: outcome === 'applied' ? null : 'TRANSFER_FAIL',
    input: { kind: outcome === 'applied' ? 'transfer_complete' : 'transfer_reverse', operationId: op.id, postings, touch },
  };
}

export interface Settled {
  status: OperationStatus;
  /** New balances, when this call settled the operation (null when someone else had). */
  balances: Map<string, number> | null;
}

/**
 * Settles a pending transfer, once: "applied" completes it (money from in-flight to the
 * destination), "absent" reverses it (money back where it came from, TRANSFER_FAIL). Answers
 * the operation's final status, whoever settled it, and the new balances when this call did.
 */
export async function settleTransfer(dbIn: Connection, op: OperationRow, outcome: 'applied' | 'absent'): Promise<Settled> {
  const db = sameConnection<MoneyDb>(dbIn);
  const { status, note, input } = settlement(op, outcome);
  const settled = await settleOnce(db, op.id, status, note, input);
  if (settled) return { status, balances: settled };
  return { status: await currentStatus(db, op.id), balances: null };
}

/**
 * The one way a PENDING operation ends: its status and its money in one statement, guarded by
 * "still PENDING" (a compare-and-set). Answers the new balances, or null when it had already
 * ended (someone else settled it; nothing moved).
 */
export async function settleOnce(
  dbIn: Connection,
  operationId: string,
  status: Exclude<OperationStatus, 'PENDING'>,
  note: string | null,
  input: PostInput,
): Promise<Map<string, number> | null> {
  const db = sameConnection<MoneyDb>(dbIn);
  return runPosting(db, input, {
    before: [
      sql`settled AS (
          UPDATE operations SET status = ${status}, note = ${note}, updated_at = now(), settle_tx = ${NEXT_TX}
          WHERE id = ${operationId} AND status = 'PENDING' RETURNING id, settle_tx AS tx_id)`,
    ],
    guard: 'settled',
    txIdFrom: 'settled',
  });
}

async function currentStatus(db: Kysely<MoneyDb>, operationId: string): Promise<OperationStatus> {
  const now = await db.selectFrom('operations').select('status').where('id', '=', operationId).executeTakeFirstOrThrow();
  return now.status;
}

export interface NewTransfer {
  op: NewOperation;
  idem: Idem | null;
  /** The account the money leaves (the wallet, or the game account). */
  debit: string;
}

/** The money of a transfer's start: from the debited account into the member's in-flight account. */
function holding({ op, debit }: NewTransfer): PostInput & { operationId: string } {
  return { kind: 'transfer_start', operationId: op.id, postings: [{ account: debit, amount: -op.amount }, { account: account.inflight(op.memberId), amount: op.amount }] };
}

/** Whether a batch statement was refused because of one of its items (then each runs alone). */
function itemError(error: unknown): boolean {
  const state = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return error instanceof InsufficientFunds || error instanceof LedgerError || state === '23505' || state === '23503' || state === '23514';
}

const BATCH = { maxBatch: 64, concurrency: 1 };

/**
 * The two ledger steps of every transfer, group-committed (see Batcher): starting it (record the
 * PENDING operation and its key, hold the money in flight) and settling it. Under load one
 * statement carries many transfers; a batch refused because of one item (not enough money, a
 * repeated Idempotency-Key) is run again item by item, so each request gets exactly the answer
 * it would have had alone.
 */
export class TransferPostings {
  private readonly starts: Batcher<NewTransfer, Map<string, number>>;
  private readonly settles: Batcher<{ op: OperationRow; outcome: 'applied' | 'absent' }, Settled>;

  private readonly db: Kysely<MoneyDb>;

  constructor(connection: Connection) {
    this.db = sameConnection<MoneyDb>(connection);
    this.starts = new Batcher((items) => this.startMany(items), BATCH);
    this.settles = new Batcher((items) => this.settleMany(items), BATCH);
  }

  /** Starts a transfer; throws InsufficientFunds, or the duplicate-key error of a used key. */
  start(item: NewTransfer): Promise<Map<string, number>> {
    return this.starts.submit(item);
  }

  settle(op: OperationRow, outcome: 'applied' | 'absent'): Promise<Settled> {
    return this.settles.submit({ op, outcome });
  }

  private async startOne({ op, idem, debit }: NewTransfer): Promise<Map<string, number>> {
    const balances = await runPosting(
      this.db,
      holding({ op, idem, debit }),
      { before: recordOperation(op, idem), txIdFrom: 'op' },
    );
    return balances ?? new Map();
  }

  private async startMany(items: NewTransfer[]): Promise<Array<Outcome<Map<string, number>>>> {
    if (items.length === 1) return oneByOne(items, (item) => this.startOne(item));
    const keyed = items.filter((i) => i.idem);
    const ctes: RawBuilder<unknown>[] = [
      sql`op AS (
        INSERT INTO operations (id, member_id, type, status, source, target, amount, start_tx)
        SELECT u.*, ${NEXT_TX} FROM unnest(${items.map((i) => i.op.id)}::text[], ${items.map((i) => i.op.memberId)}::text[], ${items.map((i) => i.op.type)}::text[],
          ${items.map((i) => i.op.status)}::text[], ${items.map((i) => i.op.source)}::text[], ${items.map((i) => i.op.target)}::text[],
          ${items.map((i) => String(i.op.amount))}::bigint[]) AS u
        RETURNING id, start_tx AS tx_id)`,
    ];
    if (keyed.length > 0) {
      ctes.push(sql`idem AS (
        INSERT INTO idempotency_keys (member_id, key, request_hash, operation_id)
        SELECT * FROM unnest(${keyed.map((i) => i.op.memberId)}::text[], ${keyed.map((i) => i.idem?.key ?? '')}::text[],
          ${keyed.map((i) => i.idem?.hash ?? '')}::text[], ${keyed.map((i) => i.op.id)}::text[]))`);
    }
    try {
      const { after } = await runPostingBatch(
        this.db,
        items.map(holding),
        { before: ctes, guard: 'op' },
      );
      return after.map((own) => ({ ok: true, value: own }));
    } catch (error) {
      if (!itemError(error)) throw error;
      return oneByOne(items, (item) => this.startOne(item));
    }
  }

  private async settleMany(items: Array<{ op: OperationRow; outcome: 'applied' | 'absent' }>): Promise<Array<Outcome<Settled>>> {
    const unique = new Set(items.map((i) => i.op.id));
    if (items.length === 1 || unique.size !== items.length) return oneByOne(items, (i) => settleTransfer(this.db, i.op, i.outcome));
    const plans = items.map((i) => settlement(i.op, i.outcome));
    let batch;
    try {
      batch = await runPostingBatch(
        this.db,
        plans.map((p) => p.input),
        {
          before: [
            sql`settled AS (
              UPDATE operations o SET status = i.status, note = i.note, updated_at = now(), settle_tx = ${NEXT_TX}
              FROM unnest(${items.map((i) => i.op.id)}::text[], ${plans.map((p) => p.status)}::text[], ${plans.map((p) => p.note)}::text[]) AS i(id, status, note)
              WHERE o.id = i.id AND o.status = 'PENDING' RETURNING o.id, o.settle_tx AS tx_id)`,
          ],
          guard: 'settled',
        },
      );
    } catch (error) {
      if (!itemError(error)) throw error;
      return oneByOne(items, (i) => settleTransfer(this.db, i.op, i.outcome));
    }
    const { posted, after } = batch;
    return Promise.all(
      items.map(async (item, n): Promise<Outcome<Settled>> => {
        const plan = plans[n] as (typeof plans)[number];
        if (posted.has(item.op.id)) return { ok: true, value: { status: plan.status, balances: after[n] ?? new Map() } };
        try {
          return { ok: true, value: { status: await currentStatus(this.db, item.op.id), balances: null } };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
  }
}

/**
 * A one-step operation (a top-up, a withdrawal's hold, …) and its money in one statement, with
 * the request's key: answers the balances after its postings. InsufficientFunds when an account
 * would go below zero; a duplicate key error when the key was recorded first (a retry).
 */
export async function recordWithMoney(dbIn: Connection, op: NewOperation, idem: Idem | null, postings: Posting[], kind: PostInput['kind']): Promise<Map<string, number> | null> {
  const db = sameConnection<MoneyDb>(dbIn);
  return runPosting(db, { kind, operationId: op.id, postings }, { before: recordOperation(op, idem), txIdFrom: 'op' });
}

/**
 * Books a game's result: the difference between the provider's live balance and the ledger's
 * copy of the game account, against the provider's account, only if the copy is still the one
 * read (`version`) and no transfer to or from that game is pending (a transfer the read
 * overtook at the provider is never booked as a win or a loss). Answers null when it did not book.
 */
export async function bookGameResult(
  dbIn: Connection,
  memberId: string,
  code: string,
  seen: { version: number; currency: Currency },
  delta: number,
): Promise<Map<string, number> | null> {
  const db = sameConnection<MoneyDb>(dbIn);
  const id = account.game(memberId, code);
  return runPosting(
    db,
    { kind: 'game_result', operationId: null, postings: [{ account: account.provider(code, seen.currency), amount: -delta }, { account: id, amount: delta }] },
    {
      before: [
        sql`unchanged AS (
          SELECT a.id FROM ledger_accounts a WHERE a.id = ${id} AND a.version = ${seen.version}::bigint
            AND NOT EXISTS (SELECT 1 FROM operations o WHERE o.member_id = ${memberId} AND o.status = 'PENDING'
              AND o.type = 'transfer' AND (o.source = ${code} OR o.target = ${code}))
          FOR UPDATE)`,
      ],
      guard: 'unchanged',
    },
  );
}
