import { z } from 'zod';
import { chatMessageSchema, chatUploadResponseSchema, conversationSchema } from '../chat';
import { CHAT_TEXT_MAX } from '../constants';
import { endpoint } from '../http';

/**
 * Support's side of the chat (the inbox): conversations, their messages, replies and attachments,
 * read marks, the assignee, closing. Answers are described by their known fields and keep any other.
 */

const op = { auth: false, operator: 'operator', domain: 'chat', added: true } as const;
const threadParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/) });
const page = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), skip: z.coerce.number().int().min(0).max(1_000_000).default(0) });
/** Messages support may send: the seven kinds, texts within 2000 characters. */
const supportMessage = chatMessageSchema.refine((m) => JSON.stringify(m.payload ?? null).length <= 4 * CHAT_TEXT_MAX + 4000, 'message too long');
const operatorConversation = conversationSchema.loose();

export const chatThreadSchema = z.looseObject({
  id: z.string(),
  userId: z.string().nullable(),
  guestId: z.string().nullable(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  sessionId: z.string(),
  sessionOpen: z.boolean(),
  lastAt: z.string(),
  unread: z.number().int(),
  unreadByCustomer: z.number().int(),
  assignee: z.string().nullable(),
});

export const chatOperatorCalls = {
  chatThreads: endpoint({ ...op, method: 'GET', path: '/api/operator/chat/conversations', roles: ['support'], query: page, response: z.array(chatThreadSchema), description: 'Conversations: members\' and those a person answered, the latest first; then guests\' nobody answered yet.' }),
  chatThreadMessages: endpoint({
    ...op, method: 'GET', path: '/api/operator/chat/conversations/:id/messages', roles: ['support'], params: threadParams, query: page, response: z.array(operatorConversation),
    description: 'A conversation\'s messages, newest first.',
  }),
  chatReply: endpoint({
    ...op, method: 'POST', path: '/api/operator/chat/conversations/:id/messages', roles: ['support'], params: threadParams, body: z.object({ message: supportMessage }), response: operatorConversation,
    description: 'Support\'s reply; a media message names an upload (POST /api/operator/chat/uploads/:kind), which binds it to this conversation.',
  }),
  chatRead: endpoint({ ...op, method: 'PUT', path: '/api/operator/chat/conversations/:id/read', roles: ['support'], params: threadParams, response: z.object({ ok: z.literal(true) }) }),
  chatUpload: endpoint({
    ...op, method: 'POST', path: '/api/operator/chat/uploads/:kind', roles: ['support'], params: z.object({ kind: z.enum(['image', 'video']) }),
    multipart: { fileField: 'file' }, response: chatUploadResponseSchema,
    description: 'Support\'s attachment (400 CHAT_NO_FILE, CHAT_FILE_UNSUPPORTED; 413 CHAT_FILE_TOO_LARGE), stored like a customer\'s upload.',
  }),
  chatAssign: endpoint({
    ...op, method: 'PUT', path: '/api/operator/chat/conversations/:id/assignee', roles: ['support'], params: threadParams,
    body: z.strictObject({ assignee: z.string().trim().min(1).max(64).nullable() }), response: z.object({ ok: z.literal(true), assignee: z.string().nullable() }),
    description: 'Take (assign to oneself) or assign to another operator by name; null gives it back to the queue.',
  }),
  chatClose: endpoint({ ...op, method: 'POST', path: '/api/operator/chat/conversations/:id/close', roles: ['support'], params: threadParams, response: z.object({ ok: z.literal(true) }) }),
};
