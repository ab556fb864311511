import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp, Timestamp } from '../../db/schema';

/** A slice of the wheel as stored: what members see, its weight (kept on the server) and its prize. */
export interface StoredSlice {
  code: string;
  label: string;
  bgColor: string;
  textColor: string;
  htmlDescription: string;
  /** Relative chance, a positive integer. */
  weight: number;
  /** The prize's name and amount in minor units of the wheel's currency; 0: no prize ("try again"), no coupon. */
  prize: { name: string; amount: number };
}

export interface SpinWheelsTable {
  /** The currency of the wheel (THB, LAK): its coin rate and prizes are in it, its members play it. */
  id: string;
  name: string;
  active: Generated<boolean>;
  slices: ColumnType<StoredSlice[], string, string>;
  /** Minor units of deposit (in the wheel's currency) per coin earned (0: deposits earn none). */
  deposit_per_coin: Generated<number>;
  coupon_ttl_days: Generated<number>;
  /** Deposits made from this time on earn coins. */
  coins_since: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface SpinSeedsTable {
  id: string;
  member_id: string;
  seed: string;
  seed_hash: string;
  client_seed: string;
  nonce: Generated<number>;
  created_at: DefaultTimestamp;
  revealed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface SpinsTable {
  id: string;
  member_id: string;
  seed_id: string;
  nonce: number;
  roll: number;
  total_weight: number;
  slice_code: string;
  slice_label: string;
  weights: ColumnType<number[], string, string>;
  /** The Idempotency-Key of the spin call (one spin per key and member). */
  request_key: ColumnType<string | null, string | null | undefined, never>;
  /** Coins left right after this spin (its answer). */
  remaining_coin: ColumnType<number | null, number | null | undefined, never>;
  created_at: DefaultTimestamp;
}

export interface SpinCouponsTable {
  id: string;
  member_id: string;
  spin_id: string;
  slice_label: string;
  name: string;
  amount: number;
  /** The prize's currency (the wheel's). */
  currency: string;
  status: 'OPEN' | 'CLAIMED';
  expires_at: Timestamp;
  claimed_at: Timestamp | null;
  operation_id: string | null;
  created_at: DefaultTimestamp;
}

export interface CoinAwardsTable {
  operation_id: string;
  member_id: string;
  coins: number;
  created_at: DefaultTimestamp;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface SpinTables {
  spin_wheels: SpinWheelsTable;
  spin_seeds: SpinSeedsTable;
  spins: SpinsTable;
  spin_coupons: SpinCouponsTable;
  coin_awards: CoinAwardsTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends SpinTables {}
}
