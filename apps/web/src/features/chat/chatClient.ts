import { io, type Socket } from 'socket.io-client';
import { chatEndpoints, chatUploadResponseSchema, conversationSchema, type Conversation, type SendMessageRequest } from '@mw/contract/chat';
import { CHAT_HISTORY_PAGE, CHAT_SOCKET_CHECK_MS } from '@mw/contract/constants';
import { callEndpoint } from '../../shared/api/client';
import { uploadWithProgress, type UploadProgress } from '../../shared/api/upload';
import { getToken } from '../../shared/auth/token';

/** Who chats: a member (token, id) or a guest (a session the server issued, kept under `guest-id`). */
export type ChatWho = { kind: 'member'; userId: string; guestId: string | null } | { kind: 'guest'; guestId: string };

const ids = (who: ChatWho) => (who.kind === 'member' ? { userId: who.userId, guestId: who.guestId } : { userId: null, guestId: who.guestId });

export function fetchPrefix(): Promise<string> {
  return callEndpoint(chatEndpoints.chatConfig, { background: true }).then((c) => c.PREFIX);
}

export function fetchHistory(who: ChatWho, skip: number): Promise<Conversation[]> {
  return callEndpoint(chatEndpoints.chatHistory, { body: { ...ids(who), limit: CHAT_HISTORY_PAGE, skip }, background: true });
}

export function sendMessage(who: ChatWho, message: SendMessageRequest['message'], clientId: string): Promise<{ createdAt: string; _id?: string | undefined }> {
  return callEndpoint(chatEndpoints.chatSendMessage, { body: { sender: 'customer', message, clientId, ...ids(who) }, background: true });
}

export function markRead(who: ChatWho): Promise<unknown> {
  return callEndpoint(chatEndpoints.chatReadCustomer, { body: ids(who), background: true });
}

/** An upload: a member's token goes as the header; a guest's session as the field `guestId` before the file. */
export function uploadAttachment(who: ChatWho, kind: 'image' | 'video', file: File, onProgress: (progress: UploadProgress) => void): Promise<{ path: string }> {
  const fields: Record<string, string> = who.kind === 'guest' ? { guestId: who.guestId } : {};
  return uploadWithProgress(kind === 'image' ? '/api/chat/upload-image' : '/api/chat/upload-video', file, chatUploadResponseSchema, onProgress, undefined, fields);
}

export type ConnectionState = 'connecting' | 'joined' | 'reconnecting' | 'failed';

/**
 * The socket of the chat (spec section 4): it connects as the member (token) or the guest (guest
 * id), joins `${PREFIX}-${id}`, and checks every 5 s while disconnected that it comes back and
 * joins again; when joining is refused the state is `failed` ("Cannot start chatting"). Incoming
 * `messaging` events are handed over once per `_id`: socket.io's connection-state recovery replays
 * from the last offset the socket got, so a message delivered out of stream order comes again
 * after a reconnection (the server no longer makes that happen — see chat-socket.ts — but the
 * library promises no exactly-once), and the caller keeps one per `_id` too (history pages
 * overlap). `resync` asks for history again after a reconnection the server could not recover.
 */
export function openChatSocket(prefix: string, who: ChatWho, handlers: { onMessage: (c: Conversation) => void; onState: (s: ConnectionState) => void; resync: () => void }): () => void {
  const token = getToken();
  const socket: Socket = io({ path: '/socket.io', transports: ['websocket', 'polling'], auth: who.kind === 'member' && token ? { token } : { guestId: who.guestId } });
  const room = `${prefix}-${who.kind === 'member' ? who.userId : who.guestId}`;
  let joined = false;
  const join = () => {
    socket.emit('join', room, (answer: { ok?: boolean } | undefined) => {
      joined = answer?.ok === true;
      handlers.onState(joined ? 'joined' : 'failed');
    });
  };
  socket.on('connect', () => {
    if (!socket.recovered) handlers.resync();
    join();
  });
  socket.on('disconnect', () => {
    joined = false;
    handlers.onState('reconnecting');
  });
  socket.on('connect_error', () => handlers.onState(socket.active ? 'reconnecting' : 'failed'));
  const delivered = new Set<string>();
  socket.on('messaging', (raw: unknown) => {
    const parsed = conversationSchema.safeParse(raw);
    if (!parsed.success || delivered.has(parsed.data._id)) return;
    delivered.add(parsed.data._id);
    // The ids of the last 500 messages are enough: a replay covers two minutes at most.
    if (delivered.size > 500) delivered.delete(delivered.values().next().value ?? '');
    handlers.onMessage(parsed.data);
  });
  // Spec: while disconnected, check every 5 s; reconnect (and join) when it can.
  const check = setInterval(() => {
    if (!socket.connected) {
      if (!socket.active) socket.connect();
    } else if (!joined) join();
  }, CHAT_SOCKET_CHECK_MS);
  handlers.onState('connecting');
  return () => {
    clearInterval(check);
    socket.close();
  };
}
