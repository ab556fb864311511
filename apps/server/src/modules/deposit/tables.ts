import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, Timestamp } from '../../db/schema';

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

declare module '../../db/schema' {
  interface DB {
    ewallet_redemptions: EwalletRedemptionsTable;
    deposit_channels: DepositChannelsTable;
    qr_codes: QrCodesTable;
    unmatched_deposits: UnmatchedDepositsTable;
  }
}
