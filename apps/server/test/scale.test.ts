import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { get } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { loadConfig, processCount, ConfigError } from '../src/config';
import { openDatabase, type Database } from '../src/db/database';
import { LoadShedder } from '../src/http/shedding';
import { Lease } from '../src/platform/leader';
import { migrate } from '../src/db/migrations';
import { processLeasesMigration } from '../src/platform/leader';
import { call, dbKinds, dropSchema, login, OPERATOR_TOKEN, PG_URL, REDIS_URL, registerMember, startApp, type TestApp } from './helpers';

/**
 * Scale-out: several processes (WEB_CONCURRENCY), background jobs once across them (the jobs'
 * lease), and load shedding (503 BUSY with Retry-After).
 */

describe('WEB_CONCURRENCY', () => {
  it('defaults to every core with PostgreSQL and Redis, else one; more needs both', () => {
    expect(processCount({ DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://x', WEB_CONCURRENCY: undefined }, 4)).toBe(4);
    expect(processCount({ DATABASE_URL: 'postgres://x', REDIS_URL: undefined, WEB_CONCURRENCY: undefined }, 4)).toBe(1);
    expect(processCount({ DATABASE_URL: undefined, REDIS_URL: undefined, WEB_CONCURRENCY: undefined }, 4)).toBe(1);
    expect(processCount({ DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://x', WEB_CONCURRENCY: 1 }, 4)).toBe(1);
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEB_CONCURRENCY: '2', DATABASE_URL: 'postgres://x' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ WEB_CONCURRENCY: '2', DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://x' }).WEB_CONCURRENCY).toBe(2);
  });
});

describe.each(dbKinds)('the jobs lease (%s)', (kind) => {
  let database: Database;
  let schema: string | undefined;

  afterEach(async () => {
    await database?.close();
    if (schema) await dropSchema(schema);
  });

  async function open(): Promise<void> {
    schema = kind === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
    database = await openDatabase(loadConfig({ DATA_DIR: 'memory', ...(schema ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: '4' } : {}) }));
    await migrate(database, [processLeasesMigration]);
  }

  function lease(holder: string, events: string[], ttlMs = 1_000): Lease {
    return new Lease(database.db, 'jobs', { ttlMs, holder, onGain: () => void events.push(`${holder} gains`), onLose: () => void events.push(`${holder} loses`) });
  }

  it('is held by one process; closing it hands it over at the next try', async () => {
    await open();
    const events: string[] = [];
    const a = lease('a', events);
    const b = lease('b', events);
    await a.tick();
    await b.tick();
    await a.tick();
    await b.tick();
    expect([a.held, b.held]).toEqual([true, false]);
    await a.close();
    await b.tick();
    expect(b.held).toBe(true);
    expect(events).toEqual(['a gains', 'a loses', 'b gains']);
    await b.close();
  });

  it('lapses when its holder stops renewing (a killed process), and only then', async () => {
    await open();
    const events: string[] = [];
    const dead = lease('dead', events, 600);
    await dead.tick(); // takes it, then never renews (no timer: as if killed)
    const live = lease('live', events, 600);
    await live.tick();
    expect(live.held).toBe(false);
    // Database time decides the lapse: wait until its clock is past the lease.
    await expect
      .poll(async () => {
        await live.tick();
        return live.held;
      }, { timeout: 10_000, interval: 100 })
      .toBe(true);
    const rows = await database.db.selectFrom('process_leases').selectAll().execute();
    expect(rows.map((r) => r.holder)).toEqual(['live']);
    // The dead holder, were it only paused, finds the lease gone on its next try and stops its work.
    await dead.tick();
    expect(dead.held).toBe(false);
    expect(events).toEqual(['dead gains', 'live gains', 'dead loses']);
    await live.close();
  });
});

describe('load shedding', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('sheds on event-loop lag: a loop that stays late sheds, a calm one clears it', async () => {
    const shedder = new LoadShedder({ lagMs: 100, poolQueue: 0, waiting: () => 0, sampleMs: 50 });
    try {
      expect(shedder.overloaded()).toBeNull();
      const until = Date.now() + 1_000;
      while (Date.now() < until) {
        // the event loop is blocked: the sampler's next tick comes a second late
      }
      await new Promise((r) => setTimeout(r, 60));
      expect(shedder.lag).toBeGreaterThan(100);
      expect(shedder.overloaded()).toBe('event-loop');
      await expect.poll(() => shedder.overloaded(), { timeout: 5_000, interval: 50 }).toBeNull();
    } finally {
      shedder.close();
    }
  });

  it.each(dbKinds)('sheds member calls with 503 BUSY and Retry-After while queries queue for the database, never operator calls (%s)', async (kind) => {
    const started = await startApp(kind, { SHED_POOL_QUEUE: '4', DATABASE_POOL_SIZE: '2' });
    t = started;
    const { app, services } = started;
    // Background jobs queue a few queries as the app starts: the member registers once they are through.
    const calm = () => expect.poll(() => services.database.waiting(), { timeout: 10_000 }).toBe(0);
    await calm();
    const member = await registerMember(app);
    const token = await login(app, member.phone, member.password);
    // Hold the connections, then queue eight queries behind them.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let holding!: () => void;
    const holds = new Promise<void>((r) => {
      holding = r;
    });
    const holders = [1, 2].map(() =>
      services.database.db.transaction().execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        holding();
        await held;
      }),
    );
    await holds;
    const queued = Array.from({ length: 8 }, () => sql`SELECT 1`.execute(services.database.db));
    await expect.poll(() => services.database.waiting()).toBeGreaterThan(4);

    const key = randomUUID();
    const shed = await call(app, 'POST', '/api/wallet/add', { token, body: { amount: 100 }, headers: { 'idempotency-key': key } });
    expect(shed.status).toBe(503);
    expect(shed.body).toEqual({ message: 'BUSY', retryAfter: 2 });
    expect(shed.headers['retry-after']).toBe('2');
    // Operators still get through to clear the queues (their call waits for the connection).
    const operator = app.inject({ method: 'GET', url: '/api/operator/ledger/check', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });

    release();
    await Promise.all(holders);
    await Promise.all(queued);
    await calm();
    expect((await operator).statusCode).toBe(200);
    // The shed money call moved nothing and its key is free: the retry runs it, once.
    const retried = await call<{ amount: number }>(app, 'POST', '/api/wallet/add', { token, body: { amount: 100 }, headers: { 'idempotency-key': key } });
    expect(retried.status).toBe(200);
    const again = await call(app, 'POST', '/api/wallet/add', { token, body: { amount: 100 }, headers: { 'idempotency-key': key } });
    expect(again.body).toEqual(retried.body);
    const wallet = await call<{ wallet: { amount: number } }>(app, 'GET', '/api/wallet', { token });
    expect(wallet.body.wallet.amount).toBe(100);
  });
});

/** Several processes started the README's way: `node apps/server/src/main.ts` under tsx, WEB_CONCURRENCY=2. */
describe('two processes on one port (PostgreSQL + Redis)', () => {
  let child: ChildProcess | null = null;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    const running = child;
    if (running && running.exitCode === null) {
      const exited = new Promise((r) => running.once('exit', r));
      running.kill('SIGTERM');
      await exited;
    }
    await dropSchema(schema);
  });

  async function freePort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    return port;
  }

  it('both serve, background jobs run in one, and a killed process loses nothing', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const root = resolve(import.meta.dirname, '../../..');
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: PG_URL,
        DATABASE_SCHEMA: schema,
        DATABASE_POOL_SIZE: '4',
        REDIS_URL,
        WEB_CONCURRENCY: '2',
        JOB_LEASE_MS: '2000',
        OPERATOR_TOKEN,
        WEB_DIST: '/nonexistent',
        ARGON2_MEMORY_KIB: '4096',
        SEED_DEMO_QUEUE: 'false',
      },
    });
    const base = `http://127.0.0.1:${port}`;
    type Health = { pid: number; jobs: 'running' | 'standby' };
    // A new connection each time: the cluster hands out connections, not requests, in turn.
    const health = (): Promise<Health | null> =>
      new Promise((done) => {
        const req = get(`${base}/healthz`, { agent: false, timeout: 2_000 }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => done(res.statusCode === 200 ? (JSON.parse(text) as Health) : null));
        });
        req.on('timeout', () => req.destroy());
        req.on('error', () => done(null));
      });
    /** Asks until both processes have answered; what each says about the jobs. */
    const processes = async (): Promise<Map<number, Health['jobs']>> => {
      const seen = new Map<number, Health['jobs']>();
      const until = Date.now() + 60_000;
      while (seen.size < 2 && Date.now() < until) {
        const h = await health();
        if (h) seen.set(h.pid, h.jobs);
        else await new Promise((r) => setTimeout(r, 200));
      }
      return seen;
    };
    let seen = await processes();
    expect(seen.size).toBe(2);
    // The jobs run in exactly one (standby processes stay standby while it renews).
    await expect.poll(async () => [...(await processes()).values()].sort(), { timeout: 10_000 }).toEqual(['running', 'standby']);

    // The demo member tops up with keys while the process running the jobs is killed.
    const loginRes = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: '0812345678', password: 'demo1234' }) });
    expect(loginRes.status).toBe(200);
    const { token } = (await loginRes.json()) as { token: string };
    const before = ((await (await fetch(`${base}/api/wallet`, { headers: { authorization: `Bearer ${token}` } })).json()) as { wallet: { amount: number } }).wallet.amount;
    seen = await processes();
    const victim = [...seen].find(([, jobs]) => jobs === 'running')?.[0];
    if (victim === undefined) throw new Error('no process runs the jobs');
    const keys = Array.from({ length: 20 }, () => randomUUID());
    const topUp = async (key: string): Promise<void> => {
      for (let attempt = 0; attempt < 50; attempt += 1) {
        try {
          const res = await fetch(`${base}/api/wallet/add`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': key },
            body: JSON.stringify({ amount: 10 }),
            signal: AbortSignal.timeout(5_000),
          });
          if (res.status === 200) return;
        } catch {
          // the connection went with the process: the same key again
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`top-up ${key} never answered`);
    };
    const running = keys.map((key, i) => new Promise((r) => setTimeout(r, i * 20)).then(() => topUp(key)));
    await new Promise((r) => setTimeout(r, 100));
    process.kill(victim, 'SIGKILL');
    await Promise.all(running);

    // A new process replaces it, and the jobs run again in exactly one process.
    await expect
      .poll(async () => {
        const now = await processes();
        return now.has(victim) ? 'old' : [...now.values()].sort().join();
      }, { timeout: 30_000, interval: 500 })
      .toBe('running,standby');
    const after = ((await (await fetch(`${base}/api/wallet`, { headers: { authorization: `Bearer ${token}` } })).json()) as { wallet: { amount: number } }).wallet.amount;
    expect(after - before).toBe(keys.length * 10);
    const check = (await (await fetch(`${base}/api/operator/ledger/check`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).json()) as { ok: boolean };
    expect(check.ok).toBe(true);
  });
});
