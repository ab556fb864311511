import type { Kysely } from 'kysely';
import type { MoneyResult } from '@mw/contract/wallet';
import type { DB } from '../db/schema';
import { AppError } from '../lib/errors';
import { answerOf } from './answers';
import { Credits } from './credits';
import { KeyTaken, lookupKey, recordAnswer, recordPlan, settleAnswer, type Idem, type KeyRecord, type StoredAnswer } from './idempotency';
import { MoneyPolicies } from './policies';
import { Positions } from './positions';

/** Refusals that are answers of the call itself (stored under the key); others are not definite. */
function isDefiniteRefusal(error: unknown): error is AppError {
  return error instanceof AppError && error.status >= 400 && error.status < 500 && ![401, 403, 408, 409, 429].includes(error.status);
}

function storedOf(error: AppError): StoredAnswer {
  return { status: error.status, body: { message: error.code, ...error.extra } };
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
  readonly policies = new MoneyPolicies();
  /** Credits from outside systems, once per message (credits.ts). */
  readonly credits: Credits;
  /** A member's whole position (wallet, in flight, every game), and promotions' ends taken back against it (positions.ts). */
  readonly positions: Positions;

  constructor(private readonly db: Kysely<DB>) {
    this.credits = new Credits(db);
    this.positions = new Positions(db);
  }

  async once(memberId: string, idem: Idem | null, run: () => Promise<MoneyResult>): Promise<MoneyResult> {
    if (!idem) return run();
    try {
      return await run();
    } catch (error) {
      if (error instanceof KeyTaken) return this.replay(memberId, idem);
      if (!isDefiniteRefusal(error)) throw error;
      // Refused before recording anything. A retry of a call that did record (its body asks the
      // same, but the world moved on) answers that record; a first refusal is stored.
      const record = await lookupKey(this.db, memberId, idem);
      if (record) return this.answerRecord(record);
      if (await recordAnswer(this.db, memberId, idem, storedOf(error))) throw error;
      return this.replay(memberId, idem);
    }
  }

  async composite<P>(memberId: string, idem: Idem | null, plan: () => Promise<P>, run: (plan: P) => Promise<MoneyResult>): Promise<MoneyResult> {
    if (!idem) return run(await plan());
    let record = await lookupKey(this.db, memberId, idem);
    if (record?.answer || record?.operation) return this.answerRecord(record);
    if (!record) record = await recordPlan(this.db, memberId, idem, await plan());
    if (record.answer) return replayStored(record.answer);
    let answer: StoredAnswer;
    try {
      answer = { status: 200, body: (await run(record.plan as P)) as unknown as Record<string, unknown> };
    } catch (error) {
      if (!(error instanceof AppError) || error.status === 409 || error.status >= 500) throw error;
      answer = storedOf(error);
    }
    return replayStored(await settleAnswer(this.db, memberId, idem, answer));
  }

  /** The answer a key recorded, or null when it recorded nothing yet (IDEMPOTENCY_KEY_REUSED for another body). */
  async recorded(memberId: string, idem: Idem): Promise<MoneyResult | null> {
    const record = await lookupKey(this.db, memberId, idem);
    return record && (record.answer || record.operation) ? this.answerRecord(record) : null;
  }

  /** The answer a key recorded (IDEMPOTENCY_KEY_REUSED for another body). */
  async replay(memberId: string, idem: Idem): Promise<MoneyResult> {
    const record = await lookupKey(this.db, memberId, idem);
    if (!record) throw new AppError(409, 'REQUEST_IN_PROGRESS');
    return this.answerRecord(record);
  }

  private async answerRecord(record: KeyRecord): Promise<MoneyResult> {
    if (record.answer) return replayStored(record.answer);
    if (record.operation) return answerOf(this.db, record.operation);
    // A composite call's plan without its answer yet: it is still running (or was cut off; a
    // retry of the composite call itself continues it).
    throw new AppError(409, 'REQUEST_IN_PROGRESS');
  }
}
