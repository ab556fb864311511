import { z } from 'zod';
import { endpoint, isoDateSchema, pageRequestSchema } from './http';
import { carouselItemSchema } from './invite';
import { bahtSchema } from './money';
import { walletBalanceSchema } from './wallet';

/** Refund-of-losses calls of spec section 7. */
export const refundRowSchema = z.object({ refundAmount: bahtSchema, createdAt: isoDateSchema });
export type RefundRow = z.infer<typeof refundRowSchema>;

export const refundListResponseSchema = z.object({ total: z.number().int(), refunds: z.array(refundRowSchema) });

/** Refund check result (spec section 3). */
export const refundCheckSchema = z.object({
  result: z.boolean().describe('a refund is available'),
  bonus: z.boolean().describe('a bonus is active (receive is disabled)'),
  info: z.string().describe('HTML'),
  refundAmount: bahtSchema,
  received: bahtSchema.describe('received and not added to the wallet yet (added to the spec)'),
  refundSuccess: z.number().describe('percent'),
  refundFail: z.number().describe('percent'),
});
export type RefundCheck = z.infer<typeof refundCheckSchema>;

export const refundReceiveResponseSchema = z.object({
  message: z.string().describe('REFUND_SUCCESS on success; the client shows it translated'),
});

/** GET /api/refund/addWallet: the refund credited to the main wallet. */
export const refundAddWalletResponseSchema = z.object({
  ok: z.literal(true),
  amount: bahtSchema.describe('the amount credited'),
  wallet: walletBalanceSchema.describe('main wallet balance after the call'),
});

export const refundEndpoints = {
  refundList: endpoint({
    method: 'POST', path: '/api/refund', auth: true, domain: 'refund',
    body: pageRequestSchema, response: refundListResponseSchema,
  }),
  refundCheck: endpoint({ duringBreak: 'refused', method: 'GET', path: '/api/refund/check', auth: true, domain: 'refund', response: refundCheckSchema }),
  refundReceive: endpoint({
    method: 'GET', path: '/api/refund/receive', auth: true, domain: 'refund', movesMoney: true,
    response: refundReceiveResponseSchema,
  }),
  refundAddWallet: endpoint({
    method: 'GET', path: '/api/refund/addWallet', auth: true, domain: 'refund', movesMoney: true,
    response: refundAddWalletResponseSchema,
  }),
  refundBanners: endpoint({ duringBreak: 'refused',
    method: 'GET', path: '/api/refund/banners', auth: true, domain: 'refund', response: z.array(carouselItemSchema),
  }),
};
