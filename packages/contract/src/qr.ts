import { z } from 'zod';
import { text } from './text';
import { endpoint, idSchema, okSchema } from './http';
import { amountSchema, bahtSchema } from './money';

/** QR deposit calls of spec section 7. Minimums per provider (QR_MINIMUMS) are service rules. */
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
  message: z.string().optional().describe('reason code when hasQrcode is false after a create (e.g. QR_FAIL)'),
});
export type QrState = z.infer<typeof qrStateSchema>;

export const qrCreateSchema = z.strictObject({ amount: amountSchema });

export const qrEndpoints = {
  qrGet: endpoint({
    method: 'GET', path: '/api/qrcode/:bankCode', auth: true, domain: 'qr',
    params: qrBankParamsSchema, response: qrStateSchema, description: 'The open QR of this provider, if any.',
  }),
  qrCreate: endpoint({
    method: 'POST', path: '/api/qrcode/:bankCode', auth: true, domain: 'qr',
    params: qrBankParamsSchema, body: qrCreateSchema, response: qrStateSchema,
  }),
  qrDelete: endpoint({
    method: 'DELETE', path: '/api/qrcode/:qrcodeId', auth: true, domain: 'qr',
    params: qrIdParamsSchema, response: okSchema,
  }),
};
