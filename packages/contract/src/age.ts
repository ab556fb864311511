/**
 * The age gate of registration (issue 22), without zod so the registration screen and the server
 * share it. A birth date is `YYYY-MM-DD`, a real calendar day; age is counted in whole years on
 * `today` (also `YYYY-MM-DD`: the server uses the date in Asia/Bangkok). Someone born on 29
 * February turns a year older on 1 March in a year without one.
 */
/** The minimum age at registration unless the deployment sets another (server MIN_AGE, web VITE_MIN_AGE). */
export const DEFAULT_MIN_AGE = 20;

export const BIRTH_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The parts of a real calendar day, or null. */
export function parseDay(value: string): { y: number; m: number; d: number } | null {
  const match = BIRTH_DATE.exec(value);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return { y, m, d };
}

/** Whole years from `birth` to `today` (negative for a date after today); null when either is not a real day. */
export function ageOn(birth: string, today: string): number | null {
  const b = parseDay(birth);
  const t = parseDay(today);
  if (!b || !t) return null;
  let age = t.y - b.y;
  if (t.m < b.m || (t.m === b.m && t.d < b.d)) age -= 1;
  // Born on 29 February, counted on 28 February of a year without one: not yet.
  return age;
}

/** Today's date (`YYYY-MM-DD`) in Asia/Bangkok (UTC+7, no daylight saving) at `at` (ms). */
export function bangkokDay(at: number): string {
  return new Date(at + 7 * 3_600_000).toISOString().slice(0, 10);
}

/** The birth-date rule: BIRTH_DATE_INVALID for a date that is not a real day, UNDERAGE under `minAge` (or born after today), else null. */
export function checkBirthDate(birth: string, minAge: number, today: string): 'BIRTH_DATE_INVALID' | 'UNDERAGE' | null {
  const age = ageOn(birth, today);
  if (age === null) return 'BIRTH_DATE_INVALID';
  if (age < minAge || birth > today) return 'UNDERAGE';
  return null;
}
