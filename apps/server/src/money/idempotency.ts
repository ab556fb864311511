import { sameConnection, type Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { Batcher, oneByOne, type Outcome } from '../lib/batcher';
import { badRequest, conflict } from '../lib/errors';
import type { OperationRow } from './operations';

/**
 * Idempotency-Key of money calls. The rule: **the answer to a key is a function of the key.**
 * - The key is recorded with the first thing the request writes: its operation (in the same
 *   statement as the operation's money), or its refusal, or a composite call's plan.
 * - A retry answers what that record says: an operation's answer is read from the operation and
 *   its ledger entries (see answers.ts), a refusal or a composite call's answer is stored as is.
 *   Nothing is computed afresh and nothing moves again.
 * - The same key with another body is refused (409 IDEMPOTENCY_KEY_REUSED).
 */
export interface Idem {
  key: string;
  /** Hash of the call's name and body: the same key must come with the same request. */
  hash: string;
}

const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;

/**
 * Reads the Idempotency-Key header (optional; a malformed one is KEY_INVALID). The request's hash
 * covers the call's name, its path parameters (when it has any: `GET /api/bonus/activate/:code`
 * with one key and another code is another request) and its body.
 */
export function idempotencyOf(header: string | string[] | undefined, endpoint: string, body: unknown, params?: unknown): Idem | null {
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !KEY_PATTERN.test(key)) throw badRequest('KEY_INVALID', { fields: [{ path: 'Idempotency-Key', code: 'invalid' }] });
  const hasParams = typeof params === 'object' && params !== null && Object.keys(params).length > 0;
  const text = hasParams ? `${endpoint}\n${JSON.stringify(params)}\n${JSON.stringify(body ?? null)}` : `${endpoint}\n${JSON.stringify(body ?? null)}`;
  return { key, hash: createHash('sha256').update(text).digest('hex') };
}

/**
 * The key under which the route layer keeps a call's answer (money/core.ts `call`). It starts
 * with `#`, which the header's pattern does not allow, so no client key can name it; the call's
 * own steps record under the client's key as before.
 */
export function callKey(idem: Idem): Idem {
  return { key: `#${idem.key}`, hash: idem.hash };
}

/**
 * Claims a key for a call that runs now: true when this request holds it. A claim whose call
 * neither answered nor gave it back within `staleMs` (its process died mid-call) is taken over.
 */
export async function claimKey(dbIn: Connection, memberId: string, idem: Idem, staleMs: number): Promise<boolean> {
  const db = sameConnection<MoneyDb>(dbIn);
  if (await insertClaimRow(db, memberId, idem)) return true;
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ created_at: new Date() })
    .where('member_id', '=', memberId)
    .where('key', '=', idem.key)
    .where('request_hash', '=', idem.hash)
    .where('answer_status', 'is', null)
    .where('created_at', '<', new Date(Date.now() - staleMs))
    .returning('key')
    .executeTakeFirst();
  return taken !== undefined;
}

/** A route-layer claim (`#key`), unless a wallet call recorded the client's key (its operation, or its refusal or plan: the trigger of money/011 skips it): true when inserted. */
async function insertClaimRow(db: Kysely<MoneyDb>, memberId: string, idem: Idem): Promise<boolean> {
  const inserted = await sql<{ key: string }>`
    INSERT INTO idempotency_keys (member_id, key, request_hash, operation_id, plan)
    SELECT ${memberId}, ${idem.key}, ${idem.hash}, NULL, '{"claim":true}'::jsonb
    ON CONFLICT (member_id, key) DO NOTHING
    RETURNING key`.execute(db);
  return inserted.rows.length > 0;
}

/** Gives a claim back (the call ended without a definite answer: a retry may run it again). */
export async function releaseClaim(dbIn: Connection, memberId: string, idem: Idem): Promise<void> {
  const db = sameConnection<MoneyDb>(dbIn);
  await db.deleteFrom('idempotency_keys').where('member_id', '=', memberId).where('key', '=', idem.key).where('answer_status', 'is', null).execute();
}

/**
 * The key of one step of a composite call (a part of transferAll or withdrawAll). Its hash is the
 * parent's with the step in it: a client key that happens to spell a step's key (`K:PG`, the
 * header allows `:`) is another request, `409 IDEMPOTENCY_KEY_REUSED`, never the step's old answer.
 */
export function derive(idem: Idem | null, step: string): Idem | null {
  return idem ? { key: `${idem.key}:${step}`.slice(0, 160), hash: createHash('sha256').update(`${idem.hash}\nstep ${step}`).digest('hex') } : null;
}

/** A recording statement found its key taken: the request is a retry, answer the record. */
export class KeyTaken extends Error {
  constructor() {
    super('idempotency key already recorded');
    this.name = 'KeyTaken';
  }
}

export function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === '23505' &&
    /^(idempotency_keys|operations_idem_key)/.test(String((error as { constraint?: unknown }).constraint ?? ''))
  );
}

/** A stored answer: HTTP status and body. */
export interface StoredAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** What a key recorded. */
export interface KeyRecord {
  operation: OperationRow | null;
  answer: StoredAnswer | null;
  plan: unknown;
}

/**
 * The record of a key, or null when the key is new: an operation recorded under it (the key is a
 * column of the operation, money/011), or its row in idempotency_keys (a refusal, a composite
 * call's plan and answer, a route-layer claim, or an operation recorded before money/011), or else
 * the route layer's row of another call under the same client key (`#key`: its hash is another
 * request's, so IDEMPOTENCY_KEY_REUSED). One client key is one request, whichever table holds it.
 */
export async function lookupKey(dbIn: Connection, memberId: string, idem: Idem): Promise<KeyRecord | null> {
  const db = sameConnection<MoneyDb>(dbIn);
  const found = await sql<{
    request_hash: string;
    answer: unknown;
    answer_status: number | null;
    plan: unknown;
    id: string | null;
    member_id: string | null;
    type: OperationRow['type'] | null;
    status: OperationRow['status'] | null;
    source: string | null;
    target: string | null;
    amount: string | number | null;
    note: string | null;
  }>`
    SELECT * FROM (
      SELECT 0 AS rank, o.request_hash, NULL::jsonb AS answer, NULL::smallint AS answer_status, NULL::jsonb AS plan, o.id, o.member_id, o.type, o.status, o.source, o.target, o.amount, o.note
      FROM operations o WHERE o.member_id = ${memberId} AND o.idem_key = ${idem.key}
      UNION ALL
      SELECT CASE WHEN k.key = ${idem.key} THEN 1 ELSE 2 END, k.request_hash, k.answer, k.answer_status, k.plan, o.id, o.member_id, o.type, o.status, o.source, o.target, o.amount, o.note
      FROM idempotency_keys k LEFT JOIN operations o ON o.id = k.operation_id WHERE k.member_id = ${memberId} AND k.key IN (${idem.key}, ${`#${idem.key}`})
    ) r ORDER BY rank LIMIT 1`.execute(db);
  const row = found.rows[0];
  if (!row) return null;
  if (row.request_hash !== idem.hash) throw conflict('IDEMPOTENCY_KEY_REUSED');
  const operation: OperationRow | null =
    row.id !== null && row.member_id !== null && row.type !== null && row.status !== null && row.source !== null && row.target !== null && row.amount !== null
      ? { id: row.id, member_id: row.member_id, type: row.type, status: row.status, source: row.source, target: row.target, amount: Number(row.amount), note: row.note }
      : null;
  const answer = row.answer_status !== null && row.answer !== null ? { status: row.answer_status, body: row.answer as Record<string, unknown> } : null;
  return { operation, answer, plan: row.plan };
}

/**
 * A domain's record kept under a client's key (a bonus receipt, a code's use, a slip) answers only
 * the request that wrote it: the key with another request — possible once the route layer gave
 * its claim back — is 409 IDEMPOTENCY_KEY_REUSED. A record kept before hashes were (null) passes.
 */
export function refuseOtherRequest(storedHash: string | null, idem: Idem): void {
  if (storedHash !== null && storedHash !== idem.hash) throw conflict('IDEMPOTENCY_KEY_REUSED');
}

/** A key's row in idempotency_keys, unless the key is taken (a row of it, an operation under it, or the route layer's #key: the trigger of money/011 skips it). */
function insertKeyRow(db: Kysely<MoneyDb>, memberId: string, idem: Idem, fields: { answer?: StoredAnswer; plan?: unknown }) {
  return sql<{ key: string }>`
    INSERT INTO idempotency_keys (member_id, key, request_hash, operation_id, answer, answer_status, plan)
    SELECT ${memberId}, ${idem.key}, ${idem.hash}, NULL, ${fields.answer ? JSON.stringify(fields.answer.body) : null}::jsonb,
      ${fields.answer ? fields.answer.status : null}::smallint, ${fields.plan === undefined ? null : JSON.stringify(fields.plan)}::jsonb
    ON CONFLICT (member_id, key) DO NOTHING
    RETURNING key`.execute(db);
}

/**
 * Records a key with its answer and no operation (a refusal). False when the key was recorded
 * first by someone else: then that record is the answer.
 */
export async function recordAnswer(dbIn: Connection, memberId: string, idem: Idem, answer: StoredAnswer): Promise<boolean> {
  const db = sameConnection<MoneyDb>(dbIn);
  const inserted = await insertKeyRow(db, memberId, idem, { answer });
  return inserted.rows.length > 0;
}

/** Records a composite call's plan under its key, once; answers the record in force (the first one). */
export async function recordPlan(dbIn: Connection, memberId: string, idem: Idem, plan: unknown): Promise<KeyRecord> {
  const db = sameConnection<MoneyDb>(dbIn);
  await insertKeyRow(db, memberId, idem, { plan });
  const record = await lookupKey(db, memberId, idem);
  if (!record) throw new Error('idempotency: a recorded plan vanished');
  return record;
}

/** Stores a composite call's answer, once: the first definite answer stays. Answers the one in force. */
export async function settleAnswer(dbIn: Connection, memberId: string, idem: Idem, answer: StoredAnswer): Promise<StoredAnswer> {
  const db = sameConnection<MoneyDb>(dbIn);
  const row = await db
    .updateTable('idempotency_keys')
    .set({ answer: JSON.stringify(answer.body), answer_status: answer.status })
    .where('member_id', '=', memberId)
    .where('key', '=', idem.key)
    .where('answer_status', 'is', null)
    .returning('key')
    .executeTakeFirst();
  if (row) return answer;
  const record = await lookupKey(db, memberId, idem);
  if (!record?.answer) throw new Error('idempotency: a composite answer vanished');
  return record.answer;
}

interface Claim {
  memberId: string;
  idem: Idem;
}

interface Answering extends Claim {
  answer: StoredAnswer;
}

const KEY_BATCH = { maxBatch: 128, concurrency: 1 };

/** Items in a stable order (member, key), so two batches in two processes lock the rows they share in the same order. */
function inKeyOrder<T extends Claim>(items: T[]): number[] {
  return items.map((_, i) => i).sort((a, b) => {
    const x = items[a] as T;
    const y = items[b] as T;
    return x.memberId < y.memberId ? -1 : x.memberId > y.memberId ? 1 : x.idem.key < y.idem.key ? -1 : x.idem.key > y.idem.key ? 1 : 0;
  });
}

/**
 * A KeyBook batch: `batch` writes the rows of the first item of each key (in key order, so that
 * two processes' batches lock rows in the same order) and answers the rows it wrote; each item is
 * true when its own row was written (a later item of the same key never is: it finds the key taken
 * or answered, as it would alone). A batch of one, or a batch statement that fails as a whole,
 * runs item by item with `alone`.
 */
async function firstOfEachKey<T extends { memberId: string; idem: Idem }>(
  items: T[],
  batch: (chosen: T[]) => Promise<Array<{ member_id: string; key: string }>>,
  alone: (item: T) => Promise<boolean>,
): Promise<Array<Outcome<boolean>>> {
  if (items.length === 1) return oneByOne(items, alone);
  const idOf = (memberId: string, key: string) => `${memberId}\n${key}`;
  const first = new Map<string, number>();
  for (const i of inKeyOrder(items)) {
    const item = items[i] as T;
    const id = idOf(item.memberId, item.idem.key);
    if (!first.has(id)) first.set(id, i);
  }
  const chosen = [...first.values()].map((i) => items[i] as T);
  let written: Set<string>;
  try {
    written = new Set((await batch(chosen)).map((row) => idOf(row.member_id, row.key)));
  } catch {
    return oneByOne(items, alone);
  }
  return items.map((item, i) => {
    const id = idOf(item.memberId, item.idem.key);
    return { ok: true, value: first.get(id) === i && written.has(id) };
  });
}

/**
 * The route layer's keys (`#key`, MoneyCore.call), group-committed: under load one statement
 * claims, and one stores the answers of, many calls at once (Batcher), instead of a statement and
 * a commit each. Each item gets exactly the outcome it would have had alone:
 * - a claim inserts its key unless it exists (ON CONFLICT DO NOTHING); the same key twice in one
 *   batch is claimed by its first item only, the others find it taken. A key that exists is taken
 *   over only when stale (`claimKey`'s rule), one by one, after the batch.
 * - an answer is stored when the key has none yet; the same key twice in one batch: the first.
 * A batch statement that fails as a whole (a deadlock with another process's batch, a
 * serialisation error) is run again item by item.
 */
export class KeyBook {
  private readonly claims: Batcher<Claim, boolean>;
  private readonly answers: Batcher<Answering, boolean>;

  constructor(
    private readonly db: Kysely<MoneyDb>,
    private readonly staleMs: number,
  ) {
    this.claims = new Batcher((items) => this.claimMany(items), KEY_BATCH);
    this.answers = new Batcher((items) => this.answerMany(items), KEY_BATCH);
  }

  /** Claims a key for a call that runs now: true when this request holds it (see `claimKey`). */
  async claim(memberId: string, idem: Idem): Promise<boolean> {
    if (await this.claims.submit({ memberId, idem })) return true;
    return claimKey(this.db, memberId, idem, this.staleMs);
  }

  /** Stores a call's answer, once: the first definite answer stays. Answers the one in force (see `settleAnswer`). */
  async settle(memberId: string, idem: Idem, answer: StoredAnswer): Promise<StoredAnswer> {
    if (await this.answers.submit({ memberId, idem, answer })) return answer;
    const record = await lookupKey(this.db, memberId, idem);
    if (!record?.answer) throw new Error('idempotency: a stored answer vanished');
    return record.answer;
  }

  /** Inserts the batch's new keys; an item is true when its own row was inserted. */
  private claimMany(items: Claim[]): Promise<Array<Outcome<boolean>>> {
    return firstOfEachKey(
      items,
      async (chosen) =>
        (
          await sql<{ member_id: string; key: string }>`
            INSERT INTO idempotency_keys (member_id, key, request_hash, operation_id, plan)
            SELECT u.m, u.k, u.h, NULL, '{"claim":true}'::jsonb
            FROM unnest(${chosen.map((c) => c.memberId)}::text[], ${chosen.map((c) => c.idem.key)}::text[], ${chosen.map((c) => c.idem.hash)}::text[]) WITH ORDINALITY AS u(m, k, h, n)
            ORDER BY u.n
            ON CONFLICT (member_id, key) DO NOTHING
            RETURNING member_id, key`.execute(this.db)
        ).rows,
      (item) => this.insertClaim(item),
    );
  }

  private insertClaim({ memberId, idem }: Claim): Promise<boolean> {
    return insertClaimRow(this.db, memberId, idem);
  }

  /** Stores the batch's answers where none is stored yet; an item is true when its answer was stored. */
  private answerMany(items: Answering[]): Promise<Array<Outcome<boolean>>> {
    return firstOfEachKey(
      items,
      async (chosen) =>
        (
          await sql<{ member_id: string; key: string }>`
            UPDATE idempotency_keys k SET answer = u.a::jsonb, answer_status = u.s
            FROM (SELECT * FROM unnest(${chosen.map((c) => c.memberId)}::text[], ${chosen.map((c) => c.idem.key)}::text[], ${chosen.map((c) => JSON.stringify(c.answer.body))}::text[],
              ${chosen.map((c) => c.answer.status)}::smallint[]) AS v(m, k, a, s)) AS u
            WHERE k.member_id = u.m AND k.key = u.k AND k.answer_status IS NULL
            RETURNING k.member_id, k.key`.execute(this.db)
        ).rows,
      (item) => this.storeAnswer(item),
    );
  }

  private async storeAnswer({ memberId, idem, answer }: Answering): Promise<boolean> {
    const row = await this.db
      .updateTable('idempotency_keys')
      .set({ answer: JSON.stringify(answer.body), answer_status: answer.status })
      .where('member_id', '=', memberId)
      .where('key', '=', idem.key)
      .where('answer_status', 'is', null)
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }
}
