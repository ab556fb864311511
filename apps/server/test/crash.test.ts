import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { dropSchema, PG_URL } from './helpers';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OPERATOR = 'crash-test-operator-token';

interface Answer {
  key: string;
  direction: 'in' | 'out';
  status: number | null;
  reference?: string;
}

/** Runs the real server as its own process, so it can be killed with SIGKILL. */
function startServer(port: number, schema: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: PG_URL,
      DATABASE_SCHEMA: schema,
      LOG_LEVEL: 'silent',
      OPERATOR_TOKEN: OPERATOR,
      ARGON2_MEMORY_KIB: '8192',
      OTP_RESEND_SECONDS: '0',
      SANDBOX_GAME_LATENCY_MS: '15',
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

async function waitUp(base: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
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
describe('crash during a burst of transfers (PostgreSQL)', () => {
  const schema = `t_crash_${randomBytes(4).toString('hex')}`;
  const port = 39_000 + Math.floor(Math.random() * 2000);
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;

  afterAll(async () => {
    server?.kill('SIGKILL');
    await dropSchema(schema);
  });

  it('reflects every answered request exactly once and loses nothing', async () => {
    server = startServer(port, schema);
    await waitUp(base);
    const phone = `09${String(Date.now()).slice(-8)}`;
    const sent = await api(base, 'POST', '/api/otp/send', { phoneNumber: phone });
    const sms = await api(base, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
    const code = /\b(\d{6})\b/.exec(String((sms.body.messages as Array<{ text: string }>)[0]?.text))?.[1];
    await api(base, 'POST', '/api/otp/verify', { otpToken: sent.body.otpToken, otpCode: code });
    const reg = await api(base, 'POST', '/api/account', { name: 'Crash', username: phone, password: 'secret123', bankCode: 'KBANK', bankAccountName: 'CRASH TEST', bankAccountNo: `55${String(Date.now()).slice(-8)}` });
    expect(reg.status).toBe(200);
    const token = String((await api(base, 'POST', '/api/login', { username: phone, password: 'secret123' })).body.token);
    expect((await api(base, 'POST', '/api/wallet/add', { amount: 1000 }, token)).status).toBe(200);
    expect((await api(base, 'GET', '/api/wallet/activate/PG', undefined, token)).status).toBe(200);

    // The burst: 120 transfers of 5 baht, alternately in and out, 12 at a time; killed mid-way.
    const answers: Answer[] = [];
    const requests = Array.from({ length: 120 }, (_, i) => ({ key: `crash-${schema}-${i}`, direction: (i % 3 === 2 ? 'out' : 'in') as 'in' | 'out' }));
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const r = requests[next++];
        if (!r) break;
        const body = r.direction === 'in' ? { from: 'WALLET', to: 'PG', amount: 5 } : { from: 'PG', to: 'WALLET', amount: 5 };
        try {
          const res = await api(base, 'POST', '/api/wallet/transfer', body, token, r.key);
          answers.push({ ...r, status: res.status, reference: typeof res.body.reference === 'string' ? res.body.reference : undefined });
        } catch {
          answers.push({ ...r, status: null });
        }
      }
    };
    const killer = new Promise<void>((resolveKill) => {
      setTimeout(() => {
        server?.kill('SIGKILL');
        resolveKill();
      }, 700);
    });
    await Promise.all([...Array.from({ length: 12 }, worker), killer]);
    const answered = answers.filter((a) => a.status !== null);
    const lost = answers.filter((a) => a.status === null);
    expect(answered.length).toBeGreaterThan(0);
    expect(lost.length).toBeGreaterThan(0);

    await exited.get(server);
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      // The crash left transfers in flight: money held, operation PENDING.
      const atCrash = await client.query(`SELECT count(*)::int AS n FROM operations WHERE status = 'PENDING'`);
      expect(atCrash.rows[0].n).toBeGreaterThan(0);

      // Restart: the reconciler settles what the crash left pending.
      server = startServer(port, schema);
      await waitUp(base);
      for (let i = 0; i < 100; i++) {
        const pending = await client.query(`SELECT count(*)::int AS n FROM operations WHERE status = 'PENDING'`);
        if (pending.rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await client.query(`SELECT count(*)::int AS n FROM operations WHERE status = 'PENDING'`)).rows[0].n).toBe(0);

      // Every request answered 200 is one SUCCESS operation, recorded once under its key.
      for (const a of answered.filter((x) => x.status === 200)) {
        const rows = await client.query(`SELECT o.id, o.status FROM idempotency_keys k JOIN operations o ON o.id = k.operation_id WHERE k.key = $1`, [a.key]);
        expect(rows.rows).toEqual([{ id: a.reference, status: 'SUCCESS' }]);
      }
      // Unanswered requests are retried with their key: each ends with one outcome, none twice.
      for (const a of lost) {
        const body = a.direction === 'in' ? { from: 'WALLET', to: 'PG', amount: 5 } : { from: 'PG', to: 'WALLET', amount: 5 };
        const first = await api(base, 'POST', '/api/wallet/transfer', body, token, a.key);
        const second = await api(base, 'POST', '/api/wallet/transfer', body, token, a.key);
        expect([200, 400, 502]).toContain(first.status);
        expect(second.status).toBe(first.status);
        if (first.status === 200) expect(second.body.reference).toBe(first.body.reference);
      }
      const perKey = await client.query(`SELECT key, count(*)::int AS n FROM idempotency_keys GROUP BY key HAVING count(*) > 1`);
      expect(perKey.rows).toEqual([]);

      // Nothing lost: wallet + game = 1000 baht, the provider agrees with the ledger, invariants hold.
      const wallet = await api(base, 'GET', '/api/wallet', undefined, token);
      const slots = wallet.body.slots as Array<{ code: string; amount: number }>;
      const walletAmount = (wallet.body.wallet as { amount: number }).amount;
      const pgAmount = slots.find((s) => s.code === 'PG')?.amount ?? -1;
      expect(walletAmount + pgAmount).toBe(1000);
      const live = await api(base, 'GET', '/api/wallet/refresh/slot', undefined, token);
      expect((live.body.slots as Array<{ code: string; amount: number }>).find((s) => s.code === 'PG')?.amount).toBe(pgAmount);
      const inflight = await client.query(`SELECT balance::int AS b FROM ledger_accounts WHERE kind = 'inflight'`);
      expect(inflight.rows.every((r: { b: number }) => r.b === 0)).toBe(true);
      const check = await api(base, 'GET', '/api/operator/ledger/check', undefined, undefined);
      expect(check.status).toBe(403);
      const report = await fetch(`${base}/api/operator/ledger/check`, { headers: { authorization: `Bearer ${OPERATOR}` } }).then((r) => r.json() as Promise<{ ok: boolean; total: number }>);
      expect(report).toMatchObject({ ok: true, total: 0 });
    } finally {
      await client.end();
    }
  }, 120_000);
});
