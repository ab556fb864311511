import { z } from 'zod';
import { endpoint } from '../http';

/**
 * The seamless-wallet API (issue 36): an aggregator's game calls us for every bet, win and
 * rollback, and the member's wallet itself moves (no game balance of its own). Signed like our
 * webhooks: `X-Timestamp` (unix seconds) and `X-Signature` = hex HMAC-SHA256 of
 * `${timestamp}.${rawBody}` with the provider's secret (SEAMLESS_SECRETS="CODE:secret,…"). A bad
 * or missing signature, or a timestamp more than 300 s away: 401 {"status":"INVALID_SIGNATURE"},
 * nothing moves. docs/seamless-wallet.md is the integration guide.
 */
export const SEAMLESS_ACTIONS = ['balance', 'bet', 'win', 'rollback'] as const;
export const SEAMLESS_STATUSES = ['OK', 'INSUFFICIENT_FUNDS', 'PLAYER_NOT_FOUND', 'TRANSACTION_NOT_FOUND', 'ROLLED_BACK'] as const;

const id = z.string().trim().min(1).max(128).regex(/^[\x21-\x7e]+$/, 'printable ASCII, no spaces');
export const seamlessParamsSchema = z.object({ code: z.string().regex(/^[A-Z0-9_]{1,16}$/), action: z.enum(SEAMLESS_ACTIONS) });
/** What an aggregator sends. `amount` in minor units (satang, LAK hundredths); `balance` needs only requestId, playerId, currency. */
export const seamlessRequestSchema = z.object({
  requestId: id,
  /** The member's game username at this provider. */
  playerId: z.string().trim().min(1).max(64),
  currency: z.enum(['THB', 'LAK']),
  amount: z.number().int().min(1).max(1_000_000_000_000).optional(),
  transactionId: id.optional(),
  roundId: id.optional(),
  /** The bet a rollback undoes. */
  referenceTransactionId: id.optional(),
});
export type SeamlessRequest = z.infer<typeof seamlessRequestSchema>;
/** Every business answer is 200 with one of the statuses; `balance` is the wallet's, in minor units, after the call. */
export const seamlessAnswerSchema = z.object({
  status: z.enum(SEAMLESS_STATUSES),
  balance: z.number().int(),
  currency: z.enum(['THB', 'LAK']),
  transactionId: z.string().nullable(),
});
export type SeamlessAnswer = z.infer<typeof seamlessAnswerSchema>;

export const seamlessCalls = {
  seamlessWallet: endpoint({
    auth: false, domain: 'seamless', added: true, rawBody: true, method: 'POST', path: '/api/seamless/:code/:action',
    params: seamlessParamsSchema, body: seamlessRequestSchema, response: seamlessAnswerSchema,
    description: 'An aggregator\'s seamless-wallet call (balance, bet, win, rollback), signed with X-Timestamp and X-Signature. A repeated transactionId answers exactly the first answer and moves nothing; a rollback of a bet never seen answers OK and is remembered (that bet, arriving later, answers ROLLED_BACK); a win for an unknown round is booked. 401 {"status":"INVALID_SIGNATURE"} for a bad signature or a timestamp over 300 s away; 400 {"status":"INVALID_REQUEST"} for a body that is not this shape; 404 {"status":"PROVIDER_NOT_FOUND"} for a provider that is not seamless.',
  }),
};
