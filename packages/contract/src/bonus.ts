import { z } from 'zod';
import { text } from './text';
import { endpoint, isoDateSchema, okSchema } from './http';
import { carouselItemSchema } from './invite';
import { bahtSchema } from './money';

/** Bonus and promotion calls of spec section 7. Codes are upper-cased by the client and the service. */
export const bonusCodeParamsSchema = z.object({ code: text(64) });

export const bonusTypeSchema = z.enum(['limit', 'day', 'week']);
export type BonusType = z.infer<typeof bonusTypeSchema>;

/** A member's take of one bonus (spec section 3). */
export const userBonusSchema = z.object({
  _id: z.string(),
  isActive: z.boolean(),
  received: z.array(z.object({ updatedAt: isoDateSchema })).describe('one entry per receipt'),
});
export type UserBonus = z.infer<typeof userBonusSchema>;

/**
 * Bonus item (spec section 3). Exhausted when the receipts within the period (all time for limit,
 * the current day for day, the current week for week) reach maxReceived.
 */
export const bonusItemSchema = z.object({
  code: z.string(),
  type: bonusTypeSchema,
  maxReceived: z.number().int(),
  percentFail: z.number().describe('percent; replaces %percentFail% in the notice'),
  banners: z.array(carouselItemSchema).describe('decoration only: the card\'s words are `text`'),
  // Added: the card's words generated from the rule (percent, cap, minimum deposit, turnover, period).
  text: z.object({ th: z.string(), la: z.string(), en: z.string() }).optional().describe('added: the card text generated from the rule, in th, la and en'),
  userBonus: userBonusSchema.nullable().describe('null when the member never took this bonus'),
});
export type BonusItem = z.infer<typeof bonusItemSchema>;

/** Active bonus check. `type` is 'promotion' when the active one came from a promotion code. */
export const activeBonusSchema = z.object({
  status: z.boolean().describe('a bonus is active'),
  type: z.enum([...bonusTypeSchema.options, 'promotion']).nullable().describe('null when status is false'),
});
export type ActiveBonus = z.infer<typeof activeBonusSchema>;

/** GET /api/bonus/check/minimum (the cancel dialog's figures): whether the active bonus may be cancelled. */
export const bonusMinimumSchema = z.object({
  status: z.boolean().describe('deposit plus bonus is not below the threshold, so cancel is allowed'),
  amount: bahtSchema.describe('current deposit plus bonus'),
  minimum: bahtSchema.describe('the threshold'),
  // Added: what a cancel would do, so the member sees it before confirming.
  wallet: bahtSchema.optional().describe('what the wallet holds'),
  games: bahtSchema.optional().describe('what the game accounts hold (a cancel brings it to the wallet first)'),
  takeBack: bahtSchema.optional().describe('what a cancel takes back (the bonus and what it earned)'),
  keep: bahtSchema.optional().describe('what the member keeps after a cancel'),
});

export const bonusClearResponseSchema = z.object({ message: z.string().describe('BONUS_CLEAR on success') });

/** Promotion (spec section 3). */
export const promotionSchema = z.object({
  code: z.string(),
  percentFail: z.number().describe('percent'),
  description: z.string(),
});
export type Promotion = z.infer<typeof promotionSchema>;

export const promotionCurrentSchema = z.object({
  promotion: promotionSchema.nullable().describe('the member’s active promotion, or null'),
});
export const promotionActivateResponseSchema = okSchema.extend({ promotion: promotionSchema });

/** The open condition's progress (added to the spec), in baht: turnover so far, its target, the bust line. */
export const bonusProgressSchema = z.object({
  progress: z
    .object({ code: z.string(), origin: z.enum(['bonus', 'invite', 'refund']).optional().describe('what opened the condition (invite/refund: a payout)'), turnover: bahtSchema, target: bahtSchema, bonus: bahtSchema, deposit: bahtSchema, bust: bahtSchema })
    .nullable()
    .describe('null when no bonus is active'),
});

export const bonusEndpoints = {
  bonusProgress: endpoint({ method: 'GET', path: '/api/bonus/progress', auth: true, domain: 'bonus', added: true, response: bonusProgressSchema }),
  bonusList: endpoint({ duringBreak: 'refused', method: 'GET', path: '/api/bonus', auth: true, domain: 'bonus', response: z.array(bonusItemSchema) }),
  bonusActivate: endpoint({
    method: 'GET', path: '/api/bonus/activate/:code', auth: true, domain: 'bonus', movesMoney: true,
    params: bonusCodeParamsSchema, response: userBonusSchema,
  }),
  bonusCheckActive: endpoint({
    method: 'GET', path: '/api/bonus/check/active', auth: true, domain: 'bonus', response: activeBonusSchema,
  }),
  bonusCheckMinimum: endpoint({
    method: 'GET', path: '/api/bonus/check/minimum', auth: true, domain: 'bonus', response: bonusMinimumSchema,
  }),
  bonusClear: endpoint({ duringBreak: 'allowed',
    method: 'GET', path: '/api/bonus/clear', auth: true, domain: 'bonus', movesMoney: true, response: bonusClearResponseSchema,
    description: 'Cancels and clears the active bonus (takes the bonus back from the wallet).',
  }),
  promotionCurrent: endpoint({ duringBreak: 'refused',
    method: 'GET', path: '/api/promotion/current', auth: true, domain: 'promotion', response: promotionCurrentSchema,
  }),
  promotionFind: endpoint({ duringBreak: 'refused',
    method: 'GET', path: '/api/promotion/find/:code', auth: true, domain: 'promotion',
    params: bonusCodeParamsSchema, response: promotionSchema, description: 'NO_PROMOTION (404) when not found.',
  }),
  promotionActivate: endpoint({
    method: 'GET', path: '/api/promotion/activate/:code', auth: true, domain: 'promotion', movesMoney: true,
    params: bonusCodeParamsSchema, response: promotionActivateResponseSchema,
  }),
};
