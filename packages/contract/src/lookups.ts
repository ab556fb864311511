import { z } from 'zod';
import { endpoint } from './http';
import { bahtSchema } from './money';

/** Lookups of spec section 7: GET, no payload, no token needed. */
/**
 * A bank's names. Added to the spec's nameTH/nameEN: nameLA (Lao; the English name when the
 * operator set none), so each screen shows one language.
 */
export const bankNamesSchema = z.object({ nameTH: z.string(), nameEN: z.string(), nameLA: z.string() });
export type BankNames = z.infer<typeof bankNamesSchema>;
/** Added: `country` (TH or LA) — registration offers the build's banks (README "Banks"). */
export const bankSchema = bankNamesSchema.extend({ code: z.string(), country: z.enum(['TH', 'LA']) });
export type Bank = z.infer<typeof bankSchema>;

export const sourceSchema = z.object({ code: z.string(), description: z.string() });

export const depositBankSchema = z.object({
  bankCode: z.string(),
  /** BANK for a bank account, PAYMENT for a QR payment provider (WW, PAYTIMZ, PAYONEX, ZPAY). */
  bankType: z.enum(['BANK', 'PAYMENT']),
  /** AUTO (automatic deposit), SMS (QR for KBANK), MANUAL, or NONE (shown, nothing automatic). */
  mode: z.string(),
  bank: bankNamesSchema,
  bankAccountName: z.string(),
  bankAccountNo: z.string(),
  currency: z.string(),
  minimum: bahtSchema.optional().describe('added, QR channels (PAYMENT, or a bank in SMS mode): the smallest QR amount, in the member\'s currency'),
  presets: z.array(bahtSchema).optional().describe('added, QR channels: the preset amounts offered, in the member\'s currency'),
});
/**
 * An e-wallet channel: AUTO shows the account number to transfer to (added to the spec:
 * `walletAccountNo`) with a note to send from the registered phone; any other mode is the
 * gift-link form.
 */
export const depositWalletSchema = z.object({
  walletAccountName: z.string(),
  mode: z.string(),
  walletAccountNo: z.string().optional(),
  publicKey: z.string().optional().describe('RSA public key (SPKI, PEM): the gift link is encrypted with it (RSA-OAEP, SHA-256) before POST /api/wallet/truelink'),
  minimum: bahtSchema.optional().describe('added: the smallest gift voucher taken, in the member\'s currency'),
});
export const depositLookupSchema = z.object({
  banks: z.array(depositBankSchema),
  wallets: z.array(depositWalletSchema),
  isManual: z.boolean(),
  demoTopUp: z.boolean().optional().describe('added: true when the demo top-up POST /api/wallet/add exists (sandbox payments); absent or false with real payments'),
  currency: z.enum(['THB', 'LAK']).optional().describe('added: the currency of every figure here (the member\'s)'),
});

export const infoSchema = z.object({ name: z.string(), website: z.string() });
export const contactSchema = z.object({
  contactText: z.string().describe('HTML'),
  lineLink: z.string(),
  lineName: z.string(),
  lineQR: z.string().describe('image URL, empty for the local fallback'),
});
/**
 * Added: `currency`, the currency of the figures (the asking member's; a guest's: the site's), and
 * `transferMin`, the smallest transfer between the wallet and a game in it.
 */
export const withdrawLimitsSchema = z.object({
  withdrawMin: bahtSchema,
  withdrawMax: bahtSchema,
  currency: z.enum(['THB', 'LAK']).optional(),
  transferMin: bahtSchema.optional(),
});
/** Slip upload settings (the spec names the lookup only): the daily closed window and the age limit. */
export const slipLookupSchema = z.object({
  uploadEnabled: z.boolean(),
  closedFrom: z.string().describe('HH:mm, Asia/Bangkok'),
  closedTo: z.string().describe('HH:mm, Asia/Bangkok'),
  maxAgeMinutes: z.number().int(),
});

export const lookupEndpoints = {
  lookupBanks: endpoint({ method: 'GET', path: '/api/lookup/banks', auth: false, domain: 'lookup', response: z.array(bankSchema) }),
  lookupDeposit: endpoint({ method: 'GET', path: '/api/lookup/deposit', auth: true, domain: 'deposit', response: depositLookupSchema }),
  lookupConditions: endpoint({ method: 'GET', path: '/api/lookup/conditions', auth: false, domain: 'lookup', response: z.array(z.string().describe('HTML')) }),
  lookupAgreements: endpoint({ method: 'GET', path: '/api/lookup/agreements', auth: false, domain: 'lookup', response: z.array(z.string().describe('HTML')) }),
  lookupInfo: endpoint({ method: 'GET', path: '/api/lookup/info', auth: false, domain: 'lookup', response: infoSchema }),
  lookupNotice: endpoint({
    method: 'GET', path: '/api/lookup/notice', auth: false, domain: 'lookup',
    response: z.object({ notice: z.string().describe('text with %percentFail% placeholders') }),
  }),
  lookupContact: endpoint({ method: 'GET', path: '/api/lookup/contact', auth: false, domain: 'lookup', response: contactSchema }),
  lookupWithdraw: endpoint({ method: 'GET', path: '/api/lookup/withdraw', auth: false, domain: 'lookup', response: withdrawLimitsSchema }),
  lookupSlip: endpoint({ method: 'GET', path: '/api/lookup/slip', auth: false, domain: 'lookup', response: slipLookupSchema }),
  lookupSources: endpoint({ method: 'GET', path: '/api/lookup/sources', auth: false, domain: 'lookup', response: z.array(sourceSchema) }),
  /** Site state. A terminated site answers 410 `{ message: 'gone', active: false }` here as everywhere. */
  lookupActive: endpoint({ method: 'GET', path: '/api/lookup/active', auth: false, domain: 'lookup', response: z.object({ active: z.boolean() }) }),
  lookupRegisterOTP: endpoint({ method: 'GET', path: '/api/lookup/registerOTP', auth: false, domain: 'lookup', response: z.object({ registerOTP: z.boolean() }) }),
  lookupEnableChatWidget: endpoint({
    method: 'GET', path: '/api/lookup/enableChatWidget', auth: false, domain: 'lookup',
    response: z.object({ enableChatWidget: z.boolean() }),
  }),
};
