import type { Generated } from 'kysely';
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
  created_at: DefaultTimestamp;
}

declare module '../../db/schema' {
  interface DB {
    slips: SlipsTable;
  }
}
