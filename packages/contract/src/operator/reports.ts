import { z } from 'zod';
import { endpoint } from '../http';

/**
 * The back office's reports (issue 34): figures of a date range per period (day, week or month in
 * the site's time zone), one currency at a time, read from the ledger's postings and the imported
 * game rounds. Amounts are major units (baht, kip) as numbers to the satang. The same call with
 * `format=csv` or `format=xlsx` downloads the table (a filename in Content-Disposition).
 */

export const REPORT_NAMES = ['cash', 'bonus-cost', 'ggr', 'members', 'top-depositors'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];
export const REPORT_GRANULARITIES = ['day', 'week', 'month'] as const;
export type ReportGranularity = (typeof REPORT_GRANULARITIES)[number];
export const REPORT_FORMATS = ['json', 'csv', 'xlsx'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
/** The longest range (days, both ends counted) per granularity: a year of days, two of weeks, three of months. */
export const REPORT_MAX_DAYS: Readonly<Record<ReportGranularity, number>> = { day: 366, week: 731, month: 1096 };
/** How many members the top-depositors report lists. */
export const TOP_DEPOSITORS = 50;

/**
 * Loose strings on the wire, checked by the server with the codes of report-errors.ts (a clear
 * REPORT_… 400 rather than a schema's KEY_INVALID).
 */
export const reportQuerySchema = z.object({
  from: z.string().max(32).optional().describe('first day, YYYY-MM-DD in the site\'s time zone'),
  to: z.string().max(32).optional().describe('last day (included), YYYY-MM-DD'),
  granularity: z.string().max(16).optional().describe('day (default) | week (from Monday) | month'),
  currency: z.string().max(8).optional().describe('THB | LAK (default: the site\'s: LAK in Laos mode, else THB)'),
  format: z.string().max(8).optional().describe('json (default) | csv | xlsx'),
  tag: z.string().max(40).optional().describe('only the members with this tag (vip, watch, affiliate …): their money, rounds and registrations; promotions paid to them'),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** One figure column of a report's table: its key (a dotted path into a row) and kind. */
export const reportColumnSchema = z.looseObject({
  key: z.string(),
  kind: z.enum(['amount', 'count', 'percent', 'text']),
  /** The channel or provider a per-channel / per-provider column is about. */
  group: z.string().optional(),
});
export type ReportColumn = z.infer<typeof reportColumnSchema>;

export const reportRowSchema = z.looseObject({
  /** The period's first day (YYYY-MM-DD): the day, the Monday of the week, the first of the month. */
  period: z.string().optional(),
  /** The days of the period inside the range (a first week or month may start later, a last end sooner). */
  from: z.string().optional(),
  to: z.string().optional(),
});

export const reportSchema = z.looseObject({
  report: z.enum(REPORT_NAMES),
  from: z.string(),
  to: z.string(),
  granularity: z.enum(REPORT_GRANULARITIES),
  currency: z.enum(['THB', 'LAK']),
  timeZone: z.string(),
  /** The member tag the figures are narrowed to (null: every member). */
  tag: z.string().nullable(),
  /** The table's figure columns in order (after `period`). */
  columns: z.array(reportColumnSchema),
  rows: z.array(reportRowSchema),
  totals: z.looseObject({}),
});
export type ReportAnswer = z.infer<typeof reportSchema>;

const op = { auth: false, operator: 'operator', domain: 'reports', added: true, query: reportQuerySchema, response: reportSchema } as const;

export const reportOperatorCalls = {
  reportCash: endpoint({
    ...op, method: 'GET', path: '/api/operator/reports/cash', roles: ['finance'],
    description: 'Deposits (per channel), withdrawals requested and paid, net, per period.',
  }),
  reportBonusCost: endpoint({
    ...op, method: 'GET', path: '/api/operator/reports/bonus-cost', roles: ['finance', 'marketing'],
    description: 'What promotions cost: bonuses, promotion codes, wheel prizes, invite and refund payouts, per period.',
  }),
  reportGgr: endpoint({
    ...op, method: 'GET', path: '/api/operator/reports/ggr', roles: ['finance'],
    description: 'Stakes, wins and gross gaming revenue of the rounds, per period and per provider.',
  }),
  reportMembers: endpoint({
    ...op, method: 'GET', path: '/api/operator/reports/members', roles: ['finance'],
    description: 'New members, first depositors, active members and the average deposit, per period.',
  }),
  reportTopDepositors: endpoint({
    ...op, method: 'GET', path: '/api/operator/reports/top-depositors', roles: ['finance'],
    description: 'The members who deposited most in the range (at most 50), with their withdrawals paid.',
  }),
  /** Any other name: 400 REPORT_UNKNOWN (to the roles that see a report). */
  reportUnknown: endpoint({
    ...op, method: 'GET', path: '/api/operator/reports/:name', roles: ['finance', 'marketing'], params: z.object({ name: z.string().max(64) }),
    description: 'A report name that does not exist: 400 REPORT_UNKNOWN.',
  }),
};
