import { sql, type Kysely, type Selectable } from 'kysely';
import type { ColumnType } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { DefaultTimestamp } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Currency } from '../../money';
import { recordChange } from '../../platform/audit';
import { API_KEY_IDENTITY } from '../../platform/operator';
import type { FourEyesKind, FourEyesRules, FourEyesTables } from './four-eyes-rules';

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
  status: ApprovalStatus;
  checker: string | null;
  note: string | null;
  /** The executed action's answer ({status, body}), stored once it ran. */
  result: ColumnType<unknown, string | null, string | null>;
  created_at: DefaultTimestamp;
  decided_at: Date | null;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface ApprovalTables extends FourEyesTables {
  operator_approvals: OperatorApprovalsTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends ApprovalTables {}
}

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'cancelled';

/** Who decides: a person with a session. The automation key (via api-key) is nobody's second pair of eyes. */
export interface Checker {
  username: string;
  via: 'session' | 'api-key';
}

/** Who a request is about, as the approvals screen names them. */
export interface ApprovalMember {
  id: string;
  name: string;
  phone: string;
  bank: string;
  account: string;
  currency: string;
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
  /** The member it is about (null for a settings change), for the sentence the screen writes. */
  member: ApprovalMember | null;
  /** Baht (or kip) with 2 decimals. */
  amount: number;
  currency: string;
  payload: unknown;
  maker: string;
  status: ApprovalStatus;
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

function viewOf(row: Selectable<OperatorApprovalsTable>, member: ApprovalMember | null = null): ApprovalView {
  return {
    id: row.id,
    action: row.action,
    memberId: row.member_id,
    member,
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
 * same), or rejects it. The maker can never be the checker (403 SAME_OPERATOR), nor can an account
 * whose trust stands on the maker's word, or the maker's on its, within 7 days (403 CHECKER_TOO_NEW);
 * the automation key is no person: it neither checks nor asks (403 API_KEY_NOT_A_PERSON). The maker
 * may withdraw their own request by rejecting it. Every decision is recorded in the audit.
 */
export class ApprovalService {
  private readonly executors = new Map<string, Executor>();
  /** Whether `checker` may decide `maker`'s requests (the operators module's rule: not someone the maker just made). */
  private mayCheck: (checker: string, maker: string) => Promise<boolean> = async () => true;
  /** The member a request names (the account module's directory). */
  private memberOf: (memberId: string) => Promise<ApprovalMember | null> = async () => null;
  /** Whether a member's payouts need a second person whatever their amount (the risk module: an open flag). */
  private underReview: (memberId: string) => Promise<boolean> = async () => false;

  constructor(
    private readonly db: Kysely<ApprovalTables>,
    readonly rules: FourEyesRules,
  ) {}

  /** The operators module tells who may check whom. */
  checkersBy(rule: (checker: string, maker: string) => Promise<boolean>): void {
    this.mayCheck = rule;
  }

  /** The account module tells who a member is. */
  membersBy(lookup: (memberId: string) => Promise<ApprovalMember | null>): void {
    this.memberOf = lookup;
  }

  /** The risk module tells whose payouts need a second person whatever the amount (a member with an open flag). */
  reviewsBy(rule: (memberId: string) => Promise<boolean>): void {
    this.underReview = rule;
  }

  /** A domain names what runs when an approval of its action is approved (in its setup). */
  register(action: string, executor: Executor): void {
    if (this.executors.has(action)) throw new Error(`approval action ${action} is registered twice`);
    this.executors.set(action, executor);
  }

  /**
   * Whether moving `amount` (minor units) of `currency` on one operator's say needs a second
   * operator: the member's sum over 24 h (with this one) above the kind's threshold, or the
   * operator's own day above theirs (FourEyesRules). A move that needs none is counted. A payout
   * of a member with an open risk flag needs a second person whatever its amount.
   */
  async needsChecker(input: { kind: FourEyesKind; subject: string; memberId: string; operator: string; amount: number; currency: Currency }): Promise<boolean> {
    if (input.kind === 'payout' && (await this.underReview(input.memberId))) return true;
    return this.rules.needsChecker(input);
  }

  /**
   * Runs a move counted by `needsChecker` under `subject`; when it is refused (a 4xx other than
   * 409 and 429: nothing moved, and no other request under the same subject is under way), the
   * count is released, so a refused credit does not bring the member's next ones to four eyes.
   */
  async counted<T>(subject: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 409 && error.status !== 429) await this.rules.release(subject);
      throw error;
    }
  }

  /**
   * Records the request (or finds the one already open for the same thing): 202 awaiting-approval.
   * An approved one answers what its action answered (the maker's retry after the checker acted).
   */
  async request(request: ApprovalRequest): Promise<AwaitingApproval | ActionResult> {
    if (!this.executors.has(request.action)) throw new Error(`approval action ${request.action} has no executor`);
    // The automation key is not a person: it asks nothing of a second person (whoever holds it would
    // be the checker of its requests). Refused before anything is written; a person's session asks.
    if (request.maker === API_KEY_IDENTITY.username) throw new AppError(403, 'API_KEY_NOT_A_PERSON');
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
      .onConflict((oc) => oc.column('dedupe_key').where(sql.ref('status'), 'in', sql`('pending', 'approved')`).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) {
      await recordChange(this.db, { who: request.maker, entity: 'approval', key: inserted.id, before: null, after: { action: request.action, status: 'pending', payload: request.payload, memberId: request.memberId ?? undefined } });
      return { status: 'awaiting-approval', approvalId: inserted.id };
    }
    const open = await this.db.selectFrom('operator_approvals').selectAll().where('dedupe_key', '=', request.dedupeKey).where('status', 'in', ['pending', 'approved']).executeTakeFirst();
    if (!open) return this.request(request); // rejected or cancelled between the two statements: ask again
    if (open.request_hash !== hash) throw new AppError(409, 'IDEMPOTENCY_KEY_REUSED');
    if (open.status === 'approved') return this.answer(open);
    return { status: 'awaiting-approval', approvalId: open.id };
  }

  async list(status: ApprovalStatus | undefined, limit = 200): Promise<ApprovalView[]> {
    let query = this.db.selectFrom('operator_approvals').selectAll().orderBy('created_at', status === 'pending' ? 'asc' : 'desc').limit(limit);
    if (status) query = query.where('status', '=', status);
    const rows = await query.execute();
    const members = new Map<string, ApprovalMember | null>();
    for (const id of new Set(rows.map((r) => r.member_id).filter((m): m is string => m !== null))) members.set(id, await this.memberOf(id));
    return rows.map((row) => viewOf(row, row.member_id ? (members.get(row.member_id) ?? null) : null));
  }

  /** How many wait for a second person (the nav's count). */
  async pendingCount(): Promise<number> {
    const row = await this.db.selectFrom('operator_approvals').select(sql<string>`count(*)`.as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async get(id: string): Promise<ApprovalView> {
    const row = await this.db.selectFrom('operator_approvals').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('NO_APPROVAL');
    return viewOf(row, row.member_id ? await this.memberOf(row.member_id) : null);
  }

  /**
   * The automation key decides nothing; a person decides only others' requests, and not where one's
   * trust stands on the other's word (or the key's) within 7 days (the operators module's rule).
   * A request the key made before it was refused to ask is approved by no one (whoever holds the key
   * would be its checker); a person may still reject it (nothing runs; the key cannot cancel it).
   */
  private async checkChecker(checker: Checker, maker: string, rejecting = false): Promise<void> {
    if (checker.via === 'api-key') throw new AppError(403, 'API_KEY_NOT_A_PERSON');
    if (maker === checker.username) throw new AppError(403, 'SAME_OPERATOR');
    if (maker === API_KEY_IDENTITY.username) {
      if (rejecting) return;
      throw new AppError(403, 'API_KEY_NOT_A_PERSON');
    }
    if (!(await this.mayCheck(checker.username, maker))) throw new AppError(403, 'CHECKER_TOO_NEW');
  }

  /**
   * The checker approves: the approval turns approved once (a compare-and-set: of two approvals at
   * once one decides), then its action runs and its answer is kept. Approving an approved one
   * runs nothing new: it answers the kept answer (or, after a crash before it was kept, runs the
   * idempotent action again, which answers what it did).
   */
  async approve(id: string, who: Checker): Promise<ActionResult> {
    const row = await this.db.selectFrom('operator_approvals').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('NO_APPROVAL');
    if (row.status === 'approved' && row.checker) return this.answer(row);
    await this.checkChecker(who, row.maker);
    const checker = who.username;
    if (row.status === 'rejected' || row.status === 'cancelled') throw new AppError(409, 'APPROVAL_CLOSED');
    if (row.status === 'pending') {
      const decided = await this.db
        .updateTable('operator_approvals')
        .set({ status: 'approved', checker, decided_at: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('maker', '<>', checker)
        .returning('id')
        .executeTakeFirst();
      if (decided) await recordChange(this.db, { who: checker, entity: 'approval', key: id, before: { status: 'pending' }, after: { status: 'approved', action: row.action, memberId: row.member_id ?? undefined } });
      else return this.approve(id, who); // decided by someone else meanwhile
    }
    return this.answer({ ...row, checker: row.checker ?? checker });
  }

  /** An approved request's answer: the kept one, or (after a crash before it was kept) the idempotent action run again. */
  private async answer(row: Selectable<OperatorApprovalsTable>): Promise<ActionResult> {
    const id = row.id;
    const checker = row.checker ?? '';
    const kept = json(row.result) as ActionResult | null;
    if (kept) return kept;
    const result = await this.execute(row.action, json(row.payload), row.checker ?? checker, id);
    await this.db.updateTable('operator_approvals').set({ result: JSON.stringify(result) }).where('id', '=', id).where(sql<boolean>`result IS NULL`).execute();
    return result;
  }

  /** Rejects a pending approval (a second person): nothing runs. */
  async reject(id: string, checker: Checker, note: string): Promise<ApprovalView> {
    const open = await this.db.selectFrom('operator_approvals').select(['maker', 'status']).where('id', '=', id).executeTakeFirst();
    if (!open) throw notFound('NO_APPROVAL');
    // The maker withdraws their own request with cancel; a rejection is a second person's decision.
    if (checker.via === 'api-key') throw new AppError(403, 'API_KEY_NOT_A_PERSON');
    if (open.maker === checker.username) return this.cancel(id, checker, note);
    await this.checkChecker(checker, open.maker, true);
    const who = checker.username;
    const decided = await this.db
      .updateTable('operator_approvals')
      .set({ status: 'rejected', checker: who, note, decided_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (decided) {
      await recordChange(this.db, { who, entity: 'approval', key: id, before: { status: 'pending' }, after: { status: 'rejected', note, memberId: decided.member_id ?? undefined } });
      return viewOf(decided);
    }
    const row = await this.db.selectFrom('operator_approvals').select('status').where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('NO_APPROVAL');
    throw new AppError(409, 'APPROVAL_CLOSED');
  }

  /** The maker withdraws their own pending request: nothing runs. Only the maker may cancel. */
  async cancel(id: string, maker: Checker, note = ''): Promise<ApprovalView> {
    const row = await this.db.selectFrom('operator_approvals').select(['maker', 'status']).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('NO_APPROVAL');
    if (maker.via === 'api-key' || row.maker !== maker.username) throw new AppError(403, 'NOT_THE_MAKER');
    const decided = await this.db
      .updateTable('operator_approvals')
      .set({ status: 'cancelled', checker: null, note: note || null, decided_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (!decided) throw new AppError(409, 'APPROVAL_CLOSED');
    await recordChange(this.db, { who: maker.username, entity: 'approval', key: id, before: { status: 'pending' }, after: { status: 'cancelled', note: note || null, memberId: decided.member_id ?? undefined } });
    return viewOf(decided, decided.member_id ? await this.memberOf(decided.member_id) : null);
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
