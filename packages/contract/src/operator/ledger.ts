import { z } from 'zod';
import { sandboxSmsResponseSchema } from '../account';
import { endpoint } from '../http';

/** The money core's operator call (the ledger's invariants) and the sandbox SMS gateway's outbox. */

export const ledgerCheckSchema = z.looseObject({
  ok: z.boolean(),
  /** Transactions whose entries do not sum to zero, or have fewer than two entries. */
  unbalancedTransactions: z.array(z.string()),
  /** Accounts whose balance differs from the sum of their entries. */
  driftedAccounts: z.array(z.looseObject({ id: z.string(), balance: z.number(), entries: z.number() })),
  /** Member accounts below zero. */
  negativeAccounts: z.array(z.string()),
  /** Transactions whose entries are in more than one currency. */
  mixedCurrencyTransactions: z.array(z.string()),
  /** Sum over all money accounts, coins left out (must be 0). */
  total: z.number(),
  /** Sum over the accounts of each currency, and of coins apart (each must be 0). */
  totals: z.record(z.string(), z.number()),
  accounts: z.number().int(),
  transactions: z.number().int(),
});

export const ledgerOperatorCalls = {
  ledgerCheck: endpoint({
    auth: false, operator: 'operator', domain: 'ledger', added: true, method: 'GET', path: '/api/operator/ledger/check', roles: ['finance'], response: ledgerCheckSchema,
    description: 'The ledger\'s invariants over the whole database.',
  }),
};

export const otpSandboxCalls = {
  sandboxSms: endpoint({
    auth: false, domain: 'sandbox', added: true, method: 'GET', path: '/api/sandbox/sms',
    query: z.strictObject({ phoneNumber: z.string().regex(/^\d{6,20}$/) }), response: sandboxSmsResponseSchema,
    description: 'The messages the sandbox SMS gateway "sent" to that phone, newest first (only while the sandbox SMS provider is selected).',
  }),
};
