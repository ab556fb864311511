import { sql, type Kysely, type Selectable } from 'kysely';
import { CHAT_TEXT_MAX, type Locale } from '@mw/contract/constants';
import type { ChatMessage, Conversation } from '@mw/contract/chat';
import type { AuthMember } from '../../http/handlers';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { RateLimiter } from '../../lib/rate-limit';
import { botReplies } from './chat-bot';
import { ChatFiles } from './chat-files';
import { isLegacyGuestId, type GuestSessions } from './chat-guests';
import type { ChatMessagesTable, ChatThreadsTable, ChatDb } from './tables';

type Thread = Selectable<ChatThreadsTable>;
type MessageRow = Selectable<ChatMessagesTable>;

export type ChatIdentity = { kind: 'member'; memberId: string; username: string; guestId: string | null } | { kind: 'guest'; guestId: string };

export interface ChatSettings {
  prefix: string;
  idleMinutes: number;
  messagesPerMinute: number;
  messagesPerAddressPerMinute: number;
  uploadsPerHour: number;
  uploadsPerAddressPerHour: number;
  uploadBytesPerAddressHour?: number;
  uploadBytesPerGuestHour?: number;
  guestsPerAddressPerHour: number;
  fileRetentionDays: number;
  fileCleanIntervalMinutes: number;
  bot: boolean;
  site: string;
}

/** What a customer sends (the contract's sendMessageSchema, parsed). */
export interface CustomerMessage {
  message: Extract<ChatMessage, { message_type: 'text' | 'media' | 'postback' }>;
  username?: string | null;
  name?: string | null;
  deviceToken?: string | null;
  clientId?: string;
}

export type Emit = (room: string, conversation: Conversation) => void;

/**
 * Who may use a conversation: a member by token (userId, when given, must be theirs; a guest id
 * along with it takes that guest's conversation over only when the server issued it), a guest by
 * a guest session the server issued (`verify` answers its uuid) and never with a userId.
 */
export function chatIdentity(member: AuthMember | null, userId: string | null | undefined, guestId: string | null | undefined, verify: (value: string) => string | null): ChatIdentity {
  const guest = guestId ? verify(guestId) : null;
  if (member) {
    if (userId && userId !== member.memberId) throw new AppError(403, 'CHAT_FORBIDDEN');
    return { kind: 'member', memberId: member.memberId, username: member.username, guestId: guest };
  }
  if (userId) throw new AppError(403, 'CHAT_FORBIDDEN');
  if (!guestId) throw new AppError(401, 'CHAT_NO_IDENTITY');
  if (!guest) throw new AppError(401, 'CHAT_GUEST_INVALID');
  return { kind: 'guest', guestId: guest };
}

/**
 * Live chat (README "Live chat"): conversations per member or guest, in sessions (a new one after
 * `idleMinutes` without a message or after support closed it), messages stored before they are
 * delivered to the conversation's room on the socket, uploads bound to one conversation, unread
 * counts both ways, and the sandbox bot. A guest who signs in keeps the conversation: the first
 * call with the member's token and the guest id moves it to the member (merged into the member's
 * own when there is one), and from then on the guest id alone reads nothing of it.
 */
export class ChatService {
  private emit: Emit = () => undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly db: Kysely<ChatDb>,
    readonly files: ChatFiles,
    private readonly limiter: RateLimiter,
    private readonly guests: GuestSessions,
    readonly settings: ChatSettings,
  ) {}

  identify(member: AuthMember | null, userId: string | null | undefined, guestId: string | null | undefined): ChatIdentity {
    return chatIdentity(member, userId, guestId, (value) => this.guests.verify(value));
  }

  /** The key of a sender in limits and on uploads: `member:<id>` or `guest:<uuid>`. */
  senderOf(identity: ChatIdentity): string {
    return identity.kind === 'member' ? `member:${identity.memberId}` : `guest:${identity.guestId}`;
  }

  private async limit(key: string, max: number, windowMs: number, code: 'REQUEST_LIMIT' | 'REQUEST_LIMIT_1MIN'): Promise<void> {
    const result = await this.limiter.hit(key, max, windowMs);
    if (!result.allowed) throw new AppError(429, code, { retryAfter: result.retryAfter });
  }

  /** Uploads per address per hour: counted before the body is read. */
  limitUploadAddress(ip: string): Promise<void> {
    return this.limit(`chat:upload-address:${ip}`, this.settings.uploadsPerAddressPerHour, 3_600_000, 'REQUEST_LIMIT');
  }

  /** A guest's upload needs a conversation the guest started with a message of their own (403 CHAT_WRITE_FIRST). */
  async assertGuestWrote(identity: ChatIdentity): Promise<void> {
    if (identity.kind !== 'guest') return;
    const wrote = await this.db
      .selectFrom('chat_messages as m')
      .innerJoin('chat_threads as t', 't.id', 'm.thread_id')
      .select('m.id')
      .where('t.guest_id', '=', identity.guestId)
      .where('m.sender', '=', 'customer')
      .limit(1)
      .executeTakeFirst();
    if (!wrote) throw new AppError(403, 'CHAT_WRITE_FIRST');
  }

  /** The bytes of an upload against its address's hourly budget and, for a guest, the session's. */
  async limitUploadBytes(ip: string, identity: ChatIdentity, bytes: number): Promise<void> {
    const address = await this.limiter.hitBy(`chat:upload-bytes:${ip}`, bytes, this.settings.uploadBytesPerAddressHour ?? Number.MAX_SAFE_INTEGER, 3_600_000);
    if (!address.allowed) throw new AppError(429, 'REQUEST_LIMIT', { retryAfter: address.retryAfter });
    if (identity.kind === 'guest') {
      const guest = await this.limiter.hitBy(`chat:upload-bytes:${this.senderOf(identity)}`, bytes, this.settings.uploadBytesPerGuestHour ?? Number.MAX_SAFE_INTEGER, 3_600_000);
      if (!guest.allowed) throw new AppError(429, 'REQUEST_LIMIT', { retryAfter: guest.retryAfter });
    }
  }

  /** Uploads per sender (member or guest session) per hour. */
  limitUploadSender(identity: ChatIdentity): Promise<void> {
    return this.limit(`chat:upload:${this.senderOf(identity)}`, this.settings.uploadsPerHour, 3_600_000, 'REQUEST_LIMIT');
  }

  /**
   * POST /api/chat/guest: a guest session for a guest who starts chatting (limited per address).
   * A session this server issued is answered as it is; a bare v4 UUID (a guest id a client made
   * before sessions were issued) is adopted once — signed and answered — when a conversation was
   * started under it and not adopted before; anything else gets a new session.
   */
  async startGuest(ip: string, given: string | null): Promise<string> {
    await this.limit(`chat:guest-address:${ip}`, this.settings.guestsPerAddressPerHour, 3_600_000, 'REQUEST_LIMIT');
    if (given && this.guests.verify(given)) return given;
    if (given && isLegacyGuestId(given)) {
      const legacy = given.toLowerCase();
      const adopted = await this.db.updateTable('chat_threads').set({ guest_signed: true }).where('guest_id', '=', legacy).where('guest_signed', '=', false).returning('id').executeTakeFirst();
      if (adopted) return this.guests.issue(legacy);
    }
    return this.guests.issue();
  }

  /** Where messages go once stored (the socket server sets it). */
  onMessage(emit: Emit): void {
    this.emit = emit;
  }

  roomOf(owner: { member_id: string | null; guest_id: string | null } | ChatIdentity): string {
    const id = 'kind' in owner ? (owner.kind === 'member' ? owner.memberId : owner.guestId) : (owner.member_id ?? owner.guest_id ?? '');
    return `${this.settings.prefix}-${id}`;
  }

  /** The caller's conversation (made on first use); a member's first call with their guest id takes the guest's conversation over. */
  async thread(identity: ChatIdentity): Promise<Thread> {
    if (identity.kind === 'guest') {
      const found = await this.db.selectFrom('chat_threads').selectAll().where('guest_id', '=', identity.guestId).executeTakeFirst();
      return found ?? this.create({ guest_id: identity.guestId, origin_guest_id: identity.guestId, member_id: null, guest_signed: true });
    }
    if (identity.guestId) await this.takeOver(identity.memberId, identity.guestId);
    const found = await this.db.selectFrom('chat_threads').selectAll().where('member_id', '=', identity.memberId).executeTakeFirst();
    return found ?? this.create({ member_id: identity.memberId, guest_id: null, origin_guest_id: null });
  }

  /** A member's conversation for support, without starting one: its id and newest messages (none yet: null). */
  async memberThread(memberId: string, limit: number, skip: number): Promise<{ threadId: string | null; messages: Conversation[] }> {
    const found = await this.db.selectFrom('chat_threads').select('id').where('member_id', '=', memberId).executeTakeFirst();
    return found ? { threadId: found.id, messages: await this.messages(found.id, limit, skip) } : { threadId: null, messages: [] };
  }

  private async create(owner: Pick<Thread, 'member_id' | 'guest_id' | 'origin_guest_id'> & { guest_signed?: boolean }): Promise<Thread> {
    await this.db
      .insertInto('chat_threads')
      .values({ id: newId(), ...owner, session_id: newId() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const query = this.db.selectFrom('chat_threads').selectAll();
    return (owner.member_id ? query.where('member_id', '=', owner.member_id) : query.where('guest_id', '=', owner.guest_id)).executeTakeFirstOrThrow();
  }

  private async takeOver(memberId: string, guestId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const guest = await trx.selectFrom('chat_threads').selectAll().where('guest_id', '=', guestId).forUpdate().executeTakeFirst();
      if (!guest) return;
      const own = await trx.selectFrom('chat_threads').select('id').where('member_id', '=', memberId).forUpdate().executeTakeFirst();
      if (!own) {
        await trx.updateTable('chat_threads').set({ member_id: memberId, guest_id: null }).where('id', '=', guest.id).execute();
        return;
      }
      await trx.updateTable('chat_messages').set({ thread_id: own.id }).where('thread_id', '=', guest.id).execute();
      await trx.updateTable('chat_files').set({ thread_id: own.id }).where('thread_id', '=', guest.id).execute();
      await trx
        .updateTable('chat_threads')
        .set((eb) => ({ unread_support: eb('unread_support', '+', guest.unread_support), unread_customer: eb('unread_customer', '+', guest.unread_customer) }))
        .where('id', '=', own.id)
        .execute();
      await trx.deleteFrom('chat_threads').where('id', '=', guest.id).execute();
    });
  }

  /** Trims a text and checks it: not empty, at most 2000 characters. */
  private static clean(text: string, allowEmpty = false): string {
    const trimmed = text.trim();
    if (!trimmed && !allowEmpty) throw new AppError(400, 'CHAT_MESSAGE_EMPTY');
    if ([...trimmed].length > CHAT_TEXT_MAX) throw new AppError(400, 'CHAT_MESSAGE_TOO_LONG');
    return trimmed;
  }

  /** POST /api/chat/send-message: stores the customer's message, delivers it, and lets the bot answer. */
  async send(identity: ChatIdentity, input: CustomerMessage, locale: Locale, ip: string): Promise<Conversation> {
    // Flood limits: per address (all its members and guests together), then per sender (the member, or the server-issued guest session).
    await this.limit(`chat:address:${ip}`, this.settings.messagesPerAddressPerMinute, 60_000, 'REQUEST_LIMIT_1MIN');
    await this.limit(`chat:${this.senderOf(identity)}`, this.settings.messagesPerMinute, 60_000, 'REQUEST_LIMIT_1MIN');
    const thread = await this.thread(identity);
    if (input.clientId) {
      const earlier = await this.db.selectFrom('chat_messages').selectAll().where('thread_id', '=', thread.id).where('client_id', '=', input.clientId).executeTakeFirst();
      if (earlier) return this.conversation(earlier);
    }
    let message: ChatMessage;
    const incoming = input.message;
    if (incoming.message_type === 'media') {
      // A customer's media message names their own upload only (another member's or guest's is unknown to them).
      const kind = await this.files.attach(incoming.payload.filePath, thread.id, this.senderOf(identity));
      const caption = incoming.payload.message === undefined ? undefined : ChatService.clean(incoming.payload.message, true);
      const path = ChatFiles.pathOf(ChatFiles.idOf(incoming.payload.filePath) ?? '');
      message = { message_type: 'media', payload: { ...(caption ? { message: caption } : {}), url: path, filePath: path, fileType: kind, name: incoming.payload.name } };
    } else if (incoming.message_type === 'postback') {
      message = { message_type: 'postback', payload: { message: ChatService.clean(incoming.payload.message), payload: incoming.payload.payload } };
    } else {
      message = { message_type: 'text', payload: { message: ChatService.clean(incoming.payload.message) } };
    }
    const { row, newSession } = await this.store(thread, {
      sender: 'customer',
      message,
      user_id: identity.kind === 'member' ? identity.memberId : null,
      guest_id: identity.kind === 'guest' ? identity.guestId : null,
      username: identity.kind === 'member' ? identity.username : (input.username ?? null),
      name: input.name ?? null,
      device_token: input.deviceToken ?? null,
      client_id: input.clientId ?? null,
    });
    const conversation = this.conversation(row);
    this.emit(this.roomOf(identity), conversation);
    if (this.settings.bot) this.answerLater(thread.id, message, newSession, locale);
    return conversation;
  }

  /** Stores one message: the thread's session continues or a new one starts, its unread count moves. */
  private async store(thread: Thread, values: Omit<ChatMessagesTable, 'id' | 'seq' | 'thread_id' | 'session_id' | 'created_at' | 'message'> & { message: ChatMessage }): Promise<{ row: MessageRow; newSession: boolean }> {
    const fromCustomer = values.sender === 'customer';
    const fresh = newId();
    const updated = await sql<{ session_id: string }>`
      UPDATE chat_threads SET
        session_id = CASE WHEN session_open AND last_at > now() - make_interval(mins => ${this.settings.idleMinutes}) THEN session_id ELSE ${fresh} END,
        session_open = true, last_at = now(),
        unread_support = unread_support + ${fromCustomer ? 1 : 0},
        unread_customer = unread_customer + ${fromCustomer ? 0 : 1}
      WHERE id = ${thread.id} RETURNING session_id`.execute(this.db);
    const sessionId = updated.rows[0]?.session_id ?? fresh;
    const row = await this.db
      .insertInto('chat_messages')
      .values({ id: newId(), thread_id: thread.id, session_id: sessionId, ...values, message: JSON.stringify(values.message) })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, newSession: sessionId === fresh };
  }

  private answerLater(threadId: string, incoming: ChatMessage, firstOfSession: boolean, locale: Locale): void {
    const replies = botReplies(incoming, firstOfSession, locale, this.settings.site);
    if (replies.length === 0) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void (async () => {
        for (const reply of replies) await this.reply(threadId, reply, 'bot');
      })().catch(() => undefined);
    }, 300);
    this.timers.add(timer);
  }

  /** A message from support (or the bot) into a conversation, any of the seven kinds; delivered to its room. */
  async reply(threadId: string, message: ChatMessage, sender = 'support'): Promise<Conversation> {
    const thread = await this.db.selectFrom('chat_threads').selectAll().where('id', '=', threadId).executeTakeFirst();
    if (!thread) throw new AppError(404, 'NO_DATA');
    if (message.message_type === 'media') await this.files.attach(message.payload.filePath, thread.id);
    const { row } = await this.store(thread, { sender, message, user_id: thread.member_id, guest_id: thread.guest_id, username: null, name: sender === 'bot' ? 'Bot' : 'Support', device_token: null, client_id: null });
    const conversation = this.conversation(row);
    this.emit(this.roomOf(thread), conversation);
    return conversation;
  }

  /** POST /api/chat/history: newest first. */
  async history(identity: ChatIdentity, limit: number, skip: number): Promise<Conversation[]> {
    const thread = await this.thread(identity);
    return this.messages(thread.id, limit, skip);
  }

  async messages(threadId: string, limit: number, skip: number): Promise<Conversation[]> {
    const rows = await this.db.selectFrom('chat_messages').selectAll().where('thread_id', '=', threadId).orderBy('seq', 'desc').limit(limit).offset(skip).execute();
    return rows.map((r) => this.conversation(r));
  }

  /** PUT /api/chat/read-customer */
  async readCustomer(identity: ChatIdentity): Promise<void> {
    const thread = await this.thread(identity);
    await this.db.updateTable('chat_threads').set({ unread_customer: 0 }).where('id', '=', thread.id).execute();
  }

  /**
   * The conversations for support: members' conversations and guests' a person has answered, the
   * most recent first; then guests' conversations nobody answered yet (the bot aside), so that a
   * flood of guest sessions from one address cannot push members off the inbox's first page.
   */
  async threads(limit: number, offset: number) {
    const rows = await this.db
      .selectFrom('chat_threads')
      .leftJoin('member_view as members', 'members.id', 'chat_threads.member_id')
      .select(['chat_threads.id', 'chat_threads.member_id', 'chat_threads.guest_id', 'chat_threads.session_id', 'chat_threads.session_open', 'chat_threads.last_at', 'chat_threads.unread_support', 'chat_threads.unread_customer', 'chat_threads.assignee', 'members.name', 'members.username'])
      .orderBy(
        sql`CASE WHEN chat_threads.member_id IS NOT NULL OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.thread_id = chat_threads.id AND m.sender NOT IN ('customer', 'bot')) THEN 0 ELSE 1 END`,
      )
      .orderBy('chat_threads.last_at', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      userId: r.member_id,
      guestId: r.guest_id,
      name: r.name,
      username: r.username,
      sessionId: r.session_id,
      sessionOpen: r.session_open,
      lastAt: r.last_at.toISOString(),
      unread: Number(r.unread_support),
      unreadByCustomer: Number(r.unread_customer),
      assignee: r.assignee,
    }));
  }

  /** Support's unread total and how many conversations wait (the dashboard's queue): with unread customer messages, the oldest's last message time. */
  async unreadSummary(): Promise<{ conversations: number; messages: number; oldestAt: string | null }> {
    const row = await this.db
      .selectFrom('chat_threads')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.sum<string>('unread_support').as('m'), eb.fn.min('last_at').as('oldest')])
      .where('unread_support', '>', 0)
      .executeTakeFirst();
    const oldest = row?.oldest as Date | null | undefined;
    return { conversations: Number(row?.n ?? 0), messages: Number(row?.m ?? 0), oldestAt: oldest ? new Date(oldest).toISOString() : null };
  }

  async assign(threadId: string, assignee: string | null): Promise<void> {
    const done = await this.db.updateTable('chat_threads').set({ assignee }).where('id', '=', threadId).executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw new AppError(404, 'NO_DATA');
  }

  async markReadBySupport(threadId: string): Promise<void> {
    const done = await this.db.updateTable('chat_threads').set({ unread_support: 0 }).where('id', '=', threadId).executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw new AppError(404, 'NO_DATA');
  }

  /** Support ends the session: the next message starts a new one (the client draws the end marker between). */
  async close(threadId: string): Promise<void> {
    const done = await this.db.updateTable('chat_threads').set({ session_open: false }).where('id', '=', threadId).executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw new AppError(404, 'NO_DATA');
  }

  conversation(row: MessageRow): Conversation {
    const message = row.message.message_type === 'media' ? { ...row.message, payload: { ...row.message.payload, url: this.files.signed(row.message.payload.filePath) } } : row.message;
    return {
      _id: row.id,
      sender: row.sender,
      message,
      createdAt: row.created_at.toISOString(),
      session_id: row.session_id,
      userId: row.user_id,
      guestId: row.guest_id,
      username: row.username,
      name: row.name,
      deviceToken: null,
      clientId: row.client_id,
    };
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
