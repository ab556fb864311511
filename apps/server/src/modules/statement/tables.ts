import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp } from '../../db/schema';
import type { OperationStatus } from '../../money';

/** Uploaded bank slips (written by the slip deposit flow). */
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
}

declare module '../../db/schema' {
  interface DB {
    slips: SlipsTable;
  }
}
