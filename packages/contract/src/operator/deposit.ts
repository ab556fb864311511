import { z } from 'zod';
import { slipReasonCodes } from '../errors';
import { endpoint } from '../http';
import { instantSchema } from './common';
import { awaitingApprovalSchema } from './payout';
import { amountSchema } from '../money';
import { moneyResultSchema, slipSchema } from '../wallet';

/**
 * The deposit domain's operator calls (slips, unmatched and manual deposits, channels,
 * reconciliation), its providers' signed webhooks and its sandbox providers' calls. Answers are
 * described by their known fields and keep any other (`looseObject`): the back office reads them whole.
 */

const op = { auth: false, operator: 'operator', domain: 'deposit', added: true } as const;
const webhook = { auth: false, domain: 'webhook', added: true, rawBody: true } as const;
const sandbox = { auth: false, domain: 'sandbox', added: true } as const;

const idParams = z.object({ id: z.string().min(1).max(64) });
const bankCode = z.string().regex(/^[A-Z0-9]{2,16}$/);
const accountNo = z.string().regex(/^\d{6,20}$/);
const transRef = z.string().regex(/^[A-Za-z0-9]{6,40}$/);
const phone = z.string().regex(/^0\d{9}$/);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM');
const timesBody = z.strictObject({ times: z.number().int().min(1).max(100) });
const deliveries = z.object({ deliveries: z.array(z.object({ status: z.number().int() })) });
const feed = z.object({ status: z.number().int() }).nullable();

export const slipSettingsSchema = z.strictObject({ uploadEnabled: z.boolean(), closedFrom: hhmm, closedTo: hhmm, maxAgeMinutes: z.number().int().min(1).max(7 * 24 * 60) });
export const operatorSlipSchema = z.looseObject({
  id: z.string(),
  memberId: z.string(),
  username: z.string(),
  reference: z.string(),
  /** Major units of `currency`; null while the bank does not know the transfer yet (a slip in progress: its amount is not known). */
  amount: z.number().nullable(),
  currency: z.enum(['THB', 'LAK']),
  /** The member's name, bank and account (`username` is the phone), for the operator's confirmation. */
  name: z.string(),
  bankCode: z.string(),
  bankAccountNo: z.string(),
  status: z.enum(['PENDING', 'SUCCESS', 'FAILED']),
  note: z.string().nullable(),
  transferKey: z.string().nullable(),
  createdAt: z.string(),
  checkedAt: z.string().nullable(),
  link: z.string(),
});
export const slipQuerySchema = z.object({ status: z.enum(['PENDING', 'SUCCESS', 'FAILED']).optional(), page: z.coerce.number().int().min(1).max(10_000).default(1) });
export const periodQuerySchema = z.object({ from: z.iso.datetime({ offset: true }).optional(), to: z.iso.datetime({ offset: true }).optional() });
const checkedSchema = z.looseObject({});
/** The outside systems of the reconciliation screen: the bank feed, slips (bank transfers credited through an uploaded slip), QR gateways, e-wallet vouchers and transfers, and payouts. */
export const reconSystemSchema = z.enum(['bank', 'slip', 'gateway', 'voucher', 'ewallet', 'payout']);
/** One day (in the site's time zone) × outside system × currency: what matched, and what is open (unmatched, uncredited, held, breached, in progress). Amounts in major units. */
export const reconDaySchema = z.object({
  day: z.string(),
  system: reconSystemSchema,
  currency: z.enum(['THB', 'LAK']),
  matched: z.number().int(),
  matchedAmount: z.number(),
  open: z.number().int(),
  openAmount: z.number(),
});
/** Where the back office acts on an item: the unmatched-deposit, held, slip, withdrawal or member screen. */
export const reconLinkSchema = z.object({ screen: z.enum(['deposits', 'held', 'slips', 'withdrawals', 'member']), id: z.string().nullable() });
/**
 * One open item: `unmatched` (money that came with no member, waiting to be assigned), `uncredited`
 * (money in our accounts nothing credited or queued), `pending` (a slip or voucher claim in
 * progress), `held` (held by the member's deposit rules), `breach` (a deposit or payout breach,
 * `detail` its kind), `processing` (a bank payout not settled yet). Amounts in major units.
 */
export const reconItemSchema = z.object({
  kind: z.enum(['unmatched', 'uncredited', 'pending', 'held', 'breach', 'processing']),
  system: reconSystemSchema,
  reference: z.string(),
  amount: z.number().nullable(),
  currency: z.enum(['THB', 'LAK']).nullable(),
  at: z.string(),
  detail: z.string().nullable(),
  memberId: z.string().nullable(),
  link: reconLinkSchema,
});
export const reconciliationSchema = z.looseObject({
  ok: z.boolean(),
  from: z.string(),
  to: z.string(),
  checked: checkedSchema,
  breaches: z.array(z.looseObject({})),
  uncredited: z.array(z.looseObject({})),
  /** The payouts' reconciliation against the bank's transfers. */
  payouts: z.looseObject({ ok: z.boolean(), provider: z.string(), listed: z.boolean(), from: z.string(), to: z.string(), checked: checkedSchema }),
  /** Added: the days of `days` are calendar days in this time zone (Asia/Bangkok; Asia/Vientiane on the Lao site, the same UTC+7). */
  timeZone: z.string(),
  /** Added: matched and open counts and sums per day, system and currency (days with nothing are left out). */
  days: z.array(reconDaySchema),
  /** Added: every open item, oldest first. */
  items: z.array(reconItemSchema),
});
/**
 * Added: transfers between wallets and game providers against each provider's own report of them.
 * `kind` of an item: NOT_AT_PROVIDER (we booked it, the provider has no such transfer),
 * UNKNOWN_TO_US (the provider applied a transfer we have not booked at it), DUPLICATE_AT_PROVIDER (its
 * report lists one of our references twice), AMOUNT_MISMATCH,
 * DIRECTION_MISMATCH, PLAYER_MISMATCH (the provider applied it to another player), FAILED_BUT_APPLIED
 * (we gave the money back, the provider applied it), PENDING (in doubt, being settled by asking:
 * not a breach). Amounts in major units of the member's currency.
 */
export const gameReconKinds = ['NOT_AT_PROVIDER', 'UNKNOWN_TO_US', 'DUPLICATE_AT_PROVIDER', 'AMOUNT_MISMATCH', 'DIRECTION_MISMATCH', 'PLAYER_MISMATCH', 'FAILED_BUT_APPLIED', 'PENDING'] as const;
export const gameReconDaySchema = z.object({ day: z.string(), code: z.string(), currency: z.enum(['THB', 'LAK']), matched: z.number().int(), matchedAmount: z.number(), open: z.number().int(), openAmount: z.number() });
export const gameReconItemSchema = z.object({
  kind: z.enum(gameReconKinds),
  code: z.string(),
  reference: z.string(),
  amount: z.number().nullable(),
  currency: z.enum(['THB', 'LAK']).nullable(),
  at: z.string(),
  memberId: z.string().nullable(),
  /** What the provider reported for it (null: nothing). */
  theirs: z.object({ username: z.string(), direction: z.enum(['in', 'out']), amount: z.number() }).nullable(),
});
export const gameReconciliationSchema = z.object({
  ok: z.boolean(),
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  /** Providers asked whose report came back, and those that did not answer (their transfers are not checked). */
  checked: z.array(z.string()),
  unreachable: z.array(z.string()),
  days: z.array(gameReconDaySchema),
  items: z.array(gameReconItemSchema),
});
export const unmatchedDepositSchema = z.looseObject({
  id: z.string(),
  channel: z.string(),
  reason: z.string(),
  amount: z.number(),
  currency: z.string(),
  fromBankCode: z.string().nullable(),
  fromAccountNo: z.string().nullable(),
  fromName: z.string().nullable(),
  toAccountNo: z.string().nullable(),
  receivedAt: z.string(),
  reference: z.string(),
});
/** A four-eyes call above FOUR_EYES_THRESHOLD answers 202 with the approval it recorded instead. */
export const assignedSchema = z.looseObject({
  id: z.string(),
  memberId: z.string(),
  operationId: z.string(),
  amount: z.number(),
  currency: z.string(),
  /** Held by the member's deposit rules (DEPOSIT_LIMIT, TIME_OUT, SELF_EXCLUDED): recorded, not credited; null when credited. */
  held: z.string().nullable().optional(),
});
/** overLimit: an owner's explicit credit over the member's deposit limit (else 403 DEPOSIT_LIMIT). */
export const manualDepositSchema = z.strictObject({
  memberId: z.string().min(1).max(64),
  amount: amountSchema,
  currency: z.enum(['BAHT', 'THB', 'LAK']),
  note: z.string().trim().min(1).max(200),
  overLimit: z.boolean().optional(),
});
export const channelSchema = z.looseObject({
  id: z.string(),
  kind: z.enum(['bank', 'wallet']),
  bank_code: z.string(),
  bank_type: z.enum(['BANK', 'PAYMENT']),
  mode: z.enum(['AUTO', 'SMS', 'MANUAL', 'NONE', 'GIFT']),
  account_name: z.string(),
  account_no: z.string(),
  currency: z.string(),
  sort: z.number(),
  active: z.boolean(),
  updated_at: instantSchema,
});
export const channelBodySchema = z.strictObject({
  kind: z.enum(['bank', 'wallet']),
  bankCode,
  bankType: z.enum(['BANK', 'PAYMENT']).default('BANK'),
  mode: z.enum(['AUTO', 'SMS', 'MANUAL', 'NONE', 'GIFT']),
  accountName: z.string().max(120).default(''),
  accountNo: z.string().regex(/^\d{0,20}$/).default(''),
  currency: z.enum(['BAHT', 'LAK']).default('BAHT'),
  sort: z.number().int().min(0).max(10_000).default(0),
  active: z.boolean().default(true),
});

export const depositOperatorCalls = {
  slipSettings: endpoint({ ...op, method: 'GET', path: '/api/operator/slip-settings', roles: ['finance'], response: slipSettingsSchema }),
  slipSettingsPut: endpoint({
    ...op, method: 'PUT', path: '/api/operator/slip-settings', roles: ['finance'], body: slipSettingsSchema, response: z.union([slipSettingsSchema, awaitingApprovalSchema]),
    description: 'The slip rules: upload on/off, the daily closed window (Asia/Bangkok, from > to wraps midnight), the oldest transfer accepted. Closing uploads applies at once; any other change answers 202 with the approval a second operator runs (before and after in its payload).',
  }),
  slipsList: endpoint({ ...op, method: 'GET', path: '/api/operator/slips', roles: ['finance', 'support'], query: slipQuerySchema, response: z.object({ slips: z.array(operatorSlipSchema) }) }),
  slipApprove: endpoint({
    ...op, method: 'POST', path: '/api/operator/slips/:id/approve', roles: ['finance'], params: idParams,
    body: z.strictObject({ amount: amountSchema.optional(), bankRef: z.string().trim().regex(/^[A-Za-z0-9-]{4,40}$/).optional() }).default({}), response: z.union([slipSchema, awaitingApprovalSchema]),
    description: 'Credits a slip in progress: the transfer the bank confirmed (its amount); when the bank does not know the slip\'s reference, `amount` and `bankRef` (the reference as the bank\'s statement shows it) are required, and the credit is keyed by `bankRef`. Such a credit of the typed amount is a manual credit: above the manual four-eyes threshold it answers 202 with the approval a second operator runs.',
  }),
  slipReject: endpoint({
    ...op, method: 'POST', path: '/api/operator/slips/:id/reject', roles: ['finance'], params: idParams,
    body: z.strictObject({ reason: z.enum(slipReasonCodes).default('INVALID_SLIP') }).default({ reason: 'INVALID_SLIP' }), response: slipSchema,
  }),
  reconciliation: endpoint({
    ...op, method: 'GET', path: '/api/operator/reconciliation', roles: ['finance'], query: periodQuerySchema, response: reconciliationSchema,
    description: 'Deposits and payouts against the outside systems\' records for [from, to) (default: the 24 hours before `to`, `to` now).',
  }),
  reconciliationGames: endpoint({
    ...op, method: 'GET', path: '/api/operator/reconciliation/games', roles: ['finance'], query: periodQuerySchema, response: gameReconciliationSchema,
    description: 'Transfers between wallets and game providers in [from, to) (default: the 24 hours before `to`) against each provider\'s own report of the transfers it applied (the other side).',
  }),
  depositManualSwitch: endpoint({
    ...op, method: 'PUT', path: '/api/operator/deposit-manual', roles: ['finance'], body: z.strictObject({ value: z.boolean() }), response: z.union([z.object({ isManual: z.boolean() }), awaitingApprovalSchema]),
    description: 'The manual-deposit switch. A change answers 202 with the approval a second operator runs; the same value answers at once.',
  }),
  depositsUnmatched: endpoint({ ...op, method: 'GET', path: '/api/operator/deposits/unmatched', roles: ['finance'], response: z.object({ deposits: z.array(unmatchedDepositSchema) }) }),
  depositAssign: endpoint({
    ...op, method: 'POST', path: '/api/operator/deposits/:id/assign', roles: ['finance'], params: idParams, body: z.strictObject({ memberId: z.string().min(1).max(64) }), response: z.union([assignedSchema, awaitingApprovalSchema]),
    description: 'Credits an unmatched deposit to a member (above FOUR_EYES_THRESHOLD: 202 with the approval a second operator runs).',
  }),
  depositManual: endpoint({
    ...op, method: 'POST', path: '/api/operator/deposits', roles: ['finance'], body: manualDepositSchema, response: z.union([moneyResultSchema, awaitingApprovalSchema]), movesMoney: true,
    description: 'A manual credit; needs an Idempotency-Key (400 KEY_MISSING). Above FOUR_EYES_THRESHOLD: 202 with the approval a second operator runs.',
  }),
  depositChannels: endpoint({ ...op, method: 'GET', path: '/api/operator/deposit-channels', roles: ['finance'], response: z.object({ channels: z.array(channelSchema) }) }),
  depositChannelPut: endpoint({
    ...op, method: 'PUT', path: '/api/operator/deposit-channels/:id', roles: ['finance'], params: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/) }), body: channelBodySchema, response: z.union([channelSchema, awaitingApprovalSchema]),
    description: 'A deposit channel (where members send money). A new channel or a change of its account, bank, mode, currency or switching it on answers 202 with the approval a second operator runs (before and after in its payload); switching it off and its order apply at once.',
  }),
  sandboxBankFault: endpoint({
    ...op, domain: 'sandbox', method: 'PUT', path: '/api/operator/sandbox/bank/fault', roles: [], body: z.strictObject({ mode: z.enum(['none', 'captcha', 'error']) }), response: z.object({ mode: z.enum(['none', 'captcha', 'error']) }),
    description: 'Failure injection of the sandbox bank\'s look-ups (slip verification), in this process.',
  }),
  sandboxEwalletFault: endpoint({
    ...op, domain: 'sandbox', method: 'PUT', path: '/api/operator/sandbox/ewallet/fault', roles: [], body: z.strictObject({ mode: z.enum(['none', 'down', 'hang']) }), response: z.object({ mode: z.enum(['none', 'down', 'hang']) }),
    description: 'Failure injection of the sandbox e-wallet (every process).',
  }),
};

const money = z.union([z.string().max(32), z.number()]);
/** A gateway's webhook body (extra fields are allowed: gateways add their own). */
export const paymentWebhookSchema = z.object({
  event: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  paymentId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  provider: z.string().regex(/^[A-Z]{2,16}$/),
  reference: z.string().regex(/^[A-Z0-9]{1,20}$/),
  amount: money,
  currency: z.enum(['THB', 'LAK']),
  paidAt: z.iso.datetime({ offset: true }).optional(),
});

/** A name from a bank, for operators to read: control and bidi-override characters and lone surrogates dropped. */
const bankName = z
  .string()
  .max(120)
  .default('')
  // eslint-disable-next-line no-control-regex -- dropping control characters is the point
  .transform((v) => v.replace(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, ''));

/** The bank's feed of a transfer into one of our accounts. */
export const bankFeedSchema = z.object({
  transRef,
  fromBankCode: bankCode,
  fromAccountNo: accountNo,
  fromName: bankName,
  toBankCode: bankCode,
  toAccountNo: accountNo,
  toName: bankName,
  amount: money,
  currency: z.enum(['THB', 'LAK']),
  at: z.iso.datetime({ offset: true }),
});

/** The e-wallet's feed of a transfer into one of our wallets. */
export const ewalletFeedSchema = z.object({
  transferId: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/),
  fromPhone: phone,
  toPhone: phone,
  amount: money,
  currency: z.enum(['THB', 'LAK']),
  at: z.iso.datetime({ offset: true }),
});

const applied = z.looseObject({ ok: z.literal(true), credited: z.boolean().optional(), duplicate: z.boolean().optional() });
const providerParams = z.object({ provider: z.string().max(16) });

/** Signed by the provider over the raw bytes (see the API description); each applied once by its own id. */
export const depositWebhookCalls = {
  webhookPayment: endpoint({ ...webhook, method: 'POST', path: '/api/webhooks/payments/:provider', params: providerParams, body: paymentWebhookSchema, response: applied }),
  webhookBank: endpoint({ ...webhook, method: 'POST', path: '/api/webhooks/bank/:bankCode', params: z.object({ bankCode: z.string().max(16) }), body: bankFeedSchema, response: applied }),
  webhookEwallet: endpoint({ ...webhook, method: 'POST', path: '/api/webhooks/ewallet/:provider', params: providerParams, body: ewalletFeedSchema, response: applied }),
};

const qrcodeParams = z.object({ qrcodeId: z.string().min(1).max(64) });

/** The sandbox providers' own calls (only while those sandboxes are on): what a bank, gateway or e-wallet would do. */
export const depositSandboxCalls = {
  sandboxPaymentPay: endpoint({
    ...sandbox, method: 'POST', path: '/api/sandbox/payments/:qrcodeId/pay', params: qrcodeParams,
    response: z.looseObject({ paymentId: z.string(), webhook: z.object({ status: z.number().int() }) }),
    description: 'The sandbox gateway pays a QR code and delivers its signed webhook.',
  }),
  sandboxPaymentRedeliver: endpoint({ ...sandbox, method: 'POST', path: '/api/sandbox/payments/:qrcodeId/redeliver', params: qrcodeParams, body: timesBody, response: deliveries }),
  sandboxBankSlip: endpoint({
    ...sandbox, method: 'GET', path: '/api/sandbox/bank/transfers/:transRef/slip.png', params: z.object({ transRef }), response: z.unknown(), produces: 'image/png',
    description: 'The slip the sending bank\'s app shows for a transfer (PNG with the slip-verify mini-QR).',
  }),
  sandboxBankTransfer: endpoint({
    ...sandbox, method: 'POST', path: '/api/sandbox/bank/transfers',
    body: z.strictObject({
      fromBankCode: bankCode,
      fromAccountNo: accountNo,
      fromName: z.string().min(1).max(120).optional(),
      toBankCode: bankCode,
      toAccountNo: accountNo,
      amount: amountSchema,
      currency: z.enum(['THB', 'LAK']).optional(),
      at: z.iso.datetime({ offset: true }).optional(),
      /** A slip made before the transfer reached the bank's records (tests of slips in progress). */
      transRef: transRef.optional(),
    }),
    response: z.looseObject({ transRef: z.string(), amount: z.number(), at: z.string(), feed }),
  }),
  sandboxEwalletVoucher: endpoint({
    ...sandbox, method: 'POST', path: '/api/sandbox/ewallet/vouchers',
    body: z.strictObject({ amount: amountSchema, expiresInSeconds: z.number().int().min(-86_400).max(30 * 86_400).default(86_400), fromPhone: phone.optional() }),
    response: z.object({ link: z.string(), hash: z.string(), amount: z.number(), expiresAt: z.string() }),
  }),
  sandboxEwalletTransfer: endpoint({
    ...sandbox, method: 'POST', path: '/api/sandbox/ewallet/transfers',
    body: z.strictObject({ fromPhone: phone, amount: amountSchema, toPhone: phone.optional() }),
    response: z.object({ transferId: z.string(), fromPhone: z.string(), toPhone: z.string(), amount: z.number(), at: z.string(), feed }),
  }),
  sandboxEwalletRedeliver: endpoint({
    ...sandbox, method: 'POST', path: '/api/sandbox/ewallet/transfers/:id/redeliver', params: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/) }), body: timesBody, response: deliveries,
  }),
};
