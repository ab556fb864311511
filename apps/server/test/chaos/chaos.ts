/**
 * `npm run chaos`: the money core under abuse, end to end.
 *
 * Two server processes on PostgreSQL and Redis (or, with `--embedded`, one process on the
 * embedded database), concurrent clients doing random money calls against both, SIGKILL and
 * restart every few seconds, sandbox provider faults, the sandbox service (its own process, the
 * game providers' side) SIGKILLed and started again twice, and a share of answers replayed with their
 * Idempotency-Key. The calls: top-ups, transfers both ways, transferAll, withdrawals,
 * withdrawAll, spins of the prize wheel, coupon claims, bonus activation and cancel (`clear`),
 * promotion codes, and slip uploads of real sandbox bank transfers (each sometimes uploaded again
 * under a new key, and as a forged variant: the reference plus `:X0`). At the end it lifts the
 * faults, lets the reconciler settle what is left, and checks:
 *   1. the ledger's invariants (balanced transactions, balances equal to their entries, no
 *      member account below zero, total zero) — every call;
 *   2. every member's money (wallet + games + in flight + held withdrawals) against a model built
 *      from the definite answers (every request whose answer was lost is asked again with its
 *      key, which must give its one answer): top-ups and slips by the amounts they answered,
 *      coupon prizes by the coupon they answered, credit codes by the code's amount, bonuses
 *      (catalogue or promotion code) by the receipt their answer names (its credit read from the
 *      ledger, its amount checked against the bonus's rule), cancels by what the ledger took
 *      back for each one answered. A credit no answer names is a breach unless a call of its kind
 *      lost its answer and ended refused (it may have taken effect before its process died:
 *      counted apart). Since every such call writes its key with its first record (docs/money.md),
 *      a retry after a lost answer answers what the call did; a refusal after a loss is left for
 *      what a retry may meet that the first run did not (a limit reached since, a cancel since);
 *   3. coins (spins): every member's COIN account = coins granted + coins earned by deposits −
 *      spins made, one spin per spin answered 200 and none else, every deposit's coins by the
 *      wheel's rate;
 *   4. each outside record credited at most once and every credit matching its record: the
 *      deposit reconciliation (modules/deposit/reconciliation.ts, as `npm run reconcile`), plus
 *      every sandbox transfer a slip was uploaded for credited exactly once, and no forged or
 *      repeated slip answered as credited (slip uploads);
 *   5. every provider balance, as the sandbox service holds it, against the ledger's copy, and every
 *      transfer against the provider's own report of it, one to one (the game reconciliation);
 *   6. nothing in progress (no PENDING transfer, nothing in flight);
 *   7. every replay equal to its first definite answer (every call);
 *   8. no game result booked (nobody plays here: any result would be a phantom);
 *   9. the seamless game on both sides: three more members play CIRCUS through the sandbox
 *      service's aggregator, which calls the servers' seamless API with its calls now and then
 *      repeated, reordered or delayed and dies with the sandbox; after it settles its book, nothing
 *      is open, every transaction answered OK is applied once by us, nothing we applied is unknown
 *      to it, and each player's wallet is what the book says (0 satang off);
 *  10. the bank feed: strangers' transfers into our AUTO account, their webhooks duplicated,
 *      reordered and delayed, each held as an unmatched deposit exactly once.
 * Refusals the money core does not keep under the key (403, and 409 other than
 * REQUEST_IN_PROGRESS: "not now", a retry may run the call again) are final answers for the model
 * (nothing moved) but are neither replayed nor compared.
 * It prints each figure and exits 1 on any breach.
 *
 * Options: --seconds N (default 45), --embedded, --clients N (default 24), --members N (default 10).
 */
import { sameConnection } from '../../src/db/database';
import type { WalletDb } from '../../src/modules/wallet/tables';
import type { MoneyDb } from '../../src/money/tables';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config';
import { openDatabase, type Database } from '../../src/db/database';
import { checkInvariants } from '../../src/money/ledger';
import { SeamlessWallet } from '../../src/money';
import { reconciliationFor } from '../../src/modules/deposit';
import { seamlessReport } from '../../src/modules/seamless';
import { GameReconciliation } from '../../src/modules/wallet/game-reconciliation';
import { httpGameProvider } from '../../src/providers/games/http-games';
import { crc16ccitt, tlv } from '../../src/lib/emvco';
import { qrPng } from '../images';

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
/** The rarer calls (spins, coupons, bonuses, cancels, codes, slips) are replayed more often, so each kind gets its share of replays. */
const RARE_REPLAY_SHARE = 0.25;
const WALLET_KINDS: ReadonlySet<string> = new Set(['add', 'transfer', 'transferAll', 'withdraw', 'withdrawAll']);
const replayShare = (call: { kind: string }) => (WALLET_KINDS.has(call.kind) ? REPLAY_SHARE : RARE_REPLAY_SHARE);
const PG_ADMIN = process.env.CHAOS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.CHAOS_REDIS_URL ?? 'redis://127.0.0.1:6379';
const OPERATOR_TOKEN = 'chaos-operator-token-000001';
const GAMES = ['PG', 'JOKER', 'SLOTXO'] as const;
const MODES = ['down', 'timeout', 'error-after-take'] as const;
const ROOT = resolve(import.meta.dirname, '../../../..');
const INITIAL = 100_000;
/** Coins an operator grants each member at the start (deposits earn more: 1 per 100 baht). */
const GRANTED_COINS = 30;
/** The deposit account slips are paid into (the demo's GSB account, fed by no bank feed: only the slip credits it). */
const SLIP_ACCOUNT = { bank: 'GSB', no: '020123456789' };
/** The members' bank (registered with KBANK) as the slip QR names it. */
const KBANK_QR_CODE = '004';
/** Credit codes and their amounts (satang): the demo's FREE50 (once per member) and the run's CHAOS10 (many times). */
const CREDIT_CODES: Record<string, number> = { FREE50: 5_000, CHAOS10: 1_000 };
/**
 * The run's own bonuses (the demo's are taken too): CHAOSA ends at once (no turnover), CHAOSB
 * counts only lotto games (none here), so money in the slot games is elsewhere and a cancel is
 * refused until it is back in the wallet.
 */
/** The seamless game of the run and its secret: the sandbox aggregator plays its rounds by calling the servers' seamless API. */
const SEAMLESS = { code: 'CIRCUS', secret: 'chaos-seamless-secret-0001' } as const;
/** Members who play only the seamless game (kept out of the model: their wallet is checked against the aggregator's book). */
const SEAMLESS_PLAYERS = 3;
const SEAMLESS_MODES = ['none', 'duplicate', 'reorder', 'delay'] as const;
/** The bank feed: transfers from strangers (no member has their accounts) into the demo's KBANK AUTO account, held as unmatched. */
const FEED = { bank: 'KBANK', accountNo: '0451234567', secret: 'chaos-bank-feed-secret-0001' } as const;
const FEED_MODES = ['none', 'duplicate', 'reorder', 'delay'] as const;

const CHAOS_BONUSES = {
  CHAOSA: { categories: ['slot'], turnoverMultiple: 0 },
  CHAOSB: { categories: ['lotto'], turnoverMultiple: 1 },
} as const;

type Kind = 'add' | 'transfer' | 'transferAll' | 'withdraw' | 'withdrawAll' | 'spin' | 'claim' | 'bonus' | 'clear' | 'promo' | 'slip' | 'slipAgain' | 'slipForged';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}
interface Call {
  member: number;
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  /** A multipart upload (field `file`) instead of a JSON body. */
  file?: Buffer;
  key: string;
  /** Slip uploads: the sandbox transfer the slip shows. */
  transRef?: string;
  /** The first definite answer (kept under the key: every retry must answer it). */
  first?: Answer;
  /** A refusal the money core does not keep under the key (403, 409 but in progress): nothing moved. */
  refused?: Answer;
  lost?: boolean;
}
interface Member {
  phone: string;
  token: string;
  id: string;
  accountNo: string;
}

const log = (line: string) => console.log(`[chaos] ${line}`);

// ---------------------------------------------------------------- servers

interface Server {
  name: string;
  port: number;
  child: ChildProcess | null;
}

/** The sandbox service: its own process with its own journals, killed (SIGKILL) and started again during the run. */
let sandboxUrl = '';
const sandbox: { child: ChildProcess | null; port: number; dataDir: string; kills: number } = { child: null, port: 0, dataDir: '', kills: 0 };

async function startSandboxService(): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'apps/server/dist/sandbox.js')], {
    env: { ...process.env, SANDBOX_PORT: String(sandbox.port), SANDBOX_DATA_DIR: sandbox.dataDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  sandbox.child = child;
  await up(sandbox.port, 30_000, '/health');
}

function killSandbox(): Promise<void> {
  const child = sandbox.child;
  sandbox.child = null;
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A game account's balance as the sandbox provider holds it (null: no such player). */
async function providerBalance(code: string, username: string): Promise<number | null> {
  const res = await fetch(`${sandboxUrl}/control/games/${code}/players/${encodeURIComponent(username)}`);
  return res.ok ? Number(((await res.json()) as { balance: number }).balance) : null;
}

function serverEnv(port: number, database: { url?: string; schema?: string; dataDir?: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    // The outside world is one sandbox service for both processes (its own process, started and killed by the run).
    SANDBOX_URL: sandboxUrl,
    HOST: '127.0.0.1',
    // Warnings too: background work (reconcilers, the round import) logs its failures at warn.
    LOG_LEVEL: 'warn',
    SMS_PROVIDER: 'sandbox',
    PAYMENTS: 'sandbox',
    GAME_PROVIDER: 'sandbox',
    // The sandbox bank: transfers to slip, the slips' look-ups, the reconciliation's records.
    BANK_PROVIDER: 'sandbox',
    // Slip uploads open all day (no closed window).
    SLIP_CLOSED_FROM: '00:00',
    SLIP_CLOSED_TO: '00:00',
    SEED_DEMO: 'true',
    SEAMLESS_SECRETS: `${SEAMLESS.code}:${SEAMLESS.secret}`,
    BANK_FEED_WEBHOOK_SECRET: FEED.secret,
    // The demo member, not the demo's back-office queue (the run's checks count what it made).
    SEED_DEMO_QUEUE: 'false',
    HSTS_MAX_AGE: '0',
    OPERATOR_TOKEN,
    WEB_DIST: '/nonexistent',
    ARGON2_MEMORY_KIB: '4096',
    PROVIDER_TIMEOUT_MS: '600',
    RECONCILE_INTERVAL_MS: '1000',
    RECONCILE_GRACE_MS: '1500',
    // Slips left in progress (a process killed between recording a slip and crediting it) are asked of the bank again every second.
    SLIP_RECHECK_INTERVAL_MS: '1000',
    // A killed process's claims on keys (spins, coupons, bonuses, codes, slips) are taken over by a retry after 10 s, not 60.
    IDEMPOTENCY_CLAIM_STALE_MS: '10000',
    OTP_SENDS_PER_IP_HOUR: '100000',
    OTP_SENDS_GLOBAL_MINUTE: '100000',
    ACCOUNT_CHECKS_PER_IP_MINUTE: '100000',
    // Promotion code calls are replayed many times at once by one client: not the limits under test here.
    PROMOTION_CODES_PER_IP_MINUTE: '100000',
    PROMOTION_CODES_PER_MEMBER_MINUTE: '100000',
    PROMOTION_CODES_PER_MEMBER_HOUR: '100000',
    SLIP_UPLOADS_PER_MEMBER_MINUTE: '100000',
    SLIP_UPLOADS_PER_MEMBER_HOUR: '100000',
    SLIP_UPLOADS_PER_IP_MINUTE: '100000',
    LOGIN_FAILS_PER_IP_MINUTE: '10000',
    // Each server is one process here (the run kills and restarts them one by one).
    WEB_CONCURRENCY: '1',
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

async function up(port: number, timeoutMs = 30_000, path = '/healthz'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
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

/** A port nobody listens on now (other runs on this machine may hold fixed ones). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;

// ---------------------------------------------------------------- HTTP

async function request(port: number, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(8_000),
  });
  return answerOf(res);
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { raw: text.slice(0, 80) };
  }
  return { status: res.status, body: parsed };
}

/** A money call with the member's token and the call's key (JSON, or the slip's file as multipart). */
async function send(port: number, call: Call, member: Member): Promise<Answer> {
  const headers = { authorization: `Bearer ${member.token}`, 'idempotency-key': call.key, 'x-requested-with': 'XMLHttpRequest' };
  if (!call.file) return request(port, call.method, call.path, call.body, headers);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(call.file)], { type: 'image/png' }), 'slip.png');
  const res = await fetch(`http://127.0.0.1:${port}${call.path}`, { method: 'POST', headers, body: form, signal: AbortSignal.timeout(8_000) });
  return answerOf(res);
}

/**
 * What an answer is to the client: `definite` (the call's own outcome, kept under its key: every
 * retry answers it), `refused` (a refusal the money core does not keep — 403, or 409 other than
 * in progress — nothing moved, and a retry may run the call again), or `lost` ("still running",
 * "try later", a lost connection: ask again with the key).
 */
function verdict(answer: Answer): 'definite' | 'refused' | 'lost' {
  if (answer.status === 200) return 'definite';
  if (answer.status === 502 && answer.body.message === 'TRANSFER_FAIL') return 'definite';
  if (answer.status === 403) return 'refused';
  if (answer.status === 409 && answer.body.message !== 'REQUEST_IN_PROGRESS' && answer.body.message !== 'IDEMPOTENCY_KEY_REUSED') return 'refused';
  return answer.status >= 400 && answer.status < 500 && ![401, 408, 409, 410, 429].includes(answer.status) ? 'definite' : 'lost';
}

function take(call: Call, answer: Answer): void {
  const v = verdict(answer);
  if (v === 'definite') call.first = answer;
  else if (v === 'refused') call.refused = answer;
  else call.lost = true;
}

/** A slip QR payload with any reference (a forger's), with a good CRC. */
function forgedSlipPayload(sendingBank: string, transRef: string): string {
  const covered = `${tlv('00', tlv('00', '000001') + tlv('01', sendingBank) + tlv('02', transRef)) + tlv('51', 'TH')}9104`;
  return covered + crc16ccitt(covered);
}

const satang = (baht: unknown) => Math.round(Number(baht) * 100);

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
  sandbox.port = await freePort();
  sandbox.dataDir = mkdtempSync(join(tmpdir(), 'mw-chaos-sandbox-'));
  sandboxUrl = `http://127.0.0.1:${sandbox.port}`;
  await startSandboxService();
  const ports = EMBEDDED ? [await freePort()] : [await freePort(), await freePort()];
  const servers: Server[] = ports.map((port, i) => ({ name: `server ${i + 1}`, port, child: null }));
  const envOf = (s: Server) => serverEnv(s.port, url ? { url } : { dataDir: dataDir ?? '' });
  // Two processes start at once on the empty database: both must come up.
  for (const s of servers) start(s, envOf(s));
  await Promise.all(servers.map((s) => up(s.port)));
  log(`${servers.length} process(es) up on ${EMBEDDED ? 'the embedded database' : `PostgreSQL ${dbName} + Redis`}`);

  const breaches: string[] = [];
  let database: Database | null = null;
  try {
    const members = await setUp(servers[0] as Server);
    const players = await setUpSeamless(servers[0] as Server);
    const seamless = { rounds: 0, unanswered: 0, faults: 0 };
    const feed = { transRefs: [] as string[], faults: 0 };
    const calls: Call[] = [];
    const replays: Array<{ call: Call; answer: Answer }> = [];
    const deadline = Date.now() + SECONDS * 1000;
    let kills = 0;
    let faults = 0;
    let sequence = 0;
    const alive = () => servers.filter((s) => s.child !== null);
    const target = () => pick(alive()) ?? (servers[0] as Server);

    const run = async (call: Call) => {
      calls.push(call);
      const member = members[call.member] as Member;
      const at = target();
      try {
        take(call, await send(at.port, call, member));
        if (call.first && Math.random() < replayShare(call)) {
          const again = alive()[0] ?? at;
          const replay = await send(again.port, call, member);
          if (verdict(replay) === 'definite') replays.push({ call, answer: replay });
        }
      } catch {
        call.lost = true;
        await sleep(50);
      }
    };
    const client = async (n: number) => {
      while (Date.now() < deadline) {
        const action = await randomAction(n, members, sequence++, target).catch(() => []);
        for (const call of action) await run(call);
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
        const game = pick(GAMES);
        const mode = Math.random() < 0.3 ? 'none' : pick(MODES);
        const at = alive()[0];
        if (!at) continue;
        await request(at.port, 'PUT', `/api/operator/sandbox/games/${game}/fault`, { mode }, { authorization: `Bearer ${OPERATOR_TOKEN}` }).catch(() => undefined);
        faults += 1;
      }
    };
    // The outside world goes away twice, SIGKILLed: at a third and two thirds of the run, down for 1–2 s each time.
    const sandboxKiller = async () => {
      for (const at of [1 / 3, 2 / 3]) {
        const when = deadline - SECONDS * 1000 * (1 - at);
        await sleep(Math.max(0, when - Date.now()));
        await killSandbox();
        sandbox.kills += 1;
        await sleep(1_000 + Math.random() * 1_000);
        await startSandboxService();
      }
    };
    // The seamless game: the sandbox aggregator plays rounds by calling our seamless API (pointed at a
    // live process, as a load balancer would), its calls now and then repeated, reordered or delayed.
    const seamlessClient = async () => {
      while (Date.now() < deadline) {
        const at = alive()[0];
        const p = pick(players);
        if (!at || !p) {
          await sleep(100);
          continue;
        }
        await aggregator('merchant', { url: `http://127.0.0.1:${at.port}/api/seamless`, secrets: { [SEAMLESS.code]: SEAMLESS.secret } }, 'PUT');
        const stake = 100 + Math.floor(Math.random() * 4_900);
        const win = Math.random() < 0.5 ? 0 : 1 + Math.floor(Math.random() * 2 * stake);
        const answer = await aggregator(`${SEAMLESS.code}/round`, { playerId: p.playerId, currency: 'THB', stake, win, rollback: Math.random() < 0.1, repeat: 1 + Math.floor(Math.random() * 3) });
        if (answer) seamless.rounds += 1;
        else {
          // The sandbox is down (killed): try again a little later.
          seamless.unanswered += 1;
          await sleep(250);
        }
      }
    };
    const seamlessFaulter = async () => {
      while (Date.now() < deadline - 3_000) {
        await sleep(FAULT_EVERY_MS * (0.6 + Math.random() * 0.8));
        await fetch(`${sandboxUrl}/control/aggregator/${SEAMLESS.code}/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: pick(SEAMLESS_MODES), latencyMs: 300 }) }).catch(() => undefined);
        seamless.faults += 1;
      }
    };
    // The bank's feed: a stranger's transfer into our AUTO account about every half second, its
    // webhook sent to a live process, now and then duplicated, reordered or delayed (a held
    // deposit, no member's money: each must be held once, whatever came twice or late).
    const feedClient = async () => {
      while (Date.now() < deadline) {
        await sleep(300 + Math.random() * 400);
        const at = alive()[0];
        if (!at) continue;
        await bankControl('PUT', 'merchant', { webhookUrl: `http://127.0.0.1:${at.port}/api/webhooks/bank/{bankCode}`, secret: FEED.secret });
        const sent = await bankControl('POST', 'transfers', { fromBankCode: 'SCB', fromAccountNo: `7${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`, fromName: 'CHAOS STRANGER', toBankCode: FEED.bank, toAccountNo: FEED.accountNo, amount: 100 + Math.floor(Math.random() * 9_900) });
        const transRef = (sent?.transfer as { transRef?: unknown } | undefined)?.transRef;
        if (typeof transRef === 'string') feed.transRefs.push(transRef);
      }
    };
    const feedFaulter = async () => {
      while (Date.now() < deadline - 3_000) {
        await sleep(FAULT_EVERY_MS * (0.6 + Math.random() * 0.8));
        await fetch(`${sandboxUrl}/control/bank/${FEED.bank}/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: pick(FEED_MODES), latencyMs: 300 }) }).catch(() => undefined);
        feed.faults += 1;
      }
    };
    log(`running ${SECONDS} s: ${CLIENTS} clients, ${members.length} members, a kill about every ${KILL_EVERY_MS / 1000} s, a fault about every ${FAULT_EVERY_MS / 1000} s, the sandbox service killed twice`);
    await Promise.all([...Array.from({ length: CLIENTS }, (_, n) => client(n)), killer(), faulter(), sandboxKiller(), seamlessClient(), seamlessClient(), seamlessFaulter(), feedClient(), feedFaulter()]);

    // Every process back, every fault lifted; the lost answers asked again until definite.
    for (const s of servers) if (!s.child) start(s, envOf(s));
    await Promise.all(servers.map((s) => up(s.port)));
    const primary = servers[0] as Server;
    for (const game of GAMES) await request(primary.port, 'PUT', `/api/operator/sandbox/games/${game}/fault`, { mode: 'none' }, { authorization: `Bearer ${OPERATOR_TOKEN}` });
    await sleep(1_500);
    // The aggregator finishes what its book leaves open (bets without an answer rolled back, wins and rollbacks sent again).
    await fetch(`${sandboxUrl}/control/aggregator/${SEAMLESS.code}/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'none' }) });
    await aggregator('merchant', { url: `http://127.0.0.1:${primary.port}/api/seamless`, secrets: { [SEAMLESS.code]: SEAMLESS.secret } }, 'PUT');
    let seamlessOpen = -1;
    for (const settleUntil = Date.now() + 30_000; seamlessOpen !== 0 && Date.now() < settleUntil; ) {
      const settled = await aggregator(`${SEAMLESS.code}/settle`);
      seamlessOpen = typeof settled?.stillOpen === 'number' ? settled.stillOpen : -1;
      if (seamlessOpen !== 0) await sleep(1_000);
    }
    // The feed's own retry: every transfer's webhook once more, to a live process (one held back by a reorder, or sent to a killed process, comes now).
    await fetch(`${sandboxUrl}/control/bank/${FEED.bank}/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'none' }) });
    await bankControl('PUT', 'merchant', { webhookUrl: `http://127.0.0.1:${primary.port}/api/webhooks/bank/{bankCode}`, secret: FEED.secret });
    for (const transRef of feed.transRefs) await bankControl('POST', `transfers/SCB/${transRef}/redeliver`, { times: 1 });
    const book = (((await aggregator(`${SEAMLESS.code}/transactions`, undefined, 'GET'))?.transactions ?? []) as SeamlessTxn[]);
    const settleBy = Date.now() + 60_000;
    const open = () => calls.filter((c) => !c.first && !c.refused);
    let unresolved = open();
    while (unresolved.length > 0 && Date.now() < settleBy) {
      for (const call of unresolved) {
        const answer = await send(primary.port, call, members[call.member] as Member).catch(() => null);
        if (answer) take(call, answer);
      }
      unresolved = open();
      if (unresolved.length > 0) await sleep(1_000);
    }
    // A second look at everything answered: the answer of a key never changes.
    for (const call of calls.filter((c) => c.first && Math.random() < replayShare(c))) {
      const again = await send(primary.port, call, members[call.member] as Member).catch(() => null);
      if (again && verdict(again) === 'definite') replays.push({ call, answer: again });
    }
    const differing = replays.filter((r) => !isDeepStrictEqual(r.answer, r.call.first));

    // The checks read the database directly (the embedded one once its server has stopped, after
    // a few reconciler rounds for the parts of composite calls still in flight).
    if (EMBEDDED) {
      await sleep(6_000);
      for (const s of servers) await kill(s);
    }
    const checkConfig = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', BANK_PROVIDER: 'sandbox', SANDBOX_URL: sandboxUrl, ...(url ? { DATABASE_URL: url, DATABASE_POOL_SIZE: '2' } : { DATA_DIR: dataDir }) });
    database = await openDatabase(checkConfig);
    const db = database.db;
    const pendingBy = Date.now() + 30_000;
    let pending = 1;
    let pendingSlips = 1;
    while (Date.now() < pendingBy) {
      const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM operations WHERE status = 'PENDING' AND type = 'transfer'`.execute(db);
      const slips = await sql<{ n: number }>`SELECT count(*)::int AS n FROM slips WHERE status = 'PENDING'`.execute(db);
      pending = Number(row.rows[0]?.n ?? 0);
      pendingSlips = Number(slips.rows[0]?.n ?? 0);
      if ((pending === 0 && pendingSlips === 0) || EMBEDDED) break;
      await sleep(1_000);
    }
    const report = await checkInvariants(db);
    const inflight = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_accounts WHERE kind = 'inflight' AND balance <> 0`.execute(db);
    const phantoms = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'game_result'`.execute(db);
    const model = await checkModel(db, members, calls);
    const coins = await checkCoins(db, members, calls);
    // Deposits against the outside records (the sandbox bank's transfers): as `npm run reconcile`.
    const reconciliation = await reconciliationFor({ db }, checkConfig).run({ from: new Date(0), to: new Date(Date.now() + 1_000) });
    const slipped = new Set(calls.filter((c) => c.kind === 'slip' && c.transRef).map((c) => `KBANK/${c.transRef ?? ''}`));
    const neverCredited = reconciliation.uncredited.filter((u) => slipped.has(u.reference));
    // Every game account: the ledger's copy against the provider's own balance (asked of the sandbox service).
    const gameAccounts = await sql<{ id: string; ledger: string; code: string; username: string }>`
      SELECT a.id, a.balance AS ledger, mg.game_code AS code, mg.username FROM ledger_accounts a
      JOIN member_games mg ON a.id = 'm:' || mg.member_id || ':game:' || mg.game_code
      WHERE a.kind = 'game'`.execute(db);
    const providerGap = { rows: [] as Array<{ id: string; ledger: string; provider: number | null }> };
    for (const row of gameAccounts.rows) {
      const provider = await providerBalance(row.code, row.username);
      if ((provider ?? 0) !== Number(row.ledger)) providerGap.rows.push({ id: row.id, ledger: row.ledger, provider });
    }
    // Every transfer, record by record, against the provider's own report of what it applied (the back office's game reconciliation).
    const gameRecon = await new GameReconciliation(
      sameConnection<WalletDb>(db),
      {
        codes: async () => [...GAMES],
        report: async (code, from, to) => {
          // The seamless game's transactions against its aggregator's report.
          if (code === SEAMLESS.code) return seamlessReport(`${sandboxUrl}/aggregator`, new Map([[SEAMLESS.code, SEAMLESS.secret]]))(code, from, to);
          const provider = httpGameProvider(code, { url: sandboxUrl, secret: 'sandbox-game-secret', timeoutMs: 10_000 });
          return (await provider.report?.(from, to).catch(() => null)) ?? null;
        },
      },
      'Asia/Bangkok',
      new SeamlessWallet(sameConnection<MoneyDb>(db)),
    ).run({ from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 1_000) });
    const gameDifferences = gameRecon.items.filter((i) => i.kind !== 'PENDING');
    const seamlessCheck = await checkSeamless(db, players, book);
    const heldRows = await sql<{ ref: string; n: number }>`SELECT ref, count(*)::int AS n FROM unmatched_deposits WHERE source = 'banktx' AND to_account_no = ${FEED.accountNo} GROUP BY ref`.execute(db);
    const heldCount = new Map(heldRows.rows.map((r) => [r.ref, Number(r.n)]));
    const feedOff = feed.transRefs.filter((ref) => heldCount.get(`SCB:${ref.toUpperCase()}`) !== 1);
    for (const item of gameDifferences.slice(0, 5)) console.log(`  game reconciliation: ${JSON.stringify(item)}`);

    // A forged slip credited, or a transfer's slip answered as credited more than once (the same slip again under a new key may be the one answered, when the first lost its answer).
    const slipSuccess = calls.filter((c) => c.kind.startsWith('slip') && c.first?.status === 200 && c.first.body.status === 'SUCCESS');
    const slipsTwice = [...slipSuccess.filter((c) => c.kind === 'slipForged'), ...slipSuccess.filter((c, i) => c.kind !== 'slipForged' && slipSuccess.findIndex((d) => d.kind !== 'slipForged' && d.transRef === c.transRef) !== i)];
    const answered = calls.filter((c) => c.first || c.refused).length;
    const lost = calls.filter((c) => c.lost).length;
    const ok200 = (kind: Kind) => calls.filter((c) => c.kind === kind && c.first?.status === 200).length;
    const figures: Array<[string, string | number, boolean]> = [
      ['calls', calls.length, true],
      ['  spins / coupon claims / bonus activations / cancels', `${ok200('spin')}/${ok200('claim')}/${ok200('bonus')}/${ok200('clear')}`, true],
      ['  codes / slips / slips again / forged slips (answered 200)', `${ok200('promo')}/${ok200('slip')}/${ok200('slipAgain')}/${ok200('slipForged')}`, true],
      ['  forged slips uploaded / answered INVALID_SLIP', `${calls.filter((c) => c.kind === 'slipForged').length}/${calls.filter((c) => c.kind === 'slipForged' && c.first?.body.message === 'INVALID_SLIP').length}`, true],
      ['refusals not kept under the key (403, 409)', calls.filter((c) => c.refused).length, true],
      ['answers lost to kills and timeouts (asked again)', lost, true],
      ['calls without a definite answer at the end', calls.length - answered, calls.length === answered],
      ['process kills', kills, EMBEDDED || kills > 0 || SECONDS < 10],
      ['fault changes', faults, true],
      ['ledger transactions', report.transactions, true],
      ['ledger invariants', report.ok ? 'ok' : JSON.stringify({ unbalanced: report.unbalancedTransactions.length, drifted: report.driftedAccounts.length, negative: report.negativeAccounts.length, total: report.total }), report.ok],
      ['satang differing from the model', model.satangOff, model.satangOff === 0],
      ['credits no answer explains', model.unexplained, model.unexplained === 0],
      ['credits of calls refused after a lost answer', model.afterLoss, true],
      ['answered credits missing from the ledger', model.missing, model.missing === 0],
      ['bonuses off their rule', model.offRule, model.offRule === 0],
      ['coupons paid to more than one answer', model.couponsTwice, model.couponsTwice === 0],
      ['members whose coins differ (granted + earned - spins)', coins.off, coins.off === 0],
      ['spins made without a 200 answer, or answered without one', coins.spinsOff, coins.spinsOff === 0],
      ['deposits whose coins differ from the wheel rate', coins.awardsOff, coins.awardsOff === 0],
      ['reconciliation: deposit credits checked (matched)', `${reconciliation.checked.credits} (${reconciliation.checked.matched})`, true],
      ['reconciliation: breaches', reconciliation.breaches.length, reconciliation.breaches.length === 0],
      // The outside systems' books were read (a system that did not answer would leave its credits unchecked).
      ['reconciliation: outside systems unanswered', reconciliation.checked.unanswered.join(', ') || 0, reconciliation.checked.unanswered.length === 0 && reconciliation.checked.unverifiable === 0],
      ['slip transfers never credited', neverCredited.length, neverCredited.length === 0],
      ['forged slips, or one transfer twice, answered as credited', slipsTwice.length, slipsTwice.length === 0],
      ['sandbox service kills (SIGKILL, restarted)', sandbox.kills, sandbox.kills >= 2 || SECONDS < 10],
      ['game accounts compared with the provider', gameAccounts.rows.length, true],
      ['provider balances differing from the ledger', providerGap.rows.length, providerGap.rows.length === 0],
      ['game transfers matched with the providers\' reports', gameRecon.days.reduce((n, d) => n + d.matched, 0), gameRecon.unreachable.length === 0],
      ['game transfers differing from the providers\' reports', gameDifferences.length, gameDifferences.length === 0],
      ['transfers still PENDING', pending, pending === 0],
      ['slips still PENDING', pendingSlips, pendingSlips === 0],
      ['money still in flight (accounts)', Number(inflight.rows[0]?.n ?? 0), Number(inflight.rows[0]?.n ?? 0) === 0],
      ['replays', replays.length, true],
      ['replays differing from the first answer', differing.length, differing.length === 0],
      ['game results booked (phantoms)', Number(phantoms.rows[0]?.n ?? 0), Number(phantoms.rows[0]?.n ?? 0) === 0],
      ['seamless rounds played (not answered: the sandbox killed)', `${seamless.rounds} (${seamless.unanswered})`, seamless.rounds > 0 || SECONDS < 10],
      ['  aggregator fault changes (duplicate, reorder, delay)', seamless.faults, true],
      ['seamless transactions in the aggregator\'s book / ours', `${book.length}/${seamlessCheck.ours}`, true],
      ['  bets / wins / rollbacks answered OK', `${seamlessCheck.played.bets}/${seamlessCheck.played.wins}/${seamlessCheck.played.rollbacks}`, (seamlessCheck.played.bets > 0 && seamlessCheck.played.wins > 0 && seamlessCheck.played.rollbacks > 0) || SECONDS < 10],
      ['seamless transactions left open in the aggregator\'s book', seamlessOpen, seamlessOpen === 0],
      ['seamless transactions answered OK, not applied once by us', seamlessCheck.notApplied, seamlessCheck.notApplied === 0],
      ['seamless transactions we applied, unknown to the aggregator', seamlessCheck.unknown, seamlessCheck.unknown === 0],
      ['seamless satang off (wallets against the aggregator\'s book)', seamlessCheck.satangOff, seamlessCheck.satangOff === 0],
      ['bank feed transfers (webhooks duplicated, reordered, delayed; fault changes)', `${feed.transRefs.length} (${feed.faults})`, feed.transRefs.length > 0 || SECONDS < 10],
      ['bank feed transfers not held exactly once', feedOff.length, feedOff.length === 0],
      ['deadlocks, serialisation failures in the logs', serverLog.conflicts.length, serverLog.conflicts.length === 0],
      ['unhandled errors in the servers\' logs', serverLog.unhandled, true],
    ];
    for (const [name, value, ok] of figures) {
      console.log(`${name.padEnd(58)} ${String(value).padStart(10)}  ${ok ? 'ok' : 'BREACH'}`);
      if (!ok) breaches.push(name.trim());
    }
    for (const line of model.lines.slice(0, 8)) console.log(`  model: ${line}`);
    for (const line of coins.lines.slice(0, 5)) console.log(`  coins: ${line}`);
    for (const line of seamlessCheck.lines.slice(0, 5)) console.log(`  seamless: ${line}`);
    for (const b of reconciliation.breaches.slice(0, 5)) console.log(`  reconciliation: ${JSON.stringify(b)}`);
    for (const u of neverCredited.slice(0, 5)) {
      console.log(`  never credited: ${JSON.stringify(u)}`);
      for (const c of calls.filter((x) => `KBANK/${x.transRef ?? ''}` === u.reference)) console.log(`    ${c.kind}${c.lost ? ' (lost, asked again)' : ''}: ${JSON.stringify(c.first ?? c.refused)}`);
    }
    for (const r of differing.slice(0, 5)) console.log(`  replay of ${r.call.method} ${r.call.path} ${JSON.stringify(r.call.body ?? null)}: first ${JSON.stringify(r.call.first)}, then ${JSON.stringify(r.answer)}`);
    for (const row of providerGap.rows.slice(0, 5)) console.log(`  provider: ${row.id} ledger ${row.ledger}, provider ${row.provider ?? 'none'}`);
    for (const line of serverLog.conflicts.slice(0, 5)) console.log(`  log: ${line}`);
    for (const c of slipsTwice.slice(0, 5)) console.log(`  slip ${c.kind} of ${c.transRef ?? ''}: ${JSON.stringify(c.first)}`);
    for (const c of calls.filter((x) => !x.first && !x.refused).slice(0, 5)) console.log(`  unanswered: ${c.method} ${c.path} ${JSON.stringify(c.body ?? null)}`);
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
    await killSandbox();
    rmSync(sandbox.dataDir, { recursive: true, force: true });
  }
  console.log(breaches.length === 0 ? '\nchaos: every check held' : `\nchaos: BREACHED ${breaches.join(', ')}`);
  process.exitCode = breaches.length === 0 ? 0 : 1;
}

// ---------------------------------------------------------------- the seamless game

/** A transaction as the sandbox aggregator's book holds it. */
interface SeamlessTxn {
  transactionId: string;
  action: 'bet' | 'win' | 'rollback';
  playerId: string;
  amount: number;
  referenceTransactionId: string | null;
  answer: { status: string } | null;
}

/**
 * Both sides of the seamless game: every transaction the aggregator was answered OK for is applied
 * once by us, nothing we applied is unknown to it, and each player's wallet is what its book says:
 * 1,000 baht − its bets answered OK and not rolled back + its wins answered OK.
 */
async function checkSeamless(db: Db, players: Array<{ id: string; playerId: string }>, book: SeamlessTxn[]): Promise<{ ours: number; notApplied: number; unknown: number; satangOff: number; lines: string[]; played: { bets: number; wins: number; rollbacks: number } }> {
  const rows = await sql<{ transaction_id: string; action: string; applied: boolean }>`SELECT transaction_id, action, applied FROM seamless_transactions WHERE provider = ${SEAMLESS.code}`.execute(db);
  const applied = new Map(rows.rows.filter((r) => r.applied).map((r) => [r.transaction_id, r]));
  // A rollback answered OK moved money only if its bet had reached us: it must be recorded, applied or not.
  const recorded = new Set(rows.rows.filter((r) => r.action === 'rollback').map((r) => r.transaction_id));
  const inBook = new Set(book.map((t) => t.transactionId));
  const lines: string[] = [];
  const notApplied = book.filter((t) => t.answer?.status === 'OK' && !(t.action === 'rollback' ? recorded.has(t.transactionId) : applied.has(t.transactionId)));
  const unknown = rows.rows.filter((r) => r.applied && r.action !== 'tombstone' && !inBook.has(r.transaction_id));
  for (const t of notApplied.slice(0, 3)) lines.push(`answered OK, not applied: ${JSON.stringify(t)}`);
  for (const r of unknown.slice(0, 3)) lines.push(`applied, not in the book: ${JSON.stringify(r)}`);
  const rolledBack = new Set(book.filter((t) => t.action === 'rollback' && t.answer?.status === 'OK').map((t) => t.referenceTransactionId));
  let satangOff = 0;
  for (const p of players) {
    const mine = book.filter((t) => t.playerId === p.playerId && t.answer?.status === 'OK');
    const expected = INITIAL - mine.filter((t) => t.action === 'bet' && !rolledBack.has(t.transactionId)).reduce((n, t) => n + t.amount, 0) + mine.filter((t) => t.action === 'win').reduce((n, t) => n + t.amount, 0);
    const row = await sql<{ balance: string }>`SELECT balance FROM ledger_accounts WHERE id = ${`m:${p.id}:wallet`}`.execute(db);
    const actual = Number(row.rows[0]?.balance ?? 0);
    if (actual !== expected) lines.push(`player ${p.playerId}: wallet ${actual}, the book says ${expected}`);
    satangOff += Math.abs(actual - expected);
  }
  // Not vacuous: the run moved money both ways and undid bets (a run of refusals would pass every other check).
  const ok = (action: SeamlessTxn['action']) => book.filter((t) => t.action === action && t.answer?.status === 'OK').length;
  return { ours: rows.rows.length, notApplied: notApplied.length, unknown: unknown.length, satangOff, lines, played: { bets: ok('bet'), wins: ok('win'), rollbacks: ok('rollback') } };
}

// ---------------------------------------------------------------- the model

type Db = Database['db'];

/**
 * Every member's money against the definite answers (check 2): what came in by the answers'
 * own amounts (top-ups, slips, coupons, credit codes), bonuses by the receipts their answers
 * name (the credit read from the ledger under the receipt's key, the amount checked against the
 * bonus's rule), cancels by what the ledger took back for them. Every credit of a promotion or
 * slip on the ledger must be named by an answer, or belong to a call that lost its answer and
 * ended refused (its process may have died after the money moved: a retry then meets the done
 * deed and refuses it) — those are counted, not breaches, as long as there are no more of them
 * than such calls of that kind.
 */
async function checkModel(db: Db, members: Member[], calls: Call[]): Promise<{ satangOff: number; unexplained: number; afterLoss: number; missing: number; offRule: number; couponsTwice: number; lines: string[] }> {
  const lines: string[] = [];
  let satangOff = 0;
  let unexplained = 0;
  let afterLoss = 0;
  let missing = 0;
  // A coupon answered as claimed to two keys would be paid twice in the answers.
  const claimed = calls.filter((c) => c.kind === 'claim' && c.first?.status === 200).map((c) => String((c.first?.body.coupon as { _id?: unknown } | undefined)?._id));
  const couponsTwice = claimed.length - new Set(claimed).size;
  const offRule = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM bonus_receipts r JOIN bonuses b ON b.code = r.bonus_code
    WHERE r.origin = 'bonus' AND r.bonus_amount <> least(floor(r.deposit_amount * b.percent / 100), (b.amounts->'THB'->>'maxBonus')::bigint)`.execute(db);
  for (const [i, member] of members.entries()) {
    const mine = calls.filter((c) => c.member === i);
    const ok = (kinds: Kind[]) => mine.filter((c) => kinds.includes(c.kind) && c.first?.status === 200);
    // Refused after a lost answer: it may have taken effect (see above).
    const afterLost = (kinds: Kind[]) => mine.filter((c) => kinds.includes(c.kind) && c.lost && !c.first && c.refused).length;
    const credits = await sql<{ source: string; ref: string; from: string; amount: string | number }>`
      SELECT ec.source, ec.ref, o.source AS from, o.amount FROM external_credits ec JOIN operations o ON o.id = ec.operation_id
      WHERE o.member_id = ${member.id} AND ec.source IN ('spin', 'bonus', 'promotion', 'banktx')`.execute(db);
    const ledger = (source: string) => credits.rows.filter((r) => r.source === source);
    let expected = INITIAL + ok(['add']).reduce((n, c) => n + satang(c.body?.amount), 0);
    // Slips: the amount each upload answered as credited (a forged or repeated one answering 200 is a breach of its own).
    const slipAnswers = ok(['slip', 'slipAgain', 'slipForged']).filter((c) => c.first?.body.status === 'SUCCESS');
    expected += slipAnswers.reduce((n, c) => n + satang(c.first?.body.amount), 0);
    const slipExtra = ledger('banktx').length - slipAnswers.length;
    // Coupons: the prize each claim answered.
    const couponAnswers = ok(['claim']).map((c) => c.first?.body.coupon as { _id: string; amount: number });
    expected += couponAnswers.reduce((n, c) => n + satang(c.amount), 0);
    const named = new Set(couponAnswers.map((c) => c._id));
    const couponExtra = ledger('spin').filter((r) => !named.has(r.ref));
    missing += [...named].filter((id) => !ledger('spin').some((r) => r.ref === id)).length;
    // Credit codes: the code's amount per answer.
    const codeAnswers = ok(['promo']).filter((c) => CREDIT_CODES[String(c.path.split('/').pop())] !== undefined);
    expected += codeAnswers.reduce((n, c) => n + (CREDIT_CODES[String(c.path.split('/').pop())] ?? 0), 0);
    const codeExtra = ledger('promotion').length - codeAnswers.length;
    // Bonuses: the receipt each activation answered (a bonus code's: the member's receipt of that code).
    const receipts = new Set(ok(['bonus']).map((c) => String(c.first?.body._id)));
    for (const c of ok(['promo']).filter((x) => CREDIT_CODES[String(x.path.split('/').pop())] === undefined)) {
      const code = String(c.path.split('/').pop());
      const row = await sql<{ id: string }>`SELECT id FROM bonus_receipts WHERE member_id = ${member.id} AND promotion_code = ${code}`.execute(db);
      for (const r of row.rows) receipts.add(r.id);
    }
    for (const id of receipts) {
      const credit = ledger('bonus').find((r) => r.ref === id);
      if (credit) expected += Number(credit.amount);
      else missing += 1;
    }
    const bonusExtra = ledger('bonus').filter((r) => !receipts.has(r.ref));
    // Cancels: what the ledger took back for each cancel, one per cancel answered BONUS_CLEAR.
    const cleared = await sql<{ taken: string | number }>`
      SELECT coalesce(-sum(e.amount), 0) AS taken FROM operations o
      LEFT JOIN ledger_entries e ON e.transaction_id = o.start_tx AND e.account_id = ${`m:${member.id}:wallet`}
      WHERE o.member_id = ${member.id} AND o.type = 'finish_bonus' AND o.note = 'BONUS_CLEAR' GROUP BY o.id`.execute(db);
    const clearAnswers = ok(['clear']).length;
    expected -= cleared.rows.reduce((n, r) => n + Number(r.taken), 0);
    const clearExtra = cleared.rows.length - clearAnswers;
    if (clearExtra < 0) missing -= clearExtra;
    // What no answer names, against the calls of that kind refused after a lost answer.
    const extras: Array<[string, number, number, number]> = [
      ['slip', Math.max(0, slipExtra), afterLost(['slip', 'slipAgain', 'slipForged']), 0],
      ['coupon', couponExtra.length, afterLost(['claim']) + mine.filter((c) => c.kind === 'claim' && c.lost && c.first && c.first.status !== 200).length, couponExtra.reduce((n, r) => n + Number(r.amount), 0)],
      ['code', Math.max(0, codeExtra), afterLost(['promo']), 0],
      ['bonus', bonusExtra.length, afterLost(['bonus', 'promo']), bonusExtra.reduce((n, r) => n + Number(r.amount), 0)],
      ['cancel', Math.max(0, clearExtra), mine.filter((c) => c.kind === 'clear' && c.lost).length, 0],
    ];
    if (slipExtra < 0) missing -= slipExtra;
    if (codeExtra < 0) missing -= codeExtra;
    for (const [what, extra, allowance] of extras) {
      if (extra === 0) continue;
      if (extra > allowance) {
        unexplained += extra - allowance;
        lines.push(`${member.phone}: ${extra} ${what} credit(s) no answer names (calls refused after a lost answer: ${allowance})`);
      }
      afterLoss += Math.min(extra, allowance);
    }
    // Amounts of credits named by no answer but explained by a lost one (slips and codes: by their ledger amounts).
    const allowedSlips = slipExtra > 0 ? ledger('banktx').reduce((n, r) => n + Number(r.amount), 0) - slipAnswers.reduce((n, c) => n + satang(c.first?.body.amount), 0) : 0;
    const allowedCodes = codeExtra > 0 ? ledger('promotion').reduce((n, r) => n + Number(r.amount), 0) - codeAnswers.reduce((n, c) => n + (CREDIT_CODES[String(c.path.split('/').pop())] ?? 0), 0) : 0;
    expected += allowedSlips + allowedCodes + (extras[1]?.[3] ?? 0) + (extras[3]?.[3] ?? 0);
    const held = await sql<{ total: string | number | null }>`
      SELECT sum(balance) AS total FROM ledger_accounts WHERE member_id = ${member.id} AND kind IN ('wallet', 'game', 'inflight', 'withdrawal')`.execute(db);
    const total = Number(held.rows[0]?.total ?? 0);
    if (total !== expected) {
      satangOff += Math.abs(total - expected);
      lines.push(`${member.phone}: ledger ${total}, model ${expected}`);
    }
  }
  return { satangOff, unexplained, afterLoss, missing, offRule: Number(offRule.rows[0]?.n ?? 0), couponsTwice, lines };
}

/**
 * Coins (check 3): every member's COIN account (ledger_accounts, currency COIN) is the coins an
 * operator granted plus the coins deposits earned minus the spins made; the spins made are
 * exactly those answered 200 (one per key); every deposit's coins are its amount over the
 * wheel's rate.
 */
async function checkCoins(db: Db, members: Member[], calls: Call[]): Promise<{ off: number; spinsOff: number; awardsOff: number; lines: string[] }> {
  const lines: string[] = [];
  let off = 0;
  let spinsOff = 0;
  for (const [i, member] of members.entries()) {
    const balance = await sql<{ n: string | number | null }>`SELECT sum(balance) AS n FROM ledger_accounts WHERE member_id = ${member.id} AND currency = 'COIN'`.execute(db);
    const earned = await sql<{ n: string | number | null }>`SELECT sum(coins) AS n FROM coin_awards WHERE member_id = ${member.id}`.execute(db);
    const spins = await sql<{ key: string | null }>`SELECT request_key AS key FROM spins WHERE member_id = ${member.id}`.execute(db);
    const coins = Number(balance.rows[0]?.n ?? 0);
    const expected = GRANTED_COINS + Number(earned.rows[0]?.n ?? 0) - spins.rows.length;
    if (coins !== expected) {
      off += 1;
      lines.push(`${member.phone}: ${coins} coins, granted + earned - spins = ${expected}`);
    }
    const answered = new Set(calls.filter((c) => c.member === i && c.kind === 'spin' && c.first?.status === 200).map((c) => c.key));
    const made = new Set(spins.rows.map((r) => r.key ?? ''));
    const diff = [...made].filter((k) => !answered.has(k)).length + [...answered].filter((k) => !made.has(k)).length + (spins.rows.length - made.size);
    if (diff > 0) lines.push(`${member.phone}: ${spins.rows.length} spins, ${answered.size} answered 200`);
    spinsOff += diff;
  }
  const awards = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM coin_awards c JOIN operations o ON o.id = c.operation_id JOIN spin_wheels w ON w.id = 'THB'
    WHERE c.coins <> floor(o.amount / w.deposit_per_coin)`.execute(db);
  return { off, spinsOff, awardsOff: Number(awards.rows[0]?.n ?? 0), lines };
}

// ---------------------------------------------------------------- members and calls

/** Members with 1,000 baht each, three game accounts and some coins; the run's own bonuses and credit code. */
async function setUp(server: Server): Promise<Member[]> {
  const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
  for (const [code, rule] of Object.entries(CHAOS_BONUSES)) {
    const put = await request(server.port, 'PUT', `/api/operator/bonuses/${code}`, {
      type: 'limit', maxReceived: 1000, percentFail: 0, percent: 10, amounts: { THB: { minDeposit: 100, maxBonus: 5_000 } }, turnoverMultiple: rule.turnoverMultiple, categories: rule.categories,
    }, operator);
    if (put.status !== 200) throw new Error(`bonus ${code}: ${JSON.stringify(put.body)}`);
  }
  const code = await request(server.port, 'PUT', '/api/operator/promotions/CHAOS10', { kind: 'credit', amounts: { THB: CREDIT_CODES.CHAOS10 }, maxPerMember: 1000, description: { th: 'chaos', la: 'chaos', en: 'chaos' } }, operator);
  if (code.status !== 200) throw new Error(`promotion CHAOS10: ${JSON.stringify(code.body)}`);
  const members: Member[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const member = await register(server, i);
    const auth = { authorization: `Bearer ${member.token}` };
    for (const game of GAMES) await request(server.port, 'GET', `/api/wallet/activate/${game}`, undefined, auth);
    const granted = await request(server.port, 'POST', `/api/operator/members/${member.id}/coins`, { coins: GRANTED_COINS }, { ...operator, 'idempotency-key': `chaos-coins-${member.id}` });
    if (granted.status !== 200) throw new Error(`coins: ${JSON.stringify(granted.body)}`);
    members.push(member);
    await sleep(2);
  }
  return members;
}

/** A member registered by phone (OTP read from the sandbox SMS gateway) with 1,000 baht topped up. */
async function register(server: Server, i: number): Promise<Member> {
  const phone = `09${String(((Date.now() % 1_000_000) * 100 + i) % 100_000_000).padStart(8, '0')}`;
  const sent = await request(server.port, 'POST', '/api/otp/send', { phoneNumber: phone });
  const outbox = await request(server.port, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
  const text = ((outbox.body.messages as Array<{ text: string }> | undefined) ?? [])[0]?.text ?? '';
  const otp = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
  await request(server.port, 'POST', '/api/otp/verify', { otpToken: sent.body.otpToken, otpCode: otp });
  const accountNo = `8${phone.slice(1)}${i}`.slice(0, 12);
  const created = await request(server.port, 'POST', '/api/account', {
    otpToken: sent.body.otpToken,
    name: `Chaos ${i}`,
    username: phone,
    password: 'chaos-secret',
    bankCode: 'KBANK',
    bankAccountName: 'CHAOS TESTER',
    bankAccountNo: accountNo,
    birthDate: '1990-01-15',
  });
  if (created.status !== 200) throw new Error(`register: ${JSON.stringify(created.body)}`);
  const login = await request(server.port, 'POST', '/api/login', { username: phone, password: 'chaos-secret' });
  const token = String(login.body.token);
  const auth = { authorization: `Bearer ${token}` };
  const id = String(created.body._id);
  const added = await request(server.port, 'POST', '/api/wallet/add', { amount: 1000 }, auth);
  if (added.status !== 200) throw new Error(`top-up: ${JSON.stringify(added.body)}`);
  return { phone, token, id, accountNo };
}

/** The seamless players: members with 1,000 baht and an account at the seamless game (its player id). */
async function setUpSeamless(server: Server): Promise<Array<{ id: string; playerId: string }>> {
  const players: Array<{ id: string; playerId: string }> = [];
  for (let k = 0; k < SEAMLESS_PLAYERS; k++) {
    const member = await register(server, MEMBERS + k);
    const auth = { authorization: `Bearer ${member.token}` };
    await request(server.port, 'GET', `/api/wallet/activate/${SEAMLESS.code}`, undefined, auth);
    const account = await request(server.port, 'GET', `/api/wallet/account/${SEAMLESS.code}`, undefined, auth);
    if (account.status !== 200 || typeof account.body.username !== 'string') throw new Error(`seamless account: ${JSON.stringify(account.body)}`);
    players.push({ id: member.id, playerId: account.body.username });
  }
  return players;
}

/** The sandbox bank's control API (null when the sandbox does not answer). */
async function bankControl(method: 'POST' | 'PUT', path: string, body: unknown): Promise<Record<string, unknown> | null> {
  try {
    const res = await fetch(`${sandboxUrl}/control/bank/${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
    return res.ok ? ((await res.json()) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The sandbox aggregator's control API (null when the sandbox does not answer: it is being killed). */
async function aggregator(path: string, body?: unknown, method: 'GET' | 'POST' | 'PUT' = 'POST'): Promise<Record<string, unknown> | null> {
  try {
    const res = await fetch(`${sandboxUrl}/control/aggregator/${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), signal: AbortSignal.timeout(20_000) });
    return res.ok ? ((await res.json()) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * One client action: a money call, or a few in a row (a slip upload and its repeats; a cancel
 * after bringing the money home). What it needs first (the member's coupons, a sandbox bank
 * transfer and its slip) is read without a key: not a money call.
 */
async function randomAction(client: number, members: Member[], n: number, target: () => Server): Promise<Call[]> {
  const member = Math.floor(Math.random() * members.length);
  const game = pick(GAMES);
  const amount = Math.round((1 + Math.random() * 150) * 100) / 100;
  let part = 0;
  const key = () => `chaos-${client}-${n}-${part++}-${randomBytes(4).toString('hex')}`;
  const post = (kind: Kind, path: string, body: Record<string, unknown>): Call => ({ member, kind, method: 'POST', path, body, key: key() });
  const get = (kind: Kind, path: string): Call => ({ member, kind, method: 'GET', path, key: key() });
  const roll = Math.random();
  if (roll < 0.07) return [post('add', '/api/wallet/add', { amount })];
  if (roll < 0.31) return [post('transfer', '/api/wallet/transfer', { from: 'WALLET', to: game, amount })];
  if (roll < 0.52) return [post('transfer', '/api/wallet/transfer', { from: game, to: 'WALLET', amount })];
  if (roll < 0.57) return [post('transferAll', '/api/wallet/transferAll', { to: Math.random() < 0.5 ? 'WALLET' : game })];
  if (roll < 0.63) return [post('withdraw', '/api/wallet/withdraw', { amount: Math.max(100, amount) })];
  if (roll < 0.66) return [post('withdrawAll', '/api/wallet/withdrawAll', { amount: Math.max(100, amount) })];
  if (roll < 0.74) return [post('spin', '/api/spinwheel/spin', {})];
  if (roll < 0.79) {
    const m = members[member] as Member;
    const list = await request(target().port, 'GET', '/api/spinwheel/coupon', undefined, { authorization: `Bearer ${m.token}` });
    const coupons = Array.isArray(list.body) ? (list.body as Array<{ _id: string }>) : [];
    return [post('claim', '/api/spinwheel/coupon/claim', { coupon: coupons.length > 0 && Math.random() < 0.9 ? pick(coupons)._id : `nocoupon${n}` })];
  }
  if (roll < 0.85) return [get('bonus', `/api/bonus/activate/${pick(['CHAOSA', 'CHAOSA', 'CHAOSB', 'CHAOSB', 'CHAOSB', 'WELCOME20', 'DAILY10', 'NOSUCHBONUS'])}`)];
  if (roll < 0.89) return [...(Math.random() < 0.6 ? [post('transferAll', '/api/wallet/transferAll', { to: 'WALLET' })] : []), get('clear', '/api/bonus/clear')];
  if (roll < 0.93) return [get('promo', `/api/promotion/activate/${pick(['CHAOS10', 'CHAOS10', 'CHAOS10', 'FREE50', 'BOOST30', 'NOSUCHCODE'])}`)];
  // A real transfer from the member's bank account to the deposit account, and its slip.
  const m = members[member] as Member;
  const at = target();
  const sent = await request(at.port, 'POST', '/api/sandbox/bank/transfers', { fromBankCode: 'KBANK', fromAccountNo: m.accountNo, toBankCode: SLIP_ACCOUNT.bank, toAccountNo: SLIP_ACCOUNT.no, amount: Math.round((1 + Math.random() * 500) * 100) / 100 });
  const transRef = String(sent.body.transRef ?? '');
  if (sent.status !== 200 || !transRef) return [];
  const png = await fetch(`http://127.0.0.1:${at.port}/api/sandbox/bank/transfers/${transRef}/slip.png`, { signal: AbortSignal.timeout(8_000) });
  if (!png.ok) return [];
  const file = Buffer.from(await png.arrayBuffer());
  const slip = (kind: Kind, bytes: Buffer): Call => ({ member, kind, method: 'POST', path: '/api/wallet/slip', file: bytes, key: key(), transRef });
  const action = [slip('slip', file)];
  // The same slip under a new key (SLIP_REFNO_DUPLICATED), and a forged one: the reference plus `:X0` (INVALID_SLIP).
  if (Math.random() < 0.25) action.push(slip('slipAgain', file));
  if (Math.random() < 0.25) action.push(slip('slipForged', await qrPng(forgedSlipPayload(KBANK_QR_CODE, `${transRef}:X0`))));
  return action;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
