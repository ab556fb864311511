import { z } from 'zod';
import { endpoint } from '../http';

/**
 * The withdrawals' operator calls (the list, one payout, approve through the bank, complete by
 * hand, reject) and the failure injection of the sandbox bank's payout API and the sandbox games.
 * Answers are described by their known fields and keep any other (`looseObject`).
 */

const op = { auth: false, operator: 'operator', domain: 'payout', added: true } as const;
const idParams = z.object({ id: z.string().min(1).max(64) });
const operationStatus = z.enum(['PENDING', 'SUCCESS', 'FAILED']);

/** A four-eyes call above FOUR_EYES_THRESHOLD answers 202 with the approval it recorded instead. */
export const awaitingApprovalSchema = z.object({ status: z.literal('awaiting-approval'), approvalId: z.string() });

export const withdrawalRowSchema = z.looseObject({
  id: z.string(),
  memberId: z.string(),
  username: z.string(),
  amount: z.number(),
  to: z.string(),
  createdAt: z.string(),
  status: z.string(),
  note: z.string().nullable(),
  payout: z.enum(['pending', 'processing', 'ended']),
  bankStatus: z.string().nullable(),
  /** The member's currency (THB or LAK): `amount` is in its major units. */
  currency: z.enum(['THB', 'LAK']),
  /** Who the money goes to, for the operator's confirmation: name, bank and account (`username` is the phone). */
  name: z.string(),
  bankCode: z.string(),
  bankAccountNo: z.string(),
});

/** A withdrawal's payout as operators read it (amounts in baht / kip with 2 decimals). */
export const payoutViewSchema = z.looseObject({
  id: z.string(),
  memberId: z.string(),
  status: operationStatus,
  payout: z.enum(['pending', 'processing', 'paid', 'returned']),
  method: z.string().nullable(),
  amount: z.number(),
  currency: z.string(),
  failure: z.string().nullable(),
  reason: z.string().nullable(),
  bankStatus: z.string().nullable(),
  bankRef: z.string().nullable(),
  attempts: z.number().int(),
  by: z.string().nullable(),
  settledAt: z.string().nullable(),
});

const endedSchema = z.looseObject({ id: z.string(), status: operationStatus });

export const PAYOUT_FAULT_MODES = ['none', 'down', 'timeout', 'lost', 'reject', 'accept'] as const;
export const PAYOUT_FAILURE_CODES = ['ACCOUNT_INVALID', 'NAME_MISMATCH', 'REFUSED'] as const;
export const payoutFaultSchema = z.strictObject({ mode: z.enum(PAYOUT_FAULT_MODES), failure: z.enum(PAYOUT_FAILURE_CODES).optional() });
export const GAME_FAULT_MODES = ['none', 'down', 'timeout', 'error-after-take'] as const;
const gameParams = z.object({ code: z.string().max(16) });

export const payoutOperatorCalls = {
  withdrawalsList: endpoint({
    ...op, method: 'GET', path: '/api/operator/withdrawals', roles: ['finance'],
    // Pending ones oldest first by default (as before); the back office pages, filters and sorts.
    query: z.object({
      status: z.enum(['PENDING', 'SUCCESS', 'FAILED', 'ALL']).default('PENDING'),
      q: z.string().max(64).optional(),
      page: z.coerce.number().int().min(1).max(100_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(500).default(500),
      sort: z.enum(['createdAt', '-createdAt', 'amount', '-amount']).default('createdAt'),
    }),
    response: z.looseObject({ total: z.number().int(), withdrawals: z.array(withdrawalRowSchema), payoutProvider: z.string().optional() }),
  }),
  withdrawalGet: endpoint({ ...op, method: 'GET', path: '/api/operator/withdrawals/:id', roles: ['finance'], params: idParams, response: payoutViewSchema }),
  withdrawalApprove: endpoint({
    ...op, method: 'POST', path: '/api/operator/withdrawals/:id/approve', roles: ['finance'], params: idParams, response: z.union([payoutViewSchema, awaitingApprovalSchema]),
    description: 'Pays the withdrawal through the bank (above FOUR_EYES_THRESHOLD: 202 with the approval a second operator runs).',
  }),
  withdrawalComplete: endpoint({
    ...op, method: 'POST', path: '/api/operator/withdrawals/:id/complete', roles: ['finance'], params: idParams, response: z.union([endedSchema, awaitingApprovalSchema]),
    description: 'Marks the withdrawal paid by hand (above FOUR_EYES_THRESHOLD: 202 with the approval a second operator runs). With a payout provider (the list\'s `payoutProvider` is not `manual`) only the owner may (403 PAYOUT_OWNER_OVERRIDE): the override.',
  }),
  withdrawalReject: endpoint({
    ...op, method: 'POST', path: '/api/operator/withdrawals/:id/reject', roles: ['finance'], params: idParams,
    body: z.strictObject({ note: z.string().min(1).max(200) }), response: endedSchema,
    description: 'Refuses the withdrawal: the money goes back to the wallet.',
  }),
  sandboxPayoutFaultPut: endpoint({
    ...op, domain: 'sandbox', method: 'PUT', path: '/api/operator/sandbox/bank/payout-fault', roles: [], body: payoutFaultSchema, response: payoutFaultSchema,
    description: 'Failure injection of the sandbox bank\'s payout API, seen by every process on the database.',
  }),
  sandboxPayoutFaultGet: endpoint({ ...op, domain: 'sandbox', method: 'GET', path: '/api/operator/sandbox/bank/payout-fault', roles: [], response: payoutFaultSchema }),
  sandboxGameFault: endpoint({
    ...op, domain: 'sandbox', method: 'PUT', path: '/api/operator/sandbox/games/:code/fault', roles: [], params: gameParams,
    body: z.strictObject({ mode: z.enum(GAME_FAULT_MODES), latencyMs: z.number().int().min(0).max(60_000).default(0) }),
    response: z.object({ code: z.string(), mode: z.enum(GAME_FAULT_MODES), latencyMs: z.number().int() }),
    description: 'Failure injection of a sandbox game provider (every process).',
  }),
  sandboxGameRounds: endpoint({
    ...op, domain: 'sandbox', method: 'POST', path: '/api/operator/sandbox/games/:code/rounds', roles: [], params: gameParams,
    body: z.strictObject({
      username: z.string().min(1).max(64),
      stake: z.number().int().min(1).max(100_000_000),
      multiplier: z.number().min(0).max(1000),
      rounds: z.number().int().min(1).max(100).default(1),
      /** When the rounds settled: now by default, or up to 60 days back (a losing week for a refund). */
      at: z.iso.datetime({ offset: true }).optional(),
    }),
    response: z.object({ code: z.string(), username: z.string(), played: z.number().int(), balance: z.number().nullable() }),
    description: 'Plays rounds at a sandbox game for a member (409 MONEY_NOT_ENOUGH when none could be played).',
  }),
};
