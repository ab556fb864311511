import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import type { BalanceEvent } from '@mw/contract/balance-push';
import type { Conversation } from '@mw/contract/chat';
import type { AuthMember } from '../../http/handlers';
import type { ChatService } from './chat-service';

interface HandshakeAuth {
  token?: unknown;
  guestId?: unknown;
  /** An operator's session token (the back office's inbox). */
  operatorToken?: unknown;
}

interface SocketData {
  room: string;
  /** The room's name as the client may know it: `${PREFIX}-${the guest session it was given}` for a guest. */
  alias: string;
  /** A member's session (logout closes its sockets), null for a guest. */
  session: string | null;
  /** An operator's socket: in the inbox room (support, owner) or only the queues room, never in a conversation's. */
  operator: boolean;
  /** The operator's name (claims carry it). */
  operatorName?: string;
  /** An operator socket's token: checked again every minute. */
  operatorToken?: string;
  /** The rooms of the operator and of their session (revocations close them). */
  operatorRooms?: string[];
}

/** Who an operator token belongs to, for a socket: name, operator and session (null for the automation key). */
export interface OperatorSocketIdentity {
  name: string;
  operatorId: string;
  sessionId: string | null;
}

/** What a logout or a password change revoked (session-service.ts). */
export interface RevokedSessions {
  sessionId?: string;
  memberId?: string;
  keep?: string;
}

interface ServerEvents {
  messaging: (conversation: Conversation) => void;
  /** To operators: a message was stored in some conversation (the inbox refreshes its lists). */
  inbox: (conversation: Conversation) => void;
  /** To a member's sockets: their wallet or a game balance changed (balance-push.ts). */
  balance: (event: BalanceEvent) => void;
  /** To every operator's socket (any role): the work queues may have changed; the back office refetches what it shows. No content. */
  queues: () => void;
  /** To every operator's socket: someone took (or let go of) a queue item: `{kind, id, operator, until}` (until 0: let go). */
  claim: (claim: QueueClaim) => void;
}

/** Between server processes (through the adapter): balance events, many members' at once. */
interface InterServerEvents {
  balances: (batch: Array<[memberId: string, event: BalanceEvent]>) => void;
}

/** An operator working on a queue item (a withdrawal, slip, deposit, approval) for the next two minutes; renewed while they are on it. */
export interface QueueClaim {
  kind: string;
  id: string;
  operator: string;
  /** Epoch ms the claim lapses; 0 lets go. */
  until: number;
}

interface ClientEvents {
  join: (room: unknown, ack?: unknown) => void;
  /** An operator's socket: "I am on this item" (renewed every minute) or `{until: 0}` to let go. */
  claim: (claim: unknown) => void;
}

/**
 * The chat's socket.io server on the app's own HTTP server (path /socket.io). The handshake says
 * who connects — `auth: {token}` for a member, `auth: {guestId}` (a guest session the server issued)
 * for a guest (or an Authorization header, or `token` / `guestId` in the query) — and a socket is
 * in its own room only (it is put there on connection; `join` with `${PREFIX}-${id}`, the id being
 * the member's id, or the guest's session or its uuid, is acknowledged `{ok: true}` for that room
 * and refused for any other); a member's socket is also in its session's room, which logout
 * closes (`disconnectRevoked`); stored messages
 * reach the room as `messaging` events (the conversation object, `_id` identifies it). Connection
 * state recovery replays what a socket missed during a disconnection of up to two minutes (the
 * client also reloads history when a reconnection is not recovered, and drops duplicates by
 * `_id`). With REDIS_URL the Redis Streams adapter carries events between server processes, and
 * recovery works across them.
 */
export class ChatSocket {
  readonly io: Server<ClientEvents, ServerEvents, InterServerEvents, SocketData>;
  /** Balance events waiting for the end of this tick (pushBalance). */
  private balances: Array<[string, BalanceEvent]> = [];
  private redis: Redis | null = null;
  private reader: Redis | null = null;

  constructor(
    server: HttpServer,
    private readonly chat: ChatService,
    private readonly authenticate: (authorization: string) => Promise<AuthMember>,
    redisUrl: string | undefined,
    private readonly authenticateOperator: (token: string) => Promise<boolean> = async () => false,
    /** Who an operator token is, for the queue room (any role), or null. */
    private readonly operatorOf: (token: string) => Promise<OperatorSocketIdentity | null> = async () => null,
  ) {
    const options = {
      path: '/socket.io',
      serveClient: false,
      maxHttpBufferSize: 64 * 1024,
      connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000, skipMiddlewares: false },
    };
    if (redisUrl) {
      const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
      const reader = redis.duplicate();
      this.redis = redis;
      this.reader = reader;
      // The adapter polls the stream with a blocking XREAD on the client it is given and publishes
      // (XADD) on the same one, so a message sent from this process waited behind the blocking
      // read — until it timed out or another process's entries woke it — and got a stream offset
      // after messages it was delivered before (a customer's echo came ahead of support's replies
      // but with a later offset; a socket recovered from the last offset it had got the echo again).
      // Here the reads have a connection of their own: a publish goes out at once.
      const client = new Proxy(redis, {
        get: (target, key) => {
          if (key === 'xread') return reader.xread.bind(reader);
          const value: unknown = Reflect.get(target, key);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      this.io = new Server(server, { ...options, adapter: createAdapter(client, { streamName: `${chat.settings.prefix}:socket.io`, sessionKeyPrefix: `${chat.settings.prefix}:sio:session:` }) });
    } else {
      this.io = new Server(server, options);
    }
    this.io.use((socket, next) => {
      // auth first (the app's way); an Authorization header or the query (token, guestId) also do.
      const auth = (socket.handshake.auth ?? {}) as HandshakeAuth;
      const query = socket.handshake.query as Record<string, unknown>;
      const header = socket.handshake.headers.authorization;
      const bearer = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header)?.[1] : undefined;
      const given: HandshakeAuth = {
        token: auth.token ?? bearer ?? query.token,
        guestId: auth.guestId ?? query.guestId,
        operatorToken: auth.operatorToken,
      };
      this.identify(given).then(
        ({ room, alias, session, operator, operatorName, operatorRooms }) => {
          if (operatorName) socket.data.operatorName = operatorName;
          if (operator && typeof given.operatorToken === 'string') socket.data.operatorToken = given.operatorToken;
          socket.data.operatorRooms = operatorRooms ?? [];
          socket.data.room = room;
          socket.data.alias = alias;
          socket.data.session = session;
          socket.data.operator = operator;
          next();
        },
        () => next(new Error('CHAT_NO_IDENTITY')),
      );
    });
    this.io.on('connection', (socket) => {
      // The socket is in its own room from the start (and after a recovery); `join` confirms it.
      void socket.join(socket.data.session ? [socket.data.room, this.sessionRoom(socket.data.session)] : socket.data.operator ? [socket.data.room, this.queuesRoom(), ...(socket.data.operatorRooms ?? [])] : socket.data.room);
      // Claims: an operator's socket tells the others which item it is on (names and ids only, never content).
      socket.on('claim', (value) => {
        const name = socket.data.operatorName;
        if (!socket.data.operator || !name || !value || typeof value !== 'object') return;
        const { kind, id, until } = value as Record<string, unknown>;
        if (typeof kind !== 'string' || !/^[a-z-]{1,32}$/.test(kind) || typeof id !== 'string' || id.length < 1 || id.length > 64) return;
        const lapse = typeof until === 'number' && until > 0 ? Math.min(until, Date.now() + 2 * 60_000) : 0;
        this.io.to(this.queuesRoom()).emit('claim', { kind, id, operator: name, until: lapse });
      });
      socket.on('join', (value, ack) => {
        const ok = typeof value === 'string' && (value === socket.data.room || value === socket.data.alias);
        if (ok) void socket.join(socket.data.room);
        if (typeof ack === 'function') (ack as (answer: { ok: boolean; message?: string }) => void)(ok ? { ok: true } : { ok: false, message: 'CHAT_FORBIDDEN' });
      });
    });
    chat.onMessage((room, conversation) => this.deliver(room, conversation));
    // Another process's balance events: to this process's sockets of those members.
    this.io.on('balances', (batch) => {
      if (Array.isArray(batch)) this.emitBalancesHere(batch);
    });
  }

  private async identify(auth: HandshakeAuth): Promise<{ room: string; alias: string; session: string | null; operator: boolean; operatorName?: string; operatorRooms?: string[] }> {
    if (typeof auth.operatorToken === 'string' && auth.operatorToken) {
      const who = await this.operatorOf(auth.operatorToken);
      if (!who) throw new Error('CHAT_NO_IDENTITY');
      // Support (and owner) read the inbox; every role hears the queues and claims.
      const room = (await this.authenticateOperator(auth.operatorToken)) ? this.inboxRoom() : this.queuesRoom();
      // Rooms of this operator and this session: a revocation closes them in every process.
      const operatorRooms = [this.operatorRoom(who.operatorId), ...(who.sessionId ? [this.operatorSessionRoom(who.sessionId)] : [])];
      return { room, alias: room, session: null, operator: true, operatorName: who.name, operatorRooms };
    }
    const token = typeof auth.token === 'string' && auth.token ? auth.token : null;
    const guestId = typeof auth.guestId === 'string' ? auth.guestId : null;
    const member = token ? await this.authenticate(`Bearer ${token}`) : null;
    const room = this.chat.roomOf(this.chat.identify(member, null, member ? null : guestId));
    return { room, alias: member || !guestId ? room : `${this.chat.settings.prefix}-${guestId}`, session: member?.sessionId ?? null, operator: false };
  }

  private operatorRoom(operatorId: string): string {
    return `${this.chat.settings.prefix}:operator:${operatorId}`;
  }

  private operatorSessionRoom(sessionId: string): string {
    return `${this.chat.settings.prefix}:operator-session:${sessionId}`;
  }

  /**
   * Closes an operator's sockets at once, in every process (the adapter carries it): one session's
   * (a logout) or all of the operator's (disabled, password changed, TOTP reset, role changed).
   * A closed socket cannot come back with a revoked token (the handshake checks it again).
   */
  disconnectOperator({ sessionId, operatorId }: { sessionId?: string; operatorId?: string }): void {
    if (sessionId) this.io.in(this.operatorSessionRoom(sessionId)).disconnectSockets(true);
    if (operatorId) this.io.in(this.operatorRoom(operatorId)).disconnectSockets(true);
  }

  private recheck: NodeJS.Timeout | null = null;

  /** Every minute, each operator socket of this process checks its session again (an expiry, a revocation another process missed). */
  recheckOperators(everyMs = 60_000): void {
    if (this.recheck) return;
    this.recheck = setInterval(() => {
      void this.io.local.fetchSockets().then(async (sockets) => {
        for (const socket of sockets) {
          const token = socket.data.operatorToken;
          if (socket.data.operator && token && !(await this.operatorOf(token))) socket.disconnect(true);
        }
      }).catch(() => undefined);
    }, everyMs);
    this.recheck.unref();
  }

  /** The room of every operator's socket, whatever the role: queue changes and claims, no content. */
  private queuesRoom(): string {
    return `${this.chat.settings.prefix}:queues`;
  }

  private queuesTimer: NodeJS.Timeout | null = null;

  /**
   * Something that may change a work queue happened (a call that changed state): the operators'
   * screens refetch. At most one announcement a second per process (the adapter carries it to
   * every process's operator sockets).
   */
  queuesChanged(): void {
    if (this.queuesTimer) return;
    this.queuesTimer = setTimeout(() => {
      this.queuesTimer = null;
      try {
        this.io.to(this.queuesRoom()).emit('queues');
      } catch {
        // Closing: nothing to announce.
      }
    }, 1_000);
    this.queuesTimer.unref();
  }

  /** The room of operators' sockets: every stored message is announced there (`inbox`). */
  private inboxRoom(): string {
    return `${this.chat.settings.prefix}:operators`;
  }

  /** The room of one member session's sockets (clients cannot join it: `join` names their chat room only). */
  private sessionRoom(sessionId: string): string {
    return `${this.chat.settings.prefix}:session:${sessionId}`;
  }

  /**
   * Closes the sockets of revoked sessions: one session (logout), or all of a member's but `keep`
   * (a password change). Through the adapter this reaches every server process; the client
   * cannot come back with the revoked token (the handshake checks it again, recovery included).
   */
  disconnectRevoked({ sessionId, memberId, keep }: RevokedSessions): void {
    if (sessionId) this.io.in(this.sessionRoom(sessionId)).disconnectSockets(true);
    if (memberId) {
      const room = this.io.in(this.chat.roomOf({ member_id: memberId, guest_id: null }));
      (keep ? room.except(this.sessionRoom(keep)) : room).disconnectSockets(true);
    }
  }

  deliver(room: string, conversation: Conversation): void {
    this.io.to(room).emit('messaging', conversation);
    this.io.to(this.inboxRoom()).emit('inbox', conversation);
  }

  /**
   * Tells a member's sockets, in every process (the adapter carries it), that a balance changed.
   * A member's socket is in its member room from its connection on, chat or no chat.
   */
  pushBalance(memberId: string, event: BalanceEvent): void {
    // Gathered until the end of the tick and sent to the other processes as one message: under
    // load a batch of postings (a group commit) is one message through Redis, not one per member
    // (which cost every process a Redis write and a read per transfer). Each process then emits to
    // the sockets it holds; a missed event is not replayed (the app re-reads the wallet when its
    // socket reconnects).
    if (this.balances.length === 0) setImmediate(() => this.flushBalances());
    this.balances.push([memberId, event]);
  }

  private flushBalances(): void {
    const batch = this.balances;
    this.balances = [];
    if (batch.length === 0) return;
    try {
      this.emitBalancesHere(batch);
      if (this.redis) this.io.serverSideEmit('balances', batch);
    } catch {
      // Closing: the news is dropped, not the money (the app re-reads the wallet on reconnect).
    }
  }

  private emitBalancesHere(batch: Array<[string, BalanceEvent]>): void {
    for (const [memberId, event] of batch) {
      if (typeof memberId !== 'string') continue;
      this.io.local.to(this.chat.roomOf({ member_id: memberId, guest_id: null })).emit('balance', event);
    }
  }

  /** Disconnects every socket and stops the engine; the HTTP server is the app's to close. */
  async close(): Promise<void> {
    if (this.queuesTimer) clearTimeout(this.queuesTimer);
    if (this.recheck) clearInterval(this.recheck);
    this.io.disconnectSockets(true);
    // The adapter first: its stream reader stops polling before its Redis connection goes.
    await this.io.of('/').adapter.close();
    this.io.engine.close();
    this.redis?.disconnect();
    this.reader?.disconnect();
  }
}
