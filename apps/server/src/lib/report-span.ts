import { sql, type RawBuilder } from 'kysely';

/**
 * The span of a report: the instants [from, to) and the periods it is cut into (calendar days,
 * weeks from Monday, or months in a named time zone). Services group their own rows by
 * `periodOf(column)`, each period named by its first day (YYYY-MM-DD).
 */
export interface ReportSpan {
  from: Date;
  to: Date;
  /** `all`: the whole span as one period, named `all` (totals that do not add up over periods, such as distinct members). */
  unit: 'day' | 'week' | 'month' | 'all';
  timeZone: string;
}

/** The period (its first day, YYYY-MM-DD in the span's time zone) a timestamptz column falls in. */
export function periodOf(span: ReportSpan, column: RawBuilder<unknown>): RawBuilder<string> {
  if (span.unit === 'all') return sql<string>`'all'`;
  return sql<string>`to_char(date_trunc(${span.unit}, ${column} AT TIME ZONE ${span.timeZone}), 'YYYY-MM-DD')`;
}
