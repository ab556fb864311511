import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp } from '../../db/schema';
import type { OperationStatus } from '../../money/tables';

/** Uploaded bank slips (written by the slip deposit flow). */
export interface SlipsTable {
  id: string;
  member_id: string;
  reference: string;
  amount: Generated<number>;
  status: Generated<OperationStatus>;
  note: string | null;
  image_path: string | null;
  /** Sending bank + reference of the slip's transfer (statement/002): unique among slips in progress or credited. */
  transfer_key: ColumnType<string | null, string | null | undefined, string | null>;
  image: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  image_type: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: DefaultTimestamp;
  /** When a slip in progress was last asked of the bank (statement/003). */
  checked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

declare module '../../db/schema' {
  interface DB {
    slips: SlipsTable;
  }
}
