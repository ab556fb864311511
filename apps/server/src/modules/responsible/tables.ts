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

declare module '../../db/schema' {
  interface DB {
    responsible_settings: ResponsibleSettingsTable;
    responsible_pending: ResponsiblePendingTable;
  }
}
