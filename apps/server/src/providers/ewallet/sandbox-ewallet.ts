import { HttpEWallet } from './http-ewallet';
import { sandboxControl } from '../sandbox-control';

/** The sandbox e-wallet's failure injection, as the operator's switch names it: down at once, or hanging without an answer. */
export type EwalletFault = 'none' | 'down' | 'hang';

export interface SandboxEWalletOptions {
  /** The sandbox service (apps/sandbox): SANDBOX_URL, or the one on SANDBOX_PORT. */
  url: string;
  /** Its e-wallet API's secret (SANDBOX_EWALLET_SECRET). */
  secret: string;
}

/**
 * The sandbox service's e-wallet (its `ewallet` system), over the wire: the e-wallet itself is the
 * HTTP adapter (http-ewallet.ts) against it; this adds its control API for the demo, the tests and
 * the operator's fault switch — a customer makes a gift voucher or sends money, a webhook is sent
 * again, the e-wallet goes down or hangs — and registers where its webhooks go (our server, as a
 * merchant registers its webhook URL). Nothing of it is in our database.
 */
export class SandboxEWallet extends HttpEWallet {
  private merchant: { webhookUrl: string; secret: string } | null = null;

  constructor(private readonly sandbox: SandboxEWalletOptions) {
    super({ url: sandbox.url, secret: sandbox.secret });
  }

  private control(method: 'POST' | 'PUT', path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    return sandboxControl(this.sandbox.url, 'ewallet', method, path, body);
  }

  /** Where the e-wallet sends its transfer webhooks, and their secret (registered again before each transfer: a sandbox started afresh forgets). */
  async register(webhookUrl: string, secret: string): Promise<void> {
    this.merchant = { webhookUrl, secret };
    const res = await this.control('PUT', 'merchant', this.merchant);
    if (res.status !== 200) throw new Error(`sandbox e-wallet merchant: ${res.status}`);
  }

  private async registered(): Promise<void> {
    if (this.merchant) await this.register(this.merchant.webhookUrl, this.merchant.secret);
  }

  async setFault(fault: EwalletFault): Promise<void> {
    // Only the calls members wait for: reports and webhooks go on.
    const mode = fault === 'down' ? { mode: 'refuse', on: ['verify', 'redeem'] } : fault === 'hang' ? { mode: 'timeout', on: ['verify', 'redeem'] } : { mode: 'none' };
    const res = await this.control('PUT', 'fault', mode);
    if (res.status !== 200) throw new Error(`sandbox e-wallet fault: ${res.status}`);
  }

  /** A customer makes a gift voucher from their wallet. */
  async createVoucher(input: { amount: number; expiresInSeconds: number; ownerPhone: string }): Promise<{ link: string; hash: string; expiresAt: Date }> {
    const res = await this.control('POST', 'vouchers', input);
    if (res.status !== 200) throw new Error(`sandbox e-wallet voucher: ${res.status}`);
    return { link: String(res.body.link), hash: String(res.body.hash), expiresAt: new Date(String(res.body.expiresAt)) };
  }

  /** A customer sends money from their wallet to another; reported at once to our webhook when `report`. */
  async transfer(input: { fromPhone: string; toPhone: string; amount: number; report: boolean }): Promise<{ transferId: string; at: Date; feed: { status: number } | null }> {
    await this.registered();
    const res = await this.control('POST', 'transfers', input);
    if (res.status !== 200) throw new Error(`sandbox e-wallet transfer: ${res.status}`);
    const feed = res.body.feed as { status?: unknown } | null;
    return { transferId: String(res.body.transferId), at: new Date(String(res.body.at)), feed: feed && typeof feed.status === 'number' ? { status: feed.status } : null };
  }

  /** A transfer the e-wallet made (a test's forged-then-genuine webhook names one): recorded, not reported. */
  async record(input: { transferId: string; fromPhone: string; toPhone: string; amount: number; at: Date }): Promise<void> {
    await this.control('POST', 'transfers', { ...input, at: input.at.toISOString(), report: false });
  }

  /** Reports a transfer to our server again, `times` at once (each 404 when the e-wallet has no such transfer). */
  async redeliver(transferId: string, times: number): Promise<Array<{ status: number }>> {
    await this.registered();
    const res = await this.control('POST', `transfers/${encodeURIComponent(transferId)}/redeliver`, { times });
    if (res.status === 404) return Array.from({ length: times }, () => ({ status: 404 }));
    const deliveries = res.body.deliveries;
    return Array.isArray(deliveries) ? deliveries.map((d: { status?: unknown }) => ({ status: typeof d.status === 'number' ? d.status : 0 })) : [];
  }
}
