import type { ColumnType } from 'kysely';
import type { DefaultTimestamp, Timestamp } from '../../db/schema';

export interface RefundsTable {
  id: string;
  member_id: string;
  period_start: Timestamp;
  period_end: Timestamp;
  stakes: number;
  wins: number;
  /** Minor units of `currency` (the member's: their games' stakes and wins are in it). */
  amount: number;
  currency: string;
  /** AVAILABLE (to receive), RECEIVED (to add to the wallet), CREDITED, or NONE (under the minimum). */
  status: 'AVAILABLE' | 'RECEIVED' | 'CREDITED' | 'NONE';
  created_at: DefaultTimestamp;
  operation_id: string | null;
  /** The Idempotency-Key of the receive that took it (AVAILABLE → RECEIVED). */
  receive_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface RefundTables {
  refunds: RefundsTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends RefundTables {}
}
