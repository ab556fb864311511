import type { Currency } from '../../money/ledger';

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

/**
 * The identity of a transfer everywhere (bank feed, slips): the sending bank and its reference,
 * in upper case (a reference read off a slip or retyped must name the same transfer).
 */
export function transferKey(fromBankCode: string, transRef: string): string {
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
}
