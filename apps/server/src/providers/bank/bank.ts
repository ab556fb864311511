import type { Currency } from '../../lib/currency';

/** A transfer as the bank knows it: what a slip carries and what the bank feed reports. */
export interface BankTransfer {
  /** The sending bank's transaction reference (transRef). */
  transRef: string;
  fromBankCode: string;
  fromAccountNo: string;
  fromName: string;
  toBankCode: string;
  toAccountNo: string;
  toName: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  at: Date;
}

/** A bank's transaction reference as banks issue it (the bank feed's rule, and a slip's). */
export const TRANS_REF = /^[A-Za-z0-9]{6,40}$/;
/** A bank code as we name banks (KBANK, SCB, GSB, …). */
export const BANK_CODE = /^[A-Z0-9]{2,16}$/;

/** Whether a reference read from outside (a slip's QR, a feed) is one a bank could have issued. */
export function isTransRef(value: string): boolean {
  return TRANS_REF.test(value);
}

/**
 * The identity of a transfer everywhere (bank feed, slips): the sending bank and its reference,
 * in upper case (a reference read off a slip or retyped must name the same transfer).
 */
export function transferKey(fromBankCode: string, transRef: string): string {
  // Never made from anything unchecked: the key's parts cannot contain the separator.
  if (!BANK_CODE.test(fromBankCode.toUpperCase()) || !isTransRef(transRef)) throw new Error(`not a bank transfer: ${JSON.stringify(fromBankCode)} ${JSON.stringify(transRef)}`);
  return `${fromBankCode.toUpperCase()}:${transRef.toUpperCase()}`;
}

/**
 * A bank, as far as deposits need one: it looks a transfer up by the sending bank and its
 * reference (slip verification), and — for accounts we subscribed — reports incoming transfers
 * by a signed webhook (POST /api/webhooks/bank/{bankCode}, see payments/signing.ts) carrying
 * `{ transRef, fromBankCode, fromAccountNo, fromName, toBankCode, toAccountNo, toName, amount,
 * currency, at }`.
 */
export interface Bank {
  lookup(fromBankCode: string, transRef: string): Promise<BankTransfer | null>;
  /**
   * Transfers the bank recorded with a time in [from, to) (reconciliation). A bank that cannot
   * list (none connected) leaves it out: its credits are reported as not verifiable.
   */
  transfers?(from: Date, to: Date): Promise<BankTransfer[]>;
}

/** A bank that could not answer a look-up: its captcha wall, or any other failure. */
export class BankLookupError extends Error {
  constructor(readonly kind: 'captcha' | 'error') {
    super(`bank look-up failed: ${kind}`);
    this.name = 'BankLookupError';
  }
}
