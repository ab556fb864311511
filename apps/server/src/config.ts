import { z } from 'zod';

/**
 * Configuration from environment variables, validated at start-up. A wrong value stops the
 * server with a message naming the variable.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

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
  SMS_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  /** Allow sandbox providers with NODE_ENV=production (a demo deployment). */
  ALLOW_SANDBOX_IN_PRODUCTION: bool.default(false),
  /** Laos mode: no 10-digit phone rule, currency LAK or BAHT at registration. */
  LAOS_MODE: bool.default(false),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(24 * 7),
  /** How long a checked token is remembered in memory (0: read the session on every call). */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  OTP_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  OTP_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** Minimum seconds between two OTP sends to one phone for one purpose. */
  OTP_RESEND_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** OTP sends allowed per phone and purpose per hour. */
  OTP_SENDS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /** Failed logins allowed per phone per minute, and per client address per minute. */
  LOGIN_FAILS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(5),
  LOGIN_FAILS_PER_IP_MINUTE: z.coerce.number().int().min(1).max(10000).default(30),
  /** Bearer token for the operator calls under /api/operator; unset: they are closed. */
  OPERATOR_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Where the built web app is; served with a fallback to index.html. */
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo data into an empty database. */
  SEED_DEMO: bool.default(true),
  /** Game providers: the sandbox of all 16 is the only implementation so far. */
  GAME_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  /** Deadline of one call to a game provider; a transfer past it is settled by asking the provider. */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  /** How often the reconciler settles transfers left pending, and how old they must be. */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  RECONCILE_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  /** Sandbox game faults at start: "PG:down,JOKER:timeout,BETFLIX:error-after-take". */
  SANDBOX_GAME_FAULTS: z.string().regex(/^([A-Z0-9]+:(none|down|timeout|error-after-take))?(,[A-Z0-9]+:(none|down|timeout|error-after-take))*$/).default(''),
  /** Latency added to every sandbox game call. */
  SANDBOX_GAME_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** payments: sandbox (demo top-up allowed) or live (refused). */
  PAYMENTS: z.enum(['sandbox', 'live']).default('sandbox'),
  /** 32 bytes, base64: key of the stored game passwords; without it one is generated into the database. */
  CREDENTIALS_KEY: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in base64').optional(),
  /** argon2id memory in KiB (OWASP minimum 19 MiB). */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(1024).max(1 << 21).default(19_456),
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = { ...parsed.data, ...overrides };
  if (config.NODE_ENV === 'production' && config.SMS_PROVIDER === 'sandbox' && !config.ALLOW_SANDBOX_IN_PRODUCTION) {
    throw new ConfigError(
      'Invalid configuration:\n  SMS_PROVIDER: the sandbox provider is refused with NODE_ENV=production (set ALLOW_SANDBOX_IN_PRODUCTION=true for a demo deployment)',
    );
  }
  return config;
}
