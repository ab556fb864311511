import { join } from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatOperatorCalls as calls } from '@mw/contract/operator/chat';
import { contractRoute } from '../../http/contract-route';
import { AppError } from '../../lib/errors';
import { defineModule } from '../../platform/module';
import { moduleConfig } from '../../platform/module-config';
import { operatorGuard, operatorOfToken, operatorTokenMay } from '../../platform/operator';
import { secretOf } from '../../platform/secrets';
import { SignedLinks } from '../../platform/signed-links';
import { ChatFiles, MAX_BYTES, type UploadKind } from './chat-files';
import { GuestSessions } from './chat-guests';
import { ChatService, type CustomerMessage } from './chat-service';
import { balanceEventOf, withWithdrawalDetail } from './balance-push';
import { ChatSocket } from './chat-socket';
import { FileObjectStore, MemoryObjectStore } from './chat-store';
import './tables';
import { moduleDb } from '../../db/database';
import type { ChatDb } from './tables';

declare module '../../platform/services' {
  interface Services {
    chat: ChatService;
  }
}

const chatEnv = z.object({
  /** The room prefix of the socket (`join` with `${PREFIX}-${id}`), answered by GET /api/chat/config. */
  CHAT_PREFIX: z.string().regex(/^[a-z0-9-]{1,32}$/).default('mw-chat'),
  /** Minutes without a message after which the next message starts a new session. */
  CHAT_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(30),
  /** Messages one customer (member or guest) may send per minute. */
  CHAT_MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(20),
  /** The sandbox support bot: `sandbox` answers greetings with every message kind; `off` leaves support to people. */
  CHAT_BOT: z.enum(['sandbox', 'off']).optional(),
  /** Signs the links to chat attachments (generated into DATA_DIR/secrets when not set). */
  CHAT_LINK_SECRET: z.string().min(16).optional(),
  /** How long a link to an attachment works (history and the socket hand out fresh ones). */
  CHAT_LINK_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(3600),
  /** Signs the guest sessions the server issues (POST /api/chat/guest); generated into DATA_DIR/secrets when not set. */
  CHAT_GUEST_SECRET: z.string().min(16).optional(),
  /** Messages one address may send per minute, all its members and guests together (a backstop sized for carrier-grade NAT). */
  CHAT_MESSAGES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
  /** Uploads one sender (member or guest session) may make per hour. */
  CHAT_UPLOADS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Uploads one address may make per hour (a backstop sized for hundreds of people behind one address). */
  CHAT_UPLOADS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** Guest sessions one address may start per hour. */
  CHAT_GUESTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Days an attachment is kept; older ones are deleted (their messages stay, their links answer 404). */
  CHAT_FILE_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  /** Minutes between two runs of the attachment cleaner (it also runs once, 5 s after start); 0 turns it off (tests, or another job runs `ChatFiles.clean`). */
  CHAT_FILE_CLEAN_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(7 * 24 * 60).default(15),
  /** Bytes one address may upload per hour, all its members and guests together (a backstop sized for hundreds of people). */
  CHAT_UPLOAD_BYTES_PER_ADDRESS_HOUR: z.coerce.number().int().min(1).default(500 * 1024 * 1024),
  /** Bytes one guest session may upload per hour (members: CHAT_UPLOADS_PER_HOUR files, each within its size). */
  CHAT_UPLOAD_BYTES_PER_GUEST_HOUR: z.coerce.number().int().min(1).default(30 * 1024 * 1024),
});

/** Live chat (spec sections 2–5, 7, 9): REST calls, the socket, uploads, the operator's side and the sandbox bot. */
export const chatModule = defineModule({
  name: 'chat',
  migrations: [
    {
      id: 'chat/001_chat',
      sql: `
CREATE TABLE chat_threads (
  id text PRIMARY KEY,
  member_id text UNIQUE REFERENCES members(id),
  guest_id text UNIQUE,
  origin_guest_id text,
  session_id text NOT NULL,
  session_open boolean NOT NULL DEFAULT true,
  last_at timestamptz NOT NULL DEFAULT now(),
  unread_support integer NOT NULL DEFAULT 0,
  unread_customer integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (member_id IS NOT NULL OR guest_id IS NOT NULL)
);
CREATE INDEX chat_threads_last ON chat_threads (last_at DESC);
CREATE TABLE chat_messages (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,
  thread_id text NOT NULL REFERENCES chat_threads(id),
  sender text NOT NULL,
  message jsonb NOT NULL,
  session_id text NOT NULL,
  user_id text,
  guest_id text,
  username text,
  name text,
  device_token text,
  client_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_messages_thread ON chat_messages (thread_id, seq DESC);
CREATE UNIQUE INDEX chat_messages_client ON chat_messages (thread_id, client_id) WHERE client_id IS NOT NULL;
CREATE TABLE chat_files (
  id text PRIMARY KEY,
  thread_id text REFERENCES chat_threads(id),
  kind text NOT NULL CHECK (kind IN ('image', 'video')),
  mime text NOT NULL,
  ext text NOT NULL,
  size integer NOT NULL,
  name text NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);`,
    },
    {
      // Attachments move to the object store (rows from 001 keep their bytes and are still
      // served, until the retention cleaner removes them); each upload names its sender; a guest
      // conversation remembers that its guest holds a server-issued session.
      id: 'chat/002_files_store_guest_sessions',
      sql: `
ALTER TABLE chat_files ALTER COLUMN bytes DROP NOT NULL;
ALTER TABLE chat_files ADD COLUMN uploader text;
CREATE INDEX chat_files_created ON chat_files (created_at);
ALTER TABLE chat_threads ADD COLUMN guest_signed boolean NOT NULL DEFAULT false;`,
    },
    {
      // The operator who took a conversation (the back office's inbox: take / assign).
      id: 'chat/003_assignee',
      sql: `ALTER TABLE chat_threads ADD COLUMN assignee text;`,
    },
  ],
  setup(services) {
    const { config } = services;
    const env = moduleConfig(config, chatEnv);
    const links = new SignedLinks(secretOf(env.CHAT_LINK_SECRET, config.DATA_DIR, 'chat-link-secret'), env.CHAT_LINK_TTL_SECONDS, ChatFiles.pathOf);
    const guests = new GuestSessions(secretOf(env.CHAT_GUEST_SECRET, config.DATA_DIR, 'chat-guest-secret'));
    const store = config.DATA_DIR === 'memory' ? new MemoryObjectStore() : new FileObjectStore(join(config.DATA_DIR, 'chat-files'));
    services.chat = new ChatService(moduleDb<ChatDb>(services.database), new ChatFiles(moduleDb<ChatDb>(services.database), links, store), services.limiter, guests, {
      prefix: env.CHAT_PREFIX,
      idleMinutes: env.CHAT_SESSION_IDLE_MINUTES,
      messagesPerMinute: env.CHAT_MESSAGES_PER_MINUTE,
      messagesPerAddressPerMinute: env.CHAT_MESSAGES_PER_ADDRESS_PER_MINUTE,
      uploadsPerHour: env.CHAT_UPLOADS_PER_HOUR,
      uploadsPerAddressPerHour: env.CHAT_UPLOADS_PER_ADDRESS_PER_HOUR,
      uploadBytesPerAddressHour: env.CHAT_UPLOAD_BYTES_PER_ADDRESS_HOUR,
      uploadBytesPerGuestHour: env.CHAT_UPLOAD_BYTES_PER_GUEST_HOUR,
      guestsPerAddressPerHour: env.CHAT_GUESTS_PER_ADDRESS_PER_HOUR,
      fileRetentionDays: env.CHAT_FILE_RETENTION_DAYS,
      fileCleanIntervalMinutes: env.CHAT_FILE_CLEAN_INTERVAL_MINUTES,
      bot: (env.CHAT_BOT ?? (config.NODE_ENV === 'production' ? 'off' : 'sandbox')) === 'sandbox',
      site: '/',
    });
  },
  async prepare(app) {
    await app.register(fastifyMultipart, { limits: { fileSize: MAX_BYTES.video + 1, files: 1, fields: 5, parts: 6 } });
  },
  handlers: ({ chat }) => {
    const upload = (kind: UploadKind) => async (ctx: Parameters<NonNullable<ReturnType<NonNullable<typeof chatModule.handlers>>['chatUploadImage']>>[0]) => {
      // The address first (before a byte of the body is read), then who uploads: a member's
      // token or a guest session the server issued (the multipart field `guestId`, before `file`).
      await chat.limitUploadAddress(ctx.ip);
      if (!ctx.request.isMultipart()) throw new AppError(400, 'CHAT_NO_FILE');
      let file;
      try {
        file = await ctx.request.file({ limits: { fileSize: MAX_BYTES[kind] } });
      } catch {
        throw new AppError(400, 'CHAT_NO_FILE');
      }
      // No file part at all: nothing to store, whoever asks (no byte was read).
      if (!file) throw new AppError(400, 'CHAT_NO_FILE');
      const field = file.fields.guestId;
      const guestId = field && !Array.isArray(field) && field.type === 'field' && typeof field.value === 'string' ? field.value : null;
      const identity = chat.identify(ctx.member, null, guestId);
      // A guest uploads only into a conversation they started (a message first): a fresh guest
      // session per upload buys nothing.
      await chat.assertGuestWrote(identity);
      await chat.limitUploadSender(identity);
      if (file.fieldname !== 'file') throw new AppError(400, 'CHAT_NO_FILE');
      const bytes = await file.toBuffer().catch((error: unknown) => {
        if (error instanceof ctx.request.server.multipartErrors.RequestFileTooLargeError) throw new AppError(413, 'CHAT_FILE_TOO_LARGE');
        throw new AppError(400, 'CHAT_NO_FILE');
      });
      if (file.file.truncated) throw new AppError(413, 'CHAT_FILE_TOO_LARGE');
      // Bytes cost the uploader: a budget per address and per guest session an hour.
      await chat.limitUploadBytes(ctx.ip, identity, bytes.length);
      return chat.files.save(kind, file.filename, bytes, chat.senderOf(identity));
    };
    return {
      chatConfig: async () => ({ PREFIX: chat.settings.prefix }),
      chatGuest: async (ctx) => ({ guestId: await chat.startGuest(ctx.ip, ctx.body.guestId ?? null) }),
      chatSendMessage: async (ctx) => {
        const body = ctx.body;
        const identity = chat.identify(ctx.member, body.userId, body.guestId);
        const conversation = await chat.send(identity, body as CustomerMessage, ctx.locale, ctx.ip);
        return { createdAt: conversation.createdAt, _id: conversation._id, session_id: conversation.session_id };
      },
      chatHistory: async (ctx) => chat.history(chat.identify(ctx.member, ctx.body.userId, ctx.body.guestId), ctx.body.limit, ctx.body.skip),
      chatReadCustomer: async (ctx) => {
        await chat.readCustomer(chat.identify(ctx.member, ctx.body.userId, ctx.body.guestId));
        return { ok: true as const };
      },
      chatUploadImage: upload('image'),
      chatUploadVideo: upload('video'),
    };
  },
  start({ chat }, log) {
    if (chat.settings.fileCleanIntervalMinutes === 0) return undefined;
    const clean = () =>
      chat.files
        .clean(chat.settings.fileRetentionDays)
        .then((removed) => {
          if (removed > 0) log.info({ removed }, 'chat attachments past their retention removed');
        })
        .catch((error: unknown) => log.warn({ err: error }, 'chat attachment cleaning failed'));
    const first = setTimeout(() => void clean(), 5_000);
    const timer = setInterval(() => void clean(), chat.settings.fileCleanIntervalMinutes * 60_000);
    first.unref();
    timer.unref();
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  },
  routes(app, services) {
    const { chat, config, sessions } = services;
    // Attachments: only through a signed link (see ChatFiles).
    app.withTypeProvider<ZodTypeProvider>().get('/api/chat/files/:id', { schema: { params: z.object({ id: z.string().max(64) }), querystring: z.object({ exp: z.string().max(16).default(''), sig: z.string().max(80).default('') }) } }, async (request, reply) => {
      const { id } = request.params;
      const { exp, sig } = request.query;
      const file = await chat.files.read(id, exp, sig);
      if (!file) return reply.status(404).send({ message: 'NO_DATA' });
      return reply.type(file.mime).header('cache-control', 'private, max-age=300').header('x-content-type-options', 'nosniff').header('content-disposition', 'inline').send(file.bytes);
    });

    const socket = new ChatSocket(app.server, chat, (authorization) => sessions.authenticate(authorization), config.REDIS_URL, async (token) => operatorTokenMay(services, token, 'GET', '/api/operator/chat/conversations'), async (token) => operatorOfToken(services, token));
    // Revoked operators lose their live feed at once (logout, disable, password, TOTP reset, role change), and every socket re-checks each minute.
    const stopOperators = services.operatorSessions.onRevoke((revocation) => socket.disconnectOperator(revocation));
    socket.recheckOperators();
    // Live queues: a call that changed something (a member's withdrawal request or slip, a bank's webhook, an
    // operator's decision) tells every operator's screen to refetch, at most once a second per process.
    app.addHook('onResponse', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS' && reply.statusCode < 400 && request.url.startsWith('/api/')) socket.queuesChanged();
    });
    // Logout (and a password change) closes the member's sockets in every process (the adapter carries it).
    const stopListening = sessions.onRevoke((revocation) => socket.disconnectRevoked(revocation));
    // Balances pushed to the member's open app: every committed change the money core announces.
    const stopBalances = services.money.balances.subscribe((change) => {
      const event = balanceEventOf(change);
      if (!event) return;
      // A withdrawal paid or refused says where it was paid, or why it was refused (the operation's target and note).
      if (event.reason === 'withdrawal_paid' || event.reason === 'withdrawal_returned') {
        withWithdrawalDetail(services.money.balances, event, change.operationId).then(
          (detailed) => socket.pushBalance(change.memberId, detailed),
          () => socket.pushBalance(change.memberId, event),
        );
        return;
      }
      socket.pushBalance(change.memberId, event);
    });
    app.addHook('onClose', async () => {
      stopOperators();
      stopBalances();
      stopListening();
      chat.stop();
      await socket.close();
    });

    // Support's side, until the back office exists (the operator token).
    const guard = operatorGuard(config);
    const preHandler = guard;
    contractRoute(app, calls.chatThreads, { preHandler }, async ({ query }) => chat.threads(query.limit, query.skip));
    contractRoute(app, calls.chatThreadMessages, { preHandler }, async ({ params, query }) => chat.messages(params.id, query.limit, query.skip));
    contractRoute(app, calls.chatReply, { preHandler }, async ({ params, body }) => chat.reply(params.id, body.message));
    contractRoute(app, calls.chatRead, { preHandler }, async ({ params }) => {
      await chat.markReadBySupport(params.id);
      return { ok: true as const };
    });
    // Support's attachments (an image or a video for a reply): stored like a customer's upload, then
    // named by a media message (POST …/messages), which binds it to that conversation.
    contractRoute(app, calls.chatUpload, { preHandler }, async ({ params: { kind }, request }) => {
      let file;
      try {
        file = await request.file({ limits: { fileSize: MAX_BYTES[kind] } });
      } catch {
        throw new AppError(400, 'CHAT_NO_FILE');
      }
      if (!file || file.fieldname !== 'file') throw new AppError(400, 'CHAT_NO_FILE');
      const bytes = await file.toBuffer().catch(() => {
        throw new AppError(413, 'CHAT_FILE_TOO_LARGE');
      });
      if (file.file.truncated) throw new AppError(413, 'CHAT_FILE_TOO_LARGE');
      return chat.files.save(kind, file.filename, bytes, 'support');
    });
    // Take (assign to oneself) or assign to another operator by name; null gives it back to the queue.
    contractRoute(app, calls.chatAssign, { preHandler }, async ({ params, body: { assignee } }) => {
      await chat.assign(params.id, assignee);
      return { ok: true as const, assignee };
    });
    contractRoute(app, calls.chatClose, { preHandler }, async ({ params }) => {
      await chat.close(params.id);
      return { ok: true as const };
    });
  },
});
