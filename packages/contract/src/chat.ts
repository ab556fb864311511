import { z } from 'zod';
import { CHAT_HISTORY_PAGE, CHAT_TEXT_MAX } from './constants';
import { endpoint, isoDateSchema, okSchema } from './http';
import { multilineText, text } from './text';

/**
 * Live-chat calls of spec section 7. Usable by guests (guestId) and members (userId): auth is
 * false, and a member's token, when sent, is used to check userId.
 */
const optionalId = text(64).nullable().optional();

/** Button (spec section 3): type web, call or postback; any other type is a plain message. */
export const chatButtonSchema = z.object({
  type: z.string().describe("'web' | 'call' | 'postback' | anything else = plain message"),
  title: z.string(),
  payload: z.string().describe('URL for web, phone number for call, postback value otherwise'),
});
export type ChatButton = z.infer<typeof chatButtonSchema>;

export const chatFileTypeSchema = z.enum(['image', 'video', 'file']);
export const chatMediaPayloadSchema = z.object({
  message: z.string().optional(),
  url: z.string(),
  fileType: chatFileTypeSchema,
  filePath: z.string().describe('the path answered by upload-image or upload-video'),
  name: z.string().describe('original file name'),
});
export const chatGenericCardSchema = z.object({
  image_url: z.string(),
  title: z.string(),
  subtitle: z.string(),
  buttons: z.array(chatButtonSchema),
});
export type ChatGenericCard = z.infer<typeof chatGenericCardSchema>;

/** Message kinds of spec section 3, by message_type. Payload shapes other than media are chosen here. */
export const chatMessageSchema = z.discriminatedUnion('message_type', [
  z.object({ message_type: z.literal('text'), payload: z.object({ message: z.string() }) }),
  z.object({ message_type: z.literal('buttons'), payload: z.object({ message: z.string(), buttons: z.array(chatButtonSchema) }) }),
  z.object({ message_type: z.literal('media'), payload: chatMediaPayloadSchema }),
  z.object({ message_type: z.literal('quick_replies'), payload: z.object({ message: z.string(), buttons: z.array(chatButtonSchema) }) }),
  z.object({ message_type: z.literal('generic'), payload: z.object({ elements: z.array(chatGenericCardSchema) }) }),
  z.object({ message_type: z.literal('postback'), payload: z.object({ message: z.string(), payload: z.string() }) }),
  z.object({ message_type: z.literal('unknown'), payload: z.unknown() }),
]);
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ChatMessageType = ChatMessage['message_type'];

/** Conversation (spec section 3), as stored and as answered by history and the socket. */
export const conversationSchema = z.object({
  _id: z.string(),
  sender: z.string().describe("'customer' for the player, anything else is the operator or bot"),
  message: chatMessageSchema,
  createdAt: isoDateSchema,
  session_id: z.string(),
  userId: z.string().nullable(),
  guestId: z.string().nullable(),
  username: z.string().nullable(),
  name: z.string().nullable(),
  deviceToken: z.string().nullable(),
  clientId: z.string().nullable().optional().describe('the id the client gave the message when it sent it (added to the spec)'),
});
export type Conversation = z.infer<typeof conversationSchema>;

/**
 * What a player may send: text, media (after an upload) or a postback (a button or quick reply).
 * Texts are at most 2000 characters after trimming (checked by the server: CHAT_MESSAGE_TOO_LONG);
 * the raw field may carry surrounding white space up to twice that.
 */
export const sendMessageSchema = z.strictObject({
  sender: z.literal('customer'),
  message: z.discriminatedUnion('message_type', [
    z.strictObject({ message_type: z.literal('text'), payload: z.strictObject({ message: multilineText(2 * CHAT_TEXT_MAX) }) }),
    z.strictObject({
      message_type: z.literal('media'),
      payload: z.strictObject({
        message: multilineText(2 * CHAT_TEXT_MAX).optional(),
        url: text(2048),
        fileType: chatFileTypeSchema,
        filePath: text(1024),
        name: text(255),
      }),
    }),
    z.strictObject({
      message_type: z.literal('postback'),
      payload: z.strictObject({ message: multilineText(2 * CHAT_TEXT_MAX), payload: text(CHAT_TEXT_MAX) }),
    }),
  ]),
  session_id: text(64).optional().describe('absent for a new session; the server assigns one'),
  userId: optionalId,
  guestId: optionalId,
  username: text(64).nullable().optional(),
  name: text(200).nullable().optional(),
  deviceToken: text(512).nullable().optional(),
  /** The client's id of this message (added to the spec): the same id twice is stored once, and the echo on the socket carries it. */
  clientId: text(64).optional(),
});
export type SendMessageRequest = z.input<typeof sendMessageSchema>;

export const chatHistorySchema = z.strictObject({
  userId: optionalId,
  guestId: optionalId,
  limit: z.number().int().min(1).max(100).describe(`page size, ${CHAT_HISTORY_PAGE} in the client`),
  skip: z.number().int().min(0).max(1_000_000),
});
export const chatReadSchema = z.strictObject({ userId: optionalId, guestId: optionalId });

/** Chat delivery status of a sent message (client side, spec section 3). */
export const chatDeliverStatusSchema = z.enum(['uploading_file', 'sending', 'failed', 'succeed']);
export type ChatDeliverStatus = z.infer<typeof chatDeliverStatusSchema>;

export const chatUploadResponseSchema = z.object({ path: z.string().describe('stored file path, used as filePath and url') });

/** A guest id the server issued (`<uuid>.<signature>`), or a bare v4 UUID an older client made (adopted once). */
export const chatGuestSchema = z.strictObject({ guestId: text(64).nullable().optional() });

export const chatEndpoints = {
  chatGuest: endpoint({
    method: 'POST', path: '/api/chat/guest', auth: false, domain: 'chat', added: true,
    body: chatGuestSchema,
    response: z.object({ guestId: z.string().describe('the guest session to send as guestId in every chat call, the socket handshake and uploads (added to the spec)') }),
    description: 'Starts (or keeps) a guest chat session: the server signs the guest id, so a client cannot pick one. Limited per address (REQUEST_LIMIT).',
  }),
  chatConfig: endpoint({
    method: 'GET', path: '/api/chat/config', auth: false, domain: 'chat',
    response: z.object({ PREFIX: z.string().describe('room prefix for the socket join value `${PREFIX}-${id}`') }),
  }),
  chatSendMessage: endpoint({
    method: 'POST', path: '/api/chat/send-message', auth: false, domain: 'chat',
    body: sendMessageSchema,
    response: z.object({
      createdAt: isoDateSchema,
      _id: z.string().optional().describe('the stored message (added to the spec)'),
      session_id: z.string().optional().describe('its session (added to the spec)'),
    }),
  }),
  chatHistory: endpoint({
    method: 'POST', path: '/api/chat/history', auth: false, domain: 'chat',
    body: chatHistorySchema, response: z.array(conversationSchema).describe('newest first'),
  }),
  chatUploadImage: endpoint({
    method: 'POST', path: '/api/chat/upload-image', auth: false, domain: 'chat',
    multipart: { fileField: 'file' }, response: chatUploadResponseSchema,
    description: "A member's token, or a guest's session in the multipart field guestId before file (401 CHAT_NO_IDENTITY / CHAT_GUEST_INVALID); limited per sender and per address (429 REQUEST_LIMIT).",
  }),
  chatUploadVideo: endpoint({
    method: 'POST', path: '/api/chat/upload-video', auth: false, domain: 'chat',
    multipart: { fileField: 'file' }, response: chatUploadResponseSchema,
    description: 'As upload-image.',
  }),
  chatReadCustomer: endpoint({
    method: 'PUT', path: '/api/chat/read-customer', auth: false, domain: 'chat',
    body: chatReadSchema, response: okSchema, description: 'Marks the conversation read for the player.',
  }),
};
