import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database';
import { checkInvariants } from '../src/money/ledger';
import { dbKinds, dropSchema, PG_URL, type DbKind } from './helpers';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OPERATOR = 'crash-test-operator-token';

interface Answer {
  key: string;
  direction: 'in' | 'out';
  status: number | null;
  reference?: string;
}

/** Runs the real server as its own process, so it can be killed with SIGKILL. */
interface Target {
  kind: DbKind;
  schema: string;
  dataDir: string;
}

/** Opens the database the (stopped) server used, to look at it directly. */
function inspect(target: Target): Promise<Database> {
  return target.kind === 'postgres'
    ? openDatabase({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: target.schema, DATABASE_POOL_SIZE: 2, DATA_DIR: target.dataDir })
    : openDatabase({ DATABASE_URL: undefined, DATABASE_SCHEMA: undefined, DATABASE_POOL_SIZE: 1, DATA_DIR: target.dataDir });
}

function startServer(port: number, target: Target): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Its own sandbox service (not one a developer's server keeps on 3100).
      SANDBOX_PORT: String(port + 1),
      ...(target.kind === 'postgres' ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: target.schema } : { DATA_DIR: target.dataDir }),
      LOG_LEVEL: 'silent',
      OPERATOR_TOKEN: OPERATOR,
      ARGON2_MEMORY_KIB: '8192',
      SEED_DEMO_QUEUE: 'false',
      OTP_RESEND_SECONDS: '0',
      // Long enough that a transfer spends most of its time waiting for the provider with its
      // operation recorded PENDING: the kill then finds transfers in flight even on a busy host.
      SANDBOX_GAME_LATENCY_MS: '60',
      RECONCILE_INTERVAL_MS: '300',
      RECONCILE_GRACE_MS: '0',
      CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  exited.set(child, new Promise((r) => child.once('exit', () => r())));
  return child;
}

const exited = new WeakMap<ChildProcess, Promise<void>>();

/**
 * Waits for the server to answer, as long as it may itself take to start (its sandbox service
 * alone may take 30 s on a loaded machine), and no longer once the process has ended.
 */
async function waitUp(base: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600 && child.exitCode === null && child.signalCode === null; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start (${child.exitCode === null && child.signalCode === null ? 'not answering after 60 s' : `exited ${child.signalCode ?? child.exitCode}`})`);
}

async function api(base: string, method: string, path: string, body?: unknown, token?: string, key?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (key) headers['idempotency-key'] = key;
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Kills the server with SIGKILL in the middle of a burst of transfers, starts it again, and
 * checks that after reconciliation every answered request is reflected exactly once, every
 * unanswered one can be retried with its key without moving money twice, and nothing is lost.
 */
describe.each(dbKinds)('crash during a burst of transfers on %s', (kind) => {
  const schema = `t_crash_${randomBytes(4).toString('hex')}`;
  const target: Target = { kind, schema, dataDir: mkdtempSync(join(tmpdir(), 'mw-crash-')) };
  const port = 39_000 + Math.floor(Math.random() * 2000) + (kind === 'postgres' ? 2000 : 0);
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;

  afterAll(async () => {
    server?.kill('SIGKILL');
    if (server) await exited.get(server);
    if (kind === 'postgres') await dropSchema(schema);
    rmSync(target.dataDir, { recursive: true, force: true });
  });

  it('reflects every answered request exactly once and loses nothing', async () => {
    server = startServer(port, target);
    await waitUp(base, server);
    const phone = `09${String(Date.now()).slice(-8)}`;
    const sent = await api(base, 'POST', '/api/otp/send', { phoneNumber: phone });
    const sms = await api(base, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
    const code = /\b(\d{6})\b/.exec(String((sms.body.messages as Array<{ text: string }>)[0]?.text))?.[1];
    await api(base, 'POST', '/api/otp/verify', { otpToken: sent.body.otpToken, otpCode: code });
    const reg = await api(base, 'POST', '/api/account', { otpToken: sent.body.otpToken, name: 'Crash', username: phone, password: 'secret123', bankCode: 'KBANK', bankAccountName: 'CRASH TEST', bankAccountNo: `55${String(Date.now()).slice(-8)}`, birthDate: '1990-01-15' });
    expect(reg.status).toBe(200);
    const token = String((await api(base, 'POST', '/api/login', { username: phone, password: 'secret123' })).body.token);
    expect((await api(base, 'POST', '/api/wallet/add', { amount: 1000 }, token)).status).toBe(200);
    expect((await api(base, 'GET', '/api/wallet/activate/PG', undefined, token)).status).toBe(200);
    // The provider's latency, set now: SANDBOX_GAME_LATENCY_MS is applied at the server's start only
    // if its sandbox already answers (often not yet: "sandbox game faults not set"), and without it a
    // kill on a slow host could find every request in flight still before its first write.
    expect((await api(base, 'PUT', '/api/operator/sandbox/games/PG/fault', { mode: 'none', latencyMs: 60 }, OPERATOR)).status).toBe(200);

    // The burst: up to 160 transfers of 1 baht, two in for one out, 12 at a time; killed mid-way.
    const answers: Answer[] = [];
    const requests = Array.from({ length: 160 }, (_, i) => ({ key: `crash-${schema}-${i}`, direction: (i % 3 === 2 ? 'out' : 'in') as 'in' | 'out' }));
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const r = requests[next++];
        if (!r) break;
        const body = r.direction === 'in' ? { from: 'WALLET', to: 'PG', amount: 1 } : { from: 'PG', to: 'WALLET', amount: 1 };
        try {
          const res = await api(base, 'POST', '/api/wallet/transfer', body, token, r.key);
          answers.push({ ...r, status: res.status, reference: typeof res.body.reference === 'string' ? res.body.reference : undefined });
        } catch {
          answers.push({ ...r, status: null });
        }
      }
    };
    // Killed once a few requests have been answered: mid-burst, whatever the machine's speed.
    const killer = new Promise<void>((resolveKill) => {
      const poll = setInterval(() => {
        if (answers.length >= 20) {
          clearInterval(poll);
          server?.kill('SIGKILL');
          resolveKill();
        }
      }, 5);
    });
    await Promise.all([...Array.from({ length: 12 }, worker), killer]);
    const answered = answers.filter((a) => a.status !== null);
    const lost = answers.filter((a) => a.status === null);
    expect(answered.length).toBeGreaterThan(0);
    expect(lost.length).toBeGreaterThan(0);

    await exited.get(server);
    // The crash left transfers in flight: money held, operation PENDING.
    let db = await inspect(target);
    const pendingAtCrash = await db.db.selectFrom('operations').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'PENDING').executeTakeFirstOrThrow();
    await db.close();
    expect(Number(pendingAtCrash.n)).toBeGreaterThan(0);

    // Restart: the reconciler settles what the crash left pending.
    server = startServer(port, target);
    await waitUp(base, server);
    let pending = -1;
    for (let i = 0; i < 100 && pending !== 0; i++) {
      const statement = await api(base, 'POST', '/api/statement', { page: 1, limit: 100 }, token);
      pending = (statement.body.statements as Array<{ status: string }>).filter((x) => x.status === 'PENDING').length;
      if (pending !== 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(pending).toBe(0);

    // Unanswered requests are retried with their key: each ends with one outcome, none twice.
    for (const a of lost) {
      const body = a.direction === 'in' ? { from: 'WALLET', to: 'PG', amount: 1 } : { from: 'PG', to: 'WALLET', amount: 1 };
      const first = await api(base, 'POST', '/api/wallet/transfer', body, token, a.key);
      const second = await api(base, 'POST', '/api/wallet/transfer', body, token, a.key);
      expect([200, 400, 502]).toContain(first.status);
      expect(second.status).toBe(first.status);
      if (first.status === 200) expect(second.body.reference).toBe(first.body.reference);
    }

    // Nothing lost: wallet + game = 1000 baht, and the provider agrees with the ledger.
    const wallet = await api(base, 'GET', '/api/wallet', undefined, token);
    const walletAmount = (wallet.body.wallet as { amount: number }).amount;
    const pgAmount = (wallet.body.slots as Array<{ code: string; amount: number }>).find((s) => s.code === 'PG')?.amount ?? -1;
    expect(walletAmount + pgAmount).toBe(1000);
    const live = await api(base, 'GET', '/api/wallet/refresh/slot', undefined, token);
    expect((live.body.slots as Array<{ code: string; amount: number }>).find((s) => s.code === 'PG')?.amount).toBe(pgAmount);
    server.kill('SIGTERM');
    await exited.get(server);
    server = null;

    db = await inspect(target);
    try {
      // Every request answered 200 is one SUCCESS operation, recorded once under its key.
      for (const a of answered.filter((x) => x.status === 200)) {
        const rows = await db.db.selectFrom('operations').select(['id', 'status']).where('idem_key', '=', a.key).execute();
        expect(rows).toEqual([{ id: a.reference, status: 'SUCCESS' }]);
      }
      const inflight = await db.db.selectFrom('ledger_accounts').select('balance').where('kind', '=', 'inflight').where('balance', '<>', 0).execute();
      expect(inflight).toEqual([]);
      const transfers = await sql<{ n: number }>`SELECT count(*)::int AS n FROM operations WHERE type = 'transfer'`.execute(db.db);
      // Every operation is recorded under one key (its own column, money/011); a key without an operation holds its refusal.
      const keys = await sql<{ n: number }>`SELECT count(*)::int AS n FROM operations WHERE type = 'transfer' AND idem_key IS NOT NULL`.execute(db.db);
      expect(transfers.rows[0]?.n).toBe(keys.rows[0]?.n);
      const empty = await sql<{ n: number }>`SELECT count(*)::int AS n FROM idempotency_keys WHERE operation_id IS NULL AND answer_status IS NULL AND plan IS NULL`.execute(db.db);
      expect(empty.rows[0]?.n).toBe(0);
      const report = await checkInvariants(db.db);
      expect(report).toMatchObject({ ok: true, total: 0 });
    } finally {
      await db.close();
    }
  }, 120_000);
});
