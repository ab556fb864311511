import { createHmac } from 'node:crypto';
import { EWalletUnavailable, VoucherRefused, type EWallet, type Voucher, type VoucherRefusal } from './ewallet';

export interface HttpEWalletOptions {
  /** The e-wallet API's base, e.g. http://127.0.0.1:3100 (EWALLET_API_URL; the sandbox service). */
  url: string;
  /** The HMAC-SHA256 secret of its signed calls (EWALLET_API_SECRET). */
  secret: string;
  /** Deadline of a report call (the calls members wait for have the e-wallet breaker's deadline). */
  reportTimeoutMs?: number;
}

const REFUSALS: readonly VoucherRefusal[] = ['VOUCHER_NOT_FOUND', 'VOUCHER_EXPIRED', 'VOUCHER_OUT_OF_STOCK', 'CANNOT_GET_OWN_VOUCHER', 'TARGET_USER_REDEEMED'];
const refusalOf = (status: unknown): VoucherRefusal | null => REFUSALS.find((r) => r === status) ?? null;

/**
 * The e-wallet over HTTP (the protocol of docs/sandbox.md, "E-wallet"): signed JSON POSTs
 * (X-Timestamp, X-Signature = hex HMAC-SHA256 of `${timestamp}.${body}`). A definite refusal of
 * the e-wallet's own (a 4xx naming a voucher status) is `VoucherRefused`; anything else — no
 * connection, a deadline, a 5xx, an answer we cannot read — is `EWalletUnavailable`: the outcome
 * is unknown, and the deposit service settles a redemption in doubt by asking again (a redeemed
 * voucher answers TARGET_USER_REDEEMED to the wallet that took it). Nothing is retried here.
 */
export class HttpEWallet implements EWallet {
  private readonly base: string;

  constructor(private readonly options: HttpEWalletOptions) {
    this.base = options.url.replace(/\/+$/, '');
  }

  private async post(path: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', this.options.secret).update(`${timestamp}.${raw}`).digest('hex');
    let response: Response;
    let answer: Record<string, unknown>;
    try {
      response = await fetch(`${this.base}/ewallet/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature },
        body: raw,
        signal: signal ?? AbortSignal.timeout(this.options.reportTimeoutMs ?? 30_000),
      });
      const parsed: unknown = await response.json();
      // Anything but an object (null, a list, a number) is an answer we cannot read.
      answer = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch (error) {
      throw new EWalletUnavailable(`no answer (${String(error)})`);
    }
    if (response.ok && answer.status === 'SUCCESS') return answer;
    const refused = response.status >= 400 && response.status < 500 ? refusalOf(answer.status) : null;
    if (refused) throw new VoucherRefused(refused);
    throw new EWalletUnavailable(`${response.status} ${String(answer.status ?? '')}`);
  }

  async verify(hash: string, mobile: string, signal?: AbortSignal): Promise<Voucher> {
    const { voucher } = await this.post('vouchers/verify', { hash, mobile }, signal);
    const v = (voucher ?? {}) as Record<string, unknown>;
    const expiresAt = new Date(String(v.expiresAt));
    const status = v.status === 'AVAILABLE' || v.status === 'REDEEMED' || v.status === 'EXPIRED' ? v.status : null;
    if (v.hash !== hash || !Number.isSafeInteger(v.amount) || (v.amount as number) <= 0 || !status || !Number.isFinite(expiresAt.getTime())) throw new EWalletUnavailable('verify: an answer we cannot read');
    return { hash, amount: v.amount as number, status, redeemedBy: typeof v.redeemedBy === 'string' ? v.redeemedBy : null, ownVoucher: v.ownVoucher === true, expiresAt };
  }

  async redeem(hash: string, mobile: string, signal?: AbortSignal): Promise<{ amount: number }> {
    const { amount } = await this.post('vouchers/redeem', { hash, mobile }, signal);
    if (!Number.isSafeInteger(amount) || (amount as number) <= 0) throw new EWalletUnavailable('redeem: an answer we cannot read');
    return { amount: amount as number };
  }

  /** A malformed line fails the whole report (nothing is guessed). */
  async redeemedVouchers(from: Date, to: Date): Promise<Array<{ hash: string; amount: number; redeemedBy: string; redeemedAt: Date }>> {
    const { vouchers } = await this.post('report/vouchers', { from: from.toISOString(), to: to.toISOString() });
    if (!Array.isArray(vouchers)) throw new EWalletUnavailable('report: no list in the answer');
    return vouchers.map((v: Record<string, unknown>) => {
      const redeemedAt = new Date(String(v.redeemedAt));
      if (typeof v.hash !== 'string' || typeof v.redeemedBy !== 'string' || !Number.isSafeInteger(v.amount) || !Number.isFinite(redeemedAt.getTime())) throw new EWalletUnavailable('report: a malformed voucher');
      return { hash: v.hash, amount: v.amount as number, redeemedBy: v.redeemedBy, redeemedAt };
    });
  }

  async transfers(from: Date, to: Date): Promise<Array<{ transferId: string; fromPhone: string; toPhone: string; amount: number; at: Date }>> {
    const { transfers } = await this.post('report/transfers', { from: from.toISOString(), to: to.toISOString() });
    if (!Array.isArray(transfers)) throw new EWalletUnavailable('report: no list in the answer');
    return transfers.map((t: Record<string, unknown>) => {
      const at = new Date(String(t.at));
      if (typeof t.transferId !== 'string' || typeof t.fromPhone !== 'string' || typeof t.toPhone !== 'string' || !Number.isSafeInteger(t.amount) || !Number.isFinite(at.getTime())) throw new EWalletUnavailable('report: a malformed transfer');
      return { transferId: t.transferId, fromPhone: t.fromPhone, toPhone: t.toPhone, amount: t.amount as number, at };
    });
  }
}
