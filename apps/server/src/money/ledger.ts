import { sameConnection, type Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { PostingKind } from './codes';
import type { Currency, Unit } from './tables';
import './tables';

export type { Currency, Unit } from './tables';

/**
 * The only code that moves money. Accounts are named by text ids:
 *   m:<member>:wallet, m:<member>:game:<CODE>, m:<member>:inflight, m:<member>:withdrawal
 *   sys:deposits, sys:withdrawals, sys:bonus, sys:game:<CODE>            (THB)
 *   sys:deposits:LAK, sys:withdrawals:LAK, sys:bonus:LAK, sys:game:<CODE>:LAK
 *   m:<member>:coin, sys:coins:COIN                                       (COIN: wheel coins, see coins.ts)
 * Every account holds one currency: a member's accounts are in the member's currency, system
 * accounts exist once per currency, and a ledger transaction never mixes currencies (a trigger
 * refuses the statement; see money/migrations.ts). Member accounts can never go below zero (a
 * CHECK constraint); system accounts can.
 */
export type AccountId = string;

const system = (name: string, currency: Unit): AccountId => (currency === 'THB' ? `sys:${name}` : `sys:${name}:${currency}`);

export const account = {
  wallet: (memberId: string): AccountId => `m:${memberId}:wallet`,
  game: (memberId: string, code: string): AccountId => `m:${memberId}:game:${code}`,
  inflight: (memberId: string): AccountId => `m:${memberId}:inflight`,
  withdrawal: (memberId: string): AccountId => `m:${memberId}:withdrawal`,
  deposits: (currency: Currency): AccountId => system('deposits', currency),
  withdrawals: (currency: Currency): AccountId => system('withdrawals', currency),
  bonus: (currency: Currency): AccountId => system('bonus', currency),
  provider: (code: string, currency: Currency): AccountId => system(`game:${code}`, currency),
  /** A member's wheel coins (unit COIN). */
  coins: (memberId: string): AccountId => `m:${memberId}:coin`,
  /** Where coins come from and go back to (unit COIN). */
  coinIssuer: (): AccountId => system('coins', COIN),
};

/** The unit of wheel coins on the ledger. */
export const COIN: Unit = 'COIN';

/** The base currency (amounts of legacy single-amount settings) and every currency a member can hold: see tables.ts. */
export { BASE_CURRENCY, CURRENCIES } from './tables';

/** A member's currency as the ledger names it: BAHT is THB. */
export function ledgerCurrency(memberCurrency: string): Currency {
  return memberCurrency === 'LAK' ? 'LAK' : 'THB';
}

export interface Posting {
  account: AccountId;
  /** Signed satang: positive credits the account, negative debits it. */
  amount: number;
}

/** A ledger transaction's kind: a transfer code (codes.ts), the core's or one a module declared. */
export type { PostingKind } from './codes';

export interface PostInput {
  kind: PostingKind;
  operationId: string | null;
  postings: Posting[];
  /**
   * Accounts whose version moves on although no money does (locked with the others, in order):
   * settling a transfer touches its game account, so a balance read the transfer overtook can
   * no longer be booked against it.
   */
  touch?: AccountId[];
}

/** A member account would go below zero. */
export class InsufficientFunds extends Error {
  constructor() {
    super('insufficient funds');
    this.name = 'InsufficientFunds';
  }
}

export class LedgerError extends Error {}

function validate(postings: Posting[], touch: AccountId[] = []): void {
  if (postings.length < 2) throw new LedgerError('a ledger transaction needs at least two entries');
  const seen = new Set<string>(touch);
  if (seen.size !== touch.length) throw new LedgerError('an account touched twice');
  let sum = 0;
  for (const p of postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new LedgerError(`bad amount ${p.amount} for ${p.account}`);
    if (seen.has(p.account)) throw new LedgerError(`account ${p.account} twice in one transaction`);
    seen.add(p.account);
    sum += p.amount;
  }
  if (sum !== 0) throw new LedgerError(`entries sum to ${sum}, not 0`);
}

function isCheckViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23514';
}

export interface PostingOptions {
  /** CTEs written before the posting, in the same statement (so in the same atomic step). */
  before?: RawBuilder<unknown>[];
  /**
   * Name of one of those CTEs: the posting happens only if it returns a row (a compare-and-set,
   * for example "the operation was still pending").
   */
  guard?: string;
  /**
   * Name of one of those CTEs returning a column `tx_id`: the ledger transaction takes that id
   * (drawn from its sequence when the operation row was written or settled), so an operation
   * row names its own transactions with no index on ledger_transactions.operation_id. When a
   * guard is given too, it must be the same CTE.
   */
  txIdFrom?: string;
}

/** Every account a posting changes or touches, with its move (0 for a touch). */
function movesOf(input: PostInput): Posting[] {
  return [...input.postings, ...(input.touch ?? []).map((account) => ({ account, amount: 0 }))];
}

/**
 * The posting as one SQL statement: the transaction row, every entry (with the account's balance
 * right after it, `balance_after`) and every balance change. The accounts are locked first, in
 * id order (the `locked` CTE), in every posting and batch alike, so two postings never wait on
 * each other in a circle. Touched accounts are locked and their version moves, with no entry.
 * Returns one row per account with its new balance (none when the guard returned nothing).
 */
export function postingSql(input: PostInput, options: PostingOptions = {}): RawBuilder<{ id: string; balance: number | string; version: number | string }> {
  validate(input.postings, input.touch);
  const moves = sql.join(movesOf(input).map((p) => sql`(${p.account}::text, ${p.amount}::bigint)`));
  const before = options.before?.length ? sql`${sql.join(options.before)},` : sql``;
  if (options.guard && options.txIdFrom && options.guard !== options.txIdFrom) throw new LedgerError('guard and txIdFrom must be the same CTE');
  const from = options.guard ? sql` FROM ${sql.ref(options.guard)}` : sql``;
  const insertTx = options.txIdFrom
    ? sql`INSERT INTO ledger_transactions (id, operation_id, kind) SELECT src.tx_id, ${input.operationId}, ${input.kind} FROM ${sql.ref(options.txIdFrom)} src RETURNING id`
    : sql`INSERT INTO ledger_transactions (operation_id, kind) SELECT ${input.operationId}, ${input.kind}${from} RETURNING id`;
  return sql<{ id: string; balance: number | string; version: number | string }>`
    WITH ${before} tx AS (${insertTx}), moves (account_id, amount) AS (VALUES ${moves}),
    locked AS (
      SELECT a.id FROM ledger_accounts a WHERE a.id IN (SELECT account_id FROM moves) ORDER BY a.id FOR NO KEY UPDATE
    ), upd AS (
      UPDATE ledger_accounts a SET balance = a.balance + m.amount, version = a.version + 1
      FROM moves m JOIN locked l ON l.id = m.account_id, tx WHERE a.id = m.account_id
      RETURNING a.id, a.balance, a.version
    ), entries AS (
      INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after)
      -- A left join: an entry for an unknown account still goes in, and its foreign key stops the statement.
      SELECT tx.id, m.account_id, m.amount, u.balance FROM tx, moves m LEFT JOIN upd u ON u.id = m.account_id WHERE m.amount <> 0
    )
    SELECT id, balance, version FROM upd`;
}

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? ((error as { code?: unknown }).code as string | undefined) : undefined;
}

/** SQLSTATE of the trigger that refuses a ledger transaction mixing currencies. */
const MIXED_CURRENCIES = 'MW001';

/**
 * Runs a posting statement. Returns the new balances, or null when its guard stopped it.
 * Throws InsufficientFunds when a member account would go negative (nothing is written then).
 * Two postings on the same accounts can deadlock (PostgreSQL picks one to fail, and it wrote
 * nothing): outside a transaction the statement is simply run again.
 */
export async function runPosting(dbIn: Connection, input: PostInput, options: PostingOptions = {}): Promise<Map<AccountId, number> | null> {
  const db = sameConnection<MoneyDb>(dbIn);
  const result = await execute(db, postingSql(input, options));
  if (result.rows.length === 0 && options.guard) return null;
  if (result.rows.length !== input.postings.length + (input.touch?.length ?? 0)) {
    throw new LedgerError(`unknown account in ${input.postings.map((p) => p.account).join(', ')}`);
  }
  const versions = new Map(result.rows.map((r) => [r.id, Number(r.version)]));
  const balances = new Map(result.rows.map((r) => [r.id, Number(r.balance)]));
  announce(db, [postedOf(input, balances, versions)]);
  return balances;
}

/**
 * Runs a posting statement: a CHECK violation (a member account below zero) is InsufficientFunds;
 * a deadlock or serialisation victim wrote nothing and, outside a transaction, is run again.
 */
async function execute<R>(db: Kysely<MoneyDb>, statement: RawBuilder<R>): Promise<{ rows: R[] }> {
  try {
    return await retryConflicts(db, statement);
  } catch (error) {
    if (isCheckViolation(error)) throw new InsufficientFunds();
    if (sqlState(error) === MIXED_CURRENCIES) throw new LedgerError('a ledger transaction may not mix currencies');
    throw error;
  }
}

/**
 * Runs one statement; a deadlock or serialisation victim (it wrote nothing) is run again, up to 8
 * times, when it is not inside a transaction (a transaction's caller decides).
 */
export async function retryConflicts<R>(db: Kysely<MoneyDb>, statement: RawBuilder<R>): Promise<{ rows: R[] }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement.execute(db);
    } catch (error) {
      const state = sqlState(error);
      if ((state === '40P01' || state === '40001') && !db.isTransaction && attempt < 8) continue;
      throw error;
    }
  }
}

/** One account a posting moved: by how much, and its balance and version right after. */
export interface PostedMove {
  account: AccountId;
  /** Signed minor units. */
  amount: number;
  balance: number;
  /** The account's version after the posting: later postings of the account have larger ones. */
  version: number;
}

/** A ledger transaction as written (touched accounts, which did not move, left out). */
export interface Posted {
  kind: PostingKind;
  operationId: string | null;
  moves: PostedMove[];
}

/**
 * Told of ledger transactions once they are committed (after the statement, or after the
 * transaction opened with `inTransaction`). Called synchronously: it must not throw or block
 * (it hands the news on; an error is caught and dropped, never the posting's).
 */
export type PostingObserver = (posted: readonly Posted[]) => void;

/** Observers per database (a test process may hold several apps, each on its own database). */
const observers = new WeakMap<Kysely<MoneyDb>, Set<PostingObserver>>();
/** Postings made inside a transaction opened by `inTransaction`, announced when it commits. */
const openTransactions = new WeakMap<Kysely<MoneyDb>, Posted[]>();

/** Subscribes to the committed postings made through `db`; answers the unsubscribe. */
export function observePostings(dbIn: Connection, observer: PostingObserver): () => void {
  const db = sameConnection<MoneyDb>(dbIn);
  let set = observers.get(db);
  if (!set) {
    set = new Set();
    observers.set(db, set);
  }
  set.add(observer);
  return () => {
    set.delete(observer);
  };
}

/**
 * Runs `run` in a database transaction whose postings are announced after it commits (none when
 * it rolls back). A posting made in any other transaction is not announced: it cannot know
 * whether it will be committed.
 */
export async function inTransaction<D, T>(caller: Kysely<D>, run: (trx: Kysely<D>) => Promise<T>): Promise<T> {
  const db = sameConnection<MoneyDb>(caller);
  const made: Posted[] = [];
  const result = await caller.transaction().execute(async (trx) => {
    openTransactions.set(sameConnection<MoneyDb>(trx), made);
    return run(trx);
  });
  announce(db, made);
  return result;
}

function postedOf(input: PostInput, balances: Map<AccountId, number>, versions: Map<AccountId, number>): Posted {
  return {
    kind: input.kind,
    operationId: input.operationId,
    moves: input.postings.map((p) => ({ account: p.account, amount: p.amount, balance: balances.get(p.account) ?? 0, version: versions.get(p.account) ?? 0 })),
  };
}

function announce(db: Kysely<MoneyDb>, posted: Posted[]): void {
  if (posted.length === 0) return;
  if (db.isTransaction) {
    openTransactions.get(db)?.push(...posted);
    return;
  }
  for (const observer of observers.get(db) ?? []) {
    try {
      observer(posted);
    } catch {
      // The news is lost, not the money: the posting is committed.
    }
  }
}

export interface BatchOptions {
  /** CTEs written before the postings, in the same statement. */
  before?: RawBuilder<unknown>[];
  /**
   * Name of one of those CTEs returning columns `id` (an operation id) and `tx_id`: only the
   * inputs whose operationId it returns are posted (a per-item compare-and-set, such as "still
   * pending" — or simply the operations the statement records), each as the ledger transaction
   * with that `tx_id` (see PostingOptions.txIdFrom).
   */
  guard?: string;
}

export interface BatchResult {
  /** New balance of every account the batch moved. */
  balances: Map<AccountId, number>;
  /**
   * Per input, in input order, the balances of its own accounts as they were right after its
   * posting, taking the batch's order as the order of the postings: what it would have seen alone.
   */
  after: Array<Map<AccountId, number>>;
  /** Operation ids whose transaction was posted. */
  posted: Set<string>;
}

/**
 * Several postings in one SQL statement (the group commit of Batcher): one ledger transaction
 * per input, keyed by its operation id (required, distinct within the batch), every entry, and
 * each account's balance changed once by the sum of its moves. All or nothing: when any member
 * account would go negative the whole statement fails with InsufficientFunds and nothing is
 * written (the caller then runs the inputs one by one to find whose it was).
 */
export async function runPostingBatch(dbIn: Connection, inputs: Array<PostInput & { operationId: string }>, options: BatchOptions = {}): Promise<BatchResult> {
  const db = sameConnection<MoneyDb>(dbIn);
  const ops = new Set<string>();
  const moveOps: string[] = [];
  const moveAccounts: string[] = [];
  const moveAmounts: string[] = [];
  const moveOrder: number[] = [];
  inputs.forEach((input, index) => {
    validate(input.postings, input.touch);
    if (ops.has(input.operationId)) throw new LedgerError(`operation ${input.operationId} twice in one batch`);
    ops.add(input.operationId);
    for (const p of movesOf(input)) {
      moveOps.push(input.operationId);
      moveAccounts.push(p.account);
      moveAmounts.push(String(p.amount));
      moveOrder.push(index);
    }
  });
  const before = options.before?.length ? sql`${sql.join(options.before)},` : sql``;
  const items = sql`unnest(${inputs.map((i) => i.operationId)}::text[], ${inputs.map((i) => i.kind)}::text[]) AS t(operation_id, kind)`;
  const ti = options.guard
    ? sql`SELECT t.operation_id, t.kind, g.tx_id FROM ${items} JOIN ${sql.ref(options.guard)} g ON g.id = t.operation_id`
    : sql`SELECT t.operation_id, t.kind, nextval(pg_get_serial_sequence('ledger_transactions', 'id')) AS tx_id FROM ${items}`;
  const statement = sql<{ id: string | null; balance: number | string | null; version: number | string | null; operation_id: string | null }>`
    WITH ${before} ti AS (${ti}), tx AS (
      INSERT INTO ledger_transactions (id, operation_id, kind) SELECT tx_id, operation_id, kind FROM ti RETURNING id, operation_id
    ), moves AS (
      SELECT tx.id AS transaction_id, m.account_id, m.amount, m.ord
      FROM unnest(${moveOps}::text[], ${moveAccounts}::text[], ${moveAmounts}::bigint[], ${moveOrder}::int[]) AS m(operation_id, account_id, amount, ord)
      JOIN tx ON tx.operation_id = m.operation_id
    ), delta AS (
      SELECT account_id, sum(amount)::bigint AS amount FROM moves GROUP BY account_id
    ), locked AS (
      SELECT a.id FROM ledger_accounts a WHERE a.id IN (SELECT account_id FROM delta) ORDER BY a.id FOR NO KEY UPDATE
    ), upd AS (
      UPDATE ledger_accounts a SET balance = a.balance + d.amount, version = a.version + 1
      FROM delta d JOIN locked l ON l.id = d.account_id WHERE a.id = d.account_id
      RETURNING a.id, a.balance, a.version
    ), entries AS (
      -- Each entry's balance_after is the account's final balance less the moves of the items
      -- after it in the batch (the batch's order is the order of its postings).
      INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after)
      SELECT mv.transaction_id, mv.account_id, mv.amount, mv.after FROM (
        SELECT m.transaction_id, m.account_id, m.amount,
          u.balance - coalesce(sum(m.amount) OVER (PARTITION BY m.account_id ORDER BY m.ord DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS after
        FROM moves m LEFT JOIN upd u ON u.id = m.account_id
      ) mv WHERE mv.amount <> 0
    )
    SELECT id, balance, version, NULL::text AS operation_id FROM upd UNION ALL SELECT NULL, NULL, NULL, operation_id FROM tx`;
  const result = await execute(db, statement);
  const balances = new Map<AccountId, number>();
  const versions = new Map<AccountId, number>();
  const posted = new Set<string>();
  for (const row of result.rows) {
    if (row.operation_id !== null) posted.add(row.operation_id);
    else if (row.id !== null) {
      balances.set(row.id, Number(row.balance));
      versions.set(row.id, Number(row.version));
    }
  }
  const touched = new Set(inputs.filter((i) => posted.has(i.operationId)).flatMap((i) => movesOf(i).map((p) => p.account)));
  // Written already: not a refusal of the batch (the foreign key on the entries' account stops
  // an unknown account before this could happen).
  if (balances.size !== touched.size) throw new Error(`ledger: unknown account among ${[...touched].join(', ')}`);
  const running = new Map(balances);
  const after: Array<Map<AccountId, number>> = new Array<Map<AccountId, number>>(inputs.length);
  for (let i = inputs.length - 1; i >= 0; i--) {
    const input = inputs[i] as (typeof inputs)[number];
    const own = new Map<AccountId, number>();
    if (posted.has(input.operationId)) {
      for (const p of movesOf(input)) own.set(p.account, running.get(p.account) ?? 0);
      for (const p of movesOf(input)) running.set(p.account, (running.get(p.account) ?? 0) - p.amount);
    }
    after[i] = own;
  }
  // Each item is announced with the accounts' balances after the whole batch (one version for all
  // of its items): what a reader sees now, and what any later announcement supersedes.
  announce(
    db,
    inputs.filter((i) => posted.has(i.operationId)).map((i) => postedOf(i, balances, versions)),
  );
  return { balances, posted, after };
}

/** Posts one balanced transaction (see postingSql). */
export async function post(dbIn: Connection, input: PostInput): Promise<Map<AccountId, number>> {
  const db = sameConnection<MoneyDb>(dbIn);
  const balances = await runPosting(db, input);
  if (!balances) throw new LedgerError('posting without a guard wrote nothing');
  return balances;
}

/** SQL: the ledger currency of a `members.currency` column (BAHT is THB), for domain queries. */
export function ledgerCurrencySql(memberCurrencyColumn: string): RawBuilder<Currency> {
  return sql<Currency>`(CASE WHEN ${sql.ref(memberCurrencyColumn)} = 'LAK' THEN 'LAK' ELSE 'THB' END)`;
}

/** The same as SQL text, for migrations (the column name is the caller's own, never input). */
export function ledgerCurrencySqlText(memberCurrencyColumn: string): string {
  if (!/^[a-z_][a-z0-9_.]*$/.test(memberCurrencyColumn)) throw new Error(`not a column name: ${memberCurrencyColumn}`);
  return `(CASE WHEN ${memberCurrencyColumn} = 'LAK' THEN 'LAK' ELSE 'THB' END)`;
}

/** The ledger currency of a member's accounts, read from the member (BAHT is THB). */
function memberCurrencySql(memberId: string): RawBuilder<Currency> {
  return sql<Currency>`(SELECT CASE WHEN m.currency = 'LAK' THEN 'LAK' ELSE 'THB' END FROM member_view m WHERE m.id = ${memberId})`;
}

/**
 * Creates the member's wallet, in-flight and withdrawal-hold accounts in the member's currency
 * (idempotent). The member must exist (in the same transaction is enough).
 */
export async function openMemberAccounts(dbIn: Connection, memberId: string): Promise<void> {
  const db = sameConnection<MoneyDb>(dbIn);
  const currency = memberCurrencySql(memberId);
  await sql`
    INSERT INTO ledger_accounts (id, member_id, kind, currency)
    VALUES (${account.wallet(memberId)}, ${memberId}, 'wallet', ${currency}),
           (${account.inflight(memberId)}, ${memberId}, 'inflight', ${currency}),
           (${account.withdrawal(memberId)}, ${memberId}, 'withdrawal', ${currency})
    ON CONFLICT (id) DO NOTHING`.execute(db);
}

/**
 * Creates a member's account at one game, and that game's system account in the member's
 * currency (idempotent). Answers the currency.
 */
export async function openGameAccount(dbIn: Connection, memberId: string, code: string): Promise<Currency> {
  const db = sameConnection<MoneyDb>(dbIn);
  const currency = await memberCurrency(db, memberId);
  await db
    .insertInto('ledger_accounts')
    .values([
      { id: account.game(memberId, code), member_id: memberId, kind: 'game', game_code: code, currency },
      { id: account.provider(code, currency), member_id: null, kind: 'system', game_code: code, currency },
    ])
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return currency;
}

/** Members' currencies never change after registration: remembered once read. */
const currencies = new Map<string, Currency>();

/** The ledger currency of a member (from the member row; THB for BAHT). */
export async function memberCurrency(dbIn: Connection, memberId: string): Promise<Currency> {
  const db = sameConnection<MoneyDb>(dbIn);
  const known = currencies.get(memberId);
  if (known) return known;
  // The account module's published read model of members (account/006), not its table.
  const row = (await sql<{ currency: string }>`SELECT currency FROM member_view WHERE id = ${memberId}`.execute(db)).rows[0];
  if (!row) throw new LedgerError(`no member ${memberId}`);
  const currency = ledgerCurrency(row.currency);
  if (currencies.size >= 100_000) currencies.clear();
  currencies.set(memberId, currency);
  return currency;
}

/** Balances of money accounts (coin accounts are read with coinBalance, coins.ts). */
export async function balances(dbIn: Connection, ids: AccountId[]): Promise<Map<AccountId, { balance: number; version: number; currency: Currency }>> {
  const db = sameConnection<MoneyDb>(dbIn);
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('ledger_accounts').select(['id', 'balance', 'version', 'currency']).where('id', 'in', ids).execute();
  const money = rows.flatMap((r) => (r.currency === COIN ? [] : [{ ...r, currency: r.currency as Currency }]));
  return new Map(money.map((r) => [r.id, { balance: Number(r.balance), version: Number(r.version), currency: r.currency }]));
}

export interface InvariantReport {
  ok: boolean;
  /** Transactions whose entries do not sum to zero, or have fewer than two entries. */
  unbalancedTransactions: string[];
  /** Accounts whose balance differs from the sum of their entries. */
  driftedAccounts: Array<{ id: string; balance: number; entries: number }>;
  /** Member accounts below zero. */
  negativeAccounts: string[];
  /** Transactions whose entries are in more than one currency. */
  mixedCurrencyTransactions: string[];
  /** Sum over all money accounts, coins left out (must be 0). */
  total: number;
  /** Sum over the accounts of each currency, and of coins apart (each must be 0). */
  totals: Partial<Record<Unit, number>>;
  accounts: number;
  transactions: number;
}

/** Checks the ledger's invariants over the whole database. */
export async function checkInvariants(dbIn: Connection): Promise<InvariantReport> {
  const db = sameConnection<MoneyDb>(dbIn);
  const unbalanced = await sql<{ transaction_id: string }>`
    SELECT t.id AS transaction_id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
    GROUP BY t.id HAVING coalesce(sum(e.amount), 0) <> 0 OR count(e.id) < 2`.execute(db);
  const drifted = await sql<{ id: string; balance: string | number; entries: string | number }>`
    SELECT a.id, a.balance, coalesce(e.total, 0) AS entries FROM ledger_accounts a
    LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
    WHERE a.balance <> coalesce(e.total, 0)`.execute(db);
  const negative = await sql<{ id: string }>`SELECT id FROM ledger_accounts WHERE kind <> 'system' AND balance < 0`.execute(db);
  const mixed = await sql<{ transaction_id: string }>`
    SELECT e.transaction_id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
    GROUP BY e.transaction_id HAVING count(DISTINCT a.currency) > 1`.execute(db);
  const perCurrency = await sql<{ currency: Unit; total: string | number }>`
    SELECT currency, sum(balance) AS total FROM ledger_accounts GROUP BY currency`.execute(db);
  const totals = await sql<{ total: string | number | null; accounts: string | number; transactions: string | number }>`
    SELECT (SELECT sum(balance) FROM ledger_accounts WHERE currency <> ${COIN}) AS total, (SELECT count(*) FROM ledger_accounts) AS accounts,
           (SELECT count(*) FROM ledger_transactions) AS transactions`.execute(db);
  const row = totals.rows[0];
  const total = Number(row?.total ?? 0);
  const report: InvariantReport = {
    ok: false,
    unbalancedTransactions: unbalanced.rows.map((r) => String(r.transaction_id)),
    driftedAccounts: drifted.rows.map((r) => ({ id: r.id, balance: Number(r.balance), entries: Number(r.entries) })),
    negativeAccounts: negative.rows.map((r) => r.id),
    mixedCurrencyTransactions: mixed.rows.map((r) => String(r.transaction_id)),
    total,
    totals: Object.fromEntries(perCurrency.rows.map((r) => [r.currency, Number(r.total)])),
    accounts: Number(row?.accounts ?? 0),
    transactions: Number(row?.transactions ?? 0),
  };
  report.ok =
    report.unbalancedTransactions.length === 0 &&
    report.driftedAccounts.length === 0 &&
    report.negativeAccounts.length === 0 &&
    report.mixedCurrencyTransactions.length === 0 &&
    total === 0 &&
    Object.values(report.totals).every((t) => t === 0);
  return report;
}
