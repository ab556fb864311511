import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import type { ReconciliationReport } from '../src/modules/deposit/reconciliation';
import type { Services } from '../src/platform/services';
import { startSandbox, type Sandbox } from '../../sandbox/src/server';
import { embeddedTemplate } from './template';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const OPERATOR_TOKEN = 'operator-token-for-tests';

export type DbKind = 'embedded' | 'postgres';
/** Every server suite runs on both databases; CI never skips PostgreSQL. */
export const dbKinds: DbKind[] = ['embedded', 'postgres'];

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  kind: DbKind;
  /** The app's own sandbox service (in this process, over HTTP, with its own memory), or null when env gave SANDBOX_URL. */
  sandbox: Sandbox | null;
  close(): Promise<void>;
}

const sharedSandboxes = new Map<string, { sandbox: Sandbox; users: number }>();

/** A fresh app on a fresh database: in-memory PGlite, or its own schema on PostgreSQL. */
export async function startApp(kind: DbKind, env: Record<string, string> = {}, schema?: string): Promise<TestApp> {
  const ownSchema = kind === 'postgres' && !schema;
  // Apps on one schema are processes of one server: they share one sandbox service (the outside
  // world is one), started by the first and closed by the last.
  const shared = schema && !env.SANDBOX_URL ? sharedSandboxes.get(schema) : undefined;
  if (shared) shared.users += 1;
  const sandbox = env.SANDBOX_URL ? null : shared ? shared.sandbox : await startSandbox({ port: 0, env: {} });
  if (schema && sandbox && !shared) sharedSandboxes.set(schema, { sandbox, users: 1 });
  const releaseSandbox = async (): Promise<void> => {
    const entry = schema ? sharedSandboxes.get(schema) : undefined;
    if (entry && entry.sandbox === sandbox) {
      entry.users -= 1;
      if (entry.users > 0) return;
      sharedSandboxes.delete(schema ?? '');
    }
    await sandbox?.close();
  };
  const useSchema = kind === 'postgres' ? (schema ?? `t_${randomBytes(6).toString('hex')}`) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: 'memory',
    ARGON2_MEMORY_KIB: '8192',
    OPERATOR_TOKEN,
    // Suites register many members from one address; the limits' own tests lower these again.
    OTP_SENDS_PER_IP_HOUR: '100000',
    OTP_SENDS_GLOBAL_MINUTE: '100000',
    ACCOUNT_CHECKS_PER_IP_MINUTE: '100000',
    PROMOTION_CODES_PER_MEMBER_MINUTE: '100000',
    PROMOTION_CODES_PER_MEMBER_HOUR: '100000',
    PROMOTION_CODES_PER_IP_MINUTE: '100000',
    SLIP_UPLOADS_PER_MEMBER_MINUTE: '100000',
    SLIP_UPLOADS_PER_MEMBER_HOUR: '100000',
    SLIP_UPLOADS_PER_IP_MINUTE: '100000',
    ACCOUNT_CHECKS_PER_DEVICE_MINUTE: '100000',
    // Suites fail logins on purpose from one address: no slower answers (security.test.ts tests them at their defaults).
    LOGIN_SLOW_AFTER_PER_IP_MINUTE: '100000',
    // Load shedding on event-loop lag has its own test (scale.test.ts); elsewhere a loaded test machine must not shed.
    SHED_LAG_MS: '0',
    // The demo's back-office queue would add rows to the queues suites count (demo-queue.test.ts turns it on).
    SEED_DEMO_QUEUE: 'false',
    ...(sandbox ? { SANDBOX_URL: sandbox.url } : {}),
    ...(kind === 'postgres' ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: useSchema, DATABASE_POOL_SIZE: '8' } : {}),
    ...env,
  });
  const database = await openDatabase(config, kind === 'embedded' ? { embeddedTemplate: await embeddedTemplate() } : {});
  const { app, services } = await buildApp(config, database);
  await app.ready();
  // Listening (on a free port): the sandbox service's systems call us back over the network (webhooks).
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    services,
    kind,
    sandbox,
    close: async () => {
      await app.close();
      await database.close();
      await releaseSandbox();
      if (ownSchema && useSchema) await dropSchema(useSchema);
    },
  };
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

export async function call<T = Record<string, unknown>>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; rawBody?: string; remoteAddress?: string } = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.rawBody !== undefined) {
    payload = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await app.inject({
    method,
    url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  let body: unknown = null;
  try {
    body = response.body ? JSON.parse(response.body) : null;
  } catch {
    body = response.body;
  }
  return { status: response.statusCode, body: body as T, headers: response.headers };
}

/** Fills a route's :params with a plausible value. */
export const concrete = (path: string) => path.replace(/:(\w+)/g, (_m, name: string) => (name === 'code' || name === 'bankCode' ? 'PG' : 'abc123'));

let phoneCounter = 0;
/** A phone number no other test uses (08 + 8 digits). */
export function uniquePhone(): string {
  phoneCounter += 1;
  const tail = (Date.now() % 1_000_000) * 100 + phoneCounter;
  return `08${String(tail).padStart(8, '0').slice(-8)}`;
}

let accountCounter = 0;
export function uniqueAccountNo(): string {
  accountCounter += 1;
  return `9${String(Date.now()).slice(-6)}${String(accountCounter).padStart(3, '0')}`;
}

/** Reads the newest code the sandbox SMS gateway sent to a phone. */
export async function latestCode(app: FastifyInstance, phone: string): Promise<string> {
  const outbox = await call<{ messages: Array<{ text: string }> }>(app, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
  const text = outbox.body.messages[0]?.text ?? '';
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in sandbox outbox for ${phone}`);
  return code;
}

export function registration(phone: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Somchai',
    username: phone,
    password: 'secret123',
    sourceCode: 'FACEBOOK',
    inviteCode: '',
    bankCode: 'KBANK',
    bankAccountName: 'SOMCHAI JAIDEE',
    bankAccountNo: uniqueAccountNo(),
    // The age gate (issue 22): an adult's birth date.
    birthDate: '1990-01-15',
    ...overrides,
  };
}

/** Sends and verifies a registration code for a phone; returns its otpToken (what POST /api/account needs). */
export async function verifyPhone(app: FastifyInstance, phone: string): Promise<string> {
  const sent = await call<{ otpToken: string }>(app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
  if (sent.status !== 200) throw new Error(`otp send ${sent.status} ${JSON.stringify(sent.body)}`);
  const verified = await call(app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: await latestCode(app, phone) } });
  if (verified.status !== 200) throw new Error(`otp verify ${verified.status} ${JSON.stringify(verified.body)}`);
  return sent.body.otpToken;
}

/** Verifies the phone through the sandbox SMS and registers; returns the credentials. */
export async function registerMember(app: FastifyInstance, overrides: Record<string, unknown> = {}): Promise<{ phone: string; password: string; id: string }> {
  const phone = (overrides.username as string | undefined) ?? uniquePhone();
  const sent = await call<{ otpToken: string }>(app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
  if (sent.status !== 200) throw new Error(`otp send ${sent.status} ${JSON.stringify(sent.body)}`);
  const verified = await call(app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: await latestCode(app, phone) } });
  if (verified.status !== 200) throw new Error(`otp verify ${verified.status} ${JSON.stringify(verified.body)}`);
  const body: Record<string, unknown> = { ...registration(phone, overrides), otpToken: sent.body.otpToken };
  const created = await call<{ _id: string }>(app, 'POST', '/api/account', { body });
  if (created.status !== 200) throw new Error(`register ${created.status} ${JSON.stringify(created.body)}`);
  return { phone, password: body.password as string, id: created.body._id };
}

export async function login(app: FastifyInstance, phone: string, password: string): Promise<string> {
  const res = await call<{ token: string }>(app, 'POST', '/api/login', { body: { username: phone, password } });
  if (res.status !== 200) throw new Error(`login ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/**
 * The deposit reconciliation over everything the suite did (all time up to now): every credited
 * deposit matched 1:1 with its outside record. Suites end with it, beside the ledger check.
 */
export async function reconcileAll(t: TestApp): Promise<ReconciliationReport> {
  return t.services.deposits.reconciliation.run({ from: new Date(0), to: new Date(Date.now() + 1000) });
}

/**
 * A test that signs an outside system's webhook itself (a payment, a bank or e-wallet transfer)
 * also writes what it claims into that sandbox's books, as the real system would have it — the
 * reconciliation reads the books. Only a well-formed message is recorded; anything else is left out.
 */
export async function recordOutside(t: TestApp, path: string, body: unknown): Promise<void> {
  if (typeof body !== 'object' || body === null) return;
  const m = body as Record<string, unknown>;
  const text = (key: string) => (typeof m[key] === 'string' ? (m[key] as string) : '');
  const minor = Math.round(Number(m.amount) * 100);
  if (!Number.isSafeInteger(minor) || minor <= 0) return;
  const at = text('at') || text('paidAt') || new Date().toISOString();
  try {
    if (path.startsWith('/api/webhooks/payments/') && text('event') === 'payment.succeeded' && /^[A-Za-z0-9_-]{1,64}$/.test(text('paymentId'))) {
      await t.services.deposits.sandboxGateway?.record({ provider: text('provider'), paymentId: text('paymentId'), reference: text('reference'), amount: minor, currency: text('currency') || 'THB', paidAt: new Date(at) });
    } else if (path.startsWith('/api/webhooks/bank/') && /^[A-Za-z0-9]{6,40}$/.test(text('transRef'))) {
      const currency = text('currency') === 'LAK' ? 'LAK' : 'THB';
      await t.services.deposits.sandboxBank?.transfer({ transRef: text('transRef'), fromBankCode: text('fromBankCode'), fromAccountNo: text('fromAccountNo'), toBankCode: text('toBankCode'), toAccountNo: text('toAccountNo'), amount: minor, currency, at: new Date(at), report: false });
    } else if (path.startsWith('/api/webhooks/ewallet/') && /^[A-Za-z0-9_-]{6,64}$/.test(text('transferId'))) {
      await t.services.deposits.sandboxEwallet?.record({ transferId: text('transferId'), fromPhone: text('fromPhone'), toPhone: text('toPhone'), amount: minor, at: new Date(at) });
    }
  } catch {
    // Not something the outside system could have recorded (a bad date, a missing field): left out.
  }
}
