import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

/**
 * Configuration from environment variables, validated at start-up. A wrong value stops the
 * server with a message naming the variable.
 */
/** A yes/no variable: true/false, 1/0 or yes/no (modules' own schemas use it too). */
export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Ports the Fetch standard blocks (https://fetch.spec.whatwg.org/#port-blocking); Node's fetch refuses them. */
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723,
  2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  /** PostgreSQL schema to use (tests give each file its own). */
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(16),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  /**
   * Server processes sharing the port (node:cluster). Default: the number of cores when both
   * DATABASE_URL and REDIS_URL are set (shared state across processes needs both), otherwise 1.
   * More than 1 needs DATABASE_URL and REDIS_URL (the embedded database is one process's).
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** Background jobs (reconcilers, sweeps) run in the one process that holds this lease; another takes over when it lapses. */
  JOB_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(15_000),
  /**
   * Load shedding: API calls answer 503 BUSY with Retry-After while the event loop lags more
   * than SHED_LAG_MS (measured every 100 ms, averaged over about a second) or more than
   * SHED_POOL_QUEUE queries wait for a database connection. 0 switches a check off. The lag check
   * is off by default on the embedded database, whose queries run on the event loop itself (a
   * long query there is not an overload); on PostgreSQL it defaults to 1500 ms.
   */
  SHED_LAG_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  SHED_POOL_QUEUE: z.coerce.number().int().min(0).max(100_000).default(256),
  /**
   * SMS gateway: `sandbox` (the sandbox service's gateway over HTTP, which keeps the messages:
   * readable at GET /api/sandbox/sms) or
   * `http` (a generic HTTP gateway, SMS_HTTP_*). Default: http when SMS_HTTP_URL is set, otherwise
   * sandbox — except with NODE_ENV=production, where the sandbox must be named.
   */
  SMS_PROVIDER: z.enum(['sandbox', 'http']).optional(),
  /** The HTTP SMS gateway: where to send, how, and what counts as sent. */
  SMS_HTTP_URL: z.string().regex(/^https?:\/\//, 'must be an http(s):// URL').optional(),
  SMS_HTTP_METHOD: z.enum(['POST', 'PUT', 'GET']).default('POST'),
  /** Body template; {{phone}}, {{phoneIntl}}, {{text}} and {{sender}} are filled in (escaped for the content type). */
  SMS_HTTP_BODY: z.string().default('{"to":"{{phoneIntl}}","from":"{{sender}}","text":"{{text}}"}'),
  SMS_HTTP_CONTENT_TYPE: z.enum(['application/json', 'application/x-www-form-urlencoded']).default('application/json'),
  /** Extra request headers as a JSON object, e.g. {"X-Api-Key":"…"}. */
  SMS_HTTP_HEADERS: z
    .string()
    .default('{}')
    .transform((value, ctx) => {
      try {
        const parsed: unknown = JSON.parse(value);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((v) => typeof v === 'string')) {
          return parsed as Record<string, string>;
        }
      } catch {
        // answered below
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object of string header values' });
      return z.NEVER;
    }),
  /** Basic credentials "user:password", or a bearer token (sent as Authorization). */
  SMS_HTTP_BASIC_AUTH: z.string().regex(/^[^:]+:.+$/, 'must be user:password').optional(),
  SMS_HTTP_BEARER_TOKEN: z.string().min(1).optional(),
  SMS_HTTP_SENDER: z.string().max(32).default('GoldenWallet'),
  /** Country calling code for {{phoneIntl}} (the leading 0 of a national number is replaced). */
  SMS_HTTP_COUNTRY_CODE: z.string().regex(/^\d{1,4}$/).optional(),
  SMS_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** Optional regular expression the gateway's answer body must match to count as sent (besides a 2xx status). */
  SMS_HTTP_SUCCESS_MATCH: z
    .string()
    .optional()
    .refine((value) => {
      if (value === undefined) return true;
      try {
        new RegExp(value);
        return true;
      } catch {
        return false;
      }
    }, 'must be a regular expression'),
  /**
   * Which client addresses to believe X-Forwarded-For from: off (default; the socket's address is
   * the client), `true` (any), a hop count, or a comma-separated list of proxy addresses/CIDRs
   * (also `loopback`, `linklocal`, `uniquelocal`), as Fastify's trustProxy takes them.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx): boolean | number | string => {
      const v = value.trim();
      if (v === '' || v === 'false' || v === '0' || v === 'no') return false;
      if (v === 'true' || v === 'yes') return true;
      if (/^\d+$/.test(v)) return Number(v);
      const entries = v.split(',').map((e) => e.trim());
      if (entries.every(isProxyAddress)) return entries.join(',');
      ctx.addIssue({ code: 'custom', message: 'must be false, true, a hop count or a list of addresses/CIDRs' });
      return z.NEVER;
    }),
  /** Laos mode: no 10-digit phone rule, currency LAK or BAHT at registration. */
  LAOS_MODE: bool.default(false),
  /** Responsible play (issue 22): the minimum age at registration (400 UNDERAGE below it). */
  MIN_AGE: z.coerce.number().int().min(18).max(99).default(20),
  /**
   * Whether POST /api/account must carry birthDate. Spec section 7's registration has no birth date,
   * so by default a client of the spec that does not send one still registers (the web app always
   * asks for it, and a date sent is always checked); a regulated deployment sets it to true.
   */
  BIRTH_DATE_REQUIRED: bool.default(false),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(24 * 7),
  /** How long a checked token is remembered in memory (0: read the session on every call). */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  OTP_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  OTP_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** Minimum seconds between two OTP sends to one phone for one purpose. */
  OTP_RESEND_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** OTP sends allowed per phone and purpose per hour. */
  OTP_SENDS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /**
   * OTP sends (registration and password reset together) per client address per hour: a backstop
   * sized for the hundreds of players one carrier-grade NAT address carries (per phone and purpose,
   * OTP_SENDS_PER_HOUR and OTP_SENDS_PER_PHONE_HOUR do the real work); and over the whole site per
   * minute, of which one address may use OTP_SENDS_GLOBAL_SHARE_PERCENT (5 %: 15 of 300), so that
   * a few addresses cannot close registration and password reset for everyone.
   */
  OTP_SENDS_PER_IP_HOUR: z.coerce.number().int().min(1).max(100_000).default(200),
  /** OTP sends to one phone (one purpose) per hour from every address together. */
  OTP_SENDS_PER_PHONE_HOUR: z.coerce.number().int().min(1).max(100_000).default(15),
  OTP_SENDS_GLOBAL_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  OTP_SENDS_GLOBAL_SHARE_PERCENT: z.coerce.number().min(0.1).max(100).default(5),
  /**
   * Failed logins: per phone and client address per minute (the short lock, only for that
   * address), per phone per hour from anywhere (a higher ceiling), per client address per minute
   * (a backstop for the hundreds of players behind one carrier-grade NAT address, counted after
   * the outcome: past LOGIN_SLOW_AFTER_PER_IP_MINUTE failures that address's answers come slower,
   * LOGIN_SLOW_STEP_MS more per failure, at most LOGIN_SLOW_MAX_MS; refused only above the backstop).
   */
  LOGIN_FAILS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(5),
  LOGIN_FAILS_PER_PHONE_IP_HOUR: z.coerce.number().int().min(1).max(100_000).default(15),
  LOGIN_FAILS_PER_PHONE_HOUR: z.coerce.number().int().min(1).max(100_000).default(50),
  LOGIN_FAILS_PER_IP_MINUTE: z.coerce.number().int().min(1).max(100_000).default(300),
  LOGIN_SLOW_AFTER_PER_IP_MINUTE: z.coerce.number().int().min(0).max(100_000).default(20),
  LOGIN_SLOW_STEP_MS: z.coerce.number().int().min(0).max(10_000).default(50),
  LOGIN_SLOW_MAX_MS: z.coerce.number().int().min(0).max(30_000).default(3_000),
  /**
   * Registration checks and registrations (POST /api/account/validate and /api/account) per client
   * address per minute: a backstop for a carrier-grade NAT address's newcomers (each checks and
   * registers: two calls), and per device (X-Device-Id) per minute.
   */
  ACCOUNT_CHECKS_PER_IP_MINUTE: z.coerce.number().int().min(1).max(100_000).default(200),
  ACCOUNT_CHECKS_PER_DEVICE_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
  /**
   * Promotion code look-ups and activations (GET /api/promotion/find/:code and /activate/:code
   * together): per member per minute (REQUEST_LIMIT_1MIN) and per hour (REQUEST_LIMIT), the
   * limits that stop guessing; per client address per minute (REQUEST_LIMIT_1MIN), only a
   * backstop sized for the hundreds of players one carrier-grade NAT address can carry.
   */
  PROMOTION_CODES_PER_MEMBER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  PROMOTION_CODES_PER_MEMBER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(60),
  PROMOTION_CODES_PER_IP_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** How long a request may take to arrive whole (headers and body); uploads get UPLOAD_TIMEOUT_MS. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  UPLOAD_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(300_000),
  /** Strict-Transport-Security max-age in seconds; 0 sends none. Default: 0, or 180 days with NODE_ENV=production. */
  HSTS_MAX_AGE: z.coerce.number().int().min(0).max(63_072_000).optional(),
  /** Bearer token for the operator calls under /api/operator; unset: they are closed. */
  OPERATOR_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Where the built web app is; served with a fallback to index.html. */
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo member and demo content (deposit accounts, site texts, sandbox games). Default: true, except with NODE_ENV=production. */
  SEED_DEMO: bool.optional(),
  /**
   * Game providers: `sandbox` (all 16, played by the sandbox service over HTTP: its `games` system,
   * reached at SANDBOX_URL or on SANDBOX_PORT, signed with SANDBOX_GAME_SECRET) or `none` (no
   * provider connected: game calls fail cleanly) or `http` (a transfer-wallet game API over HTTP,
   * the sandbox service's protocol: GAME_API_URL and GAME_API_SECRET, docs/sandbox.md). Default:
   * sandbox, except with NODE_ENV=production.
   */
  GAME_PROVIDER: z.enum(['sandbox', 'none', 'http']).optional(),
  /**
   * The sandbox service (apps/sandbox, docs/sandbox.md): the outside systems' stand-ins over HTTP.
   * Outside production, unless SANDBOX_URL names one already running (or is `off`), the server
   * starts it beside itself as its own process on SANDBOX_PORT, with its journals under
   * DATA_DIR/sandbox (memory only with DATA_DIR=memory).
   */
  SANDBOX_URL: z.union([z.literal('off'), z.string().regex(/^https?:\/\//, 'must be an http(s):// URL or off')]).optional(),
  SANDBOX_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    // fetch (undici) refuses to connect to the Fetch standard's "bad ports": the server could never reach a sandbox there.
    .refine((port) => !FETCH_BAD_PORTS.has(port), { message: 'is a port fetch refuses to connect to (the Fetch standard\'s bad ports, e.g. 4190): choose another' })
    .default(3100),
  /** The secret of the sandbox service's game API (the same on both sides: the server passes its environment to the sandbox it starts). */
  SANDBOX_GAME_SECRET: z.string().min(8, 'must be at least 8 characters').default('sandbox-game-secret'),
  /** The bearer token of the sandbox service's SMS gateway (the same on both sides, as the game secret). */
  SANDBOX_SMS_TOKEN: z.string().min(8, 'must be at least 8 characters').default('sandbox-sms-token'),
  /** The secret of the sandbox service's e-wallet API (the same on both sides, as the game secret). */
  SANDBOX_EWALLET_SECRET: z.string().min(8, 'must be at least 8 characters').default('sandbox-ewallet-secret'),
  /** The secret of the sandbox service's QR gateway API (the same on both sides). */
  SANDBOX_GATEWAY_SECRET: z.string().min(8, 'must be at least 8 characters').default('sandbox-gateway-secret'),
  /** The secret of the sandbox service's bank API (look-ups, the transfer report, payouts; the same on both sides). */
  SANDBOX_BANK_SECRET: z.string().min(8, 'must be at least 8 characters').default('sandbox-bank-secret'),
  /** GAME_PROVIDER=http: the game API's base URL (e.g. http://127.0.0.1:3100, `npm run sandbox`). */
  GAME_API_URL: z.string().regex(/^https?:\/\//, 'must be an http(s):// URL').optional(),
  /** GAME_PROVIDER=http: the HMAC-SHA256 secret of its signed requests. */
  GAME_API_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  /** Deadline of one call to a game provider; a transfer past it is settled by asking the provider. */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  /** How often the reconciler settles transfers left pending, and how old they must be. */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  RECONCILE_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  /**
   * How long a money call's claim on its Idempotency-Key holds without an answer before a retry
   * takes it over (the process that claimed it died mid-call); until then a retry answers
   * REQUEST_IN_PROGRESS. The chaos run shortens it so its retries after SIGKILL settle quickly.
   */
  IDEMPOTENCY_CLAIM_STALE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
  /** Sandbox game faults at start: "PG:down,JOKER:timeout,BETFLIX:error-after-take". */
  SANDBOX_GAME_FAULTS: z.string().regex(/^([A-Z0-9]+:(none|down|timeout|error-after-take))?(,[A-Z0-9]+:(none|down|timeout|error-after-take))*$/).default(''),
  /** Latency added to every sandbox game call. */
  SANDBOX_GAME_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** payments: sandbox (the demo top-up POST /api/wallet/add exists) or live (it does not: 404). Default: sandbox, except with NODE_ENV=production. */
  PAYMENTS: z.enum(['sandbox', 'live']).optional(),
  /** 32 bytes, base64: key of the stored game passwords; without it one is generated into the database. */
  CREDENTIALS_KEY: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in base64').optional(),
  /** argon2id memory in KiB (OWASP minimum 19 MiB). */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(1024).max(1 << 21).default(19_456),
});

type ParsedEnv = z.infer<typeof envSchema>;

/** The configuration after the production defaults are applied: every choice is made. */
export type Config = Omit<ParsedEnv, 'SMS_PROVIDER' | 'GAME_PROVIDER' | 'PAYMENTS' | 'SEED_DEMO' | 'HSTS_MAX_AGE' | 'SHED_LAG_MS'> & {
  /**
   * The environment as given: a domain module reads its own variables from it with its own
   * schema (platform/module-config.ts), so a new domain does not edit this file.
   */
  env: Readonly<Record<string, string | undefined>>;
  SMS_PROVIDER: 'sandbox' | 'http';
  GAME_PROVIDER: 'sandbox' | 'none' | 'http';
  PAYMENTS: 'sandbox' | 'live';
  SEED_DEMO: boolean;
  HSTS_MAX_AGE: number;
  SHED_LAG_MS: number;
};

export class ConfigError extends Error {}

const HALF_YEAR_SECONDS = 180 * 24 * 3600;

function isProxyAddress(entry: string): boolean {
  if (entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal') return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Reads and checks the environment. With NODE_ENV=production nothing is a sandbox by default:
 * the SMS gateway must be named (`http` with SMS_HTTP_URL, or `sandbox` for a demo deployment),
 * games default to `none`, payments to `live`, and no demo data is seeded; each sandbox can still
 * be named explicitly. Everywhere else the defaults are the sandboxes and the demo data.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const data = parsed.data;
  const production = data.NODE_ENV === 'production';
  const problems: string[] = [];
  if (production && data.SMS_PROVIDER === undefined && data.SMS_HTTP_URL === undefined) {
    problems.push('SMS_PROVIDER: must be set with NODE_ENV=production (http with SMS_HTTP_URL, or sandbox for a demo deployment)');
  }
  const config: Config = {
    ...data,
    env: { ...env },
    SMS_PROVIDER: data.SMS_PROVIDER ?? (data.SMS_HTTP_URL ? 'http' : 'sandbox'),
    GAME_PROVIDER: data.GAME_PROVIDER ?? (production ? 'none' : 'sandbox'),
    PAYMENTS: data.PAYMENTS ?? (production ? 'live' : 'sandbox'),
    SEED_DEMO: data.SEED_DEMO ?? !production,
    HSTS_MAX_AGE: data.HSTS_MAX_AGE ?? (production ? HALF_YEAR_SECONDS : 0),
    SHED_LAG_MS: data.SHED_LAG_MS ?? (data.DATABASE_URL ? 1_500 : 0),
    ...overrides,
  };
  if (config.SMS_PROVIDER === 'http' && !config.SMS_HTTP_URL) problems.push('SMS_HTTP_URL: must be set when SMS_PROVIDER=http');
  if (config.SMS_PROVIDER === 'sandbox' && config.SANDBOX_URL === 'off') problems.push('SANDBOX_URL: must not be off when SMS_PROVIDER=sandbox (its SMS gateway is the sandbox service\'s; name SMS_PROVIDER=http with SMS_HTTP_URL instead)');
  if (config.GAME_PROVIDER === 'http' && !config.GAME_API_URL) problems.push('GAME_API_URL: must be set when GAME_PROVIDER=http (the game API\'s base URL)');
  if (config.GAME_PROVIDER === 'http' && !config.GAME_API_SECRET) problems.push('GAME_API_SECRET: must be set when GAME_PROVIDER=http (the secret of its signed requests)');
  if ((config.WEB_CONCURRENCY ?? 1) > 1 && !(config.DATABASE_URL && config.REDIS_URL)) {
    problems.push('WEB_CONCURRENCY: more than 1 process needs DATABASE_URL and REDIS_URL (the embedded database and in-memory state are one process\'s)');
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return config;
}

/** How many server processes to start (WEB_CONCURRENCY, or its default: every core when PostgreSQL and Redis are configured). */
export function processCount(config: Pick<Config, 'WEB_CONCURRENCY' | 'DATABASE_URL' | 'REDIS_URL'>, cores = availableParallelism()): number {
  if (config.WEB_CONCURRENCY !== undefined) return config.WEB_CONCURRENCY;
  return config.DATABASE_URL && config.REDIS_URL ? Math.max(1, cores) : 1;
}
