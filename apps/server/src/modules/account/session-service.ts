import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { unauthorized } from '../../lib/errors';
import { newId, newToken, sha256 } from '../../lib/ids';
import type { AuthMember } from '../../http/handlers';

/**
 * Opaque bearer tokens: a random secret given to the client once, stored only as its SHA-256,
 * so a token can be revoked (logout, password change) and a copy of the database holds none.
 * Unknown, malformed or revoked tokens answer 401 invalid-token; an expired one
 * EXPIRED_AUTH_TOKEN.
 */
export class SessionService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly ttlHours: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

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
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('members', 'members.id', 'sessions.member_id')
      .select(['sessions.id', 'sessions.member_id', 'sessions.expires_at', 'sessions.revoked_at', 'members.username', 'members.status'])
      .where('sessions.token_hash', '=', sha256(match[1]))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.status !== 'active') throw unauthorized('invalid-token');
    if (row.expires_at.getTime() <= this.now().getTime()) throw unauthorized('EXPIRED_AUTH_TOKEN');
    return { memberId: row.member_id, sessionId: row.id, username: row.username };
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: this.now() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
  }

  /** Revokes every live session of the member except `keep` (none when omitted). */
  async revokeAll(memberId: string, keep?: string, db: Kysely<DB> = this.db): Promise<void> {
    let query = db.updateTable('sessions').set({ revoked_at: this.now() }).where('member_id', '=', memberId).where('revoked_at', 'is', null);
    if (keep) query = query.where('id', '<>', keep);
    await query.execute();
  }
}
