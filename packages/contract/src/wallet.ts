import { z } from 'zod';
import { endpoint, idSchema, isoDateSchema } from './http';
import { amountSchema, bahtSchema } from './money';
import { text } from './text';
import { bankNamesSchema } from './lookups';

/**
 * Wallet and deposit calls of spec section 7: the wallet response, game accounts, transfers,
 * withdrawals, slip upload and the e-wallet gift link.
 *
 * `from` and `to` are 'WALLET' or a game code (GAME_CODES in constants.ts) but stay plain strings
 * here, so an unknown code reaches the service and is answered NO_GAME.
 */

/** Path parameter of the per-game calls: a game code. */
export const gameCodeParamsSchema = z.object({ code: text(32) });

/** Game account (spec section 3). */
export const gameAccountSchema = z.object({
  code: z.string().describe('game code, one of GAME_CODES'),
  name: z.string(),
  logo: z.string().describe('image URL'),
  background: z.string().describe('image URL'),
  category: z.enum(['slot', 'sport', 'lotto']).describe('sport covers sport plus casino'),
  isActive: z.boolean(),
  amount: bahtSchema.describe('balance in the game account; 0 when inactive'),
  ftWalletSlot: z.number().describe('per-game wallet factor shown as amount x ftWalletSlot'),
  /** Added to the spec's fields: a seamless game holds no balance of its own (amount 0); its bets and wins move the wallet itself, so nothing is transferred to it. */
  seamless: z.boolean().optional().describe('true for a seamless game: no game balance, its bets move the wallet'),
  web: z.string().nullable(),
  android: z.string().nullable(),
  ios: z.string().nullable(),
});
export type GameAccount = z.infer<typeof gameAccountSchema>;
export type GameCategory = GameAccount['category'];

/**
 * Form-state launch event for the one provider that needs it: the client submits a form with
 * these fields to `action`.
 */
export const gameLaunchEventSchema = z.object({
  action: z.string().describe('URL the login form is submitted to'),
  method: z.enum(['GET', 'POST']),
  fields: z.record(z.string(), z.string()),
});
export type GameLaunchEvent = z.infer<typeof gameLaunchEventSchema>;

/** Game login account (spec section 3). */
export const gameLoginSchema = z.object({
  username: z.string(),
  password: z.string(),
  event: gameLaunchEventSchema.optional(),
});
export type GameLogin = z.infer<typeof gameLoginSchema>;

export const walletBalanceSchema = z.object({ amount: bahtSchema });

/** GET /api/wallet (spec section 3). */
export const walletResponseSchema = z.object({
  profile: z.object({
    name: z.string(),
    _id: z.string(),
    createdAt: isoDateSchema,
    username: z.string(),
    coin: z.number().int().describe('spin wheel coins'),
    /** Added to the spec's fields: BAHT or LAK, the currency of every amount of this member. */
    currency: z.enum(['BAHT', 'LAK']).optional(),
  }),
  bankAccount: z.object({
    /** Added to the spec's fields: the home page's bank-name edit needs the bank code (KTB, TMB, BBL). */
    bankCode: z.string(),
    bankAccountName: z.string(),
    bankAccountNo: z.string(),
    bank: bankNamesSchema.nullable().describe('null when the code is not in the bank list'),
  }),
  wallet: walletBalanceSchema,
  invite: z.object({
    amount: bahtSchema.describe('invite bonus ready to receive'),
    success: z.number().describe('percent'),
    fail: z.number().describe('percent'),
  }),
  slots: z.array(gameAccountSchema),
});
export type WalletResponse = z.infer<typeof walletResponseSchema>;

/** GET /api/wallet/refresh/slot: every game account with its balance read again from the provider. */
export const refreshSlotsResponseSchema = z.object({
  slots: z.array(gameAccountSchema),
  updatedAt: isoDateSchema.describe('time of this refresh (the last-update time of the home header)'),
});

/** Answer of the money-moving wallet calls. */
export const moneyResultSchema = z.object({
  ok: z.literal(true),
  wallet: walletBalanceSchema.describe('main wallet balance after the call'),
  game: z
    .object({ code: z.string(), amount: bahtSchema })
    .optional()
    .describe('transfers only: the game account side, balance after the call'),
  amount: bahtSchema.describe('the amount moved (credited, debited or transferred)'),
  reference: idSchema.describe('_id of the statement item the call recorded'),
});
export type MoneyResult = z.infer<typeof moneyResultSchema>;

export const walletAmountSchema = z.strictObject({ amount: amountSchema });
export const transferSchema = z.strictObject({
  from: text(32).describe("'WALLET' or a game code"),
  to: text(32).describe("'WALLET' or a game code"),
  amount: amountSchema,
});
export type TransferRequest = z.input<typeof transferSchema>;
export const transferAllSchema = z.strictObject({ to: text(32).describe("'WALLET' or a game code") });

/** Non-file fields of the slip upload (all optional). */
export const slipUploadFieldsSchema = z.strictObject({
  bankCode: text(16).optional().describe('deposit bank the slip pays into, when the client knows it'),
});
export const truelinkSchema = z.strictObject({
  link: text(4096).describe('encrypted text of: user-entered link + "::" + wallet account name'),
});

/**
 * Slip as stored (spec section 3); also the item of POST /api/statement/slip. `note` holds a slip
 * reason code (SlipReasonCode) when status is FAILED.
 */
export const slipSchema = z.object({
  _id: z.string(),
  createdAt: isoDateSchema,
  amount: bahtSchema.describe('0 until the slip is read'),
  status: z.string().describe("'SUCCESS' | 'FAILED' | anything else = in progress"),
  note: z.string().nullable().describe('slip reason code (SlipReasonCode) or null'),
  link: z.string().describe('URL of the slip image; may be empty, then use GET /api/statement/slip/reference/:reference'),
  reference: z.string(),
});
export type Slip = z.infer<typeof slipSchema>;

export const walletEndpoints = {
  wallet: endpoint({ method: 'GET', path: '/api/wallet', auth: true, domain: 'wallet', response: walletResponseSchema }),
  walletRefreshSlot: endpoint({
    method: 'GET', path: '/api/wallet/refresh/slot', auth: true, domain: 'wallet', response: refreshSlotsResponseSchema,
  }),
  walletActivate: endpoint({ duringBreak: 'refused',
    method: 'GET', path: '/api/wallet/activate/:code', auth: true, domain: 'wallet',
    params: gameCodeParamsSchema, response: gameAccountSchema,
    description: 'Opens the game account; answers the account, now active. Credentials via /api/wallet/account/:code.',
  }),
  walletAccount: endpoint({ duringBreak: 'refused',
    method: 'GET', path: '/api/wallet/account/:code', auth: true, domain: 'wallet',
    params: gameCodeParamsSchema, response: gameLoginSchema,
  }),
  walletResetPassword: endpoint({ duringBreak: 'refused',
    method: 'GET', path: '/api/wallet/resetpassword/:code', auth: true, domain: 'wallet',
    params: gameCodeParamsSchema, response: gameLoginSchema, description: 'Answers the new credentials.',
  }),
  walletAdd: endpoint({
    method: 'POST', path: '/api/wallet/add', auth: true, domain: 'wallet', movesMoney: true, keyedInside: true,
    body: walletAmountSchema, response: moneyResultSchema,
  }),
  walletTransfer: endpoint({ duringBreak: 'toWalletOnly',
    method: 'POST', path: '/api/wallet/transfer', auth: true, domain: 'wallet', movesMoney: true, keyedInside: true,
    body: transferSchema, response: moneyResultSchema,
  }),
  walletTransferAll: endpoint({ duringBreak: 'toWalletOnly',
    method: 'POST', path: '/api/wallet/transferAll', auth: true, domain: 'wallet', movesMoney: true, keyedInside: true,
    body: transferAllSchema, response: moneyResultSchema,
    description: 'Moves the whole balance of the source into `to` (used by the play and transfer buttons).',
  }),
  walletWithdraw: endpoint({ duringBreak: 'allowed',
    method: 'POST', path: '/api/wallet/withdraw', auth: true, domain: 'wallet', movesMoney: true, keyedInside: true,
    body: walletAmountSchema, response: moneyResultSchema,
  }),
  walletWithdrawAll: endpoint({ duringBreak: 'allowed',
    method: 'POST', path: '/api/wallet/withdrawAll', auth: true, domain: 'wallet', movesMoney: true, keyedInside: true,
    body: walletAmountSchema, response: moneyResultSchema, description: 'The withdraw used by the withdraw modal.',
  }),
  walletSlip: endpoint({
    method: 'POST', path: '/api/wallet/slip', auth: true, domain: 'deposit', movesMoney: true,
    multipart: { fileField: 'file' }, body: slipUploadFieldsSchema, response: slipSchema,
    description: 'Uploads a transfer slip; answers the stored slip (normally still in progress). 503 BUSY (Retry-After) when every slip reader of the server is busy and its queue is full: nothing was written, send it again.',
  }),
  walletTruelink: endpoint({
    method: 'POST', path: '/api/wallet/truelink', auth: true, domain: 'deposit', movesMoney: true,
    body: truelinkSchema, response: moneyResultSchema,
  }),
};
