import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Migration } from '../../db/migrations';
import type { DB, DefaultTimestamp, Timestamp } from '../../db/schema';
import { sandboxFault, setSandboxFault } from '../bank/sandbox-bank';
import { deliverSigned, type WebhookDelivery } from '../payments/signing';
import { EWalletUnavailable, VoucherRefused, type EWallet, type Voucher } from './ewallet';

export interface SandboxEwalletVouchersTable {
  hash: string;
  amount: number;
  /** The phone whose wallet paid for the voucher. */
  owner_phone: string;
  expires_at: Timestamp;
  redeemed_by: string | null;
  redeemed_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface SandboxEwalletTransfersTable {
  id: string;
  from_phone: string;
  to_phone: string;
  amount: number;
  at: Timestamp;
}

declare module '../../db/schema' {
  interface DB {
    sandbox_ewallet_vouchers: SandboxEwalletVouchersTable;
    sandbox_ewallet_transfers: SandboxEwalletTransfersTable;
  }
}

export const sandboxEwalletMigrations: readonly Migration[] = [
  {
    id: 'deposit/006_sandbox_ewallet',
    sql: `
CREATE TABLE sandbox_ewallet_vouchers (
  hash text PRIMARY KEY,
  amount bigint NOT NULL CHECK (amount > 0),
  owner_phone text NOT NULL,
  expires_at timestamptz NOT NULL,
  redeemed_by text,
  redeemed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE sandbox_ewallet_transfers (
  id text PRIMARY KEY,
  from_phone text NOT NULL,
  to_phone text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  at timestamptz NOT NULL
);`,
  },
];

/** The sandbox e-wallet's failure injection (every process sees it): down at once, or hanging without an answer. */
export type EwalletFault = 'none' | 'down' | 'hang';

const HASH_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const newHash = () => Array.from(randomBytes(32), (b) => HASH_ALPHABET[b % HASH_ALPHABET.length]).join('');

/**
 * The sandbox of TrueMoney Wallet: gift vouchers with an amount and an expiry, redeemed whole by
 * one wallet (then "out of stock"); a voucher cannot be redeemed by the wallet that paid for it
 * (CANNOT_GET_OWN_VOUCHER); the same wallet redeeming again is TARGET_USER_REDEEMED. Transfers
 * between wallets are recorded and, into a wallet we subscribed (our AUTO e-wallet channel),
 * reported by a signed webhook. It can be told to be down or to hang (sandbox_faults `ewallet`).
 */
export class SandboxEWallet implements EWallet {
  private deliver: WebhookDelivery | null = null;
  private subscribed: (phone: string) => Promise<boolean> = () => Promise.resolve(false);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly secret: string,
  ) {}

  connect(deliver: WebhookDelivery, subscribed: (phone: string) => Promise<boolean>): void {
    this.deliver = deliver;
    this.subscribed = subscribed;
  }

  setFault(fault: EwalletFault): Promise<void> {
    return setSandboxFault(this.db, 'ewallet', fault);
  }

  /** A customer makes a gift voucher from their wallet. */
  async createVoucher(input: { amount: number; expiresInSeconds: number; ownerPhone: string }): Promise<{ link: string; hash: string; expiresAt: Date }> {
    const hash = newHash();
    const expiresAt = new Date(Date.now() + input.expiresInSeconds * 1000);
    await this.db.insertInto('sandbox_ewallet_vouchers').values({ hash, amount: input.amount, owner_phone: input.ownerPhone, expires_at: expiresAt, redeemed_by: null, redeemed_at: null }).execute();
    return { link: `https://gift.truemoney.com/campaign/?v=${hash}`, hash, expiresAt };
  }

  private async available(signal?: AbortSignal): Promise<void> {
    const fault = await sandboxFault(this.db, 'ewallet');
    if (fault === 'down') throw new EWalletUnavailable('INTERNAL_ERROR');
    if (fault === 'hang') {
      // No answer until the caller gives up (or a minute passes).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 60_000);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      throw new EWalletUnavailable('no answer');
    }
  }

  async verify(hash: string, mobile: string, signal?: AbortSignal): Promise<Voucher> {
    await this.available(signal);
    const row = await this.db.selectFrom('sandbox_ewallet_vouchers').selectAll().where('hash', '=', hash).executeTakeFirst();
    if (!row) throw new VoucherRefused('VOUCHER_NOT_FOUND');
    return {
      hash,
      amount: Number(row.amount),
      status: row.redeemed_by ? 'REDEEMED' : row.expires_at.getTime() <= Date.now() ? 'EXPIRED' : 'AVAILABLE',
      redeemedBy: row.redeemed_by,
      ownVoucher: row.owner_phone === mobile,
      expiresAt: row.expires_at,
    };
  }

  private refusal(voucher: Voucher, mobile: string): VoucherRefused | null {
    if (voucher.ownVoucher) return new VoucherRefused('CANNOT_GET_OWN_VOUCHER');
    if (voucher.redeemedBy === mobile) return new VoucherRefused('TARGET_USER_REDEEMED');
    if (voucher.redeemedBy) return new VoucherRefused('VOUCHER_OUT_OF_STOCK');
    if (voucher.status === 'EXPIRED') return new VoucherRefused('VOUCHER_EXPIRED');
    return null;
  }

  async redeem(hash: string, mobile: string, signal?: AbortSignal): Promise<{ amount: number }> {
    const refused = this.refusal(await this.verify(hash, mobile, signal), mobile);
    if (refused) throw refused;
    // Whole, once: the first wallet to redeem takes it.
    const taken = await this.db
      .updateTable('sandbox_ewallet_vouchers')
      .set({ redeemed_by: mobile, redeemed_at: new Date() })
      .where('hash', '=', hash)
      .where('redeemed_by', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('amount')
      .executeTakeFirst();
    if (taken) return { amount: Number(taken.amount) };
    // Lost a race (or expired meanwhile): answer as the service would now.
    throw this.refusal(await this.verify(hash, mobile, signal), mobile) ?? new VoucherRefused('VOUCHER_OUT_OF_STOCK');
  }

  async redeemedVouchers(from: Date, to: Date): Promise<Array<{ hash: string; amount: number; redeemedBy: string; redeemedAt: Date }>> {
    const rows = await this.db
      .selectFrom('sandbox_ewallet_vouchers')
      .select(['hash', 'amount', 'redeemed_by', 'redeemed_at'])
      .where('redeemed_at', '>=', from)
      .where('redeemed_at', '<', to)
      .orderBy('redeemed_at')
      .execute();
    return rows.flatMap((r) => (r.redeemed_by && r.redeemed_at ? [{ hash: r.hash, amount: Number(r.amount), redeemedBy: r.redeemed_by, redeemedAt: r.redeemed_at }] : []));
  }

  async transfers(from: Date, to: Date): Promise<Array<{ transferId: string; fromPhone: string; toPhone: string; amount: number; at: Date }>> {
    const rows = await this.db.selectFrom('sandbox_ewallet_transfers').selectAll().where('at', '>=', from).where('at', '<', to).orderBy('at').execute();
    return rows.map((r) => ({ transferId: r.id, fromPhone: r.from_phone, toPhone: r.to_phone, amount: Number(r.amount), at: r.at }));
  }

  /** A customer sends money from their wallet to another; a subscribed receiver is reported at once. */
  async transfer(input: { fromPhone: string; toPhone: string; amount: number }): Promise<{ transferId: string; at: Date; feed: { status: number } | null }> {
    const transferId = `TW${Date.now().toString(36).toUpperCase()}${randomBytes(5).toString('hex').toUpperCase()}`;
    const at = new Date();
    await this.db.insertInto('sandbox_ewallet_transfers').values({ id: transferId, from_phone: input.fromPhone, to_phone: input.toPhone, amount: input.amount, at }).execute();
    const feed = (await this.subscribed(input.toPhone)) ? await this.report(transferId) : null;
    return { transferId, at, feed };
  }

  /** Reports a transfer to our server (again: a feed that repeats itself), `times` at once. */
  async redeliver(transferId: string, times: number): Promise<Array<{ status: number }>> {
    return Promise.all(Array.from({ length: times }, () => this.report(transferId)));
  }

  private async report(transferId: string): Promise<{ status: number }> {
    if (!this.deliver) throw new Error('the sandbox e-wallet is not connected to a server');
    const row = await this.db.selectFrom('sandbox_ewallet_transfers').selectAll().where('id', '=', transferId).executeTakeFirst();
    if (!row) return { status: 404 };
    const body = JSON.stringify({ transferId: row.id, fromPhone: row.from_phone, toPhone: row.to_phone, amount: (Number(row.amount) / 100).toFixed(2), currency: 'THB', at: row.at.toISOString() });
    const answer = await deliverSigned(this.deliver, this.secret, '/api/webhooks/ewallet/TRUEWALLET', body);
    return { status: answer.status };
  }
}
