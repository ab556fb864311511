import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { BACKGROUND_PASSED_OVER, isBackground } from './priority';
import type { DB } from './schema';

export type DatabaseKind = 'embedded' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** Runs a script of several statements (migrations). */
  execScript(sql: string): Promise<void>;
  /** How many queries wait for a connection right now (the load shedder reads it). */
  waiting(): number;
  /** The embedded database's data directory as a tarball (a template for `OpenOptions.embeddedTemplate`). */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

/** int8 columns hold satang and counters: safe integers, returned as numbers (pg gives strings). */
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value out of safe range: ${value}`);
  return n;
}

export interface OpenOptions {
  /**
   * An in-memory embedded database starts as a copy of this data directory (PGlite's
   * `dumpDataDir`) instead of running initdb: about 0.6 s instead of 2-4 s. Tests pass one
   * that already holds the migrations (test/template.ts); ignored for PostgreSQL and on disk.
   */
  embeddedTemplate?: Blob;
}

export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_SCHEMA' | 'DATABASE_POOL_SIZE' | 'DATA_DIR'>,
  options: OpenOptions = {},
): Promise<Database> {
  return config.DATABASE_URL ? openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE, config.DATABASE_SCHEMA) : openEmbedded(config.DATA_DIR, options.embeddedTemplate);
}

async function openPostgres(url: string, poolSize: number, schema: string | undefined): Promise<Database> {
  pg.types.setTypeParser(pg.types.builtins.INT8, parseInt8);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Two processes starting at once both try to create it: the same advisory lock as the
      // migrations keeps them apart (IF NOT EXISTS alone still races in pg_namespace).
      await admin.query('SELECT pg_advisory_lock(4242001)');
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await admin.query('SELECT pg_advisory_unlock(4242001)');
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on('error', () => undefined); // an idle client's error is reported on its next use
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new PreparingPool(pool) }) });
  return {
    db,
    kind: 'postgres',
    execScript: async (sql) => {
      await pool.query(sql);
    },
    waiting: () => pool.waitingCount,
    close: () => db.destroy(),
  };
}

/**
 * Runs every parameterised query as a named prepared statement: PostgreSQL parses and plans it
 * once per connection instead of on every call (on the transfer path, planning cost as much as
 * running). The queries' texts are fixed by the code (values always travel as parameters), so
 * the set of names is bounded; past MAX_PREPARED distinct texts, new ones run unnamed.
 * Queries without parameters (scripts, DDL) keep the simple protocol.
 */
const MAX_PREPARED = 2000;

class PreparingPool implements PostgresPool {
  /** Name per query text; null for a text that must run unnamed (see below). */
  private readonly names = new Map<string, string | null>();

  constructor(private readonly pool: pg.Pool) {}

  private nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MAX_PREPARED) {
      name = `mw${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return name ?? undefined;
  }

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    return {
      query: async (text: string, values: ReadonlyArray<unknown>) => {
        const name = values.length > 0 ? this.nameOf(text) : undefined;
        if (!name) return client.query({ text, values: values as unknown[] });
        try {
          return await client.query({ name, text, values: values as unknown[] });
        } catch (error) {
          // A table changed under a prepared statement (another process migrated: "cached plan
          // must not change result type"), or a pooler in between lost it: the text runs unnamed
          // from now on. Inside a transaction the error has aborted it, so it is passed on.
          const code = (error as { code?: unknown }).code;
          if (code !== '0A000' && code !== '26000') throw error;
          this.names.set(text, null);
          return client.query({ text, values: values as unknown[] });
        }
      },
      release: () => client.release(),
    } as unknown as PostgresPoolClient;
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** PostgreSQL's type oid of bytea. */
const BYTEA_OID = 17;

/**
 * The embedded database: PGlite (PostgreSQL in WebAssembly) with its data in DATA_DIR/pgdata,
 * or in memory when DATA_DIR is "memory". PGlite has a single connection, so the pool below
 * hands it to one user at a time: a transaction holds it until it commits.
 */
async function openEmbedded(dataDir: string, template: Blob | undefined): Promise<Database> {
  let location: string | undefined;
  if (dataDir !== 'memory') {
    const dir = resolve(dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    location = join(dir);
  }
  // bytea (slip images) as hex with Buffer: PGlite's own converters go byte by byte in JavaScript
  // (about 30 ms for a 600 KB photo, on the event loop); these take about a millisecond.
  const byteaHex = {
    serializers: {
      [BYTEA_OID]: (value: unknown) => {
        if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
        return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
      },
    },
    parsers: { [BYTEA_OID]: (text: string) => Buffer.from(text.slice(2), 'hex') },
  };
  const lite = location ? await PGlite.create(location, byteaHex) : await PGlite.create({ ...byteaHex, ...(template ? { loadDataDir: template } : {}) });
  const pool = new SerialPglitePool(lite);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'embedded',
    execScript: async (sql) => {
      const release = await pool.lock();
      try {
        await lite.exec(sql);
      } finally {
        release();
      }
    },
    waiting: () => pool.waiting,
    dump: () => lite.dumpDataDir('none'),
    close: async () => {
      await db.destroy();
      await lite.close();
    },
  };
}

/**
 * PGlite's single connection, handed to one user at a time. Waiting users are served in order,
 * calls before background work (db/priority.ts). The connection passes to the next user after a
 * turn of the event loop (setImmediate) once TURN_EVERY_MS have gone by without one: PGlite
 * answers synchronously, so handing over in microtasks only would run the whole queue without once
 * reading the sockets, and a request arriving meanwhile could not even queue (measured: the event loop stalled 25-35 ms at a
 * time while 8 slips were stored; with the turn, new wallet reads are read, queued and served
 * ahead of the slips' image writes).
 */
/** The longest the connection passes from user to user without a turn of the event loop. */
const TURN_EVERY_MS = 4;

class SerialPglitePool implements PostgresPool {
  private held = false;
  private readonly calls: Array<() => void> = [];
  private readonly backgroundWork: Array<() => void> = [];
  /** Calls given the connection while background work waited, since it last got it. */
  private passedOver = 0;
  /** When the connection last passed over a turn of the event loop. */
  private lastTurn = performance.now();

  constructor(private readonly lite: PGlite) {}

  /** Callers waiting for the connection (the one holding it not counted). */
  get waiting(): number {
    return this.calls.length + this.backgroundWork.length;
  }

  /** Waits for the connection and returns the function that gives it back (once). */
  lock(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.handOver();
        });
      };
      if (!this.held) {
        this.held = true;
        // Free, but the event loop may not have turned since (one statement after another with
        // nobody waiting): the same rule as a hand-over.
        if (performance.now() - this.lastTurn < TURN_EVERY_MS) grant();
        else
          setImmediate(() => {
            this.lastTurn = performance.now();
            grant();
          });
      } else (isBackground() ? this.backgroundWork : this.calls).push(grant);
    });
  }

  /** Gives the connection to the next waiting user after a turn of the event loop (see above). */
  private handOver(): void {
    if (this.waiting === 0) {
      this.held = false;
      return;
    }
    // Still held while handing over: a user arriving meanwhile queues behind those waiting.
    const now = performance.now();
    if (now - this.lastTurn < TURN_EVERY_MS) {
      this.next();
      return;
    }
    setImmediate(() => {
      this.lastTurn = performance.now();
      this.next();
    });
  }

  /** Grants the connection: the next call, or background work when no call waits or it was passed over enough. */
  private next(): void {
    const late = this.backgroundWork.length > 0 && (this.calls.length === 0 || this.passedOver >= BACKGROUND_PASSED_OVER);
    if (late) this.passedOver = 0;
    else if (this.backgroundWork.length > 0) this.passedOver += 1;
    const next = late ? this.backgroundWork.shift() : this.calls.shift();
    if (next) next();
    else this.held = false;
  }

  async connect(): Promise<PostgresPoolClient> {
    const release = await this.lock();
    const lite = this.lite;
    let released = false;
    const client = {
      async query(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<unknown>> {
        // Without parameters use the simple protocol, which also runs multi-statement scripts.
        const result =
          parameters.length === 0 ? (await lite.exec(sql)).at(-1) ?? { rows: [], affectedRows: 0 } : await lite.query(sql, parameters as unknown[]);
        const command = (/^\s*(\w+)/.exec(sql)?.[1] ?? 'SELECT').toUpperCase() as PostgresQueryResult<unknown>['command'];
        return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
      },
      release() {
        if (released) return;
        released = true;
        release();
      },
    };
    return client as unknown as PostgresPoolClient;
  }

  /** Takes the connection once, after every call queued so far (background work may still be queued). */
  async end(): Promise<void> {
    (await this.lock())();
  }
}

/**
 * An area's query builder: the same connection, typed to the tables the area owns (its
 * `…Tables` interface, beside its migrations) and nothing else, so naming another area's table
 * does not compile. Other areas' data is reached through their services. Only the platform
 * (migrations, audit, the CLI) holds the whole schema's `Kysely<DB>`.
 */
export function moduleDb<Tables>(database: Pick<Database, 'db'>): Kysely<Tables> {
  return database.db as unknown as Kysely<Tables>;
}

/**
 * Any area's query builder or open transaction, as it crosses an area's border (a module hands
 * its transaction to the money core, the audit log, another module's service). The receiving
 * area looks at it through its own tables with `sameConnection`; the caller's tables do not come
 * along.
 */
export interface Connection {
  readonly isTransaction: boolean;
}

/** A connection handed in from another area, typed to the receiving area's tables. */
export function sameConnection<Tables>(connection: Connection): Kysely<Tables> {
  return connection as unknown as Kysely<Tables>;
}
