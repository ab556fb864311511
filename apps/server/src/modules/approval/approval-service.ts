import { sql, type Kysely, type Selectable } from 'kysely';
import type { ColumnType } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { DB, DefaultTimestamp } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Currency } from '../../money/ledger';
import { recordChange } from '../../platform/audit';

/** An action one operator asked for that waits for a second operator (four eyes). */
export interface OperatorApprovalsTable {
  id: string;
  /** What runs when approved: `withdrawal.approve`, `withdrawal.complete`, `deposit.manual`, `deposit.assign`. */
  action: string;
  /** One open (or approved) approval per thing asked for: the withdrawal, the unmatched deposit, the maker's Idempotency-Key. */
  dedupe_key: string;
  /** The request's fingerprint (a manual credit's Idempotency-Key hash): the same key with another request is refused. */
  request_hash: string;
  payload: ColumnType<unknown, string, string>;
  member_id: string | null;
  amount: number;
  currency: string;
  maker: string;
  status: 'pending' | 'approved' | 'rejected';
  checker: string | null;
  note: string | null;
  /** The executed action's answer ({status, body}), stored once it ran. */
  result: ColumnType<unknown, string | null, string | null>;
  created_at: DefaultTimestamp;
  decided_at: Date | null;
}

declare module '../../db/schema' {
  interface DB {
    operator_approvals: OperatorApprovalsTable;
  }
}

/** What an approved action answered: its HTTP status and body (a refusal included). */
export interface ActionResult {
  status: number;
  body: unknown;
}

/** Runs an approved action. It must be idempotent: it may run again after a crash, and answers the same. */
export type Executor = (payload: unknown, checker: string, approvalId: string) => Promise<unknown>;

export interface ApprovalRequest {
  action: string;
  dedupeKey: string;
  requestHash?: string;
  payload: unknown;
  memberId: string | null;
  /** Minor units of `currency`. */
  amount: number;
  currency: Currency;
  maker: string;
}

export interface ApprovalView {
  id: string;
  action: string;
  memberId: string | null;
  /** Baht (or kip) with 2 decimals. */
  amount: number;
  currency: string;
  payload: unknown;
  maker: string;
  status: 'pending' | 'approved' | 'rejected';
  checker: string | null;
  note: string | null;
  result: ActionResult | null;
  createdAt: string;
  decidedAt: string | null;
}

/** The answer of a call that needs a second operator: 202 with this body. */
export interface AwaitingApproval {
  status: 'awaiting-approval';
  approvalId: string;
}

function json(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
}

function viewOf(row: Selectable<OperatorApprovalsTable>): ApprovalView {
  return {
    id: row.id,
    action: row.action,
    memberId: row.member_id,
    amount: toBaht(Number(row.amount)),
    currency: row.currency,
    payload: json(row.payload),
    maker: row.maker,
    status: row.status,
    checker: row.checker,
    note: row.note,
    result: (json(row.result) as ActionResult | null) ?? null,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

/**
 * Four eyes (maker-checker): money an operator moves on their own say — a manual credit, an
 * unmatched deposit assigned to a member, a withdrawal paid out — above FOUR_EYES_THRESHOLD
 * (FOUR_EYES_THRESHOLD_LAK for kip) is not done at the first operator's call. The call records a
 * pending approval (202 awaiting-approval); a different operator approves it, which runs the
 * action once (its executor is idempotent and its answer is kept: approving again answers the
 * same), or rejects it. The maker can never be the checker (403 SAME_OPERATOR); the maker may
 * withdraw their own request by rejecting it. Every decision is recorded in the audit.
 */
export class ApprovalService {
  private readonly executors = new Map<string, Executor>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly thresholds: Record<Currency, number>,
  ) {}

  /** A domain names what runs when an approval of its action is approved (in its setup). */
  register(action: string, executor: Executor): void {
    if (this.executors.has(action)) throw new Error(`approval action ${action} is registered twice`);
    this.executors.set(action, executor);
  }

  /** Whether moving `amount` (minor units) of `currency` on one operator's say needs a second operator: strictly above the threshold. */
  needsChecker(amount: number, currency: Currency): boolean {
    return amount > this.thresholds[currency];
  }

  /**
   * Records the request (or finds the one already open for the same thing): 202 awaiting-approval.
   * An approved one answers what its action answered (the maker's retry after the checker acted).
   */
  async request(request: ApprovalRequest): Promise<AwaitingApproval | ActionResult> {
    if (!this.executors.has(request.action)) throw new Error(`approval action ${request.action} has no executor`);
    const hash = request.requestHash ?? '';
    const inserted = await this.db
      .insertInto('operator_approvals')
      .values({
        id: newId(),
        action: request.action,
        dedupe_key: request.dedupeKey,
        request_hash: hash,
        payload: JSON.stringify(request.payload),
        member_id: request.memberId,
        amount: request.amount,
        currency: request.currency,
        maker: request.maker,
        status: 'pending',
        checker: null,
        note: null,
        result: null,
        decided_at: null,
      })
      // The partial index's own predicate, as a literal: PostgreSQL infers the index from it (a parameter it cannot match).
      .onConflict((oc) => oc.column('dedupe_key').where(sql.ref('status'), '<>', sql.lit('rejected')).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) {
      await recordChange(this.db, { who: request.maker, entity: 'approval', key: inserted.id, before: null, after: { action: request.action, status: 'pending', payload: request.payload } });
      return { status: 'awaiting-approval', approvalId: inserted.id };
    }
    const open = await this.db.selectFrom('operator_approvals').selectAll().where('dedupe_key', '=', request.dedupeKey).where('status', '<>', 'rejected').executeTakeFirst();
    if (!open) return this.request(request); // rejected between the two statements: ask again
    if (open.request_hash !== hash) throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED');
    if (open.status === 'approved') return this.approve(open.id, open.checker ?? '');
    return { status: 'awaiting-approval', approvalId: open.id };
  }

  async list(status: 'pending' | 'approved' | 'rejected' | undefined, limit = 200): Promise<ApprovalView[]> {
    let query = this.db.selectFrom('operator_approvals').selectAll().orderBy('created_at', status === 'pending' ? 'asc' : 'desc').limit(limit);
    if (status) query = query.where('status', '=', status);
    return (await query.execute()).map(viewOf);
  }

  async get(id: string): Promise<ApprovalView> {
    const row = await this.db.selectFrom('operator_approvals').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('NO_APPROVAL');
    return viewOf(row);
  }

  /**
   * The checker approves: the approval turns approved once (a compare-and-set: of two approvals at
   * once one decides), then its action runs and its answer is kept. Approving an approved one
   * runs nothing new: it answers the kept answer (or, after a crash before it was kept, runs the
   * idempotent action again, which answers what it did).
   */
  async approve(id: string, checker: string): Promise<ActionResult> {
    const row = await this.db.selectFrom('operator_approvals').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('NO_APPROVAL');
    if (row.maker === checker) throw new AppError(403, 'SAME_OPERATOR');
    if (row.status === 'rejected') throw new AppError(409, 'APPROVAL_CLOSED');
    if (row.status === 'pending') {
      const decided = await this.db
        .updateTable('operator_approvals')
        .set({ status: 'approved', checker, decided_at: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('maker', '<>', checker)
        .returning('id')
        .executeTakeFirst();
      if (decided) await recordChange(this.db, { who: checker, entity: 'approval', key: id, before: { status: 'pending' }, after: { status: 'approved', action: row.action } });
      else return this.approve(id, checker); // decided by someone else meanwhile
    }
    const kept = json(row.result) as ActionResult | null;
    if (kept) return kept;
    const result = await this.execute(row.action, json(row.payload), row.checker ?? checker, id);
    await this.db.updateTable('operator_approvals').set({ result: JSON.stringify(result) }).where('id', '=', id).where(sql<boolean>`result IS NULL`).execute();
    return result;
  }

  /** Rejects a pending approval (a checker, or the maker withdrawing it): nothing runs. */
  async reject(id: string, who: string, note: string): Promise<ApprovalView> {
    const decided = await this.db
      .updateTable('operator_approvals')
      .set({ status: 'rejected', checker: who, note, decided_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (decided) {
      await recordChange(this.db, { who, entity: 'approval', key: id, before: { status: 'pending' }, after: { status: 'rejected', note } });
      return viewOf(decided);
    }
    const row = await this.db.selectFrom('operator_approvals').select('status').where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('NO_APPROVAL');
    throw new AppError(409, 'APPROVAL_CLOSED');
  }

  private async execute(action: string, payload: unknown, checker: string, id: string): Promise<ActionResult> {
    const executor = this.executors.get(action);
    if (!executor) throw new Error(`approval action ${action} has no executor`);
    try {
      return { status: 200, body: await executor(payload, checker, id) };
    } catch (error) {
      // A refusal of the action (the member was locked meanwhile, …) is its answer, kept like a success.
      if (error instanceof AppError && error.status < 500 && error.status !== 409) return { status: error.status, body: { message: error.code, ...error.extra } };
      throw error;
    }
  }
}
