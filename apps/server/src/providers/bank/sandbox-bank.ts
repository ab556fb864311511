import { randomBytes } from 'node:crypto';
import { sandboxControl } from '../sandbox-control';
import type { Currency } from '../../lib/currency';
import { BANK_SLIP_CODES, buildSlipPayload } from '../../lib/emvco';
import { renderSlipImage } from '../../lib/slip-image';
import type { BankTransfer } from './bank';
import { HttpBank, transferOf } from './http-bank';

/** An account number as slips print it: only the last four digits shown (xxx-x-x1234-x style). */
export function maskAccount(accountNo: string): string {
  const digits = accountNo.replace(/\D/g, '');
  return `xxx-x-x${digits.slice(-5, -1)}-x`;
}

/** A new reference as the sandbox bank issues them (Thai banks' look like "014" + date + digits + letters): the date, then 14 letters and digits. */
export function newTransRef(at: Date): string {
  return `${at.toISOString().slice(2, 10).replace(/-/g, '')}${randomBytes(7).toString('hex').toUpperCase()}`;
}

export interface NewBankTransfer {
  fromBankCode: string;
  fromAccountNo: string;
  fromName?: string;
  toBankCode: string;
  toAccountNo: string;
  toName?: string;
  amount: number;
  currency: Currency;
  at?: Date;
  /** The reference to record (a slip that reached us before its transfer did); made up when absent. */
  transRef?: string;
  /** Whether the feed reports it (the receiving account is one we subscribed); default true. */
  report?: boolean;
}

/**
 * The sandbox service's bank (its `bank` system), over the wire: slip look-ups and the transfer
 * report are the HTTP bank adapter (http-bank.ts) against it; this adds its control API for the
 * demo and the tests — a customer's transfer (reported by the feed when it goes into an account
 * we subscribed), the feed again, the look-ups' faults — registers where its feed goes (our
 * server), and draws the slip a sending bank's app shows. Nothing of it is in our database.
 */
export class SandboxBank extends HttpBank {
  private merchant: { webhookUrl: string; secret: string } | null = null;

  protected control(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    return sandboxControl(this.base, 'bank', method, path, body);
  }

  /** Where the feed's webhooks go (`{bankCode}` is replaced by the receiving bank), and their secret. */
  async register(webhookUrl: string, secret: string): Promise<void> {
    this.merchant = { webhookUrl, secret };
    const res = await this.control('PUT', 'merchant', this.merchant);
    if (res.status !== 200) throw new Error(`sandbox bank merchant: ${res.status}`);
  }

  private async registered(): Promise<void> {
    if (this.merchant) await this.register(this.merchant.webhookUrl, this.merchant.secret);
  }

  /** Records a transfer; reported by the feed at once unless `report` is false. */
  async transfer(input: NewBankTransfer): Promise<{ transfer: BankTransfer; feed: { status: number } | null }> {
    if (input.report !== false) await this.registered();
    const res = await this.control('POST', 'transfers', { ...input, ...(input.at ? { at: input.at.toISOString() } : {}) });
    const transfer = res.status === 200 ? transferOf((res.body.transfer ?? {}) as Record<string, unknown>) : null;
    if (!transfer) throw new Error(`sandbox bank transfer: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    const feed = res.body.feed as { status?: unknown } | null;
    return { transfer, feed: feed && typeof feed.status === 'number' ? { status: feed.status } : null };
  }

  /** Failure injection for look-ups (slip verification): the bank's captcha wall, or an error; every server using this sandbox sees it. */
  async setLookupFault(fault: 'none' | 'captcha' | 'error'): Promise<void> {
    const res = await this.control('PUT', 'lookup-fault', { mode: fault });
    if (res.status !== 200) throw new Error(`sandbox bank fault: ${res.status}`);
  }

  /** A transfer by its reference alone (the sandbox's references are unique). */
  async byReference(transRef: string): Promise<BankTransfer | null> {
    const res = await this.control('GET', `transfers/${encodeURIComponent(transRef)}`);
    return res.status === 200 ? transferOf((res.body.transfer ?? {}) as Record<string, unknown>) : null;
  }

  /** The slip the sending bank's app shows for a recorded transfer (PNG), or null. */
  async slip(transRef: string): Promise<Buffer | null> {
    const transfer = await this.byReference(transRef);
    return transfer ? this.slipOf(transfer) : null;
  }

  /**
   * The slip of a transfer as the sending bank's app shows it, whether or not the bank's records
   * have it yet: a PNG with the bank, amount, date, masked sender and receiver, reference and the
   * slip-verify mini-QR. Null when the sending bank prints no slip QR.
   */
  slipOf(transfer: BankTransfer): Promise<Buffer | null> {
    const number = BANK_SLIP_CODES[transfer.fromBankCode as keyof typeof BANK_SLIP_CODES];
    if (!number) return Promise.resolve(null);
    return renderSlipImage({
      bankCode: transfer.fromBankCode,
      fromName: transfer.fromName,
      fromAccountMasked: maskAccount(transfer.fromAccountNo),
      toName: transfer.toName,
      toAccountMasked: maskAccount(transfer.toAccountNo),
      toBankCode: transfer.toBankCode,
      currency: transfer.currency,
      amount: (transfer.amount / 100).toFixed(2),
      at: transfer.at,
      transRef: transfer.transRef,
      payload: buildSlipPayload({ sendingBank: number, transRef: transfer.transRef }),
    });
  }

  /** Reports a recorded transfer to our server again, `times` at once (none when the bank has no such transfer). */
  async redeliver(fromBankCode: string, transRef: string, times: number): Promise<Array<{ status: number }>> {
    await this.registered();
    const res = await this.control('POST', `transfers/${encodeURIComponent(fromBankCode)}/${encodeURIComponent(transRef)}/redeliver`, { times });
    const deliveries = res.body.deliveries;
    return Array.isArray(deliveries) ? deliveries.map((d: { status?: unknown }) => ({ status: typeof d.status === 'number' ? d.status : 0 })) : [];
  }
}
