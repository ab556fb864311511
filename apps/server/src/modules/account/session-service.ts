import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { unauthorized } from '../../lib/errors';
import { newId, newToken, sha256 } from '../../lib/ids';
import type { AuthMember } from '../../http/handlers';
import type { AccountDb } from './tables';

interface Cached {
  member: AuthMember;
  expiresAt: number;
  cachedAt: number;
}

export interface Revocation {
  sessionId?: string;
  memberId?: string;
  keep?: string;
}

const CHANNEL = 'mw:sessions:revoked';

/**
 * Opaque bearer tokens: a random secret given to the client once, stored only as its SHA-256,
 * so a token can be revoked (logout, password change) and a copy of the database holds none.
 * Unknown, malformed or revoked tokens answer 401 invalid-token; an expired one
 * EXPIRED_AUTH_TOKEN.
 *
 * A checked token is remembered for SESSION_CACHE_MS, so most calls need no session read. A
 * revocation clears it at once in this process and, with REDIS_URL, in every process (published
 * on a Redis channel); without Redis another process may accept a revoked token for at most
 * SESSION_CACHE_MS.
 */
export class SessionService {
  private readonly cache = new Map<string, Cached>();
  private readonly revokeListeners = new Set<(revocation: Revocation) => void>();
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;

  constructor(
    private readonly db: Kysely<AccountDb>,
    private readonly ttlHours: number,
    /** How long a checked token is kept (SESSION_CACHE_MS); what is kept per session must not outlive it. */
    readonly cacheMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Shares revocations with the other server processes through Redis. */
  async connect(redisUrl: string): Promise<void> {
    this.publisher = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    this.subscriber = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    this.subscriber.on('message', (_channel: string, message: string) => {
      try {
        this.forget(JSON.parse(message) as Revocation);
      } catch {
        // a malformed message changes nothing
      }
    });
    await this.subscriber.subscribe(CHANNEL);
  }

  async close(): Promise<void> {
    await Promise.all([this.publisher?.quit(), this.subscriber?.quit()]);
  }

  /**
   * Called in the process that revokes (after the revocation is stored), e.g. to close the
   * sessions' sockets everywhere through the socket.io adapter. Answers how to stop listening.
   */
  onRevoke(listener: (revocation: Revocation) => void): () => void {
    this.revokeListeners.add(listener);
    return () => {
      this.revokeListeners.delete(listener);
    };
  }

  async create(memberId: string): Promise<string> {
    const token = newToken();
    await this.db
      .insertInto('sessions')
      .values({
        id: newId(),
        token_hash: sha256(token),
        member_id: memberId,
        expires_at: new Date(this.now().getTime() + this.ttlHours * 3_600_000),
      })
      .execute();
    return token;
  }

  async authenticate(authorization: string | undefined): Promise<AuthMember> {
    const match = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(authorization ?? '');
    if (!match?.[1]) throw unauthorized('invalid-token');
    const hash = sha256(match[1]);
    const now = this.now().getTime();
    const cached = this.cache.get(hash);
    if (cached && now - cached.cachedAt < this.cacheMs) {
      if (cached.expiresAt <= now) throw unauthorized('EXPIRED_AUTH_TOKEN');
      return cached.member;
    }
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('members', 'members.id', 'sessions.member_id')
      .select(['sessions.id', 'sessions.member_id', 'sessions.expires_at', 'sessions.revoked_at', 'members.username', 'members.status'])
      .where('sessions.token_hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.status !== 'active') throw unauthorized('invalid-token');
    if (row.expires_at.getTime() <= now) throw unauthorized('EXPIRED_AUTH_TOKEN');
    const member = { memberId: row.member_id, sessionId: row.id, username: row.username };
    if (this.cacheMs > 0) {
      if (this.cache.size > 100_000) this.cache.clear();
      this.cache.set(hash, { member, expiresAt: row.expires_at.getTime(), cachedAt: now });
    }
    return member;
  }

  /** When a session began (its login): the reality check counts from it. */
  async startedAt(sessionId: string): Promise<Date | null> {
    const row = await this.db.selectFrom('sessions').select('created_at').where('id', '=', sessionId).executeTakeFirst();
    return row ? new Date(row.created_at) : null;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: this.now() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
    await this.announce({ sessionId });
  }

  /** Revokes every live session of the member except `keep` (none when omitted). */
  async revokeAll(memberId: string, keep?: string, db: Kysely<AccountDb> = this.db): Promise<void> {
    let query = db.updateTable('sessions').set({ revoked_at: this.now() }).where('member_id', '=', memberId).where('revoked_at', 'is', null);
    if (keep) query = query.where('id', '<>', keep);
    await query.execute();
    await this.announce(keep ? { memberId, keep } : { memberId });
  }

  private async announce(revocation: Revocation): Promise<void> {
    this.forget(revocation);
    for (const listener of this.revokeListeners) {
      try {
        listener(revocation);
      } catch {
        // a listener's failure does not undo the revocation
      }
    }
    await this.publisher?.publish(CHANNEL, JSON.stringify(revocation)).catch(() => undefined);
  }

  private forget({ sessionId, memberId, keep }: Revocation): void {
    for (const [hash, entry] of this.cache) {
      const { member } = entry;
      if ((sessionId && member.sessionId === sessionId) || (memberId && member.memberId === memberId && member.sessionId !== keep)) {
        this.cache.delete(hash);
      }
    }
  }
}
