/**
 * The promotion domain's own error codes (beyond the spec's), zod-free like deposit-errors.ts.
 */
export const promotionErrorCodes = [
  /** 409: a spin with no coin left. */
  'NO_COIN',
  /** 404: no prize wheel is active (or none for the member's currency). */
  'NO_SPINWHEEL',
  /**
   * 409: a bonus cannot be cancelled while money sits where it cannot be taken back — in a game
   * outside the bonus's categories (`games` lists their codes), or in flight (`inFlight`: a
   * transfer still pending). Bring it back to the wallet, then cancel.
   */
  'BONUS_MONEY_IN_GAMES',
] as const;
