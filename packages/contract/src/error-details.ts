/**
 * Fields an error answer carries beside its code where one code of spec section 8 covers several
 * situations (the codes stay exactly the spec's; these are only added). Amounts are in the
 * member's currency units (baht or kip), like every amount on the wire.
 *
 * BONUS_CONDITION (an open bonus or payout condition refuses, or a bonus cannot be opened):
 * - `reason`: one of `bonusConditionReasons` below;
 * - `bonusCode`: the condition's bonus code (`INVITE` / `REFUND` for a payout's condition);
 * - `origin`: `bonus`, `invite` or `refund` (what opened the condition);
 * - `turnover`, `target`, `remainingTurnover`: stakes counted so far, the target, what is left;
 * - `minDeposit`, `depositWindowMinutes`: what a bonus asks of the deposit (NO_QUALIFYING_DEPOSIT);
 * - `deposit`, `wallet`: the deposit the bonus is on and what the wallet holds (DEPOSIT_SPENT);
 * - `games`: the game codes still holding money (MONEY_IN_GAMES).
 *
 * SLIP_REFNO_DUPLICATED: when the transfer was already credited to the member, `creditedAt`
 * (ISO time) and `creditedAmount` say when and how much.
 *
 * OTP_CODE_INVALID: `attemptsLeft`, the wrong tries the code still allows before OTP_BLOCK (shown to the member).
 */
export const bonusConditionReasons = [
  /** A withdrawal while the turnover is not met. */
  'WITHDRAW_LOCKED',
  /** A transfer out of a game of the bonus's categories while the turnover is not met. */
  'TRANSFER_LOCKED',
  /** No deposit within the bonus's window of at least its minimum that no other bonus used. */
  'NO_QUALIFYING_DEPOSIT',
  /** The wallet no longer holds the deposit (it was played or withdrawn). */
  'DEPOSIT_SPENT',
  /** The bonus would be nothing (the percent of the deposit rounds to zero). */
  'BONUS_TOO_SMALL',
  /** A cancel while money could not be brought back from a game of the bonus. */
  'MONEY_IN_GAMES',
] as const;
export type BonusConditionReason = (typeof bonusConditionReasons)[number];
