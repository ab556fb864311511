import { randomBytes } from 'node:crypto';
import type { Config } from './config';
import type { Database } from './db/database';
import { createPasswordHasher, type PasswordHasher } from './lib/password';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './lib/rate-limit';
import { SecretBox } from './lib/secret-box';
import { MoneyCore } from './money/core';
import { AccountService } from './modules/account/account-service';
import { SessionService } from './modules/account/session-service';
import { OtpService } from './modules/otp/otp-service';
import { SettingsService } from './modules/settings/settings-service';
import { StatementService } from './modules/statement/statement-service';
import { GameService } from './modules/wallet/game-service';
import { TransferService } from './modules/wallet/transfer-service';
import { WalletService } from './modules/wallet/wallet-service';
import { withDeadline, type GameProvider } from './providers/games/game-provider';
import { SandboxGameHouse, type FaultMode } from './providers/games/sandbox-games';
import { SandboxSmsProvider } from './providers/sms/sandbox-sms';
import { HttpSmsProvider } from './providers/sms/http-sms';
import type { SmsProvider } from './providers/sms/sms-provider';
import { unconfiguredGameProvider } from './providers/games/unconfigured-games';

/** Everything a request handler may use, built once per app. */
export interface Services {
  config: Config;
  database: Database;
  limiter: RateLimiter;
  passwords: PasswordHasher;
  sms: SmsProvider;
  /** Set while the sandbox SMS provider is selected: its outbox is readable. */
  sandboxSms: SandboxSmsProvider | null;
  /** Set while the sandbox game providers are selected: faults and the demo game. */
  sandboxGames: SandboxGameHouse | null;
  /** PAYMENTS=sandbox: the demo top-up (POST /api/wallet/add) exists. */
  sandboxPayments: boolean;
  settings: SettingsService;
  /** The money core: once-per-key answers and the policy hooks. */
  money: MoneyCore;
  sessions: SessionService;
  otp: OtpService;
  accounts: AccountService;
  games: GameService;
  transfers: TransferService;
  wallet: WalletService;
  statements: StatementService;
}

/** The key of stored game passwords: configured, or generated once and kept in the database. */
async function credentialsKey(config: Config, settings: SettingsService): Promise<Buffer> {
  if (config.CREDENTIALS_KEY) return Buffer.from(config.CREDENTIALS_KEY, 'base64');
  await settings.setIfMissing('credentialsKey', randomBytes(32).toString('base64'));
  return Buffer.from(await settings.get<string>('credentialsKey', ''), 'base64');
}

function httpSmsProvider(config: Config): SmsProvider {
  if (!config.SMS_HTTP_URL) throw new Error('SMS_HTTP_URL is not set');
  return new HttpSmsProvider({
    url: config.SMS_HTTP_URL,
    method: config.SMS_HTTP_METHOD,
    body: config.SMS_HTTP_BODY,
    contentType: config.SMS_HTTP_CONTENT_TYPE,
    headers: config.SMS_HTTP_HEADERS,
    ...(config.SMS_HTTP_BASIC_AUTH ? { basicAuth: config.SMS_HTTP_BASIC_AUTH } : {}),
    ...(config.SMS_HTTP_BEARER_TOKEN ? { bearerToken: config.SMS_HTTP_BEARER_TOKEN } : {}),
    sender: config.SMS_HTTP_SENDER,
    countryCode: config.SMS_HTTP_COUNTRY_CODE ?? (config.LAOS_MODE ? '856' : '66'),
    timeoutMs: config.SMS_HTTP_TIMEOUT_MS,
    ...(config.SMS_HTTP_SUCCESS_MATCH ? { successMatch: new RegExp(config.SMS_HTTP_SUCCESS_MATCH) } : {}),
  });
}

export async function createServices(config: Config, database: Database): Promise<Services> {
  const db = database.db;
  const limiter: RateLimiter = config.REDIS_URL ? new RedisRateLimiter(config.REDIS_URL) : new MemoryRateLimiter();
  const passwords = createPasswordHasher(config.ARGON2_MEMORY_KIB);
  const sandboxSms = config.SMS_PROVIDER === 'sandbox' ? new SandboxSmsProvider(db) : null;
  const sms: SmsProvider = sandboxSms ?? httpSmsProvider(config);
  const settings = new SettingsService(db);
  const sessions = new SessionService(db, config.SESSION_TTL_HOURS, config.SESSION_CACHE_MS);
  if (config.REDIS_URL) await sessions.connect(config.REDIS_URL);
  const otp = new OtpService(db, sms, limiter, {
    ttlSeconds: config.OTP_TTL_SECONDS,
    maxAttempts: config.OTP_MAX_ATTEMPTS,
    resendSeconds: config.OTP_RESEND_SECONDS,
    sendsPerHour: config.OTP_SENDS_PER_HOUR,
    sendsPerIpHour: config.OTP_SENDS_PER_IP_HOUR,
    sendsPerPhoneHour: config.OTP_SENDS_PER_PHONE_HOUR,
    sendsGlobalMinute: config.OTP_SENDS_GLOBAL_MINUTE,
  });
  const accounts = new AccountService(db, passwords, sessions, otp, settings, limiter, {
    laosMode: config.LAOS_MODE,
    loginFailsPerMinute: config.LOGIN_FAILS_PER_MINUTE,
    loginFailsPerPhoneHour: config.LOGIN_FAILS_PER_PHONE_HOUR,
    loginFailsPerPhoneIpHour: config.LOGIN_FAILS_PER_PHONE_IP_HOUR,
    loginFailsPerIpMinute: config.LOGIN_FAILS_PER_IP_MINUTE,
    accountChecksPerIpMinute: config.ACCOUNT_CHECKS_PER_IP_MINUTE,
  });
  const sandboxGames = config.GAME_PROVIDER === 'sandbox' ? new SandboxGameHouse(db, config.PROVIDER_TIMEOUT_MS * 2) : null;
  if (sandboxGames) {
    await sandboxGames.refreshFaults();
    for (const entry of config.SANDBOX_GAME_FAULTS.split(',').filter(Boolean)) {
      const [code = '', mode = 'none'] = entry.split(':');
      await sandboxGames.setFault(code, { mode: mode as FaultMode, latencyMs: config.SANDBOX_GAME_LATENCY_MS });
    }
    if (config.SANDBOX_GAME_LATENCY_MS > 0) sandboxGames.setDefaultLatency(config.SANDBOX_GAME_LATENCY_MS);
    sandboxGames.startSharing();
  }
  const providers = new Map<string, GameProvider>();
  const provider = (code: string): GameProvider => {
    let found = providers.get(code);
    if (!found) {
      found = withDeadline(sandboxGames ? sandboxGames.provider(code) : unconfiguredGameProvider(code), config.PROVIDER_TIMEOUT_MS);
      providers.set(code, found);
    }
    return found;
  };
  const games = new GameService(db, provider, new SecretBox(await credentialsKey(config, settings)));
  const money = new MoneyCore(db);
  const transfers = new TransferService(db, games, money);
  const sandboxPayments = config.PAYMENTS === 'sandbox';
  const wallet = new WalletService(db, accounts, games, transfers, settings, money, sandboxPayments);
  const statements = new StatementService(db);
  return { config, database, limiter, passwords, sms, sandboxSms, sandboxGames, sandboxPayments, settings, money, sessions, otp, accounts, games, transfers, wallet, statements };
}
