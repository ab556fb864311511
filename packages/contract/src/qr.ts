import { z } from 'zod';
import { text } from './text';
import { endpoint, idSchema, okSchema } from './http';
import { amountSchema, bahtSchema } from './money';

/**
 * QR deposit calls of spec section 7. Minimums and presets per provider are QR_MINIMUMS and
 * QR_PRESETS in constants.ts. A create below the minimum is 400 DEPOSIT_MINIMUM {minimum}, above the maximum 400
 * DEPOSIT_MAXIMUM {maximum}; an unknown or inactive provider 404 NO_CHANNEL; a second QR while
 * one is open 409 QR_ALREADY_OPEN; a gateway that fails answers 200 with hasQrcode false and
 * message QR_FAIL. Delete of a QR that is not the caller's (or not open) is 404 NO_QRCODE.
 */
export const qrBankParamsSchema = z.object({ bankCode: text(16) });
export const qrIdParamsSchema = z.object({ qrcodeId: idSchema });

/**
 * QR state (spec section 3). With no QR (or a failed create) hasQrcode is false, the QR fields are
 * null and `message` may carry the reason code.
 */
export const qrStateSchema = z.object({
  hasQrcode: z.boolean(),
  qrcodeId: z.string().nullable(),
  qrcode: z.string().nullable().describe('QR markup (SVG or an img element) to render as is'),
  amount: bahtSchema.nullable(),
  expireIn: z.number().int().nullable().describe('whole seconds until the QR expires, counted from this answer'),
  payload: z.string().nullable().optional().describe('the EMVCo / Thai QR payload the QR encodes (added to the spec): draw the QR from it'),
  message: z.string().optional().describe('reason code when hasQrcode is false after a create (e.g. QR_FAIL)'),
});
export type QrState = z.infer<typeof qrStateSchema>;

export const qrCreateSchema = z.strictObject({ amount: amountSchema });

export const qrEndpoints = {
  qrGet: endpoint({
    method: 'GET', path: '/api/qrcode/:bankCode', auth: true, domain: 'deposit',
    params: qrBankParamsSchema, response: qrStateSchema, description: 'The open QR of this provider, if any.',
  }),
  qrCreate: endpoint({ duringBreak: 'refused',
    method: 'POST', path: '/api/qrcode/:bankCode', auth: true, domain: 'deposit',
    params: qrBankParamsSchema, body: qrCreateSchema, response: qrStateSchema,
  }),
  qrDelete: endpoint({
    method: 'DELETE', path: '/api/qrcode/:qrcodeId', auth: true, domain: 'deposit',
    params: qrIdParamsSchema, response: okSchema,
  }),
};

export { depositErrorCodes } from './deposit-errors';
