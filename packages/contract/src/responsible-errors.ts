/**
 * Responsible play's error codes (issue 22), in a file of their own without zod: errors.ts (and so
 * the web app's first bundle) reads them without pulling in the schemas.
 */
export const responsibleErrorCodes = [
  /**
   * 403: a deposit over the member's deposit limit. The answer carries `left` (decimal baht or kip
   * the tightest limit still allows now, 0 when none), `period` (day, week or month: the limit
   * that refuses) and `limit`.
   */
  'DEPOSIT_LIMIT',
  /**
   * 403: money that was taken in (a gift link redeemed) and then held, not credited: the member's
   * deposit rules refused it as it arrived (`reason`: DEPOSIT_LIMIT, TIME_OUT or SELF_EXCLUDED).
   * `reference` names the held deposit (the member's statement and support's held deposits show it).
   */
  'DEPOSIT_HELD',
  /** 403: the member excluded themselves; every call that moves value or markets is refused until `until` (ISO). */
  'SELF_EXCLUDED',
  /** 403: the member took a time-out; every call that moves value or markets is refused until `until` (ISO). */
  'TIME_OUT',
  /** 400: registration of someone younger than the minimum age (20 by default, MIN_AGE), or a birth date in the future. */
  'UNDERAGE',
  /** 400: a birth date that is not a real day in YYYY-MM-DD. */
  'BIRTH_DATE_INVALID',
  /** 409: a break cannot be shortened: the member is already on a break that ends later (`until`). */
  'BREAK_ALREADY_LONGER',
  /** 403 (operator): a time-out or self-exclusion cannot be lifted or shortened by anyone; the attempt is in the audit. */
  'EXCLUSION_CANNOT_BE_LIFTED',
  /** 404: there is no pending change of that limit to cancel. */
  'NO_PENDING_LIMIT',
  /** 404 (operator): no held deposit with this id (or it is no longer held). */
  'NO_HELD_DEPOSIT',
] as const;
