/**
 * Error codes of withdrawals' payouts through the bank and of operators' four-eyes approvals, in
 * a file of their own without zod (errors.ts reads them without pulling in schemas).
 */
export const payoutErrorCodes = [
  /** 403 (operator): the operator who asked for an action cannot be the one who approves it (four eyes). */
  'SAME_OPERATOR',
  /** 404 (operator): no such approval. */
  'NO_APPROVAL',
  /** 409 (operator): the approval was rejected already; it can no longer be approved (or rejected again). */
  'APPROVAL_CLOSED',
  /** 409 (operator): the withdrawal's payout is with the bank; it completes or returns by the bank's answer, not by hand. */
  'WITHDRAWAL_PROCESSING',
  /** 409 (operator): PAYOUT_PROVIDER=manual — no payout API; pay by hand, then complete the withdrawal. */
  'PAYOUT_MANUAL',
  /** 403 (operator): with a payout provider, marking a withdrawal paid by hand is the owner's override, not another role's. */
  'PAYOUT_OWNER_OVERRIDE',
  /** A returned withdrawal's reason (statement note): the bank says the account does not exist or is closed. */
  'PAYOUT_ACCOUNT_INVALID',
  /** A returned withdrawal's reason (statement note): the bank says the holder's name does not match the account. */
  'PAYOUT_NAME_MISMATCH',
  /** A returned withdrawal's reason (statement note): the bank refused the transfer. */
  'PAYOUT_REFUSED',
] as const;
