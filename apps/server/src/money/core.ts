import { sameConnection, type Connection } from '../db/database';
import type { MoneyDb } from './tables';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { MoneyResult } from '@mw/contract/wallet';
import { AppError } from '../lib/errors';
import { answerOf } from './answers';
import { BalanceFeed } from './balance-feed';
import { Coins } from './coins';
import { Credits, lockMemberDeposits } from './credits';
import { Holds } from './holds';
import { callKey, KeyBook, KeyTaken, lookupKey, recordAnswer, recordPlan, releaseClaim, settleAnswer, type Idem, type KeyRecord, type StoredAnswer } from './idempotency';
import { MoneyPolicies } from './policies';
import { Positions } from './positions';
import { MoneyReports } from './reports';
import { SeamlessWallet } from './seamless';
import { inTransaction, openGameAccount, openMemberAccounts, type Currency, type Posting, type PostInput } from './ledger';
import { bookGameResult, gameCopy, recordWithMoney, settleTransfer, TransferPostings, type GameCopy, type NewOperation, type OperationRow, type Settled } from './operations';

/** Refusals that are answers of the call itself (stored under the key); others are not definite. */
function isDefiniteRefusal(error: unknown): error is AppError {
  return error instanceof AppError && error.status >= 400 && error.status < 500 && ![401, 403, 408, 409, 429].includes(error.status);
}

function storedOf(error: AppError): StoredAnswer {
  return { status: error.status, body: { message: error.code, ...error.extra } };
}

/** A claim older than this whose call has not answered is taken over by a retry (its process died mid-call): IDEMPOTENCY_CLAIM_STALE_MS. */
const CLAIM_STALE_MS = 60_000;

/**
 * The key of a `keyedInside` call while it runs (MoneyCore.call): `once` and `composite` mark it
 * when they run under it, and the call fails loudly when it answered without them (a handler that
 * moved money without recording its key would otherwise go unnoticed).
 */
const keyedCall = new AsyncLocalStorage<{ memberId: string; key: string; recorded: boolean }>();

function markKeyed(memberId: string, idem: Idem): void {
  const scope = keyedCall.getStore();
  if (scope && scope.memberId === memberId && scope.key === idem.key) scope.recorded = true;
}

/** A stored answer as the call's result: 200 is the body, anything else the error it was. */
function replayStored(answer: StoredAnswer): MoneyResult {
  if (answer.status === 200) return answer.body as MoneyResult;
  const { message, ...extra } = answer.body;
  throw new AppError(answer.status, String(message) as AppError['code'], extra);
}

/**
 * The money core's front door for every money call: it runs a call once per Idempotency-Key and
 * answers every retry from what the key recorded (see idempotency.ts and answers.ts):
 * - `once`: a call that records one operation (top-up, withdrawal, transfer). It runs; when its
 *   recording statement finds the key taken (KeyTaken), the record answers. A refusal (4xx) is
 *   stored under the key, unless the key already recorded something, which then answers.
 * - `composite`: a call made of parts (transferAll to WALLET, withdrawAll). Its plan (which parts,
 *   what amounts) is fixed and stored at the first execution; a retry runs the same plan (each
 *   part is itself once-only under a derived key) and the first definite answer is stored.
 * Policy hooks (`policies`) are checked by the services before money leaves a member's control.
 */
export class MoneyCore {
  readonly policies: MoneyPolicies;
  /** Credits from outside systems, once per message (credits.ts). */
  readonly credits: Credits;
  /** The prize wheel's coins, a unit of their own on the ledger (coins.ts). */
  readonly coins: Coins;
  /** A member's whole position (wallet, in flight, every game), and promotions' ends taken back against it (positions.ts). */
  readonly positions: Positions;
  /** Read-only figures for operators: a period's totals, the payout queue (reports.ts). */
  readonly reports: MoneyReports;
  /** Members' balances as committed postings change them (balance-feed.ts): the pushes to the app subscribe here. */
  readonly balances: BalanceFeed;
  /** An aggregator's seamless-wallet transactions, each once (seamless.ts). */
  readonly seamless: SeamlessWallet;
  /** Wallet ↔ game transfers, started and settled in group-committed batches (operations.ts). */
  readonly transfers: TransferPostings;
  /** Money held for a payment that leaves us (a withdrawal): placed, then posted or voided, once (holds.ts). */
  readonly holds = new Holds();
  /** The route layer's keys, claimed and answered in group-committed batches. */
  private readonly keys: KeyBook;

  constructor(
    private readonly db: Kysely<MoneyDb>,
    private readonly claimStaleMs: number = CLAIM_STALE_MS,
    /** The money core's clock (platform/clock.ts): deposit times and limit windows count by it. */
    readonly now: () => number = Date.now,
  ) {
    this.policies = new MoneyPolicies(db);
    this.credits = new Credits(db, this.policies, now);
    this.coins = new Coins(db);
    // A member's position and a game's copy are read after this process's marks of the member written behind (operations.ts settleBehind).
    this.positions = new Positions(db, (memberId) => this.transfers.caughtUp(memberId));
    this.reports = new MoneyReports(db);
    this.balances = new BalanceFeed(db);
    this.seamless = new SeamlessWallet(db);
    this.keys = new KeyBook(db, claimStaleMs);
    this.transfers = new TransferPostings(db);
  }

  // The one door: a domain module moves money and opens ledger accounts only through these
  // methods and the services above (money/index.ts exports nothing that writes the ledger).
  // Each takes the caller's connection (its transaction, or its query builder) as a `Connection`.

  /** Opens a member's wallet, in-flight and withdrawal-hold accounts in the member's currency (idempotent; the member row may be in the same transaction). */
  openMember(connection: Connection, memberId: string): Promise<void> {
    return openMemberAccounts(connection, memberId);
  }

  /** Opens a member's account at a game and the game's provider account (idempotent); answers the member's ledger currency. */
  openGame(connection: Connection, memberId: string, code: string): Promise<Currency> {
    return openGameAccount(connection, memberId, code);
  }

  /** Records an operation and its money in one statement, under its key when it has one; null when the key had recorded it already. */
  record(connection: Connection, op: NewOperation, idem: Idem | null, postings: Posting[], kind: PostInput['kind']): Promise<Map<string, number> | null> {
    return recordWithMoney(connection, op, idem, postings, kind);
  }

  /** The ledger's copy of a game balance, with whether a transfer of that game is pending (a read to book a result from); null when there is no such account. */
  async gameCopy(connection: Connection, memberId: string, code: string): Promise<GameCopy | null> {
    // Not inside a transaction: the embedded database's one connection would wait for itself.
    if (!connection.isTransaction) await this.transfers.caughtUp(memberId);
    return gameCopy(connection, memberId, code);
  }

  /** Books a game's result (the provider's live balance against the ledger's copy, read at `seen`); null when it did not book. */
  bookGame(connection: Connection, memberId: string, code: string, seen: { version: number; currency: Currency }, delta: number): Promise<Map<string, number> | null> {
    return bookGameResult(connection, memberId, code, seen, delta);
  }

  /** Ends a pending transfer by what the provider says happened, outside the batches (the reconciler's path). */
  settleTransfer(connection: Connection, op: OperationRow, outcome: 'applied' | 'absent'): Promise<Settled> {
    return settleTransfer(connection, op, outcome);
  }

  /**
   * A transaction whose postings are announced to the balance feed when it commits (a plain
   * `db.transaction()` would move the wallet without a push to the app): for a module that posts
   * through the core inside a transaction of its own.
   */
  inTransaction<D, T>(caller: Kysely<D>, run: (trx: Kysely<D>) => Promise<T>): Promise<T> {
    return inTransaction(caller, run);
  }

  /** Holds the member's deposit decisions (credit or hold) until `trx` ends: a change of the member's deposit rules made under it applies to every later decision. */
  lockDeposits(trxIn: Connection, memberId: string): Promise<void> {
    const trx = sameConnection<MoneyDb>(trxIn);
    return lockMemberDeposits(trx, memberId);
  }

  async once(memberId: string, idem: Idem | null, run: () => Promise<MoneyResult>): Promise<MoneyResult> {
    // The member's transfers settled behind their answers are written first (operations.ts
    // settleBehind): a call never reads its member's own answered transfer as pending, and a
    // retry answers the first answer.
    await this.transfers.caughtUp(memberId);
    if (!idem) return run();
    markKeyed(memberId, idem);
    try {
      return await run();
    } catch (error) {
      if (error instanceof KeyTaken) return this.replay(memberId, idem);
      if (!isDefiniteRefusal(error)) throw error;
      // Refused before recording anything. A retry of a call that did record (its body asks the
      // same, but the world moved on) answers that record; a first refusal is stored.
      const record = await lookupKey(this.db, memberId, idem);
      if (record?.answer || record?.operation) return this.answerRecord(record);
      if (await recordAnswer(this.db, memberId, idem, storedOf(error))) throw error;
      const now = await lookupKey(this.db, memberId, idem);
      if (now?.answer || now?.operation) return this.answerRecord(now);
      // Only the route layer's claim of this very request holds the key (a call the route layer
      // keys, such as the gift link): the refusal is its answer, which the route layer keeps.
      throw error;
    }
  }

  async composite<P>(memberId: string, idem: Idem | null, plan: () => Promise<P>, run: (plan: P) => Promise<MoneyResult>): Promise<MoneyResult> {
    await this.transfers.caughtUp(memberId);
    if (!idem) return run(await plan());
    markKeyed(memberId, idem);
    let record = await lookupKey(this.db, memberId, idem);
    if (record?.answer || record?.operation) return this.answerRecord(record);
    if (!record) record = await recordPlan(this.db, memberId, idem, await plan());
    if (record.answer || record.operation) return this.answerRecord(record);
    let answer: StoredAnswer;
    try {
      answer = { status: 200, body: (await run(record.plan as P)) as unknown as Record<string, unknown> };
    } catch (error) {
      if (!(error instanceof AppError) || error.status === 409 || error.status >= 500) throw error;
      answer = storedOf(error);
    }
    return replayStored(await settleAnswer(this.db, memberId, idem, answer));
  }

  /**
   * The route layer's once-per-key execution of every `movesMoney` call (http/endpoint.ts wraps
   * each such handler in it; a handler cannot leave it out):
   * - `keyedInside: false` (spins, coupons, bonuses and their cancel, promotion codes, invite and refund payouts,
   *   slips, the gift link): the call's answer is kept under `#key` (idempotency.ts `callKey`) and
   *   every retry with the key answers it: status and body, a refusal included; the same key with
   *   another request is `409 IDEMPOTENCY_KEY_REUSED`. The key is claimed before the call runs,
   *   so of concurrent requests one runs and the others answer `409 REQUEST_IN_PROGRESS`; the
   *   answer is stored when it is definite (200, or a refusal: 4xx except 401/403/408/409/429);
   *   otherwise the claim is given back and a retry runs the call again. A claim left by a
   *   process that died mid-call is taken over after 60 s.
   * - `keyedInside: true` (the wallet's calls): the call's own steps record the client's key with
   *   their money (`once`: the operation carries the key; `composite`: its plan and answer), and
   *   a retry answers from that record (answers.ts: the operation's answer is a function of the
   *   operation and its ledger entries, so it is the first answer). The route layer writes
   *   nothing of its own (issue 35: the transfer's lean record); it checks that the call went
   *   through `once` or `composite` under the key, and fails loudly when it did not.
   */
  async call(memberId: string, idem: Idem | null, keyedInside: boolean, run: () => Promise<unknown>): Promise<unknown> {
    if (!idem) return run();
    if (keyedInside) {
      const scope = { memberId, key: idem.key, recorded: false };
      const result = await keyedCall.run(scope, run);
      if (!scope.recorded) throw new Error('a keyedInside call answered without recording its Idempotency-Key (MoneyCore.once or composite)');
      // As a replay would answer it (JSON).
      return JSON.parse(JSON.stringify(result ?? {})) as unknown;
    }
    const own = callKey(idem);
    // The claim first: a new key (the common case) costs one statement before the call runs; a
    // key someone holds or answered is read only then.
    const claimed = await this.keys.claim(memberId, own);
    if (!claimed) {
      // Held by another request: another call under this key is 409 IDEMPOTENCY_KEY_REUSED (it
      // never runs, so two requests never both move money under one key), the same one's answer.
      const record = await lookupKey(this.db, memberId, own);
      if (record?.answer) return replayStored(record.answer);
      // A wallet call's operation holds the key (it has no #key of its own): IDEMPOTENCY_KEY_REUSED.
      if (!record) await lookupKey(this.db, memberId, idem);
      // The same request still running: this one waits for its answer.
      throw new AppError(409, 'REQUEST_IN_PROGRESS');
    }
    let answer: StoredAnswer;
    try {
      // As stored (JSON): the first answer and every replay are the same text.
      answer = { status: 200, body: JSON.parse(JSON.stringify((await run()) ?? {})) as Record<string, unknown> };
    } catch (error) {
      // A step found the client's key recorded with its money, but the call's answer was never
      // kept (its process died in between, and this request took the stale claim over): the
      // money moved once and its answer is lost. The key keeps answering "in progress"; the
      // statement shows what happened. Nothing moves again.
      if (error instanceof KeyTaken) throw new AppError(409, 'REQUEST_IN_PROGRESS');
      if (!isDefiniteRefusal(error)) {
        // Given back so that a retry runs the call again.
        await releaseClaim(this.db, memberId, own);
        throw error;
      }
      answer = storedOf(error);
    }
    return replayStored(await this.keys.settle(memberId, own, answer));
  }

  /** The answer a key recorded, or null when it recorded nothing yet (IDEMPOTENCY_KEY_REUSED for another body). */
  async recorded(memberId: string, idem: Idem): Promise<MoneyResult | null> {
    await this.transfers.caughtUp(memberId);
    const record = await lookupKey(this.db, memberId, idem);
    return record && (record.answer || record.operation) ? this.answerRecord(record) : null;
  }

  /** The answer a key recorded (IDEMPOTENCY_KEY_REUSED for another body). */
  async replay(memberId: string, idem: Idem): Promise<MoneyResult> {
    const record = await lookupKey(this.db, memberId, idem);
    if (!record) throw new AppError(409, 'REQUEST_IN_PROGRESS');
    return this.answerRecord(record);
  }

  /**
   * The answer of the credit recorded for an outside record's key (source, ref), as a money call's
   * answer (its amount, the wallet right after it); null when nothing was credited under it. For a
   * call run again whose credit was made by someone else (a sweep finishing what its dead first
   * run had claimed).
   */
  async creditAnswer(memberId: string, source: string, ref: string): Promise<MoneyResult | null> {
    await this.transfers.caughtUp(memberId);
    const op = await this.db
      .selectFrom('external_credits as ec')
      .innerJoin('operations as o', 'o.id', 'ec.operation_id')
      .select(['o.id', 'o.member_id', 'o.type', 'o.status', 'o.source', 'o.target', 'o.amount', 'o.note'])
      .where('ec.source', '=', source)
      .where('ec.ref', '=', ref)
      .where('o.member_id', '=', memberId)
      .executeTakeFirst();
    return op ? answerOf(this.db, { ...op, amount: Number(op.amount) }) : null;
  }

  private async answerRecord(record: KeyRecord): Promise<MoneyResult> {
    if (record.answer) return replayStored(record.answer);
    if (record.operation) return answerOf(this.db, record.operation);
    // A composite call's plan without its answer yet: it is still running (or was cut off; a
    // retry of the composite call itself continues it).
    throw new AppError(409, 'REQUEST_IN_PROGRESS');
  }
}
