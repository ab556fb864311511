import { z } from 'zod';
import { endpoint, idSchema } from './http';
import { bahtSchema } from './money';

/** Spin wheel calls of spec section 7. Error codes: spinErrorCodes in errors.ts (and BONUS_REMAINING). */
export const spinSliceSchema = z.object({
  code: z.string(),
  label: z.string(),
  bgColor: z.string().describe('CSS colour'),
  textColor: z.string().describe('CSS colour'),
  htmlDescription: z.string().describe('HTML'),
});
export type SpinSlice = z.infer<typeof spinSliceSchema>;

/** Spin setup (spec section 3). */
export const spinSetupSchema = z.object({
  result: z.object({
    activeSpinwheel: z
      .object({ name: z.string(), slices: z.array(spinSliceSchema) })
      .nullable()
      .describe('null when no wheel is active'),
    userCoin: z.number().int(),
  }),
});
export type SpinSetup = z.infer<typeof spinSetupSchema>;

/** Spin result (spec section 3): success with the winning slice, or success false with an error code. */
export const spinResultSchema = z.object({
  success: z.boolean(),
  result: z.object({ code: z.string(), label: z.string(), remainingCoin: z.number().int() }).optional(),
  error: z.string().optional().describe('error code when success is false'),
});
export type SpinResult = z.infer<typeof spinResultSchema>;

/** A claimable coupon won on the wheel (spec section 3). */
export const couponSchema = z.object({
  _id: z.string().describe('the value to send as `coupon` to claim it'),
  prize: z.object({ slice: z.string().describe('label of the winning slice'), name: z.string() }),
  amount: bahtSchema,
});
export type Coupon = z.infer<typeof couponSchema>;

export const couponClaimSchema = z.strictObject({ coupon: idSchema });
/** Claim answer, in the style of the spin result. */
export const couponClaimResponseSchema = z.object({
  success: z.boolean(),
  coupon: couponSchema.optional().describe('the claimed coupon when success is true'),
  error: z.string().optional().describe('error code when success is false'),
});

/**
 * Provable fairness (added to the spec): the member's current server-seed hash, client seed and
 * next nonce, and the wheel's weights; a rotation reveals the old seed.
 */
export const spinFairnessSchema = z.object({
  seedHash: z.string().describe('SHA-256 (hex) of the secret server seed the next spins use'),
  clientSeed: z.string(),
  nonce: z.number().int().describe('the nonce of the next spin'),
  slices: z.array(z.object({ code: z.string(), label: z.string(), weight: z.number().int() })).describe('in wheel order; a roll walks them in this order'),
  totalWeight: z.number().int(),
});
export type SpinFairness = z.infer<typeof spinFairnessSchema>;
export const spinRotateSchema = z.strictObject({
  clientSeed: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional().describe('the client seed for the new server seed (random when absent)'),
});
export const spinRotateResponseSchema = z.object({
  revealed: z.object({ seed: z.string(), seedHash: z.string(), clientSeed: z.string(), spins: z.number().int() }).describe('the old seed and how many spins used it'),
  next: spinFairnessSchema,
});

export const spinEndpoints = {
  spinSetup: endpoint({ duringBreak: 'refused', method: 'GET', path: '/api/spinwheel/setup', auth: true, domain: 'spin', response: spinSetupSchema }),
  spin: endpoint({
    method: 'POST', path: '/api/spinwheel/spin', auth: true, domain: 'spin', movesMoney: true,
    response: spinResultSchema, description: 'Spends one coin.',
  }),
  spinCoupons: endpoint({ duringBreak: 'refused',
    method: 'GET', path: '/api/spinwheel/coupon', auth: true, domain: 'spin',
    response: z.array(couponSchema).describe('claimable coupons, newest first'),
  }),
  spinCouponClaim: endpoint({
    method: 'POST', path: '/api/spinwheel/coupon/claim', auth: true, domain: 'spin', movesMoney: true,
    body: couponClaimSchema, response: couponClaimResponseSchema,
  }),
  spinActive: endpoint({ duringBreak: 'refused',
    method: 'GET', path: '/api/spinwheel/active', auth: true, domain: 'spin', response: z.object({ active: z.boolean() }),
  }),
  spinFairness: endpoint({ method: 'GET', path: '/api/spinwheel/fairness', auth: true, domain: 'spin', added: true, response: spinFairnessSchema }),
  spinRotateSeed: endpoint({
    method: 'POST', path: '/api/spinwheel/fairness/rotate', auth: true, domain: 'spin', added: true, body: spinRotateSchema, response: spinRotateResponseSchema,
  }),
};
