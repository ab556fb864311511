import type { Config } from '../../config';
import { defineModule } from '../../platform/module';
import { HttpSmsProvider } from '../../providers/sms/http-sms';
import { sandboxUrlOf } from '../../platform/sandbox-process';
import { SandboxSmsProvider } from '../../providers/sms/sandbox-sms';
import type { SmsProvider } from '../../providers/sms/sms-provider';
import { otpHandlers } from './otp-routes';
import { OtpService } from './otp-service';
import { registerSandboxSmsRoutes } from './sandbox-sms-routes';
import './tables';
import { moduleDb } from '../../db/database';
import type { OtpTables } from './tables';

declare module '../../platform/services' {
  interface Services {
    sms: SmsProvider;
    /** Set while the sandbox SMS provider is selected: its outbox is readable. */
    sandboxSms: SandboxSmsProvider | null;
    otp: OtpService;
  }
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

/**
 * SMS codes for registration and password reset, the SMS gateway adapter, and the sandbox
 * gateway's outbox (GET /api/sandbox/sms, only while the sandbox gateway is selected).
 */
export const otpModule = defineModule({
  name: 'otp',
  migrations: [
    {
      id: 'otp/001_otp_requests',
      appliedWith: '005_money_core',
      sql: `
CREATE TABLE otp_requests (
  token text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'reset')),
  phone text NOT NULL,
  ref text NOT NULL,
  code_hash text NOT NULL,
  deliverable boolean NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  verified_at timestamptz,
  consumed_at timestamptz
);
CREATE INDEX otp_requests_phone ON otp_requests (phone, purpose, created_at);
CREATE TABLE sandbox_sms (
  id bigserial PRIMARY KEY,
  phone text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sandbox_sms_phone ON sandbox_sms (phone, id DESC);`,
    },
    {
      // The sandbox SMS gateway lives in the sandbox service now (apps/sandbox, its own storage).
      id: 'otp/002_drop_sandbox_sms',
      sql: `DROP TABLE IF EXISTS sandbox_sms;`,
    },
  ],
  setup(services) {
    const { config, database, limiter } = services;
    const sandboxUrl = sandboxUrlOf(config);
    services.sandboxSms =
      config.SMS_PROVIDER === 'sandbox' && sandboxUrl
        ? new SandboxSmsProvider({ url: sandboxUrl, token: config.SANDBOX_SMS_TOKEN, sender: config.SMS_HTTP_SENDER, countryCode: config.SMS_HTTP_COUNTRY_CODE ?? (config.LAOS_MODE ? '856' : '66'), timeoutMs: config.SMS_HTTP_TIMEOUT_MS })
        : null;
    services.sms = services.sandboxSms ?? httpSmsProvider(config);
    services.otp = new OtpService(moduleDb<OtpTables>(database), services.sms, limiter, {
      ttlSeconds: config.OTP_TTL_SECONDS,
      maxAttempts: config.OTP_MAX_ATTEMPTS,
      resendSeconds: config.OTP_RESEND_SECONDS,
      sendsPerHour: config.OTP_SENDS_PER_HOUR,
      sendsPerIpHour: config.OTP_SENDS_PER_IP_HOUR,
      globalSharePercent: config.OTP_SENDS_GLOBAL_SHARE_PERCENT,
      sendsPerPhoneHour: config.OTP_SENDS_PER_PHONE_HOUR,
      sendsGlobalMinute: config.OTP_SENDS_GLOBAL_MINUTE,
    });
  },
  handlers: otpHandlers,
  routes(app, { sandboxSms }) {
    if (sandboxSms) registerSandboxSmsRoutes(app, sandboxSms);
  },
});
