/**
 * Error codes of the back office's reports (GET /api/operator/reports/:name), in a file of their
 * own without zod; part of the back office's codes (admin-errors.ts), not the member app's. Each is a 400.
 */
export const reportErrorCodes = [
  /** 400: no report of that name (cash, bonus-cost, ggr, members, top-depositors). */
  'REPORT_UNKNOWN',
  /** 400: `from` or `to` missing, or not a calendar date written YYYY-MM-DD. */
  'REPORT_DATE_INVALID',
  /** 400: `from` is after `to`. */
  'REPORT_RANGE_INVALID',
  /** 400: more days than the granularity allows (day: 366, week: 731, month: 1,096); `maxDays` says how many. */
  'REPORT_RANGE_TOO_LARGE',
  /** 400: `granularity` is not day, week or month. */
  'REPORT_GRANULARITY_INVALID',
  /** 400: `currency` is not THB or LAK. */
  'REPORT_CURRENCY_INVALID',
  /** 400: `format` is not json, csv or xlsx. */
  'REPORT_FORMAT_INVALID',
  /** 400: `tag` is not a member tag as the members list writes them (lowercase letters, digits, dashes; up to 24). */
  'REPORT_TAG_INVALID',
] as const;
