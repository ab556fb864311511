import { z } from 'zod';
import { endpoint } from '../http';
import { responsibleStateSchema } from '../responsible';
import { awaitingApprovalSchema } from './payout';

/**
 * Four eyes (FOUR_EYES_THRESHOLD): the approvals a maker's call recorded and a second finance or
 * owner operator runs or refuses (the maker cannot), and the responsible-play calls of finance
 * and support (held deposits, a member's state; a break is never lifted).
 */

const op = { auth: false, operator: 'operator', added: true } as const;
const idParams = z.object({ id: z.string().min(1).max(64) });

/** What the approved call answered: its status and body. */
export const actionResultSchema = z.object({ status: z.number().int(), body: z.unknown() });
export const approvalStatusSchema = z.enum(['pending', 'approved', 'rejected', 'cancelled']);
/** Who a request is about, as the approvals screen names them. */
export const approvalMemberSchema = z.object({ id: z.string(), name: z.string(), phone: z.string(), bank: z.string(), account: z.string(), currency: z.string() });
export const approvalSchema = z.looseObject({
  id: z.string(),
  /** `withdrawal.approve`, `withdrawal.complete`, `deposit.manual`, `deposit.assign`, `settings.channel`, … */
  action: z.string(),
  memberId: z.string().nullable(),
  member: approvalMemberSchema.nullable(),
  amount: z.number(),
  currency: z.string(),
  payload: z.unknown(),
  maker: z.string(),
  status: approvalStatusSchema,
  checker: z.string().nullable(),
  note: z.string().nullable(),
  result: actionResultSchema.nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});

const threshold = z.number().min(0).max(1_000_000_000_000);
const currencyThresholdsSchema = z.strictObject({ manual: threshold, assign: threshold, payout: threshold, operatorDay: threshold });
/** Four-eyes thresholds in major units (baht, kip): above them a second person approves. */
export const fourEyesThresholdsSchema = z.strictObject({ THB: currencyThresholdsSchema, LAK: currencyThresholdsSchema });

export const approvalOperatorCalls = {
  approvalsList: endpoint({
    ...op, domain: 'approval', method: 'GET', path: '/api/operator/approvals', roles: ['finance'],
    query: z.object({ status: approvalStatusSchema.optional() }), response: z.object({ approvals: z.array(approvalSchema) }),
  }),
  approvalGet: endpoint({ ...op, domain: 'approval', method: 'GET', path: '/api/operator/approvals/:id', roles: ['finance'], params: idParams, response: approvalSchema }),
  approvalApprove: endpoint({
    ...op, domain: 'approval', method: 'POST', path: '/api/operator/approvals/:id/approve', roles: ['finance'], params: idParams,
    response: z.object({ id: z.string(), status: z.literal('approved'), result: actionResultSchema }),
    description: 'Runs the recorded call once. A second person with a session: the maker (403 SAME_OPERATOR), the automation key (403 API_KEY_NOT_A_PERSON) and an operator the maker created, enrolled or promoted less than 7 days ago (403 CHECKER_TOO_NEW) cannot.',
  }),
  approvalCancel: endpoint({
    ...op, domain: 'approval', method: 'POST', path: '/api/operator/approvals/:id/cancel', roles: ['finance'], params: idParams,
    body: z.strictObject({ note: z.string().trim().max(200).optional() }).default({}), response: approvalSchema,
    description: 'The maker withdraws their own pending request (403 NOT_THE_MAKER for anyone else): nothing runs.',
  }),
  fourEyesGet: endpoint({
    ...op, domain: 'approval', method: 'GET', path: '/api/operator/four-eyes', roles: ['finance'], response: fourEyesThresholdsSchema,
    description: 'The four-eyes thresholds per currency, in major units: a member\'s manual credits, assignments and payouts over 24 h, and one operator\'s day.',
  }),
  fourEyesPut: endpoint({
    ...op, domain: 'approval', method: 'PUT', path: '/api/operator/four-eyes', roles: [], body: fourEyesThresholdsSchema, response: z.union([fourEyesThresholdsSchema, awaitingApprovalSchema]),
    description: 'Owner only; audited with before and after. Lowering thresholds applies at once; raising any answers 202 with the approval a second person runs (over the thresholds as they were when asked, else 422 CHANGED_SINCE_REQUEST).',
  }),
  approvalReject: endpoint({
    ...op, domain: 'approval', method: 'POST', path: '/api/operator/approvals/:id/reject', roles: ['finance'], params: idParams,
    body: z.strictObject({ note: z.string().trim().min(1).max(200) }), response: approvalSchema,
  }),
};

export const heldDepositSchema = z.object({
  id: z.string(),
  memberId: z.string(),
  /** The member's phone. */
  username: z.string(),
  /** The member's name, bank and account, for the operator's confirmation. */
  name: z.string(),
  bankCode: z.string(),
  bankAccountNo: z.string(),
  /** Major units of `currency` (THB or LAK). */
  amount: z.number(),
  currency: z.string(),
  from: z.unknown(),
  source: z.string(),
  reference: z.string(),
  reason: z.string(),
  status: z.string(),
  receivedAt: z.string(),
});

export const responsibleOperatorCalls = {
  heldDeposits: endpoint({
    ...op, domain: 'responsible', method: 'GET', path: '/api/operator/deposits/held', roles: ['finance'],
    query: z.object({ status: z.enum(['HELD', 'RETURNED', 'ALL']).default('HELD') }), response: z.object({ deposits: z.array(heldDepositSchema) }),
  }),
  heldRelease: endpoint({
    ...op, domain: 'responsible', method: 'POST', path: '/api/operator/deposits/held/:id/release', roles: ['finance'], params: idParams,
    // Optional: a missing body is no force.
    body: z.strictObject({ force: z.boolean().optional() }).nullish(),
    response: z.object({ ok: z.literal(true), id: z.string(), memberId: z.string(), amount: z.number(), currency: z.enum(['THB', 'LAK']), wallet: z.object({ amount: z.number() }) }),
    description: 'Credits a held deposit; over the limit (or during a break) only an owner, asking with {force: true}.',
  }),
  heldReturn: endpoint({
    ...op, domain: 'responsible', method: 'POST', path: '/api/operator/deposits/held/:id/return', roles: ['finance'], params: idParams,
    // Optional for the calls made before it (a missing body: no reason, no reference); the back office always sends both.
    body: z
      .strictObject({
        /** Why it goes back (kept in the audit). */
        reason: z.string().trim().min(1).max(200).optional(),
        /** The outgoing transfer's reference, the money having been sent back by hand. */
        reference: z.string().trim().regex(/^[A-Za-z0-9-]{4,40}$/).optional(),
      })
      .nullish(),
    response: z.object({ ok: z.literal(true), id: z.string(), status: z.literal('RETURNED'), reference: z.string().nullable() }),
    description: 'Marks a held deposit as returned to its sender by hand (outside the wallet), with the outgoing transfer\'s reference; nothing is credited.',
  }),
  memberResponsible: endpoint({ ...op, domain: 'responsible', method: 'GET', path: '/api/operator/members/:id/responsible', roles: ['finance', 'support'], params: idParams, response: responsibleStateSchema }),
  memberBreakLift: endpoint({
    ...op, domain: 'responsible', method: 'DELETE', path: '/api/operator/members/:id/responsible/break', roles: ['support'], params: idParams, response: z.never(),
    description: 'Refused to everyone (403 EXCLUSION_CANNOT_BE_LIFTED); the try is in the audit.',
  }),
  memberBreakChange: endpoint({
    ...op, domain: 'responsible', method: 'PUT', path: '/api/operator/members/:id/responsible/break', roles: ['support'], params: idParams, response: z.never(),
    description: 'Refused to everyone (403 EXCLUSION_CANNOT_BE_LIFTED); the try is in the audit.',
  }),
};
