// The transfer benchmark: an HTTP load test of POST /api/wallet/transfer on PostgreSQL (32
// concurrent clients over many members), then PostgreSQL's own pgbench -b tpcb-like on the same
// server, so the two throughputs can be compared. Used by scripts/bench.mjs. BENCH_POOL sets the
// server's PostgreSQL pool (default 32, shared out between processes), BENCH_SECONDS the length of
// each run (default 15), BENCH_PROCESSES the processes of the second transfer run (default: every core).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';

const PG_ADMIN = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'mw_bench';
const PG_URL = PG_ADMIN.replace(/\/[^/]*$/, `/${DB_NAME}`);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 200);
const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WEBHOOK_SECRET = randomBytes(32).toString('hex');
process.env.BENCH_OPERATOR_TOKEN ??= randomBytes(16).toString('hex');

async function admin(query) {
  const client = new pg.Client({ connectionString: PG_ADMIN });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

async function waitFor(url) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no answer from ${url}`);
}

/** Members with a session each, straight into the database (registration is not what is measured). */
async function seedMembers(base) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const tokens = [];
  try {
    for (let i = 0; i < MEMBERS; i++) {
      const id = randomBytes(12).toString('hex');
      const token = randomBytes(32).toString('base64url');
      await client.query(
        `INSERT INTO members (id, username, name, password_hash, bank_code, bank_account_name, bank_account_no) VALUES ($1, $2, 'Bench', 'x', 'KBANK', 'BENCH USER', $3)`,
        [id, `06${String(i).padStart(8, '0')}`, `7${String(i).padStart(9, '0')}`],
      );
      await client.query(`INSERT INTO ledger_accounts (id, member_id, kind) VALUES ($1, $4, 'wallet'), ($2, $4, 'inflight'), ($3, $4, 'withdrawal')`, [
        `m:${id}:wallet`, `m:${id}:inflight`, `m:${id}:withdrawal`, id,
      ]);
      await client.query(`INSERT INTO sessions (id, token_hash, member_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`, [
        randomBytes(12).toString('hex'), createHash('sha256').update(token).digest('hex'), id,
      ]);
      tokens.push(token);
    }
  } finally {
    await client.end();
  }
  const headers = (token) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' });
  for (const token of tokens) {
    const add = await fetch(`${base}/api/wallet/add`, { method: 'POST', headers: headers(token), body: JSON.stringify({ amount: 100000 }) });
    const activate = await fetch(`${base}/api/wallet/activate/PG`, { headers: headers(token) });
    if (!add.ok || !activate.ok) throw new Error(`seeding failed: ${add.status} ${activate.status}`);
  }
  return tokens;
}

function load(base, tokens, seconds) {
  let n = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${base}/api/wallet/transfer`,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const token = tokens[n++ % tokens.length];
              return {
                ...request,
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'idempotency-key': `bench-${n}-${randomBytes(6).toString('hex')}` },
                body: JSON.stringify({ from: 'WALLET', to: 'PG', amount: 1 }),
              };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** Transactions committed so far in the bench database. */
async function commits() {
  const client = new pg.Client({ connectionString: PG_ADMIN });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [DB_NAME]);
    return Number(rows[0]?.xact_commit ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * Rows written so far in the bench database's own tables (inserted + updated + deleted, from
 * pg_stat_user_tables). The statistics reach that view when each backend flushes them (at most a
 * second after its transaction), so the caller waits before reading after a run.
 */
async function rowsWritten() {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT relname, (n_tup_ins + n_tup_upd + n_tup_del)::bigint AS n FROM pg_stat_user_tables');
    return new Map(rows.map((r) => [r.relname, Number(r.n)]));
  } finally {
    await client.end();
  }
}

/** CPU ticks used so far by the server, PostgreSQL and this process (Linux /proc; empty elsewhere). */
function cpuTicks(serverPid) {
  const groups = { server: 0, postgres: 0, load: 0, other: 0 };
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // The server's own workers (WEB_CONCURRENCY > 1) count as the server.
      const parent = Number(fields[1]);
      const group = Number(pid) === serverPid || parent === serverPid ? 'server' : Number(pid) === process.pid ? 'load' : comm === 'postgres' ? 'postgres' : 'other';
      groups[group] += ticks;
    } catch {
      // the process ended meanwhile
    }
  }
  return groups;
}

function pgbench() {
  const init = spawnSync('pgbench', ['-i', '-q', '-s', '32', PG_URL], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`pgbench -i failed: ${init.stderr}`);
  spawnSync('psql', ['-q', '-c', 'CHECKPOINT', PG_URL]);
  // The reference: pgbench's TPC-B-like transaction from 16 connections on 2 threads.
  const run = spawnSync('pgbench', ['-b', 'tpcb-like', '-c', '16', '-j', '2', '-T', String(SECONDS), '-n', PG_URL], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`pgbench failed: ${run.stderr}`);
  const tps = /tps = ([\d.]+)/.exec(run.stdout);
  const latency = /latency average = ([\d.]+) ms/.exec(run.stdout);
  return { tps: tps ? Number(tps[1]) : NaN, latencyMs: latency ? Number(latency[1]) : NaN };
}

/**
 * Webhook crediting: 32 concurrent gateway deliveries of distinct payments (each member's WW QR
 * paid again and again, a new payment id each time), one in ten a repeat of an earlier payment
 * (gateways retry). Afterwards every distinct payment answered 200 must be exactly one credit.
 */
async function webhookLoad(base, tokens) {
  const headers = (token) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' });
  for (const token of tokens) {
    const res = await fetch(`${base}/api/qrcode/WW`, { method: 'POST', headers: headers(token), body: JSON.stringify({ amount: 100 }) });
    if (!res.ok) throw new Error(`QR create failed: ${res.status}`);
  }
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const references = (await client.query(`SELECT reference FROM qr_codes WHERE provider = 'WW' AND status = 'OPEN'`)).rows.map((r) => r.reference);
  const before = Number((await client.query(`SELECT count(*) AS n FROM external_credits WHERE source = 'gateway:WW'`)).rows[0].n);
  let n = 0;
  const sent = [];
  const answered = new Set();
  await admin('CHECKPOINT');
  const result = await new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${base}/api/webhooks/payments/WW`,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            setupRequest: (request, context) => {
              n += 1;
              const repeat = n % 10 === 0 && sent.length > 0;
              const paymentId = repeat ? sent[Math.floor(Math.random() * sent.length)] : `PAYBENCH${n}${randomBytes(4).toString('hex')}`;
              if (!repeat) sent.push(paymentId);
              context.paymentId = paymentId;
              const body = JSON.stringify({ event: 'payment.succeeded', paymentId, provider: 'WW', reference: references[n % references.length], amount: '100.00', currency: 'THB' });
              const timestamp = Math.floor(Date.now() / 1000);
              const signature = createHmac('sha256', WEBHOOK_SECRET).update(`${timestamp}.${body}`).digest('hex');
              return { ...request, headers: { 'content-type': 'application/json', 'x-timestamp': String(timestamp), 'x-signature': signature }, body };
            },
            onResponse: (status, _body, context) => {
              if (status === 200) answered.add(context.paymentId);
            },
          },
        ],
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    );
  });
  // Deliveries still in flight when the run ended land now.
  await new Promise((r) => setTimeout(r, 1500));
  const after = Number((await client.query(`SELECT count(*) AS n FROM external_credits WHERE source = 'gateway:WW'`)).rows[0].n);
  const deposits = Number((await client.query(`SELECT count(*) AS n FROM operations WHERE type = 'deposit' AND source = 'WW'`)).rows[0].n);
  // Every payment answered 200 is credited (exactly once: the key is the payment id).
  const creditedAnswered = Number((await client.query(`SELECT count(*) AS n FROM external_credits WHERE source = 'gateway:WW' AND ref = ANY($1)`, [[...answered]])).rows[0].n);
  await client.end();
  const ledger = await (await fetch(`${base}/api/operator/ledger/check`, { headers: { authorization: `Bearer ${process.env.BENCH_OPERATOR_TOKEN}` } })).json().catch(() => null);
  return {
    rps: result['2xx'] / SECONDS,
    p99: result.latency.p99,
    p50: result.latency.p50,
    errors: result.non2xx + result.errors + result.timeouts,
    distinctAnswered: answered.size,
    creditedAnswered,
    distinctSent: sent.length,
    credits: after - before,
    deposits,
    ledgerOk: ledger?.ok === true,
  };
}

/** The built server on the bench database: one process, or `processes` sharing the port (WEB_CONCURRENCY, with Redis). */
function startServer(port, processes) {
  return spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/cpuprof'] : []), 'apps/server/dist/main.js'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      // The sandbox service (the game providers' side) it starts beside itself.
      SANDBOX_PORT: String(port + 1000),
      HOST: '127.0.0.1',
      DATABASE_URL: PG_URL,
      // The pool is shared out between the processes.
      DATABASE_POOL_SIZE: String(Math.ceil(Number(process.env.BENCH_POOL ?? CONNECTIONS) / processes)),
      WEB_CONCURRENCY: String(processes),
      ...(processes > 1 ? { REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379' } : {}),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // A production build with every sandbox named explicitly (the demo top-up seeds the wallets).
      SMS_PROVIDER: 'sandbox',
      PAYMENTS: 'sandbox',
      GAME_PROVIDER: 'sandbox',
      SEED_DEMO: 'true',
      SEED_DEMO_QUEUE: 'false',
      PAYMENT_GATEWAY: 'sandbox',
      PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      OPERATOR_TOKEN: process.env.BENCH_OPERATOR_TOKEN,
    },
  });
}

async function stopServer(server) {
  if (server.exitCode !== null) return;
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
}

/** One measured transfer run: throughput, latency, commits and CPU per transfer. */
async function measureTransfers(base, server, tokens) {
  await admin('CHECKPOINT');
  const commitsBefore = await commits();
  await new Promise((r) => setTimeout(r, 1_500));
  const rowsBefore = await rowsWritten();
  const before = cpuTicks(server.pid);
  const result = await load(base, tokens, SECONDS);
  const after = cpuTicks(server.pid);
  const commitsAfter = await commits();
  await new Promise((r) => setTimeout(r, 1_500));
  const rowsAfter = await rowsWritten();
  const ok = result['2xx'];
  const cpu = before && after ? Object.fromEntries(Object.keys(after).map((k) => [k, Math.round((after[k] - before[k]) / SECONDS)])) : undefined;
  return {
    rps: ok / SECONDS,
    p99: result.latency.p99,
    p50: result.latency.p50,
    errors: result.non2xx + result.errors + result.timeouts,
    // Database transactions committed per transfer (each statement outside a transaction is one).
    commitsPerTransfer: ok > 0 ? Number(((commitsAfter - commitsBefore) / ok).toFixed(2)) : undefined,
    // Rows written in our database per transfer (issue 35: at most 8).
    rowsPerTransfer: ok > 0 ? Number(([...rowsAfter].reduce((sum, [table, n]) => sum + n - (rowsBefore.get(table) ?? 0), 0) / ok).toFixed(2)) : undefined,
    // …and which tables they are in (rows per transfer, tables with at least 0.05).
    rowsByTable:
      ok > 0
        ? Object.fromEntries(
            [...rowsAfter]
              .map(([table, n]) => [table, Number(((n - (rowsBefore.get(table) ?? 0)) / ok).toFixed(2))])
              .filter(([, n]) => n >= 0.05)
              .sort((a, b) => b[1] - a[1]),
          )
        : undefined,
    // Share of one core each used during the measured run (100 ticks per second on Linux).
    cpu,
    // CPU time per transfer (ms), server and PostgreSQL.
    cpuMsPerTransfer: cpu && ok > 0 ? { server: Number(((cpu.server * 10 * SECONDS) / ok).toFixed(3)), postgres: Number(((cpu.postgres * 10 * SECONDS) / ok).toFixed(3)) } : undefined,
  };
}

export async function transferBench(port) {
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME}`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const base = `http://127.0.0.1:${port}`;
  const processes = Number(process.env.BENCH_PROCESSES ?? availableParallelism());
  let server = startServer(port, 1);
  try {
    await waitFor(`${base}/healthz`);
    const tokens = await seedMembers(base);
    await load(base, tokens, 3); // warm-up
    // Each measured run starts right after a checkpoint, so none pays for another's (or the
    // seeding's) dirty pages.
    const http = await measureTransfers(base, server, tokens);
    const webhooks = await webhookLoad(base, tokens);
    const check = await fetch(`${base}/healthz`);
    if (!check.ok) throw new Error('server unhealthy after load');
    await stopServer(server);
    // The same load on WEB_CONCURRENCY processes sharing the port.
    let many = null;
    if (processes > 1) {
      server = startServer(port, processes);
      await waitFor(`${base}/healthz`);
      await load(base, tokens, 3);
      many = { processes, ...(await measureTransfers(base, server, tokens)) };
      const ledger = await (await fetch(`${base}/api/operator/ledger/check`, { headers: { authorization: `Bearer ${process.env.BENCH_OPERATOR_TOKEN}` } })).json().catch(() => null);
      many.ledgerOk = ledger?.ok === true;
      await stopServer(server);
    }
    if (process.env.BENCH_SKIP_PGBENCH) return { http, many, webhooks, members: tokens.length };
    const sql = pgbench();
    return { http, many, webhooks, sql, members: tokens.length };
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME}`).catch(() => undefined);
  }
}
