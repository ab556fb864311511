import { z } from 'zod';
import { bahtSchema } from './money';

/**
 * The `balance` event of the member's socket (socket.io, path /socket.io, `auth: {token}`): the
 * server tells the member's open app when their wallet or a game balance changed, whatever
 * changed it (a deposit credited, a slip, a withdrawal paid or returned, a bonus, a game result,
 * a transfer — from this device or another), once the change is committed.
 */
export const BALANCE_EVENT = 'balance';

/** Why the balance changed. */
export const BALANCE_REASONS = [
  'deposit',
  'bonus',
  'withdrawal',
  'withdrawal_paid',
  'withdrawal_returned',
  'transfer',
  'transfer_returned',
  'game_result',
  'refund',
  'invite',
  'spin_prize',
  'adjustment',
] as const;
export type BalanceReason = (typeof BALANCE_REASONS)[number];

export const balanceEventSchema = z.object({
  wallet: bahtSchema.optional().describe('the wallet balance after the change; absent when the wallet did not move'),
  games: z.record(z.string(), bahtSchema).optional().describe('game code → its balance after the change, for the game accounts that moved'),
  reason: z.enum(BALANCE_REASONS),
  amount: bahtSchema
    .optional()
    .describe('what the change moved: the wallet\'s signed move, or for withdrawal_paid the amount paid out; absent when only game accounts moved'),
  account: z.string().optional().describe('withdrawal_paid and withdrawal_returned: the bank account of the withdrawal, "<bank code> <account number>"'),
  note: z.string().optional().describe('withdrawal_returned: why it was refused — the operator\'s reason, or the bank\'s refusal code (PAYOUT_…)'),
  versions: z
    .record(z.string(), z.number().int())
    .describe('`wallet` and each game code → the account\'s version after the change: an event whose version is not above the last one seen for that account is older news (apply its figure only when newer)'),
});
export type BalanceEvent = z.infer<typeof balanceEventSchema>;
