import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely, Selectable } from 'kysely';
import { PAYOUT_FAULT_MODES } from '@mw/contract/operator/payout';
import type { Migration } from '../../db/migrations';
import type { DB, DefaultTimestamp, Timestamp } from '../../db/schema';
import { PAYOUT_FAILURES, PayoutUnavailable, PayoutUnknown, type PayoutAnswer, type PayoutFailure, type PayoutProvider, type PayoutRequest } from './payout';
import { sandboxFault, setSandboxFault } from './sandbox-bank';

/** The sandbox bank's book of outgoing transfers (its own state, reached only through this adapter). */
export interface SandboxBankPayoutsTable {
  reference: string;
  bank_code: string;
  account_no: string;
  account_name: string;
  amount: number;
  currency: string;
  state: 'accepted' | 'completed' | 'failed';
  failure: string | null;
  reason: string | null;
  trans_ref: string;
  /** An accepted transfer completes at this time (the `accept` fault). */
  complete_at: Timestamp | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

declare module '../../db/schema' {
  interface DB {
    sandbox_bank_payouts: SandboxBankPayoutsTable;
  }
}

export const sandboxPayoutMigrations: readonly Migration[] = [
  {
    id: 'wallet/002_sandbox_bank_payouts',
    sql: `
-- The sandbox bank's outgoing transfers: one per reference (the withdrawal's id), whatever is sent again.
CREATE TABLE sandbox_bank_payouts (
  reference text PRIMARY KEY,
  bank_code text NOT NULL,
  account_no text NOT NULL,
  account_name text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency IN ('THB', 'LAK')),
  state text NOT NULL CHECK (state IN ('accepted', 'completed', 'failed')),
  failure text,
  reason text,
  trans_ref text NOT NULL,
  complete_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_bank_payouts_created ON sandbox_bank_payouts (created_at);`,
  },
];

/**
 * Failure injection of the sandbox bank's payout API, seen by every process on the database:
 * - `none`: transfers complete at once;
 * - `down`: the API refuses the connection (nothing is recorded);
 * - `timeout`: the API hangs past the caller's deadline and records nothing;
 * - `lost`: the transfer is executed (completed) but the answer is lost on the way back;
 * - `reject`: the transfer is recorded as failed with `failure` (ACCOUNT_INVALID, NAME_MISMATCH, REFUSED);
 * - `accept`: the transfer is accepted and completes `SANDBOX_PAYOUT_ACCEPT_MS` later (asking after that answers completed).
 */
/** The modes' list is the operator call's (contract/operator/payout.ts). */
export type PayoutFaultMode = (typeof PAYOUT_FAULT_MODES)[number];
export interface PayoutFault {
  mode: PayoutFaultMode;
  failure?: PayoutFailure;
}

const FAULT_SERVICE = 'bank-payout';
/** How long an accepted transfer (the `accept` fault) takes to complete. */
const ACCEPT_MS = 1_000;

/** The bank's words for each failure (what a real bank's API would send beside its code). */
const FAILURE_TEXT: Record<PayoutFailure, string> = {
  ACCOUNT_INVALID: 'beneficiary account does not exist or is closed',
  NAME_MISMATCH: 'beneficiary name does not match the account',
  REFUSED: 'transfer refused by the bank',
};

function answerOf(row: Selectable<SandboxBankPayoutsTable>): PayoutAnswer {
  const failure = PAYOUT_FAILURES.find((f) => f === row.failure);
  return {
    reference: row.reference,
    status: row.state,
    ...(failure ? { failure } : {}),
    ...(row.reason ? { reason: row.reason } : {}),
    bankRef: row.trans_ref,
    amount: Number(row.amount),
    currency: row.currency === 'LAK' ? 'LAK' : 'THB',
    bankCode: row.bank_code,
    accountNo: row.account_no,
    at: row.created_at,
  };
}

/**
 * The sandbox bank's payout API: outgoing transfers recorded in its own table, one per
 * reference (sending a reference again answers the first transfer and pays nothing more), with
 * the failures a real bank's API has (see PayoutFaultMode).
 */
export class SandboxPayouts implements PayoutProvider {
  readonly name = 'sandbox';

  constructor(
    private readonly db: Kysely<DB>,
    /** How long the `timeout` fault hangs (longer than the caller's deadline). */
    private readonly hangMs: number,
  ) {}

  async fault(): Promise<PayoutFault> {
    const [mode = 'none', failure] = (await sandboxFault(this.db, FAULT_SERVICE)).split(':');
    const known = PAYOUT_FAULT_MODES.find((m) => m === mode) ?? 'none';
    const why = PAYOUT_FAILURES.find((f) => f === failure);
    return { mode: known, ...(known === 'reject' ? { failure: why ?? 'REFUSED' } : {}) };
  }

  setFault(fault: PayoutFault): Promise<void> {
    return setSandboxFault(this.db, FAULT_SERVICE, fault.mode === 'reject' ? `reject:${fault.failure ?? 'REFUSED'}` : fault.mode);
  }

  async send(request: PayoutRequest): Promise<PayoutAnswer> {
    const fault = await this.fault();
    if (fault.mode === 'down') throw new PayoutUnavailable('sandbox bank down');
    if (fault.mode === 'timeout') {
      await sleep(this.hangMs, undefined, { ref: false });
      throw new PayoutUnknown('sandbox bank timed out');
    }
    const failure = fault.mode === 'reject' ? (fault.failure ?? 'REFUSED') : null;
    const state = failure ? 'failed' : fault.mode === 'accept' ? 'accepted' : 'completed';
    // One transfer per reference: a second send inserts nothing and answers the first.
    const inserted = await this.db
      .insertInto('sandbox_bank_payouts')
      .values({
        reference: request.reference,
        bank_code: request.bankCode,
        account_no: request.accountNo,
        account_name: request.accountName,
        amount: request.amount,
        currency: request.currency,
        state,
        failure,
        reason: failure ? FAILURE_TEXT[failure] : null,
        trans_ref: `${new Date().toISOString().slice(2, 10).replace(/-/g, '')}P${randomBytes(6).toString('hex').toUpperCase()}`,
        complete_at: state === 'accepted' ? new Date(Date.now() + ACCEPT_MS) : null,
      })
      .onConflict((oc) => oc.column('reference').doNothing())
      .returningAll()
      .executeTakeFirst();
    const row = inserted ?? (await this.row(request.reference));
    if (!row) throw new PayoutUnknown('sandbox bank lost the transfer');
    if (fault.mode === 'lost') throw new PayoutUnknown('sandbox bank answer lost');
    return answerOf(row);
  }

  async status(reference: string): Promise<PayoutAnswer | null> {
    const fault = await this.fault();
    if (fault.mode === 'down') throw new PayoutUnavailable('sandbox bank down');
    const row = await this.row(reference);
    return row ? answerOf(row) : null;
  }

  async payouts(from: Date, to: Date): Promise<PayoutAnswer[]> {
    await this.completeDue();
    const rows = await this.db.selectFrom('sandbox_bank_payouts').selectAll().where('created_at', '>=', from).where('created_at', '<', to).orderBy('created_at').execute();
    return rows.map(answerOf);
  }

  /** An accepted transfer whose time has come is completed (as the bank's own batch run would). */
  private async row(reference: string): Promise<Selectable<SandboxBankPayoutsTable> | undefined> {
    await this.completeDue(reference);
    return this.db.selectFrom('sandbox_bank_payouts').selectAll().where('reference', '=', reference).executeTakeFirst();
  }

  private async completeDue(reference?: string): Promise<void> {
    let update = this.db.updateTable('sandbox_bank_payouts').set({ state: 'completed', updated_at: new Date() }).where('state', '=', 'accepted').where('complete_at', '<=', new Date());
    if (reference !== undefined) update = update.where('reference', '=', reference);
    await update.execute();
  }

  /**
   * A transfer the bank made that none of our withdrawals asked for (tests and demos of the
   * reconciliation: a forged or unknown payout).
   */
  async forge(request: PayoutRequest): Promise<PayoutAnswer> {
    const row = await this.db
      .insertInto('sandbox_bank_payouts')
      .values({
        reference: request.reference,
        bank_code: request.bankCode,
        account_no: request.accountNo,
        account_name: request.accountName,
        amount: request.amount,
        currency: request.currency,
        state: 'completed',
        failure: null,
        reason: null,
        trans_ref: `FORGED${randomBytes(6).toString('hex').toUpperCase()}`,
        complete_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return answerOf(row);
  }
}
