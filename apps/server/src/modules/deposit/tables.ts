import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, Timestamp } from '../../db/schema';
import type { OperationStatus } from '../../money';
import type { AccountReads } from '../account';
import type { MoneyReads } from '../../money';

/** Where members deposit: bank accounts, QR payment providers and e-wallets (operators edit them). */
export interface DepositChannelsTable {
  id: string;
  kind: 'bank' | 'wallet';
  bank_code: string;
  bank_type: 'BANK' | 'PAYMENT';
  mode: 'AUTO' | 'SMS' | 'MANUAL' | 'NONE' | 'GIFT';
  account_name: string;
  account_no: string;
  /** BAHT or LAK, as members' currencies are written. */
  currency: string;
  sort: Generated<number>;
  active: Generated<boolean>;
  updated_at: DefaultTimestamp;
}

export type QrStatus = 'OPEN' | 'PAID' | 'EXPIRED' | 'CANCELLED';

/** A member's QR at a payment provider. */
export interface QrCodesTable {
  id: string;
  member_id: string;
  provider: string;
  /** Our reference in the QR (ref1) and in the gateway's webhook. */
  reference: string;
  amount: number;
  currency: string;
  payload: string | null;
  gateway_ref: string | null;
  status: QrStatus;
  expires_at: Timestamp;
  paid_amount: number | null;
  operation_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  reconciled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Money that arrived with no member to credit (yet): held for an operator. */
export interface UnmatchedDepositsTable {
  id: string;
  /** The credit's key, as external_credits would hold it: `banktx` / `gateway:WW` and the reference. */
  source: string;
  ref: string;
  channel: string;
  from_bank_code: string | null;
  from_account_no: string | null;
  from_name: string | null;
  to_account_no: string | null;
  amount: number;
  currency: string;
  /** NO_MEMBER, CURRENCY_MISMATCH, UNKNOWN_QR. */
  reason: string;
  received_at: Timestamp;
  assigned_member_id: string | null;
  operation_id: string | null;
  assigned_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

/** A gift voucher a member sent, claimed for them while it is redeemed (one row per voucher hash). */
export interface EwalletRedemptionsTable {
  hash: string;
  member_id: string;
  /** The deposit channel (e-wallet) it is redeemed into. */
  channel: string;
  /** REDEEMING: claimed, the e-wallet's answer not (yet) known; CREDITED: the member has it. */
  status: 'REDEEMING' | 'CREDITED';
  /** The attempt working on it now (one at a time); null between attempts. */
  attempt: string | null;
  amount: number | null;
  operation_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** Uploaded bank slips (the deposit module owns them; statement/001–004 created them before the table moved with its writer). */
export interface SlipsTable {
  id: string;
  member_id: string;
  reference: string;
  amount: Generated<number>;
  status: Generated<OperationStatus>;
  note: string | null;
  image_path: string | null;
  /**
   * The slip's transfer (statement/004): the sending bank and its reference, each in its own column,
   * checked against the bank's format before they are written. One SUCCESS slip per transfer; one
   * slip in progress per member and transfer (another member's does not block the sender).
   */
  transfer_bank: ColumnType<string | null, string | null | undefined, string | null>;
  transfer_ref: ColumnType<string | null, string | null | undefined, string | null>;
  image: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  image_type: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: DefaultTimestamp;
  /** When a slip in progress was last asked of the bank (statement/003). */
  checked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The Idempotency-Key of the upload that recorded it, its request's hash and its answer's status (statement/005, 006). */
  request_key: ColumnType<string | null, string | null | undefined, string | null>;
  request_hash: ColumnType<string | null, string | null | undefined, string | null>;
  request_status: ColumnType<number | null, number | null | undefined, number | null>;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface DepositTables {
  slips: SlipsTable;
  ewallet_redemptions: EwalletRedemptionsTable;
  deposit_channels: DepositChannelsTable;
  qr_codes: QrCodesTable;
  unmatched_deposits: UnmatchedDepositsTable;
}

/** What this module's query builder sees: its tables and the read models (views) of the areas below it. */
export type DepositDb = DepositTables & AccountReads & MoneyReads;

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends DepositTables {}
}
