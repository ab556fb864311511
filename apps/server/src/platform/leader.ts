import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';

/** One row per lease: who holds it and until when (database time). */
export interface ProcessLeasesTable {
  name: string;
  holder: string;
  expires_at: Date;
}

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface LeaseTables {
  process_leases: ProcessLeasesTable;
}

declare module '../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends LeaseTables {}
}

/** The migration of the lease table (run by the settings module, the platform's tables' owner). */
export const processLeasesMigration = {
  id: 'settings/003_process_leases',
  sql: `
-- Leases of work that must run in one server process at a time (background jobs): the holder renews it; another process takes it once it lapses.
CREATE TABLE process_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);`,
};

export interface LeaseOptions {
  /** How long a lease lasts without renewal; it is renewed every third of that. */
  ttlMs: number;
  onGain: () => Promise<void> | void;
  onLose: () => Promise<void> | void;
  onError?: (error: unknown) => void;
  /** This process's name in the table (host, pid and a random suffix by default). */
  holder?: string;
}

/**
 * A lease that makes work run in one process of many (the background jobs: reconcilers, sweeps,
 * imports — `DomainModule.start`). Every process tries to take or renew it every `ttlMs / 3`, in
 * one statement that succeeds only for the holder or once the lease has lapsed (database time, so
 * the processes' clocks do not matter). The holder runs the work (`onGain`); a process that cannot
 * renew it (the database did not answer for a whole `ttlMs`, or another took it) stops the work
 * (`onLose`). A process that closes gives the lease back, so another takes over at its next try; a
 * process that dies is replaced once the lease lapses (`ttlMs`), or at once by a process of the
 * same machine that sees its pid gone (a restart after a crash does not wait out the lease).
 *
 * Two holders at once are possible only when a holder is paused longer than `ttlMs` between its
 * renewals: the jobs are written to be safe to run twice (each settles under its own row locks and
 * unique keys), the lease only keeps N processes from doing the same work N times.
 */
export class Lease {
  readonly holder: string;
  private leading = false;
  private renewedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Kysely<DB>,
    readonly name: string,
    private readonly options: LeaseOptions,
  ) {
    this.holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  get held(): boolean {
    return this.leading;
  }

  /** Takes the lease if it can, and keeps trying (or renewing) until `close`. */
  start(): Promise<void> {
    const first = this.tick();
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.options.ttlMs / 3)));
    this.timer.unref();
    return first;
  }

  /** One try to take or renew the lease (serialised: a slow try is not overtaken by the next). */
  tick(): Promise<void> {
    this.running = this.running.then(() => this.attempt());
    return this.running;
  }

  private async attempt(): Promise<void> {
    if (this.closed) return;
    let held: boolean;
    try {
      const { rows } = await sql<{ holder: string }>`
        INSERT INTO process_leases (name, holder, expires_at)
        VALUES (${this.name}, ${this.holder}, now() + ${this.options.ttlMs}::int * interval '1 millisecond')
        ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
        WHERE process_leases.holder = excluded.holder OR process_leases.expires_at < now()
        RETURNING holder`.execute(this.db);
      held = rows.length === 1;
      if (!held) held = await this.takeFromTheDead();
    } catch (error) {
      this.options.onError?.(error);
      // Without an answer the lease is kept only as long as it surely lasts.
      held = this.leading && Date.now() - this.renewedAt < this.options.ttlMs;
    }
    if (this.closed) return;
    if (held && this.leading) this.renewedAt = Date.now();
    if (held && !this.leading) {
      this.leading = true;
      this.renewedAt = Date.now();
      await this.options.onGain();
    } else if (!held && this.leading) {
      this.leading = false;
      await this.options.onLose();
    }
  }

  /**
   * A holder that was a process of this machine that no longer runs (killed, crashed: it could
   * not give the lease back) is replaced at once rather than after the lease lapses. Only a
   * holder named with this host's name and a pid that is gone; another machine's holder is
   * waited out.
   */
  private async takeFromTheDead(): Promise<boolean> {
    const row = await this.db.selectFrom('process_leases').select('holder').where('name', '=', this.name).executeTakeFirst();
    const [host, pid] = row?.holder.split(':') ?? [];
    if (!row || host !== hostname() || !pid || !/^\d+$/.test(pid) || alive(Number(pid))) return false;
    const { rows } = await sql<{ holder: string }>`
      UPDATE process_leases SET holder = ${this.holder}, expires_at = now() + ${this.options.ttlMs}::int * interval '1 millisecond'
      WHERE name = ${this.name} AND holder = ${row.holder} RETURNING holder`.execute(this.db);
    return rows.length === 1;
  }

  /** Stops trying; the work stops (when held) and the lease is given back at once. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    this.closed = true;
    if (this.leading) {
      this.leading = false;
      await this.options.onLose();
      await this.db
        .deleteFrom('process_leases')
        .where('name', '=', this.name)
        .where('holder', '=', this.holder)
        .execute()
        .catch((error: unknown) => this.options.onError?.(error));
    }
  }
}

/** Whether a process of this machine runs (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
