import { sameConnection, type Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { WALLET_CODE } from '@mw/contract/constants';
import { Batcher, oneByOne, type Outcome } from '../lib/batcher';
import { AppError } from '../lib/errors';
import { newId } from '../lib/ids';
import { isDuplicateKey, KeyTaken, type Idem } from './idempotency';
import { account, inTransaction, memberCurrency, openMemberAccounts, runPosting, runPostingBatch, type Currency, type PostingKind } from './ledger';
import type { DepositRules, MoneyPolicies } from './policies';
import type { DomainCode } from './codes';

/** Money an outside system says arrived for a member. */
export interface ExternalCredit {
  /** Who says so: `gateway:WW`, `banktx`, `manual`, … */
  source: string;
  /** Their reference for it: one credit per (source, ref), ever. */
  ref: string;
  memberId: string;
  /** Minor units (satang, or LAK's hundredths). */
  amount: number;
  /** The money's currency; it must be the member's (there is no exchange). */
  currency: Currency;
  /**
   * deposit / adjustment: money from outside (a `deposit` operation, from the system deposits
   * account); spin_prize / bonus / refund / invite: a promotion paid by us (a `bonus` operation,
   * from the system bonus account).
   */
  kind: Extract<PostingKind, 'deposit' | 'adjustment'> | DomainCode;
  /** What the statement shows as "from": the channel (`WW`, `KBANK`, `MANUAL`). */
  from: string;
  note?: string | null;
  /** The Idempotency-Key of the call that asked for it (operator calls), recorded with it. */
  idem?: Idem | null;
  /** The caller's domain row this credit is for: its handler (`onCredited`) hears of it in the posting's transaction. */
  tag?: { name: string; id: string; data?: string };
  /**
   * A deposit the member's deposit rules (limits, breaks: policies.ts DepositRules) refuse:
   * `hold` (default: money that arrived is recorded under its key as held, not credited),
   * `refuse` (an operator's manual credit: 403 with the rule's code, nothing recorded), `allow`
   * (an owner's override).
   */
  overLimit?: 'hold' | 'refuse' | 'allow';
}

export interface CreditResult {
  operationId: string;
  /** false when (source, ref) had been credited before: nothing moved now. */
  created: boolean;
  /** The wallet's balance right after this credit (when created). */
  wallet: number | null;
  /** Recorded but held, not credited (the rule's code: DEPOSIT_LIMIT, TIME_OUT, SELF_EXCLUDED); null or absent when credited. */
  held?: string | null;
}

/** A deposit held by the deposit rules, as operators and the member see it. */
export interface HeldCredit {
  operationId: string;
  memberId: string;
  source: string;
  ref: string;
  /** The channel (the statement's "from"). */
  from: string;
  amount: number;
  currency: Currency;
  /** Why: DEPOSIT_LIMIT, TIME_OUT or SELF_EXCLUDED; DEPOSIT_RETURNED once returned. */
  reason: string;
  status: 'HELD' | 'RETURNED' | 'RELEASED';
  receivedAt: Date;
}

/** SQLSTATEs of a deadlock or serialisation victim (it wrote nothing: its transaction runs again). */
function isRetryable(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '40P01' || code === '40001';
}

/** Serialises the deposit decisions of one member (the rules read what was credited, then credit or hold) across processes, for the transaction. */
export async function lockMemberDeposits(trxIn: Connection, memberId: string): Promise<void> {
  const trx = sameConnection<MoneyDb>(trxIn);
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`deposits:${memberId}`}))`.execute(trx);
}

/**
 * A credit as the domain that tagged it learns of it: after the posting (or the hold), inside its
 * transaction. `id` and `data` are the tag's; only credits recorded now arrive (a repeated message
 * moved nothing and raises no event).
 */
export interface Credited {
  /** The domain's row named in the credit's tag. */
  id: string;
  data: string;
  operationId: string;
  memberId: string;
  amount: number;
  currency: Currency;
  /** The deposit rule that held it (DEPOSIT_LIMIT, TIME_OUT, SELF_EXCLUDED): recorded, no money moved; null when credited. */
  held: string | null;
}

/**
 * A domain's handler of its credits: it updates its own tables through `trx` (typed to them with
 * `sameConnection`), in the transaction that posted the money — so the credit and the domain's
 * record of it commit together or not at all; a handler that throws undoes the credit.
 */
export type CreditHandler = (trx: Connection, credited: Credited[]) => Promise<void>;

/** Whether a credit kind is a promotion we pay (a `bonus` operation from the bonus account) rather than money from outside. */
export function isPromotionCredit(kind: ExternalCredit['kind']): boolean {
  return kind !== 'deposit' && kind !== 'adjustment';
}

interface Item {
  credit: ExternalCredit;
  id: string;
}

const NEXT_TX = sql`nextval(pg_get_serial_sequence('ledger_transactions', 'id'))`;

function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}

/** A member's break (time-out or self-exclusion): no operator, owner or override lets money in. */
const isBreak = (code: string): boolean => code !== 'DEPOSIT_LIMIT';

/**
 * Credits from outside systems, once per (source, ref): the external_credits row, the operation
 * (a SUCCESS deposit to the wallet), the Idempotency-Key when there is one and the ledger posting
 * (from the system deposits account of the currency) are one statement; a tagged credit's domain
 * hears of it (a `Credited` event to its handler) in the same transaction, after the posting. A
 * repeated message finds the row and moves nothing, also when
 * both arrive at the same moment (the primary key decides). Under load the credits that arrive
 * while a statement runs go together in the next one (group commit, as transfers do); a batch
 * refused as a whole runs again item by item, so each message gets exactly its own answer.
 */
export class Credits {
  private readonly handlers = new Map<string, CreditHandler>();
  private readonly batcher: Batcher<Item, CreditResult>;

  constructor(
    private readonly db: Kysely<MoneyDb>,
    private readonly policies: MoneyPolicies,
    private readonly now: () => number = Date.now,
  ) {
    this.batcher = new Batcher((items) => this.many(items), { maxBatch: 64, concurrency: 1 });
  }

  /** Registers a domain's handler of the credits tagged with this name (at start-up; one handler per name). */
  onCredited(name: string, handler: CreditHandler): void {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`credit tag name ${name}: lower-case letters and _ only`);
    if (this.handlers.has(name)) throw new Error(`credit tag ${name} has a handler already`);
    this.handlers.set(name, handler);
  }

  /** Tells each domain of its tagged credits recorded now, in the transaction that recorded them. */
  private async announce(trx: Kysely<MoneyDb>, recorded: Array<{ item: Item; held: string | null }>): Promise<void> {
    const byTag = new Map<string, Credited[]>();
    for (const { item, held } of recorded) {
      const { tag } = item.credit;
      if (!tag) continue;
      const event: Credited = { id: tag.id, data: tag.data ?? '', operationId: item.id, memberId: item.credit.memberId, amount: item.credit.amount, currency: item.credit.currency, held };
      const events = byTag.get(tag.name);
      if (events) events.push(event);
      else byTag.set(tag.name, [event]);
    }
    for (const [name, events] of byTag) await (this.handlers.get(name) as CreditHandler)(trx, events);
  }

  async credit(credit: ExternalCredit): Promise<CreditResult> {
    if (!Number.isSafeInteger(credit.amount) || credit.amount <= 0) throw new AppError(400, 'KEY_INVALID');
    if ((await memberCurrency(this.db, credit.memberId)) !== credit.currency) throw new AppError(400, 'CURRENCY_MISMATCH');
    if (credit.tag && !this.handlers.has(credit.tag.name)) throw new Error(`no handler of credit tag ${credit.tag.name}`);
    const item = { credit, id: newId() };
    // A deposit for a member with deposit rules (a limit, a break): decided and written under the member's lock.
    const rules = this.policies.deposits;
    if (credit.kind === 'deposit' && rules && (await rules.applies(credit.memberId))) return this.gated(item, rules);
    // A call with an Idempotency-Key runs alone: a taken key must refuse only its own request.
    return credit.idem ? this.one(item) : this.batcher.submit(item);
  }

  /**
   * A deposit checked against the member's deposit rules: under the member's deposit lock (one
   * decision at a time per member, across processes), a message credited or held before answers
   * as it was; otherwise the rules decide, and the money is credited, held (recorded under its
   * key as a PENDING deposit with no money, so it can never be credited twice), or refused.
   */
  private async gated(item: Item, rules: DepositRules): Promise<CreditResult> {
    const { credit } = item;
    await openMemberAccounts(this.db, credit.memberId);
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.db, async (trx) => {
          await lockMemberDeposits(trx, credit.memberId);
          const before = await trx
            .selectFrom('external_credits')
            .innerJoin('operations', 'operations.id', 'external_credits.operation_id')
            .select(['operations.id', 'operations.status', 'operations.note'])
            .where('external_credits.source', '=', credit.source)
            .where('external_credits.ref', '=', credit.ref)
            .executeTakeFirst();
          if (before) return { operationId: before.id, created: false, wallet: null, held: before.status === 'PENDING' ? before.note : null };
          const mode = credit.overLimit ?? 'hold';
          const found = await rules.refusal(trx, { memberId: credit.memberId, amount: credit.amount, currency: credit.currency, stage: mode === 'hold' ? 'arrived' : 'operator' });
          // An owner's override (`allow`) passes a deposit limit, never a break (a time-out or a self-exclusion).
          const refused = mode === 'allow' && found && !isBreak(found.code) ? null : found;
          if (refused && mode !== 'hold') throw new AppError(403, refused.code, refused.extra);
          if (refused) return this.hold(trx, item, refused.code);
          return (await this.statement([item], trx))[0] as CreditResult;
        });
      } catch (error) {
        if (isDuplicateKey(error)) throw new KeyTaken();
        if (isRetryable(error) && attempt < 8) continue;
        throw error;
      }
    }
  }

  /** Records a deposit as held: its key, a PENDING deposit operation without money (the reason in its note), its Idempotency-Key and its domain's update. */
  private async hold(trx: Kysely<MoneyDb>, item: Item, reason: string): Promise<CreditResult> {
    const { credit } = item;
    const ctes: RawBuilder<unknown>[] = [
      sql`ext AS (
        INSERT INTO external_credits (source, ref, operation_id) VALUES (${credit.source}, ${credit.ref}, ${item.id})
        ON CONFLICT (source, ref) DO NOTHING RETURNING operation_id)`,
      sql`op AS (
        INSERT INTO operations (id, member_id, type, status, source, target, amount, note)
        SELECT operation_id, ${credit.memberId}, 'deposit', 'PENDING', ${credit.from}, ${WALLET_CODE}, ${credit.amount}::bigint, ${reason} FROM ext
        RETURNING id, NULL::bigint AS tx_id)`,
    ];
    if (credit.idem) {
      ctes.push(sql`idem AS (
        INSERT INTO idempotency_keys (member_id, key, request_hash, operation_id)
        SELECT ${credit.memberId}, ${credit.idem.key}, ${credit.idem.hash}, id FROM op)`);
    }
    const rows = await sql<{ id: string }>`WITH ${sql.join(ctes)} SELECT id FROM op`.execute(trx);
    if (rows.rows.length === 0) throw new Error(`held credit ${credit.source} ${credit.ref} neither made nor found`);
    await this.announce(trx, [{ item, held: reason }]);
    return { operationId: item.id, created: true, wallet: null, held: reason };
  }

  /**
   * Operator: credits a held deposit, once (a compare-and-set from PENDING with its posting, in
   * one statement). Unless `force` (an owner's override), the member's deposit rules must allow it
   * now (else 403 with the rule's code). Answers the wallet after it, or null when it was not held
   * (released or returned before: nothing moved).
   */
  async release(operationId: string, force: boolean): Promise<{ memberId: string; amount: number; wallet: number } | null> {
    const held = await this.db.selectFrom('operations').select(['id', 'member_id', 'amount', 'status', 'type', 'start_tx']).where('id', '=', operationId).executeTakeFirst();
    if (!held || held.type !== 'deposit' || held.status !== 'PENDING' || held.start_tx !== null) return null;
    const memberId = held.member_id;
    const amount = Number(held.amount);
    const currency = await memberCurrency(this.db, memberId);
    await openMemberAccounts(this.db, memberId);
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.db, async (trx) => {
          await lockMemberDeposits(trx, memberId);
          const rules = this.policies.deposits;
          if (rules) {
            // `force` (an owner's override) passes a deposit limit, never a break.
            const refused = await rules.refusal(trx, { memberId, amount, currency, stage: 'release' });
            if (refused && (!force || isBreak(refused.code))) throw new AppError(403, refused.code, refused.extra);
          }
          const after = await runPosting(
            trx,
            { kind: 'deposit', operationId, postings: [{ account: account.deposits(currency), amount: -amount }, { account: account.wallet(memberId), amount }] },
            {
              before: [
                sql`settled AS (
                  UPDATE operations SET status = 'SUCCESS', note = NULL, updated_at = now(), credited_at = ${new Date(this.now())}, settle_tx = ${NEXT_TX}
                  WHERE id = ${operationId} AND type = 'deposit' AND status = 'PENDING' AND start_tx IS NULL RETURNING id, settle_tx AS tx_id)`,
              ],
              guard: 'settled',
              txIdFrom: 'settled',
            },
          );
          return after ? { memberId, amount, wallet: after.get(account.wallet(memberId)) ?? 0 } : null;
        });
      } catch (error) {
        if (isRetryable(error) && attempt < 8) continue;
        throw error;
      }
    }
  }

  /**
   * Operator: a held deposit is to be sent back to where it came from: FAILED DEPOSIT_RETURNED, no
   * money moves (none was credited). Answers whose and how much (minor units), or null when it was
   * not held (released or returned before).
   */
  async markReturned(operationId: string): Promise<{ memberId: string; amount: number; currency: Currency } | null> {
    const done = await this.db
      .updateTable('operations')
      .set({ status: 'FAILED', note: 'DEPOSIT_RETURNED', updated_at: new Date() })
      .where('id', '=', operationId)
      .where('type', '=', 'deposit')
      .where('status', '=', 'PENDING')
      .where('start_tx', 'is', null)
      .returning(['member_id', 'amount'])
      .executeTakeFirst();
    if (!done) return null;
    return { memberId: done.member_id, amount: Number(done.amount), currency: await memberCurrency(this.db, done.member_id) };
  }

  /** Held deposits (and returned ones), oldest first: all members' (operators' queue) or one member's, at most 500. */
  async held(filter: { memberId?: string; status?: 'HELD' | 'RETURNED' | 'ALL' } = {}): Promise<HeldCredit[]> {
    let query = this.db
      .selectFrom('operations as o')
      .innerJoin('external_credits as ec', 'ec.operation_id', 'o.id')
      .innerJoin('ledger_accounts as a', (join) => join.onRef('a.member_id', '=', 'o.member_id').on('a.kind', '=', 'wallet'))
      .select(['o.id', 'o.member_id', 'o.source', 'o.amount', 'o.note', 'o.status', 'o.created_at', 'ec.source as ext_source', 'ec.ref', 'a.currency'])
      .where('o.type', '=', 'deposit')
      .where('o.start_tx', 'is', null)
      .where('o.settle_tx', 'is', null);
    const status = filter.status ?? 'HELD';
    if (status === 'HELD') query = query.where('o.status', '=', 'PENDING');
    else if (status === 'RETURNED') query = query.where('o.status', '=', 'FAILED');
    if (filter.memberId) query = query.where('o.member_id', '=', filter.memberId);
    const rows = await query.orderBy('o.created_at').limit(500).execute();
    return rows.map((r) => ({
      operationId: r.id,
      memberId: r.member_id,
      source: r.ext_source,
      ref: r.ref,
      from: r.source,
      amount: Number(r.amount),
      currency: r.currency === 'LAK' ? 'LAK' : 'THB',
      reason: r.note ?? '',
      status: r.status === 'PENDING' ? 'HELD' : 'RETURNED',
      receivedAt: new Date(r.created_at),
    }));
  }

  private async one(item: Item): Promise<CreditResult> {
    try {
      try {
        return await this.statement([item]).then((results) => results[0] as CreditResult);
      } catch (error) {
        // A member whose ledger accounts were never opened (registered before the ledger): open them, once more.
        if (!isForeignKeyViolation(error)) throw error;
        await openMemberAccounts(this.db, item.credit.memberId);
        return await this.statement([item]).then((results) => results[0] as CreditResult);
      }
    } catch (error) {
      if (isDuplicateKey(error)) throw new KeyTaken();
      throw error;
    }
  }

  private async many(items: Item[]): Promise<Array<Outcome<CreditResult>>> {
    if (items.length === 1) return oneByOne(items, (item) => this.one(item));
    // The same message twice in one batch: the first goes in, the others answer after it.
    const seen = new Map<string, number>();
    const firsts: Item[] = [];
    const firstOf = items.map((item) => {
      const key = `${item.credit.source}\n${item.credit.ref}`;
      const at = seen.get(key);
      if (at !== undefined) return at;
      seen.set(key, firsts.length);
      firsts.push(item);
      return firsts.length - 1;
    });
    let results: CreditResult[];
    try {
      results = await this.statement(firsts);
    } catch {
      return oneByOne(items, (item) => this.one(item));
    }
    return items.map((item, i) => {
      const first = results[firstOf[i] as number] as CreditResult;
      return { ok: true, value: firsts[firstOf[i] as number] === item ? first : { operationId: first.operationId, created: false, wallet: null } };
    });
  }

  /**
   * One statement crediting every item whose (source, ref) is new; answers per item, in order.
   * Tagged items: the statement and their domains' handlers run in one transaction.
   */
  private async statement(items: Item[], db: Kysely<MoneyDb> = this.db): Promise<CreditResult[]> {
    if (!db.isTransaction && items.some((i) => i.credit.tag)) return inTransaction(db, (trx) => this.statement(items, trx));
    const creditedAt = new Date(this.now());
    const col = <T>(f: (item: Item) => T) => items.map(f);
    const ctes: RawBuilder<unknown>[] = [
      sql`ext AS (
        INSERT INTO external_credits (source, ref, operation_id)
        SELECT * FROM unnest(${col((i) => i.credit.source)}::text[], ${col((i) => i.credit.ref)}::text[], ${col((i) => i.id)}::text[])
        ON CONFLICT (source, ref) DO NOTHING RETURNING operation_id)`,
      sql`op AS (
        INSERT INTO operations (id, member_id, type, status, source, target, amount, note, start_tx, credited_at)
        SELECT u.id, u.member_id, u.type, 'SUCCESS', u.source, ${WALLET_CODE}, u.amount, u.note, ${NEXT_TX}, ${creditedAt}::timestamptz
        FROM unnest(${col((i) => i.id)}::text[], ${col((i) => i.credit.memberId)}::text[], ${col((i) => i.credit.from)}::text[],
          ${col((i) => String(i.credit.amount))}::bigint[], ${col((i) => i.credit.note ?? null)}::text[],
          ${col((i) => (isPromotionCredit(i.credit.kind) ? 'bonus' : 'deposit'))}::text[]) AS u(id, member_id, source, amount, note, type)
        JOIN ext ON ext.operation_id = u.id
        RETURNING id, start_tx AS tx_id)`,
    ];
    const keyed = items.filter((i) => i.credit.idem);
    if (keyed.length > 0) {
      ctes.push(sql`idem AS (
        INSERT INTO idempotency_keys (member_id, key, request_hash, operation_id)
        SELECT k.member_id, k.key, k.hash, op.id FROM unnest(${keyed.map((i) => i.credit.memberId)}::text[], ${keyed.map((i) => i.credit.idem?.key ?? '')}::text[],
          ${keyed.map((i) => i.credit.idem?.hash ?? '')}::text[], ${keyed.map((i) => i.id)}::text[]) AS k(member_id, key, hash, op_id)
        JOIN op ON op.id = k.op_id)`);
    }
    const { posted, after } = await runPostingBatch(
      db,
      items.map((i) => ({
        kind: i.credit.kind,
        operationId: i.id,
        postings: [
          { account: isPromotionCredit(i.credit.kind) ? account.bonus(i.credit.currency) : account.deposits(i.credit.currency), amount: -i.credit.amount },
          { account: account.wallet(i.credit.memberId), amount: i.credit.amount },
        ],
      })),
      { before: ctes, guard: 'op' },
    );
    await this.announce(db, items.filter((i) => posted.has(i.id)).map((item) => ({ item, held: null })));
    const missing = items.filter((i) => !posted.has(i.id));
    const earlier = new Map<string, string>();
    if (missing.length > 0) {
      const rows = await db
        .selectFrom('external_credits')
        .select(['source', 'ref', 'operation_id'])
        .where((eb) => eb.or(missing.map((i) => eb.and([eb('source', '=', i.credit.source), eb('ref', '=', i.credit.ref)]))))
        .execute();
      for (const r of rows) earlier.set(`${r.source}\n${r.ref}`, r.operation_id);
    }
    return items.map((item, n) => {
      if (posted.has(item.id)) return { operationId: item.id, created: true, wallet: after[n]?.get(account.wallet(item.credit.memberId)) ?? null };
      const operationId = earlier.get(`${item.credit.source}\n${item.credit.ref}`);
      if (!operationId) throw new Error(`credit ${item.credit.source} ${item.credit.ref} neither made nor found`);
      return { operationId, created: false, wallet: null };
    });
  }
}

/** The operation an outside message made, if it was credited. */
export async function creditedBy(dbIn: Connection, source: string, ref: string): Promise<string | null> {
  const db = sameConnection<MoneyDb>(dbIn);
  const row = await db.selectFrom('external_credits').select('operation_id').where('source', '=', source).where('ref', '=', ref).executeTakeFirst();
  return row?.operation_id ?? null;
}

/** When, to whom and how much (minor units) an outside message was credited, if it was. */
export async function creditOf(dbIn: Connection, source: string, ref: string): Promise<{ memberId: string; amount: number; at: Date } | null> {
  const db = sameConnection<MoneyDb>(dbIn);
  const row = await db
    .selectFrom('external_credits as ec')
    .innerJoin('operations as o', 'o.id', 'ec.operation_id')
    .select(['o.member_id', 'o.amount', 'ec.created_at'])
    .where('ec.source', '=', source)
    .where('ec.ref', '=', ref)
    .executeTakeFirst();
  return row ? { memberId: row.member_id, amount: Number(row.amount), at: new Date(row.created_at) } : null;
}

/** A deposit credit as reconciliation reads it: its key, member, and what moved on the ledger. */
export interface RecordedCredit {
  source: string;
  ref: string;
  operationId: string;
  memberId: string;
  /** What the wallet received on the ledger (minor units); the operation's amount when no posting is found. */
  amount: number;
  /** The wallet's currency; null when the credit has no posting to the member's wallet. */
  currency: Currency | null;
  createdAt: Date;
  /** credited (SUCCESS), held (PENDING: recorded under its key, no money moved) or returned (FAILED: to be sent back, no money moved). */
  state: 'credited' | 'held' | 'returned';
}

/**
 * Credits of money from outside (`deposit` operations keyed in external_credits) made in
 * [from, to), with the amount and currency that actually reached the member's wallet. Read-only
 * (reconciliation).
 */
export async function depositCredits(dbIn: Connection, from: Date, to: Date): Promise<RecordedCredit[]> {
  const db = sameConnection<MoneyDb>(dbIn);
  const rows = await sql<{ source: string; ref: string; operation_id: string; member_id: string; op_amount: string | number; posted: string | number | null; currency: Currency | null; created_at: Date; status: string }>`
    SELECT ec.source, ec.ref, ec.operation_id, o.member_id, o.amount AS op_amount, p.amount AS posted, p.currency, ec.created_at, o.status
    FROM external_credits ec
    JOIN operations o ON o.id = ec.operation_id
    LEFT JOIN LATERAL (
      -- A held deposit released later has its money in its settling transaction.
      SELECT sum(e.amount) AS amount, min(a.currency) AS currency FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
      WHERE e.transaction_id IN (o.start_tx, o.settle_tx) AND a.member_id = o.member_id AND a.kind = 'wallet'
    ) p ON true
    WHERE o.type = 'deposit' AND ec.created_at >= ${from} AND ec.created_at < ${to}
    ORDER BY ec.created_at, ec.source, ec.ref`.execute(db);
  return rows.rows.map((r) => ({
    source: r.source,
    ref: r.ref,
    operationId: r.operation_id,
    memberId: r.member_id,
    amount: Number(r.posted ?? r.op_amount),
    currency: r.posted === null ? null : r.currency,
    createdAt: new Date(r.created_at),
    state: r.status === 'SUCCESS' ? 'credited' : r.status === 'PENDING' ? 'held' : 'returned',
  }));
}

/** Which of these (source, ref) keys were credited, ever (reconciliation: outside records never credited). */
export async function creditedKeys(dbIn: Connection, keys: ReadonlyArray<{ source: string; ref: string }>): Promise<Set<string>> {
  const db = sameConnection<MoneyDb>(dbIn);
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const rows = await sql<{ source: string; ref: string }>`
      SELECT ec.source, ec.ref FROM external_credits ec
      JOIN unnest(${chunk.map((k) => k.source)}::text[], ${chunk.map((k) => k.ref)}::text[]) AS k(source, ref) ON k.source = ec.source AND k.ref = ec.ref`.execute(db);
    for (const r of rows.rows) found.add(`${r.source}\n${r.ref}`);
  }
  return found;
}

/**
 * What a member's deposits credited (SUCCESS, by `credited_at`, the money core's clock) add up to
 * since each of these instants (deposit limits' rolling windows). Read on `db` (the deposit lock's
 * transaction when a decision depends on it).
 */
export async function creditedSince(dbIn: Connection, memberId: string, since: readonly Date[]): Promise<number[]> {
  const db = sameConnection<MoneyDb>(dbIn);
  if (since.length === 0) return [];
  const earliest = new Date(Math.min(...since.map((d) => d.getTime())));
  const rows = await db
    .selectFrom('operations')
    .select(['amount', 'credited_at'])
    .where('member_id', '=', memberId)
    .where('type', '=', 'deposit')
    .where('status', '=', 'SUCCESS')
    .where('credited_at', '>', earliest)
    .execute();
  return since.map((from) => rows.reduce((sum, r) => (r.credited_at && r.credited_at.getTime() > from.getTime() ? sum + Number(r.amount) : sum), 0));
}

/** A member's deposits credited and withdrawals asked (not refused) since an instant (a login: the reality check's net result). */
export async function moneySince(dbIn: Connection, memberId: string, since: Date): Promise<{ deposits: number; withdrawals: number }> {
  const db = sameConnection<MoneyDb>(dbIn);
  const rows = await db
    .selectFrom('operations')
    .select(['type', 'status', 'amount', 'credited_at', 'created_at'])
    .where('member_id', '=', memberId)
    .where('type', 'in', ['deposit', 'withdraw'])
    .where((eb) => eb.or([eb('created_at', '>=', since), eb('credited_at', '>=', since)]))
    .execute();
  let deposits = 0;
  let withdrawals = 0;
  for (const r of rows) {
    if (r.type === 'deposit' && r.status === 'SUCCESS') deposits += Number(r.amount);
    else if (r.type === 'withdraw' && r.status !== 'FAILED') withdrawals += Number(r.amount);
  }
  return { deposits, withdrawals };
}
