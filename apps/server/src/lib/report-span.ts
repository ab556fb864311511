import { sql, type RawBuilder } from 'kysely';

/**
 * The span of a report: the instants [from, to) and the periods it is cut into (calendar days,
 * weeks from Monday, or months in a named time zone). Services group their own rows by
 * `dayOf(column)` (the local day, as days since 1970-01-01: cheap to compute and group over a
 * million rows; the report rolls days up into weeks and months) or, for figures that do not add up
 * (distinct members), by `periodOf(column)` (the period's first day, the same number).
 */
export interface ReportSpan {
  from: Date;
  to: Date;
  /** `all`: the whole span as one period, numbered 0 (totals that do not add up over periods, such as distinct members). */
  unit: 'day' | 'week' | 'month' | 'all';
  timeZone: string;
}

/** The local day (days since 1970-01-01 in the span's time zone) a timestamptz column falls on; 0 for the `all` unit. */
export function dayOf(span: ReportSpan, column: RawBuilder<unknown>): RawBuilder<number> {
  if (span.unit === 'all') return sql<number>`0`;
  return sql<number>`((${column} AT TIME ZONE ${span.timeZone})::date - DATE '1970-01-01')`;
}

/** The first day of the period a timestamptz column falls in (days since 1970-01-01); 0 for the `all` unit. */
export function periodOf(span: ReportSpan, column: RawBuilder<unknown>): RawBuilder<number> {
  if (span.unit === 'all') return sql<number>`0`;
  if (span.unit === 'day') return dayOf(span, column);
  return sql<number>`(date_trunc(${span.unit}, ${column} AT TIME ZONE ${span.timeZone})::date - DATE '1970-01-01')`;
}
