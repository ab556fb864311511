import { z } from 'zod';
import { text } from './text';
import { endpoint, isoDateSchema, pageRequestSchema } from './http';
import { bahtSchema } from './money';
import { slipSchema } from './wallet';

/** Statement and slip history calls of spec section 7. The slip item is slipSchema of wallet.ts. */
export const statementTypeSchema = z.enum(['deposit', 'bonus', 'finish_bonus', 'withdraw', 'transfer']);
export type StatementType = z.infer<typeof statementTypeSchema>;

const linked = z.object({ description: z.string() }).optional();

/** Statement item (spec section 3). */
export const statementItemSchema = z.object({
  _id: z.string(),
  statementType: statementTypeSchema,
  status: z.string().describe("'SUCCESS' | 'FAILED' | anything else = in progress"),
  from: z.string().describe("'WALLET', a game code, or the source of a deposit"),
  to: z.string().describe("'WALLET', a game code, or the target of a withdrawal"),
  amount: bahtSchema.describe('unsigned; the client signs it by statementType and direction'),
  createdAt: isoDateSchema,
  /** Added: the reason code of a FAILED item (e.g. TRANSFER_FAIL, or the operator's reason for a rejected withdrawal). */
  note: z.string().optional(),
  /** Added (finish_bonus): true when the end took money back from the wallet (the amount, out); false: nothing moved. */
  takenBack: z.boolean().optional(),
  bonus: linked,
  promotion: linked,
  invite: linked,
  refund: linked,
  luckydraw: linked,
});
export type StatementItem = z.infer<typeof statementItemSchema>;

export const statementListResponseSchema = z.object({ total: z.number().int(), statements: z.array(statementItemSchema) });
export const slipListResponseSchema = z.object({ total: z.number().int(), slips: z.array(slipSchema) });
export const slipReferenceParamsSchema = z.object({ reference: text(128) });
export const slipUrlResponseSchema = z.object({ url: z.string().describe('URL of the slip image') });

export const statementEndpoints = {
  statementList: endpoint({
    method: 'POST', path: '/api/statement', auth: true, domain: 'statement',
    body: pageRequestSchema, response: statementListResponseSchema,
  }),
  statementSlips: endpoint({
    method: 'POST', path: '/api/statement/slip', auth: true, domain: 'statement',
    body: pageRequestSchema, response: slipListResponseSchema,
  }),
  statementSlipReference: endpoint({
    method: 'GET', path: '/api/statement/slip/reference/:reference', auth: true, domain: 'statement',
    params: slipReferenceParamsSchema, response: slipUrlResponseSchema,
  }),
};
