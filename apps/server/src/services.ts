import type { Config } from './config';
import type { Database } from './db/database';
import { createPasswordHasher, type PasswordHasher } from './lib/password';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './lib/rate-limit';
import { AccountService } from './modules/account/account-service';
import { SessionService } from './modules/account/session-service';
import { OtpService } from './modules/otp/otp-service';
import { SettingsService } from './modules/settings/settings-service';
import { SandboxSmsProvider } from './providers/sms/sandbox-sms';
import type { SmsProvider } from './providers/sms/sms-provider';

/** Everything a request handler may use, built once per app. */
export interface Services {
  config: Config;
  database: Database;
  limiter: RateLimiter;
  passwords: PasswordHasher;
  sms: SmsProvider;
  /** Set while the sandbox SMS provider is selected: its outbox is readable. */
  sandboxSms: SandboxSmsProvider | null;
  settings: SettingsService;
  sessions: SessionService;
  otp: OtpService;
  accounts: AccountService;
}

export function createServices(config: Config, database: Database): Services {
  const db = database.db;
  const limiter: RateLimiter = config.REDIS_URL ? new RedisRateLimiter(config.REDIS_URL) : new MemoryRateLimiter();
  const passwords = createPasswordHasher(config.ARGON2_MEMORY_KIB);
  const sandboxSms = config.SMS_PROVIDER === 'sandbox' ? new SandboxSmsProvider(db) : null;
  if (!sandboxSms) throw new Error(`unknown SMS provider ${config.SMS_PROVIDER}`);
  const sms: SmsProvider = sandboxSms;
  const settings = new SettingsService(db);
  const sessions = new SessionService(db, config.SESSION_TTL_HOURS);
  const otp = new OtpService(db, sms, limiter, {
    ttlSeconds: config.OTP_TTL_SECONDS,
    maxAttempts: config.OTP_MAX_ATTEMPTS,
    resendSeconds: config.OTP_RESEND_SECONDS,
    sendsPerHour: config.OTP_SENDS_PER_HOUR,
  });
  const accounts = new AccountService(db, passwords, sessions, otp, settings, limiter, {
    laosMode: config.LAOS_MODE,
    loginFailsPerMinute: config.LOGIN_FAILS_PER_MINUTE,
    loginFailsPerIpMinute: config.LOGIN_FAILS_PER_IP_MINUTE,
  });
  return { config, database, limiter, passwords, sms, sandboxSms, settings, sessions, otp, accounts };
}
