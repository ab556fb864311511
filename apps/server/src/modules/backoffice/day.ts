/** Bangkok is UTC+7 all year (no daylight saving). */
const BANGKOK_OFFSET_MS = 7 * 3_600_000;

/** The start of the calendar day in Asia/Bangkok that `at` falls in. */
export function bangkokDayStart(at: Date): Date {
  const local = at.getTime() + BANGKOK_OFFSET_MS;
  return new Date(local - (local % 86_400_000) - BANGKOK_OFFSET_MS);
}
