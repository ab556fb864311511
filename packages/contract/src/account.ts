import { z } from 'zod';
import { LAOS_CURRENCIES } from './constants';
import { endpoint, isoDateSchema, okSchema } from './http';
import { PASSWORD_MAX } from './rules';
import { text } from './text';
import { bankNamesSchema } from './lookups';

/**
 * Account, login, profile and OTP calls of spec section 7, plus the calls this implementation
 * adds: POST /api/logout and the forgot-password pair.
 *
 * Field rules (phone length, English-only names...) are domain rules in rules.ts, answered with
 * their own codes; the schemas here only fix names and types, so a wrong type answers KEY_INVALID
 * and a missing field KEY_MISSING.
 */

export const registrationSchema = z.strictObject({
  name: text(200),
  username: text(32).describe('the phone number'),
  password: text(PASSWORD_MAX * 4),
  sourceCode: text(32).optional().default(''),
  inviteCode: text(64).optional().default(''),
  bankCode: text(16),
  bankAccountName: text(200).describe('first and last name joined by a space'),
  bankAccountNo: text(32),
  currency: z.enum(LAOS_CURRENCIES).optional().describe('Laos mode only; LAK by default'),
  birthDate: text(10)
    .optional()
    .describe(
      'added (issue 22): the date of birth, YYYY-MM-DD. Required by POST /api/account (400 KEY_MISSING without it, unless the deployment sets BIRTH_DATE_REQUIRED=false); under the minimum age (20, MIN_AGE) 400 UNDERAGE, not a real day 400 BIRTH_DATE_INVALID. Checked by validate when given.',
    ),
  otpToken: text(128)
    .optional()
    .describe(
      'added: the otpToken of the code this client verified for this phone (POST /api/otp/verify). Required by POST /api/account while registerOTP is on, and used up by it (single use); ignored by validate and when registerOTP is off.',
    ),
});
export type Registration = z.input<typeof registrationSchema>;

export const loginSchema = z.strictObject({ username: text(32), password: text(PASSWORD_MAX * 4) });
export const loginResponseSchema = z.object({ token: z.string() });

export const profileBankSchema = bankNamesSchema.extend({ code: z.string() });
export const profileSchema = z.object({
  _id: z.string(),
  username: z.string(),
  name: z.string(),
  createdAt: isoDateSchema,
  coin: z.number().int(),
  bankCode: z.string(),
  bankAccountName: z.string(),
  bankAccountNo: z.string(),
  bank: profileBankSchema.nullable(),
  currency: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileUpdateSchema = z.strictObject({
  name: text(200),
  bankCode: text(16),
  bankAccountName: text(200),
  bankAccountNo: text(32),
});
export const bankAccountNameUpdateSchema = z.strictObject({ bankCode: text(16), bankAccountName: text(200) });
export const changePasswordSchema = z.strictObject({
  oldPassword: text(PASSWORD_MAX * 4),
  newPassword: text(PASSWORD_MAX * 4),
});

export const otpSendSchema = z.strictObject({
  phoneNumber: text(32),
  otpToken: text(128)
    .optional()
    .describe('added: a token this client already verified for this phone; when it is still valid and unused the answer is OTP_VERIFIED and no SMS goes out'),
});
/**
 * `code` is OTP_SENT when a code went out, OTP_VERIFIED when the client sent an otpToken it has
 * already verified for this phone and that can still register it (the client then skips the OTP
 * step; otpRef and otpToken echo that token's). A phone verified by someone else is never
 * OTP_VERIFIED for this client: it gets a code of its own.
 */
export const otpSendResponseSchema = z.object({
  otpRef: z.string(),
  otpToken: z.string(),
  code: z.enum(['OTP_SENT', 'OTP_VERIFIED']),
});
export const otpVerifySchema = z.strictObject({ otpToken: text(128), otpCode: text(16) });
export const otpVerifyResponseSchema = z.object({ code: z.literal('OTP_CODE_VALID') });

/**
 * Forgot password (added). Send answers the same shape whether or not the phone is registered,
 * so it reveals nothing; for an unregistered phone no SMS goes out and the later reset fails
 * with OTP_CODE_INVALID like a wrong code would.
 */
export const forgotSendSchema = z.strictObject({ phoneNumber: text(32) });
export const forgotSendResponseSchema = z.object({ otpRef: z.string(), otpToken: z.string() });
export const forgotResetSchema = z.strictObject({
  otpToken: text(128),
  otpCode: text(16),
  newPassword: text(PASSWORD_MAX * 4),
});

export const accountEndpoints = {
  accountValidate: endpoint({
    method: 'POST', path: '/api/account/validate', auth: false, domain: 'account',
    body: registrationSchema, response: okSchema,
    description: 'Checks every registration rule without creating the account; while bankCode, bankAccountName and bankAccountNo are all empty (the profile step) the bank rules are skipped.',
  }),
  accountCreate: endpoint({
    method: 'POST', path: '/api/account', auth: false, domain: 'account',
    body: registrationSchema, response: z.object({ ok: z.literal(true), _id: z.string() }),
  }),
  login: endpoint({ method: 'POST', path: '/api/login', auth: false, domain: 'account', body: loginSchema, response: loginResponseSchema }),
  logout: endpoint({ method: 'POST', path: '/api/logout', auth: true, domain: 'account', response: okSchema, added: true, description: 'Revokes the calling session.' }),
  profileGet: endpoint({ method: 'GET', path: '/api/account/profile', auth: true, domain: 'account', response: profileSchema }),
  profilePut: endpoint({ method: 'PUT', path: '/api/account/profile', auth: true, domain: 'account', body: profileUpdateSchema, response: profileSchema }),
  bankAccountNamePut: endpoint({
    method: 'PUT', path: '/api/account/bankAccountName', auth: true, domain: 'account',
    body: bankAccountNameUpdateSchema, response: profileSchema,
  }),
  changePassword: endpoint({
    method: 'PUT', path: '/api/account/changepwd', auth: true, domain: 'account',
    body: changePasswordSchema, response: okSchema,
    description: 'Revokes every other session of the member.',
  }),
  otpSend: endpoint({ method: 'POST', path: '/api/otp/send', auth: false, domain: 'otp', body: otpSendSchema, response: otpSendResponseSchema }),
  otpVerify: endpoint({ method: 'POST', path: '/api/otp/verify', auth: false, domain: 'otp', body: otpVerifySchema, response: otpVerifyResponseSchema }),
  forgotSend: endpoint({
    method: 'POST', path: '/api/password/forgot/send', auth: false, domain: 'account', added: true,
    body: forgotSendSchema, response: forgotSendResponseSchema,
  }),
  forgotReset: endpoint({
    method: 'POST', path: '/api/password/forgot/reset', auth: false, domain: 'account', added: true,
    body: forgotResetSchema, response: okSchema, description: 'Sets a new password and revokes every session.',
  }),
};

/** Sandbox SMS outbox (exists only while the sandbox SMS provider is selected). */
export const sandboxSmsResponseSchema = z.object({
  messages: z.array(z.object({ phoneNumber: z.string(), text: z.string(), createdAt: isoDateSchema })),
});
