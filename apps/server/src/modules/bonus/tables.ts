import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp } from '../../db/schema';
import type { StoredBanners } from '../../lib/banners';
import type { Currency } from '../../money';
import type { AccountReads } from '../account';
import type { MoneyReads } from '../../money';

/** A bonus's amounts in one currency (minor units of that currency: satang, or LAK's hundredths). */
export interface BonusCurrencyAmounts {
  minDeposit: number;
  maxBonus: number;
}
/** Amounts per currency: a member is offered a bonus only in the member's own currency. */
export type BonusAmounts = Partial<Record<Currency, BonusCurrencyAmounts>>;
/** A credit promotion's amount per currency (minor units). */
export type PromotionAmounts = Partial<Record<Currency, number>>;

/** A bonus of the catalogue (operators edit it). Amounts per currency in minor units; percents as numbers (20 = 20 %). */
export interface BonusesTable {
  code: string;
  type: 'limit' | 'day' | 'week';
  max_received: number;
  /** Receipts by everyone, all time (null: no limit): BONUS_FULL when reached. */
  max_total: number | null;
  percent_fail: ColumnType<number, number | string, number | string>;
  banners: ColumnType<StoredBanners, string, string>;
  percent: ColumnType<number, number | string, number | string>;
  /** Minimum deposit and maximum bonus per currency; no entry for a currency: not offered in it. */
  amounts: ColumnType<BonusAmounts, string, string>;
  turnover_multiple: ColumnType<number, number | string, number | string>;
  categories: ColumnType<string[], string[], string[]>;
  deposit_window_minutes: Generated<number>;
  active: Generated<boolean>;
  sort: Generated<number>;
  updated_at: DefaultTimestamp;
}

export type ReceiptStatus = 'ACTIVE' | 'SUCCESS' | 'FAILED' | 'CLEARED';

/** A member's take of a bonus: the grant and its turnover condition. */
export interface BonusReceiptsTable {
  id: string;
  member_id: string;
  bonus_code: string;
  /** The promotion code it was taken with (check/active answers type `promotion`). */
  promotion_code: ColumnType<string | null, string | null | undefined, string | null>;
  deposit_operation_id: string;
  deposit_amount: number;
  bonus_amount: number;
  turnover_target: number;
  categories: ColumnType<string[], string[], string[]>;
  percent_fail: ColumnType<number, number | string, number | string>;
  status: ReceiptStatus;
  started_at: DefaultTimestamp;
  /** When it was taken by the bonus clock (the sandbox clock may move it): periods count by it. */
  period_at: DefaultTimestamp;
  ended_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  credit_operation_id: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The member's own money when the bonus was taken (the wallet, which holds the deposit, before
   * the bonus), and the ledger mark after which deposits are the member's own too: a cancel keeps
   * at most own + deposits since. Null (older receipts, payout conditions): the deposit alone.
   */
  own_amount: ColumnType<number | null, number | null | undefined, number | null>;
  own_mark: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * bonus: a catalogue bonus (or a promotion code's) on a deposit; invite / refund: the condition a
   * payout of invite earnings or of a refund opens (no deposit: `deposit_amount` 0, the credit's
   * operation in `deposit_operation_id`, `bonus_code` INVITE / REFUND).
   */
  origin: Generated<ReceiptOrigin>;
  /** The Idempotency-Key of the activation that opened it (null: a promotion code's, a payout's, older), and its request's hash. */
  request_key: ColumnType<string | null, string | null | undefined, string | null>;
  request_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** The Idempotency-Key of the cancel that closed it. */
  end_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export type ReceiptOrigin = 'bonus' | 'invite' | 'refund';

/** A promotion code: a fixed credit, or a catalogue bonus's rule, within a window and use limits. */
export interface PromotionsTable {
  code: string;
  kind: 'credit' | 'bonus';
  /** kind credit: what is credited, per currency (minor units); no entry for a currency: not offered in it. */
  amounts: ColumnType<PromotionAmounts, string, string>;
  /** kind bonus: the catalogue bonus whose rule it grants. */
  bonus_code: string | null;
  percent_fail: ColumnType<number, number | string, number | string>;
  description: ColumnType<{ th: string; la: string; en: string }, string, string>;
  valid_from: ColumnType<Date | null, Date | null | undefined, Date | null>;
  valid_to: ColumnType<Date | null, Date | null | undefined, Date | null>;
  max_uses: number | null;
  max_per_member: number;
  active: Generated<boolean>;
  updated_at: DefaultTimestamp;
}

export interface PromotionUsesTable {
  id: string;
  code: string;
  member_id: string;
  receipt_id: string | null;
  /** The Idempotency-Key of the call that used the code, and its request's hash. */
  request_key: ColumnType<string | null, string | null | undefined, string | null>;
  request_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** A credit code's worth when it was used (minor units of credit_currency); null for a bonus code. */
  credit_amount: ColumnType<number | null, number | null | undefined, number | null>;
  credit_currency: ColumnType<string | null, string | null | undefined, string | null>;
  /** False while a credit code's use waits for its credit (a crash in between: the sweep makes it). */
  credited: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: DefaultTimestamp;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface BonusTables {
  promotions: PromotionsTable;
  promotion_uses: PromotionUsesTable;
  bonuses: BonusesTable;
  bonus_receipts: BonusReceiptsTable;
}

/** What this module's query builder sees: its tables and the read models (views) of the areas below it. */
export type BonusDb = BonusTables & AccountReads & MoneyReads;

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends BonusTables {}
}
