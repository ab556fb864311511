import type { ReportGranularity } from '@mw/contract/operator/reports';

const DAY_MS = 86_400_000;

/**
 * The site's time zone: Asia/Bangkok, or Asia/Vientiane for the Lao site. Both are UTC+7 all year
 * (no daylight saving), so a local date's midnight is 17:00 UTC the day before.
 */
export const TIME_ZONE_OFFSETS: Readonly<Record<string, number>> = { 'Asia/Bangkok': 7 * 3_600_000, 'Asia/Vientiane': 7 * 3_600_000 };

/** A calendar date (YYYY-MM-DD) as a day number (days since 1970-01-01), or null when it is no real date. */
export function dayOf(text: string | undefined): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text ?? '');
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

export function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The instant a local day starts in a time zone of TIME_ZONE_OFFSETS. */
export function dayStartAt(day: number, timeZone: string): Date {
  return new Date(day * DAY_MS - (TIME_ZONE_OFFSETS[timeZone] ?? 0));
}

/** The first day of the period `day` falls in: itself, the Monday of its week, the first of its month. */
export function periodStart(day: number, unit: ReportGranularity): number {
  if (unit === 'day') return day;
  const date = new Date(day * DAY_MS);
  if (unit === 'week') return day - ((date.getUTCDay() + 6) % 7);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS;
}

function nextPeriod(start: number, unit: ReportGranularity): number {
  if (unit === 'day') return start + 1;
  if (unit === 'week') return start + 7;
  const date = new Date(start * DAY_MS);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / DAY_MS;
}

/** A period of a report: its name (first day) and the days of it inside the range. */
export interface Period {
  period: string;
  from: string;
  to: string;
}

/** The periods that cover the days [first, last], in order; the first and last clipped to the range. */
export function periodsOf(first: number, last: number, unit: ReportGranularity): Period[] {
  const out: Period[] = [];
  for (let start = periodStart(first, unit); start <= last; start = nextPeriod(start, unit)) {
    const end = nextPeriod(start, unit) - 1;
    out.push({ period: dateOf(start), from: dateOf(Math.max(start, first)), to: dateOf(Math.min(end, last)) });
  }
  return out;
}
