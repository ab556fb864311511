import { PAYOUT_FAULT_MODES } from '@mw/contract/operator/payout';
import { sandboxControl } from '../sandbox-control';
import { HttpPayouts } from './http-payouts';
import { PAYOUT_FAILURES, type PayoutFailure, type PayoutRequest } from './payout';

/**
 * Failure injection of the sandbox bank's payout API (kept by the sandbox service: every server
 * using it sees it):
 * - `none`: transfers complete at once;
 * - `down`: the API refuses (503; nothing is recorded);
 * - `timeout`: the API never answers and records nothing;
 * - `lost`: the transfer is executed (completed) but the answer is lost on the way back;
 * - `reject`: the transfer is recorded as failed with `failure` (ACCOUNT_INVALID, NAME_MISMATCH, REFUSED);
 * - `accept`: the transfer is accepted and completes a second later (asking after that answers completed).
 * The modes' list is the operator call's (contract/operator/payout.ts).
 */
export type PayoutFaultMode = (typeof PAYOUT_FAULT_MODES)[number];
export interface PayoutFault {
  mode: PayoutFaultMode;
  failure?: PayoutFailure;
}

/** A payout as the sandbox bank's book holds it. */
export interface SandboxPayoutRecord {
  reference: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  amount: number;
  currency: string;
  state: 'accepted' | 'completed' | 'failed';
  failure: PayoutFailure | null;
  reason: string | null;
  bankRef: string;
  at: string;
  /** When an accepted payout completes (ms), or null. */
  completeAt: number | null;
}

/**
 * The sandbox service's payout API (its `bank` system), over the wire: sending and asking are the
 * HTTP payout adapter (http-payouts.ts) against it; this adds its control API — the fault switch,
 * a payout's completion time, a transfer the bank made that nobody asked for — for the operator's
 * sandbox page and the tests. Nothing of it is in our database.
 */
export class SandboxPayouts extends HttpPayouts {
  private control(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    return sandboxControl(this.base, 'bank', method, path, body);
  }

  async fault(): Promise<PayoutFault> {
    const { body } = await this.control('GET', 'payout-fault');
    const mode = PAYOUT_FAULT_MODES.find((m) => m === body.mode) ?? 'none';
    const failure = PAYOUT_FAILURES.find((f) => f === body.failure);
    return { mode, ...(mode === 'reject' ? { failure: failure ?? 'REFUSED' } : {}) };
  }

  async setFault(fault: PayoutFault): Promise<void> {
    const res = await this.control('PUT', 'payout-fault', { mode: fault.mode, ...(fault.mode === 'reject' ? { failure: fault.failure ?? 'REFUSED' } : {}) });
    if (res.status !== 200) throw new Error(`sandbox payout fault: ${res.status}`);
  }

  /** The bank's own record of a reference (its book), or null. */
  async record(reference: string): Promise<SandboxPayoutRecord | null> {
    const res = await this.control('GET', `payouts/${encodeURIComponent(reference)}`);
    if (res.status !== 200) return null;
    return { ...(res.body.payout as Omit<SandboxPayoutRecord, 'completeAt'>), completeAt: typeof res.body.completeAt === 'number' ? res.body.completeAt : null };
  }

  /** When an accepted transfer completes (the bank's batch run). */
  async completeAt(reference: string, at: Date): Promise<void> {
    const res = await this.control('POST', `payouts/${encodeURIComponent(reference)}/complete-at`, { at: at.toISOString() });
    if (res.status !== 200) throw new Error(`sandbox payout complete-at: ${res.status}`);
  }

  /** A transfer the bank made that none of our withdrawals asked for (tests and demos of the reconciliation). */
  async forge(request: PayoutRequest): Promise<void> {
    const res = await this.control('POST', 'payouts/forge', request);
    if (res.status !== 200) throw new Error(`sandbox payout forge: ${res.status}`);
  }
}
