import type { Kysely } from 'kysely';
import type { OperatorRole } from '@mw/contract/admin';
import { unauthorized } from '../../lib/errors';
import { newId, newToken, sha256 } from '../../lib/ids';
import type { OperatorIdentity, OperatorSessionCheck } from '../../platform/operator';
import type { OperatorsTables } from './tables';

/** A clock the tests can move (sessions' life and idle time, challenges, TOTP steps). */
export interface Clock {
  now(): Date;
}

export interface SessionOptions {
  /** OPERATOR_SESSION_HOURS: a session's whole life. */
  hours: number;
  /** OPERATOR_IDLE_MINUTES: a session unused this long ends. */
  idleMinutes: number;
}

/** How stale `last_seen_at` may get before a call writes it again (the idle check's granularity). */
const SEEN_WRITE_MS = 10_000;

/**
 * Operators' sessions, apart from members': an opaque token (only its SHA-256 is stored), a
 * shorter life and an idle timeout. Every call reads its session and its operator (no cache:
 * operators are few), so a disabled operator, a changed password or a revoked session stops the
 * very next call in every process.
 */
/** What was revoked: one session (a logout), or every session of an operator (disable, password, TOTP reset, role change). */
export interface OperatorRevocation {
  sessionId?: string;
  operatorId?: string;
}

export class OperatorSessionService implements OperatorSessionCheck {
  private readonly listeners = new Set<(revocation: OperatorRevocation) => void>();

  /** Told of every revocation in this process (the sockets close theirs; the adapter carries it to every process). */
  onRevoke(listener: (revocation: OperatorRevocation) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The operator's standing changed without a revocation (a new role): their live connections start again under the new one. */
  changed(operatorId: string): void {
    this.tell({ operatorId });
  }

  private tell(revocation: OperatorRevocation): void {
    for (const listener of this.listeners) {
      try {
        listener(revocation);
      } catch {
        // A listener's failure never stops a revocation.
      }
    }
  }

  constructor(
    private readonly db: Kysely<OperatorsTables>,
    private readonly options: SessionOptions,
    private readonly clock: Clock,
  ) {}

  async create(operatorId: string, address: string | null): Promise<{ token: string; id: string; expiresAt: Date }> {
    const token = newToken();
    const id = newId();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.options.hours * 3_600_000);
    await this.db.insertInto('operator_sessions').values({ id, token_hash: sha256(token), operator_id: operatorId, expires_at: expiresAt, last_seen_at: now, address }).execute();
    return { token, id, expiresAt };
  }

  async authenticate(token: string): Promise<OperatorIdentity> {
    const row = await this.db
      .selectFrom('operator_sessions as s')
      .innerJoin('operators as o', 'o.id', 's.operator_id')
      .select(['s.id', 's.expires_at', 's.last_seen_at', 's.revoked_at', 'o.id as operatorId', 'o.username', 'o.name', 'o.role', 'o.status'])
      .where('s.token_hash', '=', sha256(token))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.status !== 'active') throw unauthorized('UNAUTHORIZED');
    const now = this.clock.now();
    const idleSince = now.getTime() - row.last_seen_at.getTime();
    if (row.expires_at.getTime() <= now.getTime() || idleSince > this.options.idleMinutes * 60_000) {
      await this.revoke(row.id);
      throw unauthorized('SESSION_EXPIRED');
    }
    if (idleSince > SEEN_WRITE_MS) {
      await this.db.updateTable('operator_sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
    }
    return {
      id: row.operatorId,
      username: row.username,
      name: row.name,
      role: row.role as OperatorRole,
      via: 'session',
      sessionId: row.id,
      sessionExpiresAt: row.expires_at,
    };
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db.updateTable('operator_sessions').set({ revoked_at: this.clock.now() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
    this.tell({ sessionId });
  }

  /** Every open session of the operator (disabled, password changed, TOTP reset). */
  async revokeAll(operatorId: string, db: Kysely<OperatorsTables> = this.db): Promise<number> {
    const result = await db
      .updateTable('operator_sessions')
      .set({ revoked_at: this.clock.now() })
      .where('operator_id', '=', operatorId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    this.tell({ operatorId });
    return Number(result.numUpdatedRows);
  }
}
