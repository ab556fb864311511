import i18next from 'i18next';
import { LOCALE_TAGS, type Locale } from '@mw/contract/constants';

export type TimeAgoUnit = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The largest whole unit since a moment (spec section 9: a year is 365 days, a month 30). */
export function timeAgoParts(since: Date, now: Date): { value: number; unit: TimeAgoUnit } {
  const elapsed = Math.max(0, now.getTime() - since.getTime());
  const steps: Array<[TimeAgoUnit, number]> = [
    ['year', 365 * DAY],
    ['month', 30 * DAY],
    ['day', DAY],
    ['hour', HOUR],
    ['minute', MINUTE],
  ];
  for (const [unit, size] of steps) {
    if (elapsed >= size) return { value: Math.floor(elapsed / size), unit };
  }
  return { value: Math.floor(elapsed / SECOND), unit: 'second' };
}

const formatters = new Map<Locale, Intl.RelativeTimeFormat | null>();

/** Intl's relative time for the locale, or null where the browser has no data for it (Lao in Chromium). */
function relativeFormat(locale: Locale): Intl.RelativeTimeFormat | null {
  if (!formatters.has(locale)) {
    const tag = LOCALE_TAGS[locale];
    const supported = typeof Intl.RelativeTimeFormat === 'function' && Intl.RelativeTimeFormat.supportedLocalesOf(tag).length > 0;
    formatters.set(locale, supported ? new Intl.RelativeTimeFormat(tag, { numeric: 'always' }) : null);
  }
  return formatters.get(locale) ?? null;
}

/** "3 minutes ago" in the locale's words: Intl where the browser knows the locale, else the app's own texts. */
export function formatTimeAgo(value: string | Date, locale: Locale, now: Date = new Date()): string {
  const since = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(since.getTime())) return '';
  const { value: amount, unit } = timeAgoParts(since, now);
  const intl = relativeFormat(locale);
  return intl ? intl.format(-amount, unit) : i18next.t(`timeAgo.${unit}`, { value: amount, lng: locale });
}
