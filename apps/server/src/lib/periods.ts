/**
 * Bonus periods in Asia/Bangkok time (UTC+7 all year): a day runs from 00:00 to 00:00 Bangkok
 * time, a week from Monday 00:00. `limit` bonuses count over all time.
 */
const BANGKOK_OFFSET_MS = 7 * 3_600_000;
const DAY_MS = 86_400_000;

export type BonusPeriod = 'limit' | 'day' | 'week';

/** The start (a UTC instant) of the period containing `at`; null for all time. */
export function periodStart(type: BonusPeriod, at: Date): Date | null {
  if (type === 'limit') return null;
  const local = at.getTime() + BANGKOK_OFFSET_MS;
  const dayStart = Math.floor(local / DAY_MS) * DAY_MS;
  if (type === 'day') return new Date(dayStart - BANGKOK_OFFSET_MS);
  // 1970-01-01 was a Thursday: days since a Monday = (days + 3) mod 7.
  const days = Math.floor(local / DAY_MS);
  const sinceMonday = (((days + 3) % 7) + 7) % 7;
  return new Date(dayStart - sinceMonday * DAY_MS - BANGKOK_OFFSET_MS);
}

/** The site's calendar day (YYYY-MM-DD) of an instant: Asia/Bangkok, the same UTC+7 as Asia/Vientiane (reconciliation's days). */
export function siteDay(at: Date | string): string {
  return new Date(new Date(at).getTime() + BANGKOK_OFFSET_MS).toISOString().slice(0, 10);
}
