import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from '../../db/migrations';
import type { DB, DefaultTimestamp, Timestamp } from '../../db/schema';
import type { Currency } from '../../money';
import { deliverSigned, type WebhookDelivery } from '../payments/signing';
import { BANK_SLIP_CODES, buildSlipPayload } from '../payments/emvco';
import { renderSlipImage } from '../slips/slip-image';
import { BankLookupError } from '../slips/verifier';
import type { Bank, BankTransfer } from './bank';

/** An account number as slips print it: only the last four digits shown (xxx-x-x1234-x style). */
export function maskAccount(accountNo: string): string {
  const digits = accountNo.replace(/\D/g, '');
  return `xxx-x-x${digits.slice(-5, -1)}-x`;
}

export interface SandboxBankTransfersTable {
  trans_ref: string;
  from_bank_code: string;
  from_account_no: string;
  from_name: string;
  to_bank_code: string;
  to_account_no: string;
  to_name: string;
  amount: number;
  currency: string;
  at: Timestamp;
  created_at: DefaultTimestamp;
}

/** Failure injection of the sandboxes, shared by every server process on the database. */
export interface SandboxFaultsTable {
  /** `bank` (look-ups: none, captcha, error), `ewallet` (none, down). */
  service: string;
  mode: string;
  updated_at: DefaultTimestamp;
}

declare module '../../db/schema' {
  interface DB {
    sandbox_bank_transfers: SandboxBankTransfersTable;
    sandbox_faults: SandboxFaultsTable;
  }
}

/** The fault a sandbox service is told to produce ('none' when none). */
export async function sandboxFault(db: Kysely<DB>, service: string): Promise<string> {
  const row = await db.selectFrom('sandbox_faults').select('mode').where('service', '=', service).executeTakeFirst();
  return row?.mode ?? 'none';
}

export async function setSandboxFault(db: Kysely<DB>, service: string, mode: string): Promise<void> {
  await db
    .insertInto('sandbox_faults')
    .values({ service, mode })
    .onConflict((oc) => oc.column('service').doUpdateSet({ mode, updated_at: new Date() }))
    .execute();
}

export const sandboxBankMigrations: readonly Migration[] = [
  {
    id: 'deposit/003_sandbox_bank',
    sql: `
CREATE TABLE sandbox_bank_transfers (
  trans_ref text NOT NULL,
  from_bank_code text NOT NULL,
  from_account_no text NOT NULL,
  from_name text NOT NULL,
  to_bank_code text NOT NULL,
  to_account_no text NOT NULL,
  to_name text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency IN ('THB', 'LAK')),
  at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (from_bank_code, trans_ref)
);`,
  },
];

export const sandboxFaultsMigrations: readonly Migration[] = [
  {
    id: 'deposit/005_sandbox_faults',
    sql: `
-- Failure injection of the sandboxes (bank look-ups, the e-wallet service), seen by every process.
CREATE TABLE sandbox_faults (
  service text PRIMARY KEY,
  mode text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);`,
  },
];

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
}

/** Which accounts we subscribed to the bank's feed (our AUTO deposit channels). */
export type FeedSubscriptions = (bankCode: string, accountNo: string) => Promise<boolean>;

/**
 * The sandbox of the banks behind deposit accounts: it records transfers between any accounts
 * (with the data a slip carries), looks them up by sending bank and reference, and reports a
 * transfer into a subscribed account to our server by its signed feed webhook.
 */
export class SandboxBank implements Bank {
  private deliver: WebhookDelivery | null = null;
  private subscribed: FeedSubscriptions = () => Promise.resolve(false);
  constructor(
    private readonly db: Kysely<DB>,
    private readonly secret: string,
  ) {}

  connect(deliver: WebhookDelivery, subscribed: FeedSubscriptions): void {
    this.deliver = deliver;
    this.subscribed = subscribed;
  }

  /** Records a transfer; a transfer into a subscribed account is reported by the feed at once. */
  async transfer(input: NewBankTransfer): Promise<{ transfer: BankTransfer; feed: { status: number } | null }> {
    const transRef = input.transRef ?? newTransRef(input.at ?? new Date());
    const transfer: BankTransfer = {
      transRef,
      fromBankCode: input.fromBankCode,
      fromAccountNo: input.fromAccountNo,
      fromName: input.fromName ?? 'SANDBOX CUSTOMER',
      toBankCode: input.toBankCode,
      toAccountNo: input.toAccountNo,
      toName: input.toName ?? 'GOLDEN WALLET CO LTD',
      amount: input.amount,
      currency: input.currency,
      at: input.at ?? new Date(),
    };
    await this.db
      .insertInto('sandbox_bank_transfers')
      .values({
        trans_ref: transfer.transRef,
        from_bank_code: transfer.fromBankCode,
        from_account_no: transfer.fromAccountNo,
        from_name: transfer.fromName,
        to_bank_code: transfer.toBankCode,
        to_account_no: transfer.toAccountNo,
        to_name: transfer.toName,
        amount: transfer.amount,
        currency: transfer.currency,
        at: transfer.at,
      })
      .execute();
    const feed = (await this.subscribed(transfer.toBankCode, transfer.toAccountNo)) ? await this.report(transfer) : null;
    return { transfer, feed };
  }

  /** Failure injection for look-ups (slip verification): the bank's captcha wall, or an error; every process sees it. */
  setLookupFault(fault: 'none' | 'captcha' | 'error'): Promise<void> {
    return setSandboxFault(this.db, 'bank', fault);
  }

  async lookup(fromBankCode: string, transRef: string): Promise<BankTransfer | null> {
    const fault = await sandboxFault(this.db, 'bank');
    if (fault === 'captcha' || fault === 'error') throw new BankLookupError(fault);
    return this.find(fromBankCode, transRef);
  }

  private async find(fromBankCode: string, transRef: string): Promise<BankTransfer | null> {
    const row = await this.db.selectFrom('sandbox_bank_transfers').selectAll().where('from_bank_code', '=', fromBankCode).where('trans_ref', '=', transRef).executeTakeFirst();
    if (!row) return null;
    return {
      transRef: row.trans_ref,
      fromBankCode: row.from_bank_code,
      fromAccountNo: row.from_account_no,
      fromName: row.from_name,
      toBankCode: row.to_bank_code,
      toAccountNo: row.to_account_no,
      toName: row.to_name,
      amount: Number(row.amount),
      currency: row.currency === 'LAK' ? 'LAK' : 'THB',
      at: row.at,
    };
  }

  async transfers(from: Date, to: Date): Promise<BankTransfer[]> {
    const rows = await this.db.selectFrom('sandbox_bank_transfers').selectAll().where('at', '>=', from).where('at', '<', to).orderBy('at').execute();
    return rows.map((row) => ({
      transRef: row.trans_ref,
      fromBankCode: row.from_bank_code,
      fromAccountNo: row.from_account_no,
      fromName: row.from_name,
      toBankCode: row.to_bank_code,
      toAccountNo: row.to_account_no,
      toName: row.to_name,
      amount: Number(row.amount),
      currency: row.currency === 'LAK' ? 'LAK' : 'THB',
      at: row.at,
    }));
  }

  /** A transfer by its reference alone (the sandbox's references are unique). */
  async byReference(transRef: string): Promise<BankTransfer | null> {
    const row = await this.db.selectFrom('sandbox_bank_transfers').select('from_bank_code').where('trans_ref', '=', transRef).executeTakeFirst();
    return row ? this.find(row.from_bank_code, transRef) : null;
  }

  /**
   * The slip the sending bank's app shows for a transfer: a PNG with the bank, amount, date,
   * masked sender and receiver, reference and the slip-verify mini-QR.
   */
  async slip(transRef: string): Promise<Buffer | null> {
    const transfer = await this.byReference(transRef);
    return transfer ? this.slipOf(transfer) : null;
  }

  /**
   * The slip of a transfer as the sending bank's app shows it, whether or not these records have
   * it yet (a transfer between banks the receiving bank has not reported: its slip is in progress
   * until they do). Null when the sending bank prints no slip QR.
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

  /** Reports a recorded transfer to our server again (a feed that repeats itself). */
  async redeliver(fromBankCode: string, transRef: string, times: number): Promise<Array<{ status: number }>> {
    const transfer = await this.find(fromBankCode, transRef);
    if (!transfer) return [];
    return Promise.all(Array.from({ length: times }, () => this.report(transfer)));
  }

  private async report(transfer: BankTransfer): Promise<{ status: number }> {
    if (!this.deliver) throw new Error('the sandbox bank is not connected to a server');
    const body = JSON.stringify({ ...transfer, amount: (transfer.amount / 100).toFixed(2), at: transfer.at.toISOString() });
    const answer = await deliverSigned(this.deliver, this.secret, `/api/webhooks/bank/${transfer.toBankCode}`, body);
    return { status: answer.status };
  }
}
