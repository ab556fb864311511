import { z } from 'zod';
import { endpoint } from '../http';
import { awaitingApprovalSchema } from './payout';

/**
 * Marketing's operator calls: bonuses, promotion codes, the wheel (and coins for a member), the
 * invite and refund rules and their banners; the sandbox's bonus clock. Answers are described by
 * their known fields and keep any other (`looseObject`).
 */

const op = { auth: false, operator: 'operator', added: true } as const;

/** The ledger's currencies (minor units: satang, LAK's hundredths). */
export const LEDGER_CURRENCIES = ['THB', 'LAK'] as const;
const BASE = 'THB';
const isLedgerCurrency = (code: string) => LEDGER_CURRENCIES.some((c) => c === code);
const ledgerCurrency = z.enum(LEDGER_CURRENCIES);
/** Minor units of a currency. */
const minor = z.number().int().min(1).max(100_000_000_000);
const codeParams = z.object({ code: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/) });

const bannerList = z.array(z.strictObject({ image: z.string().max(500), html: z.string().max(5000) })).max(10);
/** What an operator may write as banners: one list for every language, or one per language. */
export const storedBannersSchema = z.union([bannerList, z.strictObject({ th: bannerList.optional(), la: bannerList.optional(), en: bannerList.optional() })]);

export const bonusBodySchema = z.strictObject({
  type: z.enum(['limit', 'day', 'week']),
  maxReceived: z.number().int().min(1).max(1000),
  maxTotal: z.number().int().min(1).max(10_000_000).nullable().default(null),
  percentFail: z.number().min(0).max(100),
  banners: storedBannersSchema.default([]),
  percent: z.number().min(0.01).max(1000),
  /** Amounts per currency (minor units); a currency without an entry is not offered the bonus. */
  amounts: z.partialRecord(ledgerCurrency, z.strictObject({ minDeposit: minor, maxBonus: minor })).default({}),
  /** The THB amounts in the older form (satang): `amounts.THB` wins when both are given. */
  maxBonus: z.number().int().min(1).max(100_000_000).optional(),
  minDeposit: z.number().int().min(1).max(100_000_000).optional(),
  turnoverMultiple: z.number().min(0).max(100),
  categories: z.array(z.enum(['slot', 'sport', 'lotto'])).min(1).max(3),
  depositWindowMinutes: z.number().int().min(1).max(7 * 24 * 60).default(60),
  active: z.boolean().default(true),
  sort: z.number().int().min(0).max(10_000).default(0),
});

export const promotionBodySchema = z.strictObject({
  kind: z.enum(['credit', 'bonus']),
  /** kind credit: the amount per currency (minor units); a currency without an entry is not offered the code. */
  amounts: z.partialRecord(ledgerCurrency, minor).default({}),
  /** kind credit, the older form: the THB amount in satang (`amounts.THB` wins). */
  amount: z.number().int().min(1).max(100_000_000).optional(),
  bonusCode: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/).optional(),
  percentFail: z.number().min(0).max(100).default(0),
  description: z.strictObject({ th: z.string().max(500), la: z.string().max(500), en: z.string().max(500) }),
  validFrom: z.iso.datetime({ offset: true }).nullable().default(null),
  validTo: z.iso.datetime({ offset: true }).nullable().default(null),
  maxUses: z.number().int().min(1).max(10_000_000).nullable().default(null),
  maxPerMember: z.number().int().min(1).max(1000).default(1),
  active: z.boolean().default(true),
});

const colour = z.string().regex(/^#[0-9A-Fa-f]{6}$/);
const sliceBody = z.strictObject({
  code: z.string().regex(/^[A-Z0-9_]{1,24}$/),
  label: z.string().trim().min(1).max(40),
  bgColor: colour,
  textColor: colour,
  htmlDescription: z.string().max(2000).default(''),
  weight: z.number().int().min(1).max(1_000_000),
  // Minor units of the wheel's currency (LAK prizes run to millions of kip).
  prize: z.strictObject({ name: z.string().trim().min(1).max(80), amount: z.number().int().min(0).max(100_000_000_000) }),
});
export const wheelBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(80),
  active: z.boolean(),
  slices: z
    .array(sliceBody)
    .min(2)
    .max(16)
    .refine((slices) => new Set(slices.map((s) => s.code)).size === slices.length, 'slice codes must be unique'),
  depositPerCoin: z.number().int().min(0).max(100_000_000_000),
  couponTtlDays: z.number().int().min(1).max(365),
});
/** `?currency=` names the wheel (THB when left out; another code is KEY_INVALID). */
export const wheelQuerySchema = z.object({ currency: z.string().max(8).optional() });

/** Per currency (minor units); a bare number is the base currency's (the older form). */
const perCurrency = z.union([
  minor.transform((n) => ({ [BASE]: n })),
  z.record(z.string(), minor).refine((m) => Object.keys(m).every(isLedgerCurrency), 'currency codes: THB, LAK'),
]);
export const inviteRulesBodySchema = z.strictObject({
  active: z.boolean(),
  percent: z.number().min(0).max(100),
  minimum: perCurrency,
  successPercent: z.number().min(0).max(10_000),
  failPercent: z.number().min(0).max(100),
});
const texts = z.strictObject({ th: z.string().max(5000), la: z.string().max(5000), en: z.string().max(5000) });
export const refundRulesBodySchema = z.strictObject({
  active: z.boolean(),
  period: z.enum(['day', 'week']),
  percent: z.number().min(0).max(100),
  minimum: perCurrency,
  maximum: perCurrency,
  successPercent: z.number().min(0).max(10_000),
  failPercent: z.number().min(0).max(100),
  info: z.union([texts.transform((t) => ({ [BASE]: t })), z.record(z.string(), texts).refine((m) => Object.keys(m).every(isLedgerCurrency), 'currency codes: THB, LAK')]),
});

const row = z.looseObject({ code: z.string() });
const inviteRules = z.looseObject({ active: z.boolean(), percent: z.number(), minimum: z.record(z.string(), z.number()), successPercent: z.number(), failPercent: z.number() });
const refundRules = z.looseObject({ active: z.boolean(), period: z.enum(['day', 'week']), percent: z.number(), successPercent: z.number(), failPercent: z.number() });
const wheelView = z.looseObject({ wheel: z.unknown() });

export const promotionOperatorCalls = {
  bonusesList: endpoint({ ...op, domain: 'bonus', method: 'GET', path: '/api/operator/bonuses', roles: ['marketing'], response: z.object({ bonuses: z.array(row) }) }),
  bonusPut: endpoint({
    ...op, domain: 'bonus', method: 'PUT', path: '/api/operator/bonuses/:code', roles: ['marketing'], params: codeParams, body: bonusBodySchema, response: z.union([row, awaitingApprovalSchema]),
    description: 'Creates or changes a bonus (code upper-cased); recorded in the audit with before and after. A bonus paying more than BONUS_CAP_THB / BONUS_CAP_LAK, asked by anyone but an owner, answers 202 with the approval a finance or owner operator runs.',
  }),
  promotionsList: endpoint({ ...op, domain: 'promotion', method: 'GET', path: '/api/operator/promotions', roles: ['marketing'], response: z.object({ promotions: z.array(row) }) }),
  promotionPut: endpoint({
    ...op, domain: 'promotion', method: 'PUT', path: '/api/operator/promotions/:code', roles: ['marketing'], params: codeParams, body: promotionBodySchema, response: z.union([row, awaitingApprovalSchema]),
    description: 'Creates or changes a promotion code: a credit (amounts per currency) or a bonus (bonusCode). A credit code (withdrawable money, no turnover) asked by anyone but an owner answers 202 with the approval a finance or owner operator runs.',
  }),
  spinwheelGet: endpoint({ ...op, domain: 'spin', method: 'GET', path: '/api/operator/spinwheel', roles: ['marketing'], query: wheelQuerySchema, response: wheelView }),
  spinwheelPut: endpoint({
    ...op, domain: 'spin', method: 'PUT', path: '/api/operator/spinwheel', roles: ['marketing'], query: wheelQuerySchema, body: wheelBodySchema, response: z.union([awaitingApprovalSchema, wheelView]),
    description: 'Sets the wheel of a currency. A wheel whose largest prize is above SPIN_PRIZE_CAP_THB / SPIN_PRIZE_CAP_LAK, or whose expected prize per coin is above SPIN_RETURN_CAP_PERCENT of the deposit that earns a coin, asked by anyone but an owner, answers 202 with the approval a finance or owner operator runs.',
  }),
  memberCoins: endpoint({
    ...op, domain: 'spin', method: 'POST', path: '/api/operator/members/:id/coins', roles: ['marketing'], params: z.object({ id: z.string().min(1).max(64) }),
    body: z.strictObject({ coins: z.number().int().min(1).max(1000) }), response: z.union([z.object({ coin: z.number() }), awaitingApprovalSchema]), movesMoney: true,
    description: 'Grants coins; needs an Idempotency-Key (400 KEY_MISSING): one key grants once and answers the first answer. Above COIN_GRANT_MAX_PER_CALL coins, or a member\'s 24 h of grants above COIN_GRANT_MAX_PER_DAY: 202 with the approval a finance or owner operator runs.',
  }),
  inviteBannersGet: endpoint({ ...op, domain: 'invite', method: 'GET', path: '/api/operator/invite-banners', roles: ['marketing'], response: storedBannersSchema }),
  inviteBannersPut: endpoint({ ...op, domain: 'invite', method: 'PUT', path: '/api/operator/invite-banners', roles: ['marketing'], body: storedBannersSchema, response: storedBannersSchema }),
  refundBannersGet: endpoint({ ...op, domain: 'refund', method: 'GET', path: '/api/operator/refund-banners', roles: ['marketing'], response: storedBannersSchema }),
  refundBannersPut: endpoint({ ...op, domain: 'refund', method: 'PUT', path: '/api/operator/refund-banners', roles: ['marketing'], body: storedBannersSchema, response: storedBannersSchema }),
  inviteSettingsGet: endpoint({ ...op, domain: 'invite', method: 'GET', path: '/api/operator/invite-settings', roles: ['marketing'], response: inviteRules }),
  inviteSettingsPut: endpoint({
    ...op, domain: 'invite', method: 'PUT', path: '/api/operator/invite-settings', roles: ['marketing'], body: inviteRulesBodySchema, response: z.union([inviteRules, awaitingApprovalSchema]),
    description: 'Sets the invite rule. A change that raises the percent above INVITE_PERCENT_CAP, lowers successPercent or raises failPercent, asked by anyone but an owner, answers 202 with the approval a finance or owner operator runs.',
  }),
  refundSettingsGet: endpoint({ ...op, domain: 'refund', method: 'GET', path: '/api/operator/refund-settings', roles: ['marketing'], response: refundRules }),
  refundSettingsPut: endpoint({
    ...op, domain: 'refund', method: 'PUT', path: '/api/operator/refund-settings', roles: ['marketing'], body: refundRulesBodySchema, response: z.union([refundRules, awaitingApprovalSchema]),
    description: 'Sets the refund rule. A change that raises the percent above REFUND_PERCENT_CAP, a maximum above REFUND_MAX_CAP_THB / REFUND_MAX_CAP_LAK, lowers successPercent or raises failPercent, asked by anyone but an owner, answers 202 with the approval a finance or owner operator runs.',
  }),
  sandboxClock: endpoint({
    ...op, domain: 'sandbox', method: 'PUT', path: '/api/operator/sandbox/clock', roles: [],
    body: z.strictObject({ at: z.iso.datetime({ offset: true }).optional(), offsetMs: z.number().int().min(-400 * 86_400_000).max(400 * 86_400_000).optional() }),
    response: z.object({ now: z.string(), offsetMs: z.number() }),
    description: 'The bonus clock, outside production: {at} (an instant) or {offsetMs}; {} puts it back.',
  }),
};
