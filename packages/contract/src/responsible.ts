import { z } from 'zod';
import { endpoint, isoDateSchema, okSchema } from './http';
import { amountSchema, bahtSchema } from './money';

/**
 * Responsible play (issue 22, every call added to the spec): deposit limits, time-outs,
 * self-exclusion and the reality check. Amounts are decimal baht (or kip for a kip wallet) with at
 * most two decimals, like every amount of the API; `null` is "no limit".
 *
 * Rules (README "Responsible play"): limits count the deposits credited in the rolling last 24 h
 * (day), 7 days (week) and 30 days (month) by the server's clock (the sandbox clock moves it);
 * the lowest room left applies. A new or lower limit applies at once; a higher one or a removal
 * waits 24 hours (pending, cancellable). A time-out (1, 7, 30 or 42 days) and a self-exclusion
 * (6, 12 or 60 months) start at once and cannot be shortened or lifted.
 */
export const LIMIT_PERIODS = ['day', 'week', 'month'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];
export const TIME_OUT_DAYS = [1, 7, 30, 42] as const;
export const SELF_EXCLUSION_MONTHS = [6, 12, 60] as const;
export const REALITY_CHECK_MINUTES = [0, 15, 30, 60] as const;
/** How long a raised or removed limit waits before it applies. */
export const LIMIT_INCREASE_DELAY_HOURS = 24;
export { DEFAULT_MIN_AGE } from './age';

const limitsSchema = z.object({ day: bahtSchema.nullable(), week: bahtSchema.nullable(), month: bahtSchema.nullable() });

export const pendingLimitSchema = z.object({
  period: z.enum(LIMIT_PERIODS),
  /** The new limit; null: the limit is removed. */
  amount: bahtSchema.nullable(),
  requestedAt: isoDateSchema,
  effectiveAt: isoDateSchema,
});
export type PendingLimit = z.infer<typeof pendingLimitSchema>;

export const heldDepositSchema = z.object({
  id: z.string(),
  amount: bahtSchema,
  from: z.string().describe('the channel the money came by (KBANK, WW, …)'),
  /** DEPOSIT_LIMIT, SELF_EXCLUDED or TIME_OUT: why it was not credited. */
  reason: z.string(),
  status: z.enum(['HELD', 'RETURNED']),
  receivedAt: isoDateSchema,
});
export type HeldDeposit = z.infer<typeof heldDepositSchema>;

export const responsibleStateSchema = z.object({
  limits: limitsSchema,
  pending: z.array(pendingLimitSchema),
  used: z.object({ day: bahtSchema, week: bahtSchema, month: bahtSchema }),
  /** What each limit still allows now (null: no limit). */
  left: limitsSchema,
  currency: z.enum(['THB', 'LAK']),
  timeOutUntil: isoDateSchema.nullable(),
  selfExcludedUntil: isoDateSchema.nullable(),
  realityCheckMinutes: z.number().int(),
  /** Deposits that arrived but were held (over a limit, during a break), newest first. */
  held: z.array(heldDepositSchema),
  /** This login's session, for the reality check: when it started and its net result. */
  session: z.object({
    startedAt: isoDateSchema,
    deposits: bahtSchema,
    withdrawals: bahtSchema,
    /** Wins minus stakes of the game rounds settled since the login. */
    gameResult: bahtSchema,
  }),
  /** The server's clock now (the sandbox clock when moved): periods and ends are counted by it. */
  now: isoDateSchema,
});
export type ResponsibleState = z.infer<typeof responsibleStateSchema>;

const limitAmount = amountSchema.nullable();
export const limitsUpdateSchema = z.strictObject({ day: limitAmount.optional(), week: limitAmount.optional(), month: limitAmount.optional() });
export const timeOutSchema = z.strictObject({ days: z.literal(TIME_OUT_DAYS) });
export const selfExclusionSchema = z.strictObject({ months: z.literal(SELF_EXCLUSION_MONTHS) });
export const realityCheckSchema = z.strictObject({ minutes: z.literal(REALITY_CHECK_MINUTES) });
export const limitPeriodParamsSchema = z.object({ period: z.enum(LIMIT_PERIODS) });
export const breakAnswerSchema = z.object({ ok: z.literal(true), until: isoDateSchema });

export const responsibleEndpoints = {
  responsibleGet: endpoint({
    method: 'GET', path: '/api/responsible', auth: true, domain: 'responsible', added: true, response: responsibleStateSchema,
    description: 'Limits, pending changes, what was used and what is left, breaks, the reality-check interval, held deposits and the session so far.',
  }),
  responsibleLimitsPut: endpoint({
    method: 'PUT', path: '/api/responsible/limits', auth: true, domain: 'responsible', added: true, body: limitsUpdateSchema, response: responsibleStateSchema,
    description: 'Sets deposit limits (decimal baht or kip; null: none; a missing period is left as it is). Lower or new: at once; higher or removed: after 24 h.',
  }),
  responsiblePendingCancel: endpoint({
    method: 'DELETE', path: '/api/responsible/limits/pending/:period', auth: true, domain: 'responsible', added: true, params: limitPeriodParamsSchema, response: responsibleStateSchema,
    description: 'Cancels a pending raise or removal of a limit (404 NO_PENDING_LIMIT when there is none).',
  }),
  responsibleTimeOut: endpoint({
    method: 'POST', path: '/api/responsible/time-out', auth: true, domain: 'responsible', added: true, body: timeOutSchema, response: breakAnswerSchema,
    description: 'A time-out of 1, 7, 30 or 42 days from now: every session ends; it cannot be shortened or lifted.',
  }),
  responsibleSelfExclusion: endpoint({
    method: 'POST', path: '/api/responsible/self-exclusion', auth: true, domain: 'responsible', added: true, body: selfExclusionSchema, response: breakAnswerSchema,
    description: 'Self-exclusion for 6, 12 or 60 months from now: every session ends; it cannot be shortened or lifted.',
  }),
  responsibleRealityCheck: endpoint({
    method: 'PUT', path: '/api/responsible/reality-check', auth: true, domain: 'responsible', added: true, body: realityCheckSchema, response: okSchema,
    description: 'The reality-check interval in minutes (0: off).',
  }),
};

export { responsibleErrorCodes } from './responsible-errors';
