/**
 * `npm run chaos`: the money core under abuse, end to end.
 *
 * Two server processes on PostgreSQL and Redis (or, with `--embedded`, one process on the
 * embedded database), concurrent clients doing random money calls against both, SIGKILL and
 * restart every few seconds, sandbox provider faults, and a share of answers replayed with their
 * Idempotency-Key. At the end it lifts the faults, lets the reconciler settle what is left, and
 * checks:
 *   1. the ledger's invariants (balanced transactions, balances equal to their entries, no
 *      member account below zero, total zero);
 *   2. every member's money (wallet + games + in flight + held withdrawals) against a model built
 *      from the definite answers (every request whose answer was lost is asked again with its
 *      key, which must give its one answer);
 *   3. every provider balance against the ledger's copy;
 *   4. nothing in progress (no PENDING transfer, nothing in flight);
 *   5. every replay equal to its first definite answer;
 *   6. no game result booked (nobody plays here: any result would be a phantom).
 * It prints each figure and exits 1 on any breach.
 *
 * Options: --seconds N (default 45), --embedded, --clients N (default 24), --members N (default 10).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config';
import { openDatabase, type Database } from '../../src/db/database';
import { checkInvariants } from '../../src/money/ledger';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const EMBEDDED = args.includes('--embedded');
const SECONDS = option('seconds', 45);
const CLIENTS = option('clients', 24);
const MEMBERS = option('members', 10);
const KILL_EVERY_MS = option('kill-every', 7) * 1000;
const FAULT_EVERY_MS = option('fault-every', 5) * 1000;
const REPLAY_SHARE = 0.05;
const PG_ADMIN = process.env.CHAOS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.CHAOS_REDIS_URL ?? 'redis://127.0.0.1:6379';
const OPERATOR_TOKEN = 'chaos-operator-token-000001';
const GAMES = ['PG', 'JOKER', 'SLOTXO'] as const;
const MODES = ['down', 'timeout', 'error-after-take'] as const;
const ROOT = resolve(import.meta.dirname, '../../../..');

interface Answer {
  status: number;
  body: Record<string, unknown>;
}
interface Call {
  member: number;
  method: 'POST';
  path: string;
  body: Record<string, unknown>;
  key: string;
  first?: Answer;
  lost?: boolean;
}
interface Member {
  phone: string;
  token: string;
  id: string;
}

const log = (line: string) => console.log(`[chaos] ${line}`);

// ---------------------------------------------------------------- servers

interface Server {
  name: string;
  port: number;
  child: ChildProcess | null;
}

function serverEnv(port: number, database: { url?: string; schema?: string; dataDir?: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    // Warnings too: background work (reconcilers, the round import) logs its failures at warn.
    LOG_LEVEL: 'warn',
    SMS_PROVIDER: 'sandbox',
    PAYMENTS: 'sandbox',
    GAME_PROVIDER: 'sandbox',
    SEED_DEMO: 'true',
    HSTS_MAX_AGE: '0',
    OPERATOR_TOKEN,
    WEB_DIST: '/nonexistent',
    ARGON2_MEMORY_KIB: '4096',
    PROVIDER_TIMEOUT_MS: '600',
    RECONCILE_INTERVAL_MS: '1000',
    RECONCILE_GRACE_MS: '1500',
    OTP_SENDS_PER_IP_HOUR: '100000',
    OTP_SENDS_GLOBAL_MINUTE: '100000',
    ACCOUNT_CHECKS_PER_IP_MINUTE: '100000',
    // Promotion code calls are replayed many times at once by one client: not the limits under test here.
    PROMOTION_CODES_PER_IP_MINUTE: '100000',
    PROMOTION_CODES_PER_MEMBER_MINUTE: '100000',
    PROMOTION_CODES_PER_MEMBER_HOUR: '100000',
    LOGIN_FAILS_PER_IP_MINUTE: '10000',
    ...(database.url ? { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '8', REDIS_URL } : { DATA_DIR: database.dataDir }),
  };
}

/**
 * What the servers logged, read as it comes: database conflicts that reached a log line (a
 * deadlock or serialisation failure nobody retried) are a breach; unhandled errors are counted.
 */
const serverLog = { conflicts: [] as string[], unhandled: 0 };

function start(server: Server, env: NodeJS.ProcessEnv): void {
  const child = spawn(process.execPath, [join(ROOT, 'apps/server/dist/main.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let rest = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (/deadlock detected|could not serialize|40P01|40001/.test(line)) serverLog.conflicts.push(`${server.name}: ${line.slice(0, 300)}`);
      if (line.includes('unhandled error')) serverLog.unhandled++;
    }
  });
  server.child = child;
}

async function up(port: number, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return;
    } catch {
      // not yet
    }
    await sleep(100);
  }
  throw new Error(`server on ${port} did not come up`);
}

function kill(server: Server): Promise<void> {
  const child = server.child;
  server.child = null;
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- HTTP

async function request(port: number, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(8_000),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { raw: text.slice(0, 80) };
  }
  return { status: res.status, body: parsed };
}

/** A definite answer: the call's own outcome, not "still running", "try later" or a lost connection. */
function definite(answer: Answer): boolean {
  if (answer.status === 200) return true;
  if (answer.status === 502 && answer.body.message === 'TRANSFER_FAIL') return true;
  return answer.status >= 400 && answer.status < 500 && ![401, 408, 409, 410, 429].includes(answer.status);
}

// ---------------------------------------------------------------- the run

async function main(): Promise<void> {
  const built = spawn('npm', ['run', '--silent', 'build', '-w', '@mw/server'], { cwd: ROOT, stdio: 'inherit' });
  await new Promise((r) => built.once('exit', r));

  const dbName = `mw_chaos_${randomBytes(4).toString('hex')}`;
  const dataDir = EMBEDDED ? mkdtempSync(join(tmpdir(), 'mw-chaos-')) : undefined;
  const url = EMBEDDED ? undefined : PG_ADMIN.replace(/\/[^/]*$/, `/${dbName}`);
  if (!EMBEDDED) {
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
  }
  const servers: Server[] = (EMBEDDED ? [3601] : [3601, 3602]).map((port, i) => ({ name: `server ${i + 1}`, port, child: null }));
  const envOf = (s: Server) => serverEnv(s.port, url ? { url } : { dataDir: dataDir ?? '' });
  // Two processes start at once on the empty database: both must come up.
  for (const s of servers) start(s, envOf(s));
  await Promise.all(servers.map((s) => up(s.port)));
  log(`${servers.length} process(es) up on ${EMBEDDED ? 'the embedded database' : `PostgreSQL ${dbName} + Redis`}`);

  const breaches: string[] = [];
  let database: Database | null = null;
  try {
    const members = await setUp(servers[0] as Server);
    const calls: Call[] = [];
    const replays: Array<{ call: Call; answer: Answer }> = [];
    const deadline = Date.now() + SECONDS * 1000;
    let kills = 0;
    let faults = 0;
    let sequence = 0;
    const alive = () => servers.filter((s) => s.child !== null);

    const client = async (n: number) => {
      while (Date.now() < deadline) {
        const call = randomCall(n, members, sequence++);
        calls.push(call);
        const target = alive()[Math.floor(Math.random() * alive().length)] ?? servers[0];
        if (!target) continue;
        const member = members[call.member] as Member;
        try {
          const answer = await request(target.port, 'POST', call.path, call.body, { authorization: `Bearer ${member.token}`, 'idempotency-key': call.key });
          if (definite(answer)) call.first = answer;
          else call.lost = true;
          if (call.first && Math.random() < REPLAY_SHARE) {
            const again = alive()[0] ?? target;
            const replay = await request(again.port, 'POST', call.path, call.body, { authorization: `Bearer ${member.token}`, 'idempotency-key': call.key });
            if (definite(replay)) replays.push({ call, answer: replay });
          }
        } catch {
          call.lost = true;
          await sleep(50);
        }
      }
    };
    const killer = async () => {
      while (Date.now() < deadline - 3_000) {
        await sleep(KILL_EVERY_MS * (0.6 + Math.random() * 0.8));
        if (Date.now() >= deadline - 3_000) break;
        const victim = servers[Math.floor(Math.random() * servers.length)] as Server;
        await kill(victim);
        kills += 1;
        await sleep(200 + Math.random() * 800);
        start(victim, envOf(victim));
        await up(victim.port).catch(() => undefined);
      }
    };
    const faulter = async () => {
      while (Date.now() < deadline - 3_000) {
        await sleep(FAULT_EVERY_MS * (0.6 + Math.random() * 0.8));
        const game = GAMES[Math.floor(Math.random() * GAMES.length)] as string;
        const mode = Math.random() < 0.3 ? 'none' : (MODES[Math.floor(Math.random() * MODES.length)] as string);
        const target = alive()[0];
        if (!target) continue;
        await request(target.port, 'PUT', `/api/operator/sandbox/games/${game}/fault`, { mode }, { authorization: `Bearer ${OPERATOR_TOKEN}` }).catch(() => undefined);
        faults += 1;
      }
    };
    log(`running ${SECONDS} s: ${CLIENTS} clients, ${members.length} members, a kill about every ${KILL_EVERY_MS / 1000} s, a fault about every ${FAULT_EVERY_MS / 1000} s`);
    await Promise.all([...Array.from({ length: CLIENTS }, (_, n) => client(n)), killer(), faulter()]);

    // Every process back, every fault lifted; the lost answers asked again until definite.
    for (const s of servers) if (!s.child) start(s, envOf(s));
    await Promise.all(servers.map((s) => up(s.port)));
    const primary = servers[0] as Server;
    for (const game of GAMES) await request(primary.port, 'PUT', `/api/operator/sandbox/games/${game}/fault`, { mode: 'none' }, { authorization: `Bearer ${OPERATOR_TOKEN}` });
    await sleep(1_500);
    const settleBy = Date.now() + 60_000;
    let unresolved = calls.filter((c) => !c.first);
    while (unresolved.length > 0 && Date.now() < settleBy) {
      for (const call of unresolved) {
        const member = members[call.member] as Member;
        const answer = await request(primary.port, 'POST', call.path, call.body, { authorization: `Bearer ${member.token}`, 'idempotency-key': call.key }).catch(() => null);
        if (answer && definite(answer)) call.first = answer;
      }
      unresolved = calls.filter((c) => !c.first);
      if (unresolved.length > 0) await sleep(1_000);
    }
    // A second look at everything answered: the answer of a key never changes.
    for (const call of calls.filter((c) => c.first && Math.random() < REPLAY_SHARE)) {
      const member = members[call.member] as Member;
      const again = await request(primary.port, 'POST', call.path, call.body, { authorization: `Bearer ${member.token}`, 'idempotency-key': call.key }).catch(() => null);
      if (again && definite(again)) replays.push({ call, answer: again });
    }
    const differing = replays.filter((r) => !isDeepStrictEqual(r.answer, r.call.first));

    // The checks read the database directly (the embedded one once its server has stopped, after
    // a few reconciler rounds for the parts of composite calls still in flight).
    if (EMBEDDED) {
      await sleep(6_000);
      for (const s of servers) await kill(s);
    }
    database = await openDatabase(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...(url ? { DATABASE_URL: url, DATABASE_POOL_SIZE: '2' } : { DATA_DIR: dataDir }) }));
    const db = database.db;
    const pendingBy = Date.now() + 30_000;
    let pending = 1;
    while (Date.now() < pendingBy) {
      const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM operations WHERE status = 'PENDING' AND type = 'transfer'`.execute(db);
      pending = Number(row.rows[0]?.n ?? 0);
      if (pending === 0 || EMBEDDED) break;
      await sleep(1_000);
    }
    const report = await checkInvariants(db);
    const inflight = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_accounts WHERE kind = 'inflight' AND balance <> 0`.execute(db);
    const phantoms = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'game_result'`.execute(db);
    // Every member's money against the model: what the definite answers say came in.
    let satangOff = 0;
    const modelBreaches: string[] = [];
    for (const [i, member] of members.entries()) {
      const topUps = calls.filter((c) => c.member === i && c.path === '/api/wallet/add' && c.first?.status === 200).reduce((sum, c) => sum + Math.round(Number(c.body.amount) * 100), 0);
      const initial = 100_000;
      const held = await sql<{ total: string | number | null }>`
        SELECT sum(balance) AS total FROM ledger_accounts WHERE member_id = ${member.id} AND kind IN ('wallet', 'game', 'inflight', 'withdrawal')`.execute(db);
      const total = Number(held.rows[0]?.total ?? 0);
      if (total !== initial + topUps) {
        satangOff += Math.abs(total - initial - topUps);
        modelBreaches.push(`${member.phone}: ledger ${total}, model ${initial + topUps}`);
      }
    }
    const providerGap = await sql<{ id: string; ledger: string; provider: string | null }>`
      SELECT a.id, a.balance AS ledger, s.balance AS provider FROM ledger_accounts a
      JOIN member_games mg ON a.id = 'm:' || mg.member_id || ':game:' || mg.game_code
      LEFT JOIN sandbox_game_accounts s ON s.game_code = mg.game_code AND s.username = mg.username
      WHERE a.kind = 'game' AND a.balance <> coalesce(s.balance, 0)`.execute(db);

    const answered = calls.filter((c) => c.first).length;
    const lost = calls.filter((c) => c.lost).length;
    const figures: Array<[string, string | number, boolean]> = [
      ['calls', calls.length, true],
      ['answers lost to kills and timeouts (asked again)', lost, true],
      ['calls without a definite answer at the end', calls.length - answered, calls.length === answered],
      ['process kills', kills, EMBEDDED || kills > 0 || SECONDS < 10],
      ['fault changes', faults, true],
      ['ledger transactions', report.transactions, true],
      ['ledger invariants', report.ok ? 'ok' : JSON.stringify({ unbalanced: report.unbalancedTransactions.length, drifted: report.driftedAccounts.length, negative: report.negativeAccounts.length, total: report.total }), report.ok],
      ['satang differing from the model', satangOff, satangOff === 0],
      ['provider balances differing from the ledger', providerGap.rows.length, providerGap.rows.length === 0],
      ['transfers still PENDING', pending, pending === 0],
      ['money still in flight (accounts)', Number(inflight.rows[0]?.n ?? 0), Number(inflight.rows[0]?.n ?? 0) === 0],
      ['replays', replays.length, true],
      ['replays differing from the first answer', differing.length, differing.length === 0],
      ['game results booked (phantoms)', Number(phantoms.rows[0]?.n ?? 0), Number(phantoms.rows[0]?.n ?? 0) === 0],
      ['deadlocks, serialisation failures in the logs', serverLog.conflicts.length, serverLog.conflicts.length === 0],
      ['unhandled errors in the servers\' logs', serverLog.unhandled, true],
    ];
    for (const [name, value, ok] of figures) {
      console.log(`${name.padEnd(52)} ${String(value).padStart(8)}  ${ok ? 'ok' : 'BREACH'}`);
      if (!ok) breaches.push(name);
    }
    for (const line of modelBreaches.slice(0, 5)) console.log(`  model: ${line}`);
    for (const r of differing.slice(0, 5)) console.log(`  replay of ${r.call.path} ${JSON.stringify(r.call.body)}: first ${JSON.stringify(r.call.first)}, then ${JSON.stringify(r.answer)}`);
    for (const row of providerGap.rows.slice(0, 5)) console.log(`  provider: ${row.id} ledger ${row.ledger}, provider ${row.provider ?? 'none'}`);
    for (const line of serverLog.conflicts.slice(0, 5)) console.log(`  log: ${line}`);
  } finally {
    await database?.close();
    for (const s of servers) await kill(s);
    if (!EMBEDDED) {
      const admin = new pg.Client({ connectionString: PG_ADMIN });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(breaches.length === 0 ? '\nchaos: every check held' : `\nchaos: BREACHED ${breaches.join(', ')}`);
  process.exitCode = breaches.length === 0 ? 0 : 1;
}

/** Members with 1,000 baht each and three game accounts. */
async function setUp(server: Server): Promise<Member[]> {
  const members: Member[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const phone = `09${String(((Date.now() % 1_000_000) * 100 + i) % 100_000_000).padStart(8, '0')}`;
    const sent = await request(server.port, 'POST', '/api/otp/send', { phoneNumber: phone });
    const outbox = await request(server.port, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
    const text = ((outbox.body.messages as Array<{ text: string }> | undefined) ?? [])[0]?.text ?? '';
    const code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
    await request(server.port, 'POST', '/api/otp/verify', { otpToken: sent.body.otpToken, otpCode: code });
    const created = await request(server.port, 'POST', '/api/account', {
      otpToken: sent.body.otpToken,
      name: `Chaos ${i}`,
      username: phone,
      password: 'chaos-secret',
      bankCode: 'KBANK',
      bankAccountName: 'CHAOS TESTER',
      bankAccountNo: `8${phone.slice(1)}${i}`.slice(0, 12),
    });
    if (created.status !== 200) throw new Error(`register: ${JSON.stringify(created.body)}`);
    const login = await request(server.port, 'POST', '/api/login', { username: phone, password: 'chaos-secret' });
    const token = String(login.body.token);
    const auth = { authorization: `Bearer ${token}` };
    await request(server.port, 'POST', '/api/wallet/add', { amount: 1000 }, auth);
    for (const game of GAMES) await request(server.port, 'GET', `/api/wallet/activate/${game}`, undefined, auth);
    members.push({ phone, token, id: String(created.body._id) });
    await sleep(2);
  }
  return members;
}

function randomCall(client: number, members: Member[], n: number): Call {
  const member = Math.floor(Math.random() * members.length);
  const game = GAMES[Math.floor(Math.random() * GAMES.length)] as string;
  const amount = Math.round((1 + Math.random() * 150) * 100) / 100;
  const key = `chaos-${client}-${n}-${randomBytes(4).toString('hex')}`;
  const roll = Math.random();
  const pick = (path: string, body: Record<string, unknown>): Call => ({ member, method: 'POST', path, body, key });
  if (roll < 0.1) return pick('/api/wallet/add', { amount });
  if (roll < 0.45) return pick('/api/wallet/transfer', { from: 'WALLET', to: game, amount });
  if (roll < 0.75) return pick('/api/wallet/transfer', { from: game, to: 'WALLET', amount });
  if (roll < 0.82) return pick('/api/wallet/transferAll', { to: Math.random() < 0.5 ? 'WALLET' : game });
  if (roll < 0.92) return pick('/api/wallet/withdraw', { amount: Math.max(100, amount) });
  return pick('/api/wallet/withdrawAll', { amount: Math.max(100, amount) });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
