/**
 * The promotion domain's own error codes (beyond the spec's), zod-free like deposit-errors.ts.
 */
export const promotionErrorCodes = [
  /** 409: a spin with no coin left. */
  'NO_COIN',
  /** 404: no prize wheel is active (or none for the member's currency). */
  'NO_SPINWHEEL',
] as const;
