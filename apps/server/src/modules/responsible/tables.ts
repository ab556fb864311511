import type { ColumnType } from 'kysely';
import type { DefaultTimestamp } from '../../db/schema';

/** A member's responsible-play settings: deposit limits in force (minor units, null: none), breaks, the reality-check interval. */
export interface ResponsibleSettingsTable {
  member_id: string;
  day_limit: ColumnType<number | null, number | null | undefined, number | null>;
  week_limit: ColumnType<number | null, number | null | undefined, number | null>;
  month_limit: ColumnType<number | null, number | null | undefined, number | null>;
  reality_check_minutes: ColumnType<number, number | undefined, number>;
  time_out_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  self_excluded_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  updated_at: DefaultTimestamp;
}

/** A raise or removal of a limit waiting for its 24 hours (amount null: the limit goes). */
export interface ResponsiblePendingTable {
  member_id: string;
  period: 'day' | 'week' | 'month';
  amount: number | null;
  requested_at: Date;
  effective_at: Date;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface ResponsibleTables {
  responsible_settings: ResponsibleSettingsTable;
  responsible_pending: ResponsiblePendingTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends ResponsibleTables {}
}
