import { z } from 'zod';
import { conversationSchema } from '../chat';
import { endpoint } from '../http';
import { statementItemSchema } from '../statement';
import { gameAccountSchema, slipSchema, walletBalanceSchema } from '../wallet';

/**
 * The back office's read views (dashboard, members, a member's profile, statement, slips and chat)
 * and its two member actions (lock, notes; both audited). Answers are described by their known
 * fields and keep any other (`looseObject`): the back office reads them whole.
 */

const op = { auth: false, operator: 'operator', domain: 'backoffice', added: true } as const;
const idParams = z.object({ id: z.string().min(1).max(64) });
const queueSchema = z.looseObject({ count: z.number().int(), oldestAt: z.string().nullable() });

export const operatorMemberSchema = z.looseObject({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  bankCode: z.string(),
  bankAccountNo: z.string(),
  bankAccountName: z.string(),
  currency: z.string(),
  status: z.string(),
  inviterId: z.string().nullable(),
  createdAt: z.string(),
  /** The operators' labels of the member (vip, watch, affiliate, …). */
  tags: z.array(z.string()).optional(),
});
/** A member tag: lowercase letters, digits and dashes, up to 24 (`vip`, `watch`, `affiliate`, …). */
export const memberTagSchema = z.string().trim().toLowerCase().regex(/^[\p{Ll}\p{Lo}0-9][\p{Ll}\p{Lo}\p{M}0-9-]{0,23}$/u);
/** The tags the back office offers first; any other tag of the same form is accepted. */
export const SUGGESTED_MEMBER_TAGS = ['vip', 'watch', 'affiliate', 'staff', 'test'] as const;
export const memberNoteSchema = z.looseObject({ id: z.string(), text: z.string(), author: z.string(), at: z.string() });
const memberLink = z.looseObject({ id: z.string(), username: z.string(), name: z.string() });

export const dashboardSchema = z.looseObject({
  from: z.string(),
  at: z.string(),
  /** One currency's money of the day, in minor units. */
  totals: z.array(z.looseObject({ currency: z.string(), deposits: z.number(), withdrawals: z.number(), bonuses: z.number(), net: z.number() })),
  activeMembers: z.number().int(),
  queues: z.looseObject({ withdrawals: queueSchema, slips: queueSchema, unmatched: queueSchema, chats: queueSchema.extend({ messages: z.number().int() }) }),
  sandbox: z.boolean(),
  providers: z.array(z.looseObject({ code: z.string(), mode: z.enum(['none', 'live', 'down', 'timeout', 'error-after-take']) })),
});

export const memberDetailSchema = z.looseObject({
  member: operatorMemberSchema,
  wallet: walletBalanceSchema.loose(),
  coin: z.number().int(),
  games: z.array(gameAccountSchema.loose()),
  /** The bonus running (its receipt and progress), or null. */
  bonus: z.looseObject({ progress: z.looseObject({ turnover: z.number().describe('major units of the member\'s currency'), target: z.number().describe('major units of the member\'s currency') }).nullable() }).nullable(),
  invite: z.looseObject({ amount: z.number(), success: z.number(), fail: z.number(), inviter: memberLink.nullable(), invited: z.array(memberLink.extend({ createdAt: z.string() })) }),
  notes: z.array(memberNoteSchema),
});

const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1), limit: z.coerce.number().int().min(1).max(500).default(25) });

export const backofficeOperatorCalls = {
  dashboard: endpoint({
    ...op, method: 'GET', path: '/api/operator/dashboard', roles: ['finance', 'support', 'marketing'], response: dashboardSchema,
    description: 'Today\'s money per currency (the calendar day in Asia/Bangkok), the queues and the game providers\' health.',
  }),
  membersSearch: endpoint({
    ...op, method: 'GET', path: '/api/operator/members', roles: ['finance', 'support'],
    query: z.object({
      q: z.string().max(100).default(''),
      status: z.enum(['active', 'inactive']).optional(),
      /** Only members with this tag. */
      tag: memberTagSchema.optional(),
      page: z.coerce.number().int().min(1).max(100_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(200).default(25),
      sort: z.enum(['createdAt', '-createdAt', 'username', 'name']).default('-createdAt'),
    }),
    response: z.looseObject({ total: z.number().int(), members: z.array(operatorMemberSchema) }),
    description: 'Search by id, phone, name or bank account.',
  }),
  memberGet: endpoint({
    ...op, method: 'GET', path: '/api/operator/members/:id', roles: ['finance', 'support'], params: idParams, response: memberDetailSchema,
    description: 'Profile, wallet and game balances, the running bonus, invites, notes.',
  }),
  memberStatement: endpoint({
    ...op, method: 'GET', path: '/api/operator/members/:id/statement', roles: ['finance', 'support'], params: idParams, query: pageQuery,
    response: z.looseObject({ total: z.number().int(), statements: z.array(statementItemSchema.loose()) }),
  }),
  memberSlips: endpoint({
    ...op, method: 'GET', path: '/api/operator/members/:id/slips', roles: ['finance', 'support'], params: idParams, query: pageQuery,
    response: z.looseObject({ total: z.number().int(), slips: z.array(slipSchema.loose()) }),
  }),
  memberChat: endpoint({
    ...op, method: 'GET', path: '/api/operator/members/:id/chat', roles: ['finance', 'support'], params: idParams,
    query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50), skip: z.coerce.number().int().min(0).max(1_000_000).default(0) }),
    response: z.looseObject({ threadId: z.string().nullable(), messages: z.array(conversationSchema.loose()) }),
  }),
  memberLock: endpoint({
    ...op, method: 'POST', path: '/api/operator/members/:id/lock', roles: ['support'], params: idParams, body: z.strictObject({ locked: z.boolean() }), response: operatorMemberSchema,
    description: 'Lock (no login, the member\'s sessions end) or unlock; audited.',
  }),
  memberNoteAdd: endpoint({
    ...op, method: 'POST', path: '/api/operator/members/:id/notes', roles: ['support'], params: idParams, body: z.strictObject({ text: z.string().trim().min(1).max(1000) }), response: memberNoteSchema,
    description: 'A note on the member; audited.',
  }),
  memberTagsPut: endpoint({
    ...op, method: 'PUT', path: '/api/operator/members/:id/tags', roles: ['finance', 'support'], params: idParams,
    body: z.strictObject({ tags: z.array(memberTagSchema).max(10) }), response: z.looseObject({ id: z.string(), tags: z.array(z.string()) }),
    description: 'Sets the member\'s tags (the whole list); audited with before and after.',
  }),
};
