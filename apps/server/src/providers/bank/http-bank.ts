import { Breaker } from '../../platform/breaker';
import { signedPost } from '../signed-post';
import { BankLookupError } from './bank';
import type { Bank, BankTransfer } from './bank';

export interface HttpBankOptions {
  /** The bank API's base, e.g. http://127.0.0.1:3100 (BANK_API_URL; the sandbox service). */
  url: string;
  /** The HMAC-SHA256 secret of its signed calls (BANK_API_SECRET). */
  secret: string;
  /** Deadline of a look-up (a report gets at least 30 s). */
  timeoutMs?: number;
}

/** A transfer as the bank's API sends it, checked field by field (null: not one). */
export function transferOf(t: Record<string, unknown>): BankTransfer | null {
  const at = new Date(String(t.at));
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const [transRef, fromBankCode, fromAccountNo, toBankCode, toAccountNo] = [t.transRef, t.fromBankCode, t.fromAccountNo, t.toBankCode, t.toAccountNo].map(text);
  if (!transRef || !fromBankCode || !fromAccountNo || !toBankCode || !toAccountNo || !Number.isSafeInteger(t.amount) || (t.amount as number) <= 0 || !Number.isFinite(at.getTime())) return null;
  if (t.currency !== 'THB' && t.currency !== 'LAK') return null;
  return { transRef, fromBankCode, fromAccountNo, fromName: text(t.fromName) ?? '', toBankCode, toAccountNo, toName: text(t.toName) ?? '', amount: t.amount as number, currency: t.currency, at };
}

/**
 * The bank over HTTP (the protocol of docs/sandbox.md, "Bank"), as deposits need it: a transfer
 * looked up by the sending bank and its reference (slip verification), and the list of a period's
 * transfers (reconciliation). The bank's captcha wall is `BankLookupError('captcha')`; anything
 * else that is not an answer — no connection, the deadline, a 5xx — is `BankLookupError('error')`:
 * the slip stays in progress and is asked about again (SLIP_RECHECK_INTERVAL_MS). A breaker answers
 * `error` at once while the bank keeps failing.
 */
export class HttpBank implements Bank {
  protected readonly base: string;
  /** Look-ups stop at once for 10 s after 5 failures in a row (a slip stays in progress meanwhile). */
  private readonly breaker: Breaker;

  constructor(protected readonly options: HttpBankOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.breaker = new Breaker({ failures: 5, openMs: 10_000, timeoutMs: options.timeoutMs ?? 10_000, isFailure: () => true });
  }

  async lookup(fromBankCode: string, transRef: string): Promise<BankTransfer | null> {
    let answer;
    try {
      answer = await this.breaker.run(async (signal) => {
        const got = await signedPost(`${this.base}/bank/lookup`, this.options.secret, { fromBankCode, transRef }, signal);
        // A 5xx is the bank failing (counted by the breaker); a captcha wall or a 4xx is an answer.
        if (got.httpStatus >= 500) throw new BankLookupError('error');
        return got;
      });
    } catch {
      throw new BankLookupError('error');
    }
    if (answer.httpStatus === 404) return null;
    if (answer.httpStatus === 429) throw new BankLookupError('captcha');
    const transfer = answer.httpStatus === 200 && typeof answer.body.transfer === 'object' && answer.body.transfer !== null ? transferOf(answer.body.transfer as Record<string, unknown>) : null;
    if (!transfer) throw new BankLookupError('error');
    return transfer;
  }

  /** A malformed line fails the whole report (nothing is guessed). */
  async transfers(from: Date, to: Date): Promise<BankTransfer[]> {
    const answer = await signedPost(`${this.base}/bank/transfers/report`, this.options.secret, { from: from.toISOString(), to: to.toISOString() }, AbortSignal.timeout(Math.max(this.options.timeoutMs ?? 10_000, 30_000)));
    const list = answer.body.transfers;
    if (answer.httpStatus !== 200 || !Array.isArray(list)) throw new Error(`bank report: ${answer.httpStatus}`);
    return list.map((t: Record<string, unknown>) => {
      const transfer = transferOf(t);
      if (!transfer) throw new Error(`bank report: a malformed transfer ${JSON.stringify(t).slice(0, 200)}`);
      return transfer;
    });
  }
}
