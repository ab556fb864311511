import { sql, type Kysely, type RawBuilder } from 'kysely';
import { WALLET_CODE } from '@mw/contract/constants';
import type { DB } from '../db/schema';
import { Batcher, oneByOne, type Outcome } from '../lib/batcher';
import { AppError } from '../lib/errors';
import { newId } from '../lib/ids';
import { isDuplicateKey, KeyTaken, type Idem } from './idempotency';
import { account, memberCurrency, openMemberAccounts, runPostingBatch, type Currency, type PostingKind } from './ledger';

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
  kind: Extract<PostingKind, 'deposit' | 'adjustment' | 'spin_prize' | 'bonus' | 'refund' | 'invite'>;
  /** What the statement shows as "from": the channel (`WW`, `KBANK`, `MANUAL`). */
  from: string;
  note?: string | null;
  /** The Idempotency-Key of the call that asked for it (operator calls), recorded with it. */
  idem?: Idem | null;
  /** A row of the caller's domain to update in the same statement when this credits (see CreditHook). */
  tag?: { hook: string; id: string; data?: string };
}

export interface CreditResult {
  operationId: string;
  /** false when (source, ref) had been credited before: nothing moved now. */
  created: boolean;
  /** The wallet's balance right after this credit (when created). */
  wallet: number | null;
}

/**
 * A domain's own update, written in the statement that credits: given the tagged rows that are
 * credited now (`ids` of the domain's rows, their operations and amounts, as SQL arrays), a
 * data-modifying CTE named `hook_<name>`. It may join the CTE `op` (id, tx_id) of the operations
 * the statement records.
 */
export type CreditHook = (name: string, rows: { ids: string[]; operationIds: string[]; amounts: number[]; data: string[] }) => RawBuilder<unknown>;

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

/**
 * Credits from outside systems, once per (source, ref): the external_credits row, the operation
 * (a SUCCESS deposit to the wallet), the Idempotency-Key when there is one, the domain's own
 * update (a CreditHook) and the ledger posting (from the system deposits account of the
 * currency) are one statement. A repeated message finds the row and moves nothing, also when
 * both arrive at the same moment (the primary key decides). Under load the credits that arrive
 * while a statement runs go together in the next one (group commit, as transfers do); a batch
 * refused as a whole runs again item by item, so each message gets exactly its own answer.
 */
export class Credits {
  private readonly hooks = new Map<string, CreditHook>();
  private readonly batcher: Batcher<Item, CreditResult>;

  constructor(private readonly db: Kysely<DB>) {
    this.batcher = new Batcher((items) => this.many(items), { maxBatch: 64, concurrency: 1 });
  }

  /** Registers a domain's update for credits tagged with this hook name (at start-up). */
  registerHook(name: string, hook: CreditHook): void {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`credit hook name ${name}: lower-case letters and _ only`);
    this.hooks.set(name, hook);
  }

  async credit(credit: ExternalCredit): Promise<CreditResult> {
    if (!Number.isSafeInteger(credit.amount) || credit.amount <= 0) throw new AppError(400, 'KEY_INVALID');
    if ((await memberCurrency(this.db, credit.memberId)) !== credit.currency) throw new AppError(400, 'CURRENCY_MISMATCH');
    if (credit.tag && !this.hooks.has(credit.tag.hook)) throw new Error(`no credit hook ${credit.tag.hook}`);
    const item = { credit, id: newId() };
    // A call with an Idempotency-Key runs alone: a taken key must refuse only its own request.
    return credit.idem ? this.one(item) : this.batcher.submit(item);
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

  /** One statement crediting every item whose (source, ref) is new; answers per item, in order. */
  private async statement(items: Item[]): Promise<CreditResult[]> {
    const col = <T>(f: (item: Item) => T) => items.map(f);
    const ctes: RawBuilder<unknown>[] = [
      sql`ext AS (
        INSERT INTO external_credits (source, ref, operation_id)
        SELECT * FROM unnest(${col((i) => i.credit.source)}::text[], ${col((i) => i.credit.ref)}::text[], ${col((i) => i.id)}::text[])
        ON CONFLICT (source, ref) DO NOTHING RETURNING operation_id)`,
      sql`op AS (
        INSERT INTO operations (id, member_id, type, status, source, target, amount, note, start_tx)
        SELECT u.id, u.member_id, u.type, 'SUCCESS', u.source, ${WALLET_CODE}, u.amount, u.note, ${NEXT_TX}
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
    for (const [name, hook] of this.hooks) {
      const tagged = items.filter((i) => i.credit.tag?.hook === name);
      if (tagged.length === 0) continue;
      ctes.push(hook(`hook_${name}`, { ids: tagged.map((i) => i.credit.tag?.id ?? ''), operationIds: tagged.map((i) => i.id), amounts: tagged.map((i) => i.credit.amount), data: tagged.map((i) => i.credit.tag?.data ?? '') }));
    }
    const { posted, after } = await runPostingBatch(
      this.db,
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
    const missing = items.filter((i) => !posted.has(i.id));
    const earlier = new Map<string, string>();
    if (missing.length > 0) {
      const rows = await this.db
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
export async function creditedBy(db: Kysely<DB>, source: string, ref: string): Promise<string | null> {
  const row = await db.selectFrom('external_credits').select('operation_id').where('source', '=', source).where('ref', '=', ref).executeTakeFirst();
  return row?.operation_id ?? null;
}

/** When, to whom and how much (minor units) an outside message was credited, if it was. */
export async function creditOf(db: Kysely<DB>, source: string, ref: string): Promise<{ memberId: string; amount: number; at: Date } | null> {
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
}

/**
 * Credits of money from outside (`deposit` operations keyed in external_credits) made in
 * [from, to), with the amount and currency that actually reached the member's wallet. Read-only
 * (reconciliation).
 */
export async function depositCredits(db: Kysely<DB>, from: Date, to: Date): Promise<RecordedCredit[]> {
  const rows = await sql<{ source: string; ref: string; operation_id: string; member_id: string; op_amount: string | number; posted: string | number | null; currency: Currency | null; created_at: Date }>`
    SELECT ec.source, ec.ref, ec.operation_id, o.member_id, o.amount AS op_amount, p.amount AS posted, p.currency, ec.created_at
    FROM external_credits ec
    JOIN operations o ON o.id = ec.operation_id
    LEFT JOIN LATERAL (
      SELECT sum(e.amount) AS amount, min(a.currency) AS currency FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
      WHERE e.transaction_id = o.start_tx AND a.member_id = o.member_id AND a.kind = 'wallet'
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
  }));
}

/** Which of these (source, ref) keys were credited, ever (reconciliation: outside records never credited). */
export async function creditedKeys(db: Kysely<DB>, keys: ReadonlyArray<{ source: string; ref: string }>): Promise<Set<string>> {
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
