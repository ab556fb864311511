import { sameConnection, type Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { OperationsTable, OperationStatus, OperationType } from './tables';
import { Batcher, oneByOne, type Outcome } from '../lib/batcher';
import type { Idem } from './idempotency';
import { account, InsufficientFunds, LedgerError, retryConflicts, runPosting, runPostingBatch, type Currency, type PostInput, type Posting } from './ledger';

/**
 * Operations are what a member sees in the statement (a deposit, a withdrawal, a transfer).
 * Each is written in the same statement as the money it moves, together with the request's
 * Idempotency-Key, so a key always points at an operation that really happened. A two-phase
 * operation (a transfer, a withdrawal) is written PENDING with its hold, and later settled by one
 * compare-and-set (`settled` CTE: still PENDING?) in the statement that moves the held money.
 */
export type OperationRow = Omit<Selectable<OperationsTable>, 'created_at' | 'updated_at' | 'start_tx' | 'settle_tx' | 'credited_at' | 'idem_key' | 'request_hash'>;

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
  // The key is a column of the operation (money/011): a used key fails the unique index (or the
  // trigger, when the key recorded a refusal or a plan), a duplicate-key error (isDuplicateKey).
  return [
    sql`op AS (
      INSERT INTO operations (id, member_id, type, status, source, target, amount, note, start_tx, credited_at, idem_key, request_hash)
      VALUES (${op.id}, ${op.memberId}, ${op.type}, ${op.status}, ${op.source}, ${op.target}, ${op.amount}::bigint, ${op.note ?? null}, ${NEXT_TX},
        ${op.creditedAt ?? null}::timestamptz, ${idem?.key ?? null}, ${idem?.hash ?? null})
      RETURNING id, start_tx AS tx_id)`,
  ];
}

/** How a transfer operation moves money: the direction at the provider and the game. */
export function transferLegs(op: Pick<OperationRow, 'member_id' | 'source' | 'target'>): { direction: 'in' | 'out'; code: string } {
  return op.source === 'WALLET' ? { direction: 'in', code: op.target } : { direction: 'out', code: op.source };
}

/**
 * A wallet-game transfer is one ledger transaction (issue 35, the lean transfer):
 * - wallet → game ("in"): the money is posted from the wallet to the game account when the
 *   transfer starts (`transfer`), so the wallet can never spend it twice. When the provider has
 *   it, the settlement only ends the operation; when the provider refused it, the settlement
 *   posts it back (`transfer_return`). A balance read that the transfer overtook at the provider
 *   is never booked as a loss: a game result is booked only from a read that began with no
 *   transfer of that game pending (`gameCopy`, GameService.sync) and while none is (bookGameResult).
 * - game → wallet ("out"): the start records the operation only, if the game account's money
 *   not promised to a pending transfer of that game covers it (else MONEY_NOT_ENOUGH). The money
 *   is posted (`transfer`) once the provider has paid it out; a refusal ends the operation with no
 *   posting.
 * While a transfer of a game is pending no game result of that game is booked (bookGameResult),
 * so the ledger's copy of the game balance moves only by transfers then.
 *
 * Operations started before money/011 held the money in the member's in-flight account
 * (`transfer_start`); they settle the old way (`legacySettlement`).
 */
function settlement(op: OperationRow, outcome: 'applied' | 'absent'): { status: Exclude<OperationStatus, 'PENDING'>; note: string | null; input: (PostInput & { operationId: string }) | null; touch: string | null } {
  const { direction, code } = transferLegs(op);
  const gameAccount = account.game(op.member_id, code);
  const walletAccount = account.wallet(op.member_id);
  const back: Posting[] = [
    { account: gameAccount, amount: -op.amount },
    { account: walletAccount, amount: op.amount },
  ];
  if (outcome === 'applied') {
    if (direction === 'in') return { status: 'SUCCESS', note: null, input: null, touch: null };
    return { status: 'SUCCESS', note: null, input: { kind: 'transfer', operationId: op.id, postings: back }, touch: null };
  }
  if (direction === 'in') return { status: 'FAILED', note: 'TRANSFER_FAIL', input: { kind: 'transfer_return', operationId: op.id, postings: back }, touch: null };
  return { status: 'FAILED', note: 'TRANSFER_FAIL', input: null, touch: null };
}

/** The settlement of a transfer started before money/011: from the in-flight account to where it ends. */
function legacySettlement(op: OperationRow, outcome: 'applied' | 'absent'): { status: Exclude<OperationStatus, 'PENDING'>; note: string | null; input: PostInput } {
  const { direction, code } = transferLegs(op);
  const member = op.member_id;
  const gameAccount = account.game(member, code);
  const walletAccount = account.wallet(member);
  const destination = outcome === 'applied' ? (direction === 'in' ? gameAccount : walletAccount) : direction === 'in' ? walletAccount : gameAccount;
  return {
    status: outcome === 'applied' ? 'SUCCESS' : 'FAILED',
    note: outcome === 'applied' ? null : 'TRANSFER_FAIL',
    input: {
      kind: outcome === 'applied' ? 'transfer_complete' : 'transfer_reverse',
      operationId: op.id,
      postings: [
        { account: account.inflight(member), amount: -op.amount },
        { account: destination, amount: op.amount },
      ],
      touch: destination === gameAccount ? [] : [gameAccount],
    },
  };
}

export interface Settled {
  status: OperationStatus;
  /** New balances of the accounts the settlement moved, when this call settled the operation (null when someone else had). */
  balances: Map<string, number> | null;
}

/**
 * Settles a pending transfer, once: "applied" completes it, "absent" ends it with its money back
 * where it came from (TRANSFER_FAIL). Answers the operation's final status, whoever settled it,
 * and the new balances when this call did.
 *
 * When the provider paid out more than the ledger's copy of the game balance holds (a win the
 * copy had not booked yet, found by a concurrent transfer), the shortfall is booked first as the
 * game's result: the provider's payment proves the member had it.
 */
export async function settleTransfer(dbIn: Connection, op: OperationRow, outcome: 'applied' | 'absent'): Promise<Settled> {
  const db = sameConnection<MoneyDb>(dbIn);
  if (await isLegacy(db, op.id)) {
    const { status, note, input } = legacySettlement(op, outcome);
    const settled = await settleOnce(db, op.id, status, note, input);
    return settled ? { status, balances: settled } : { status: await currentStatus(db, op.id), balances: null };
  }
  return settleLean(db, op, outcome);
}

/** settleTransfer for a transfer this process started (never one from before money/011). */
async function settleLean(db: Kysely<MoneyDb>, op: OperationRow, outcome: 'applied' | 'absent'): Promise<Settled> {
  const plan = settlement(op, outcome);
  let settled: Map<string, number> | null;
  if (plan.input) {
    try {
      settled = await settleOnce(db, op.id, plan.status, plan.note, plan.input);
    } catch (error) {
      if (!(error instanceof InsufficientFunds)) throw error;
      await bookShortfall(db, op);
      settled = await settleOnce(db, op.id, plan.status, plan.note, plan.input);
    }
  } else {
    settled = await endWithoutMoney(db, [{ id: op.id, status: plan.status, note: plan.note, touch: plan.touch }]).then((ended) => (ended.ids.has(op.id) ? ended.balances : null));
  }
  if (settled) return { status: plan.status, balances: settled };
  return { status: await currentStatus(db, op.id), balances: null };
}

/** Whether a pending transfer held its money in the in-flight account (started before money/011). */
async function isLegacy(db: Kysely<MoneyDb>, operationId: string): Promise<boolean> {
  const row = await sql<{ kind: string }>`
    SELECT t.kind FROM operations o JOIN ledger_transactions t ON t.id = o.start_tx WHERE o.id = ${operationId}`.execute(db);
  return row.rows[0]?.kind === 'transfer_start';
}

/** Books as the game's result what the game account lacks for the transfer's debit (see settleTransfer). */
async function bookShortfall(db: Kysely<MoneyDb>, op: OperationRow): Promise<void> {
  const { code } = transferLegs(op);
  const gameAccount = account.game(op.member_id, code);
  const row = await db.selectFrom('ledger_accounts').select(['balance', 'currency']).where('id', '=', gameAccount).executeTakeFirstOrThrow();
  const shortfall = op.amount - Number(row.balance);
  if (shortfall <= 0 || row.currency === 'COIN') return;
  await runPosting(db, { kind: 'game_result', operationId: null, postings: [{ account: account.provider(code, row.currency), amount: -shortfall }, { account: gameAccount, amount: shortfall }] });
}

interface Ending {
  id: string;
  status: Exclude<OperationStatus, 'PENDING'>;
  note: string | null;
  /** The game account whose version moves with it (a transfer to a game that landed). */
  touch: string | null;
}

/**
 * Ends pending operations that move no money (a transfer to a game that landed, one from a game
 * the provider refused), each only if still PENDING: the touched accounts are locked in id order,
 * as every posting locks them. Answers the ids it ended and the touched accounts' balances.
 */
async function endWithoutMoney(db: Kysely<MoneyDb>, items: Ending[]): Promise<{ ids: Set<string>; balances: Map<string, number> }> {
  const statement = sql<{ id: string; account: string | null; balance: string | number | null }>`
    WITH i AS (
      SELECT * FROM unnest(${items.map((i) => i.id)}::text[], ${items.map((i) => i.status)}::text[], ${items.map((i) => i.note)}::text[], ${items.map((i) => i.touch)}::text[]) AS i(id, status, note, touch)
    ), settled AS (
      UPDATE operations o SET status = i.status, note = i.note, updated_at = now() FROM i WHERE o.id = i.id AND o.status = 'PENDING' RETURNING o.id
    ), locked AS (
      SELECT a.id FROM ledger_accounts a WHERE a.id IN (SELECT i.touch FROM i JOIN settled s ON s.id = i.id) ORDER BY a.id FOR NO KEY UPDATE
    ), touched AS (
      UPDATE ledger_accounts a SET version = a.version + 1 FROM locked l WHERE a.id = l.id RETURNING a.id, a.balance
    )
    SELECT s.id, NULL::text AS account, NULL::bigint AS balance FROM settled s UNION ALL SELECT NULL, t.id, t.balance FROM touched t`;
  const { rows } = await retryConflicts(db, statement);
  return {
    ids: new Set(rows.flatMap((r) => (r.id === null ? [] : [r.id]))),
    balances: new Map(rows.flatMap((r): Array<[string, number]> => (r.account === null ? [] : [[r.account, Number(r.balance)]]))),
  };
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
}

/** The money of a transfer to a game, posted when it starts: from the wallet to the game account. */
function toGamePosting({ op }: NewTransfer): PostInput & { operationId: string } {
  return { kind: 'transfer', operationId: op.id, postings: [{ account: account.wallet(op.memberId), amount: -op.amount }, { account: account.game(op.memberId, op.target), amount: op.amount }] };
}

/** Whether a batch statement was refused because of one of its items (then each runs alone). */
function itemError(error: unknown): boolean {
  const state = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return error instanceof InsufficientFunds || error instanceof LedgerError || state === '23505' || state === '23503' || state === '23514';
}

const BATCH = { maxBatch: 64, concurrency: 1 };

type Settling = { op: OperationRow; outcome: 'applied' | 'absent' };

/**
 * The ledger steps of every transfer, group-committed (see Batcher): starting it (the operation
 * with its key, and for a transfer to a game its money) and settling it. Under load one statement
 * carries many transfers; a batch refused because of one item (not enough money, a repeated
 * Idempotency-Key) is run again item by item, so each request gets exactly the answer it would
 * have had alone. A transfer writes 7 rows in all: the operation inserted and settled, one ledger
 * transaction, its two entries, two balances.
 */
export class TransferPostings {
  private readonly starts: Batcher<NewTransfer, Map<string, number>>;
  private readonly settles: Batcher<Settling, Settled>;

  private readonly db: Kysely<MoneyDb>;

  constructor(connection: Connection) {
    this.db = sameConnection<MoneyDb>(connection);
    this.starts = new Batcher((items) => this.startMany(items), BATCH);
    this.settles = new Batcher((items) => this.settleMany(items), BATCH);
  }

  /**
   * Starts a transfer: answers the balances it moved (the wallet and the game account for a
   * transfer to a game; none for one from a game). Throws InsufficientFunds, or the
   * duplicate-key error of a used key.
   */
  start(item: NewTransfer): Promise<Map<string, number>> {
    if (transferLegs({ member_id: item.op.memberId, source: item.op.source, target: item.op.target }).direction === 'out') return this.startFromGame(item);
    return this.starts.submit(item);
  }

  /**
   * Settles a transfer this process started. A transfer to a game the provider took is settled
   * behind its answer (settleBehind): it answers SUCCESS at once, with no balances of its own
   * (the start's posting moved the money). Every other outcome is written before it answers.
   */
  settle(op: OperationRow, outcome: 'applied' | 'absent'): Promise<Settled> {
    if (outcome === 'applied' && transferLegs(op).direction === 'in') {
      this.settleBehind(op);
      return Promise.resolve({ status: 'SUCCESS', balances: new Map() });
    }
    return this.settles.submit({ op, outcome });
  }

  /** Settlements written behind their answer, per member (see settleBehind). */
  private readonly behind = new Map<string, Set<Promise<void>>>();

  /** Told of a settlement written behind that failed every attempt (the reconciler settles it later). */
  onBehindFailure: (error: unknown, op: OperationRow) => void = () => undefined;

  /**
   * Settles a transfer to a game the provider took without its caller waiting for the write: the
   * money moved when the transfer started, the provider's confirmation is kept by the provider,
   * and the settlement only marks the operation SUCCESS (no posting). The member's answer is
   * given at once; the mark goes with the next settle batch. Until it is written the operation
   * reads PENDING: the member's own next request waits for it first (`caughtUp`, called by the
   * route layer for every signed-in call), so a member never sees their own transfer pending nor
   * has a retry answered "in progress" by this process. If the process dies before the write (or
   * every attempt fails), the operation stays PENDING and the reconciler settles it by asking the
   * provider, as for a process that died during the provider call: nothing is lost or doubled.
   */
  private settleBehind(op: OperationRow): void {
    let pending = this.behind.get(op.member_id);
    if (!pending) {
      pending = new Set();
      this.behind.set(op.member_id, pending);
    }
    const own = pending;
    const written: Promise<void> = this.writeBehind(op).finally(() => {
      own.delete(written);
      if (own.size === 0 && this.behind.get(op.member_id) === own) this.behind.delete(op.member_id);
    });
    own.add(written);
  }

  private async writeBehind(op: OperationRow): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.settles.submit({ op, outcome: 'applied' });
        return;
      } catch (error) {
        if (attempt >= 3) {
          this.onBehindFailure(error, op);
          return;
        }
      }
    }
  }

  /** Resolves when every settlement written behind for this member is written (or left to the reconciler); undefined when none is. */
  caughtUp(memberId: string): Promise<unknown> | undefined {
    const pending = this.behind.get(memberId);
    return pending ? Promise.all(pending) : undefined;
  }

  /** Resolves when every settlement written behind so far is written (before the database closes). */
  async drain(): Promise<void> {
    while (this.behind.size > 0) await Promise.all([...this.behind.values()].flatMap((set) => [...set]));
  }

  /**
   * A transfer from a game: the operation alone, recorded only if the game account's balance
   * less the transfers of that game still pending covers it (a transfer to the game is already on
   * the account but not yet the provider's; one from it is not yet off the account). One started
   * before money/011 is not counted: its money is in the in-flight account, not on this one.
   */
  private async startFromGame({ op, idem }: NewTransfer): Promise<Map<string, number>> {
    const game = account.game(op.memberId, op.source);
    const recorded = await sql<{ id: string }>`
      WITH free AS (
        SELECT a.balance - coalesce((
          SELECT sum(o.amount) FROM operations o WHERE o.member_id = ${op.memberId} AND o.status = 'PENDING' AND o.type = 'transfer'
            AND (o.source = ${op.source} OR o.target = ${op.source})
            AND NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = o.start_tx AND t.kind = 'transfer_start')), 0) AS amount
        FROM ledger_accounts a WHERE a.id = ${game}
      )
      INSERT INTO operations (id, member_id, type, status, source, target, amount, idem_key, request_hash)
      SELECT ${op.id}, ${op.memberId}, ${op.type}, ${op.status}, ${op.source}, ${op.target}, ${op.amount}::bigint, ${idem?.key ?? null}, ${idem?.hash ?? null}
      FROM free WHERE free.amount >= ${op.amount}::bigint
      RETURNING id`.execute(this.db);
    if (recorded.rows.length === 0) throw new InsufficientFunds();
    return new Map();
  }

  private async startOne(item: NewTransfer): Promise<Map<string, number>> {
    const balances = await runPosting(this.db, toGamePosting(item), { before: recordOperation(item.op, item.idem), txIdFrom: 'op' });
    return balances ?? new Map();
  }

  private async startMany(items: NewTransfer[]): Promise<Array<Outcome<Map<string, number>>>> {
    if (items.length === 1) return oneByOne(items, (item) => this.startOne(item));
    const ctes: RawBuilder<unknown>[] = [
      sql`op AS (
        INSERT INTO operations (id, member_id, type, status, source, target, amount, start_tx, idem_key, request_hash)
        SELECT u.id, u.member_id, u.type, u.status, u.source, u.target, u.amount, ${NEXT_TX}, k.key, k.hash FROM unnest(${items.map((i) => i.op.id)}::text[], ${items.map((i) => i.op.memberId)}::text[], ${items.map((i) => i.op.type)}::text[],
          ${items.map((i) => i.op.status)}::text[], ${items.map((i) => i.op.source)}::text[], ${items.map((i) => i.op.target)}::text[],
          ${items.map((i) => String(i.op.amount))}::bigint[]) WITH ORDINALITY AS u(id, member_id, type, status, source, target, amount, n)
        JOIN unnest(${items.map((i) => i.idem?.key ?? null)}::text[], ${items.map((i) => i.idem?.hash ?? null)}::text[]) WITH ORDINALITY AS k(key, hash, n) ON k.n = u.n
        RETURNING id, start_tx AS tx_id)`,
    ];
    try {
      const { after } = await runPostingBatch(this.db, items.map(toGamePosting), { before: ctes, guard: 'op' });
      return after.map((own) => ({ ok: true, value: own }));
    } catch (error) {
      if (!itemError(error)) throw error;
      return oneByOne(items, (item) => this.startOne(item));
    }
  }

  /** Settles a batch: the settlements that post money in one statement, those that post none in another. */
  private async settleMany(items: Settling[]): Promise<Array<Outcome<Settled>>> {
    const unique = new Set(items.map((i) => i.op.id));
    if (items.length === 1 || unique.size !== items.length) return oneByOne(items, (i) => settleLean(this.db, i.op, i.outcome));
    const plans = items.map((i) => settlement(i.op, i.outcome));
    const outcomes = new Array<Outcome<Settled>>(items.length);
    const moving = items.map((_, n) => n).filter((n) => plans[n]?.input);
    const still = items.map((_, n) => n).filter((n) => !plans[n]?.input);
    if (still.length > 0) {
      try {
        const ended = await endWithoutMoney(
          this.db,
          still.map((n) => {
            const plan = plans[n] as (typeof plans)[number];
            return { id: (items[n] as Settling).op.id, status: plan.status, note: plan.note, touch: plan.touch };
          }),
        );
        for (const n of still) {
          const item = items[n] as Settling;
          const plan = plans[n] as (typeof plans)[number];
          outcomes[n] = ended.ids.has(item.op.id) ? { ok: true, value: { status: plan.status, balances: plan.touch ? new Map([[plan.touch, ended.balances.get(plan.touch) ?? 0]]) : new Map() } } : await this.statusOf(item);
        }
      } catch (error) {
        for (const n of still) outcomes[n] = { ok: false, error };
      }
    }
    if (moving.length > 0) {
      const posted = await this.settleMoving(moving.map((n) => items[n] as Settling), moving.map((n) => plans[n] as (typeof plans)[number]));
      moving.forEach((n, k) => {
        outcomes[n] = posted[k] as Outcome<Settled>;
      });
    }
    return outcomes;
  }

  private async statusOf(item: Settling): Promise<Outcome<Settled>> {
    try {
      return { ok: true, value: { status: await currentStatus(this.db, item.op.id), balances: null } };
    } catch (error) {
      return { ok: false, error };
    }
  }

  private async settleMoving(items: Settling[], plans: Array<ReturnType<typeof settlement>>): Promise<Array<Outcome<Settled>>> {
    if (items.length === 1) return oneByOne(items, (i) => settleLean(this.db, i.op, i.outcome));
    let batch;
    try {
      batch = await runPostingBatch(
        this.db,
        plans.map((p) => p.input as PostInput & { operationId: string }),
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
      return oneByOne(items, (i) => settleLean(this.db, i.op, i.outcome));
    }
    const { posted, after } = batch;
    return Promise.all(
      items.map(async (item, n): Promise<Outcome<Settled>> => {
        const plan = plans[n] as (typeof plans)[number];
        if (posted.has(item.op.id)) return { ok: true, value: { status: plan.status, balances: after[n] ?? new Map() } };
        return this.statusOf(item);
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

/** The ledger's copy of a member's game balance, and whether a transfer of that game was pending when it was read (one statement). */
export interface GameCopy {
  balance: number;
  version: number;
  currency: Currency;
  transferPending: boolean;
}

/**
 * Reads the ledger's copy of a game account with the "a transfer of this game is pending" flag, in
 * one statement: a provider balance read that begins while a transfer is pending may have
 * overtaken it at the provider, so it is not booked (GameService.sync). Null when the account does
 * not exist.
 */
export async function gameCopy(dbIn: Connection, memberId: string, code: string): Promise<GameCopy | null> {
  const db = sameConnection<MoneyDb>(dbIn);
  const row = await sql<{ balance: string | number; version: string | number; currency: Currency; pending: boolean }>`
    SELECT a.balance, a.version, a.currency, EXISTS (
      SELECT 1 FROM operations o WHERE o.member_id = ${memberId} AND o.status = 'PENDING' AND o.type = 'transfer' AND (o.source = ${code} OR o.target = ${code})
    ) AS pending
    FROM ledger_accounts a WHERE a.id = ${account.game(memberId, code)}`.execute(db);
  const r = row.rows[0];
  return r ? { balance: Number(r.balance), version: Number(r.version), currency: r.currency, transferPending: r.pending } : null;
}

/**
 * Books a game's result: the difference between the provider's live balance and the ledger's
 * copy of the game account, against the provider's account, only if the copy is still the one
 * read (`version`) and no transfer to or from that game is pending (a transfer the read
 * overtook at the provider is never booked as a win or a loss; the read itself must have begun
 * with none pending: `gameCopy`). Answers null when it did not book.
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
