import { PAYOUT_FAILURE_CODES } from '@mw/contract/operator/payout';
import type { Currency } from '../../lib/currency';

/**
 * Why a bank refused or failed an outgoing transfer, as the member's statement names it
 * (`PAYOUT_<code>`): the account does not exist or is closed, the holder's name differs, or any
 * other refusal (limits, compliance, …). A bank's own text travels beside it (`reason`). The list
 * is the contract's (the operators' fault injection names them: contract/operator/payout.ts).
 */
export const PAYOUT_FAILURES = PAYOUT_FAILURE_CODES;
export type PayoutFailure = (typeof PAYOUT_FAILURES)[number];

/** An outgoing transfer to a member's bank account: one withdrawal, paid once. */
export interface PayoutRequest {
  /** The idempotency reference: the withdrawal's id. The bank pays one reference once, however often it is sent. */
  reference: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
}

/**
 * A bank's answer about one outgoing transfer: `accepted` (taken, not final yet — ask again
 * later), `completed` (the money left), `failed` (it will not be paid, with the reason).
 */
export interface PayoutAnswer {
  reference: string;
  status: 'accepted' | 'completed' | 'failed';
  failure?: PayoutFailure;
  /** The bank's own words for a failure. */
  reason?: string;
  /** The bank's own id of the transfer (its transaction reference), when it has one. */
  bankRef?: string;
  amount: number;
  currency: Currency;
  bankCode: string;
  accountNo: string;
  /** When the bank recorded it. */
  at: Date;
}

/**
 * The bank did not take the call: it is down or refused the connection (nothing was sent). Safe
 * to send again later with the same reference.
 */
export class PayoutUnavailable extends Error {
  constructor(readonly detail: string) {
    super(`payout provider unavailable: ${detail}`);
  }
}

/**
 * No answer came (a timeout, a connection lost after sending): the bank may or may not have
 * executed the transfer. Only asking it by reference (`status`) tells.
 */
export class PayoutUnknown extends Error {
  constructor(readonly detail: string) {
    super(`payout answer unknown: ${detail}`);
  }
}

/**
 * A payout adapter: a bank's or gateway's API for money leaving to members' accounts. The sandbox
 * bank implements it (sandbox-payouts.ts); a real bank or gateway plugs in behind the same
 * interface (PAYOUT_PROVIDER). With PAYOUT_PROVIDER=manual there is no adapter: operators pay by
 * hand and complete withdrawals themselves.
 */
export interface PayoutProvider {
  /** Its name in records and reports (`sandbox`, a bank's code, …). */
  readonly name: string;
  /**
   * Sends an outgoing transfer. Sending a reference again never pays twice: the bank answers the
   * first transfer of that reference. Throws PayoutUnavailable (not sent) or PayoutUnknown (no answer).
   */
  send(request: PayoutRequest): Promise<PayoutAnswer>;
  /** What the bank knows of a reference (null: it never received it). Throws PayoutUnavailable or PayoutUnknown. */
  status(reference: string): Promise<PayoutAnswer | null>;
  /** The outgoing transfers the bank recorded in [from, to) (reconciliation); absent when the bank cannot list. */
  payouts?(from: Date, to: Date): Promise<PayoutAnswer[]>;
}

/** A provider whose calls give up after `timeoutMs` (PayoutUnknown: the call may still have been executed). */
export function payoutWithDeadline(provider: PayoutProvider, timeoutMs: number): PayoutProvider {
  const deadline = <T>(work: Promise<T>, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new PayoutUnknown(`${what}: no answer in ${timeoutMs} ms`)), timeoutMs);
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  return {
    name: provider.name,
    send: (request) => deadline(provider.send(request), 'send'),
    status: (reference) => deadline(provider.status(reference), 'status'),
    ...(provider.payouts ? { payouts: provider.payouts.bind(provider) } : {}),
  };
}
