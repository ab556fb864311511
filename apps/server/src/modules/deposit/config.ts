import { z } from 'zod';
import { moduleConfig } from '../../platform/module-config';
import type { Bank } from '../../providers/bank/bank';
import { HttpBank } from '../../providers/bank/http-bank';
import { SandboxBank } from '../../providers/bank/sandbox-bank';
import { unconfiguredGateway, type PaymentGateway } from '../../providers/payments/gateway';
import { HttpGateway } from '../../providers/payments/http-gateway';
import { SandboxGateway } from '../../providers/payments/sandbox-gateway';
import { HttpEWallet } from '../../providers/ewallet/http-ewallet';
import type { EWallet } from '../../providers/ewallet/ewallet';
import { SandboxEWallet } from '../../providers/ewallet/sandbox-ewallet';
import { sandboxUrlOf } from '../../platform/sandbox-process';
import { ConfigError, type Config } from '../../config';
import { DepositReconciliation } from './reconciliation';
import './tables';
import type { DepositDb } from './tables';
import { moduleDb, type Database } from '../../db/database';

// The deposit module's configuration: its settings (environment) and the outside systems they name.

const positiveBaht = z.coerce.number().int().min(1).max(1_000_000);
/** A kip figure in whole kip (₭10,000,000 is the most one call carries). */
const positiveKip = z.coerce.number().int().min(1).max(10_000_000);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM');
const secret = z.string().min(16, 'must be at least 16 characters').optional();

/** The deposit domain's own configuration (see the README). */
export const depositEnv = z.object({
  NODE_ENV: z.string().optional(),
  /**
   * QR payment gateways (WW, PAYTIMZ, PAYONEX, ZPAY, KBANK): `sandbox` (the sandbox service's,
   * SANDBOX_GATEWAY_SECRET), `http` (a gateway API speaking the protocol of docs/sandbox.md at
   * PAYMENT_API_URL, signed with PAYMENT_API_SECRET) or `none`.
   */
  PAYMENT_GATEWAY: z.enum(['sandbox', 'http', 'none']).optional(),
  PAYMENT_API_URL: z.string().regex(/^https?:\/\//, 'must be an http(s):// URL').optional(),
  PAYMENT_API_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  PAYMENT_WEBHOOK_SECRET: secret,
  /** Banks behind the deposit accounts (transfers, the automatic-deposit feed, slip look-ups): sandbox or none. */
  BANK_PROVIDER: z.enum(['sandbox', 'http', 'none']).optional(),
  /** BANK_PROVIDER=http: the bank API (docs/sandbox.md, "Bank") and the secret of its signed calls. */
  BANK_API_URL: z.string().regex(/^https?:\/\//, 'must be an http(s):// URL').optional(),
  BANK_API_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  BANK_FEED_WEBHOOK_SECRET: secret,
  QR_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Largest slip image accepted (bytes). */
  SLIP_MAX_BYTES: z.coerce.number().int().min(10_000).max(50_000_000).default(10_000_000),
  /** How often QRs whose payment webhook may be missing are checked with the gateway (0: never), and how old they must be. */
  DEPOSIT_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  DEPOSIT_RECONCILE_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** How often slips in progress are asked of the bank again (0: never), and after how long one still unknown fails. */
  SLIP_RECHECK_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(20_000),
  SLIP_PENDING_MAX_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(30),
  /** How often deposits of the last 24 hours are reconciled with the outside systems (0: never); a breach is logged at error level. */
  DEPOSIT_AUDIT_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
  /** The daily window (Asia/Bangkok, HH:MM) in which slip upload is closed (equal times: never), and the oldest transfer a slip may show. */
  SLIP_CLOSED_FROM: hhmm.default('23:50'),
  SLIP_CLOSED_TO: hhmm.default('00:10'),
  SLIP_MAX_AGE_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
  SLIP_UPLOADS_PER_MEMBER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  SLIP_UPLOADS_PER_MEMBER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(60),
  SLIP_UPLOADS_PER_IP_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  SLIP_REFUSED_IMAGE_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  /** Worker threads reading slip images per process (default: the cores shared by the processes, at most 4), and how many images may wait for one (more: 503 BUSY). */
  SLIP_READER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  SLIP_READER_QUEUE: z.coerce.number().int().min(0).max(10_000).default(16),
  /** The largest QR amount per currency: in baht for baht members, in kip for kip members. */
  QR_MAX_BAHT: positiveBaht.default(100_000),
  QR_MAX_LAK: positiveKip.default(10_000_000),
  /**
   * The e-wallet behind gift links and AUTO e-wallet deposits: `sandbox` (the sandbox service's
   * e-wallet, SANDBOX_EWALLET_SECRET), `http` (an e-wallet API speaking the protocol of
   * docs/sandbox.md at EWALLET_API_URL, signed with EWALLET_API_SECRET) or `none`.
   */
  EWALLET_PROVIDER: z.enum(['sandbox', 'http', 'none']).optional(),
  EWALLET_API_URL: z.string().regex(/^https?:\/\//, 'must be an http(s):// URL').optional(),
  EWALLET_API_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
  EWALLET_WEBHOOK_SECRET: secret,
  /** The RSA private key (PKCS#8 PEM) gift links are encrypted for; generated into DATA_DIR/secrets/truelink-key.pem when not set. */
  TRUELINK_PRIVATE_KEY: z.string().includes('PRIVATE KEY').optional(),
  /** The smallest gift voucher taken, in baht (a baht member's) and in kip (a kip member's). */
  TRUELINK_MIN_BAHT: z.coerce.number().min(0.01).max(100_000).default(2),
  TRUELINK_MIN_LAK: positiveKip.default(1_000),
  /** The e-wallet breaker: a call's timeout, failures in a row that open it, how long it stays open. */
  EWALLET_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(8_000),
  EWALLET_BREAKER_FAILURES: z.coerce.number().int().min(1).max(100).default(3),
  EWALLET_BREAKER_OPEN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** The PAYTIMZ and ZPAY QR minimums: in baht (default 10), and in kip for kip members (default 5,000). */
  PAYTIMZ_MIN: positiveBaht.optional(),
  ZPAY_MIN: positiveBaht.optional(),
  PAYTIMZ_MIN_LAK: positiveKip.optional(),
  ZPAY_MIN_LAK: positiveKip.optional(),
});

/** The period the reconciliation call and the scheduled run cover when not told: the last 24 hours. */
export const RECONCILIATION_DEFAULT_MS = 86_400_000;

/** No bank connected (BANK_PROVIDER=none): every slip's reference is unknown to us. */
export const unconfiguredBank: Bank = { lookup: () => Promise.resolve(null) };

/**
 * The reconciliation over a database without a running server (npm run reconcile): the same
 * outside systems the server would pick from the configuration (the sandbox service's, or the
 * configured APIs: their report calls; no webhook secret is needed).
 */
export function reconciliationFor(database: Pick<Database, 'db'>, config: Config): DepositReconciliation {
  const db = moduleDb<DepositDb>(database);
  const env = moduleConfig(config, depositEnv);
  return new DepositReconciliation(
    db,
    {
      bank: bankOf(config, env).bank ?? unconfiguredBank,
      gateway: gatewayOf(config, env).gateway ?? unconfiguredGateway,
      ewallet: ewalletOf(config, env).ewallet,
    },
    { all: () => db.selectFrom('deposit_channels').selectAll().execute() },
  );
}

/** How the configuration names one outside system: `none`, `http` (its API's URL and secret) or `sandbox` (the sandbox service's). */
interface OutsideChoice<R, S extends R> {
  /** The variable that chooses (EWALLET_PROVIDER, …) and its value (unset: sandbox outside production, none in it). */
  provider: string;
  chosen: 'none' | 'http' | 'sandbox' | undefined;
  /** The variables' prefix (EWALLET → EWALLET_API_URL, EWALLET_API_SECRET) and what the system is, for the refusal. */
  name: string;
  what: string;
  /** "its e-wallet is", "its gateways are": the sandbox refusal's words. */
  sandboxIs: string;
  url: string | undefined;
  secret: string | undefined;
  http(api: { url: string; secret: string }): R;
  sandbox(url: string): S;
}

/**
 * An outside system the configuration names: the sandbox service's (outside production by
 * default), an API over HTTP, or none. An incomplete choice stops the start naming what is missing.
 */
function outsideSystem<R, S extends R>(config: Config, o: OutsideChoice<R, S>): { system: R | null; sandbox: S | null } {
  const chosen = o.chosen ?? (config.NODE_ENV === 'production' ? 'none' : 'sandbox');
  if (chosen === 'none') return { system: null, sandbox: null };
  if (chosen === 'http') return { system: o.http(httpChoice(o.name, o.what, o.url, o.secret, o.provider)), sandbox: null };
  const url = sandboxUrlOf(config);
  if (!url) throw new ConfigError(`Invalid configuration:\n  SANDBOX_URL: must not be off when ${o.provider}=sandbox (${o.sandboxIs} the sandbox service's; name ${o.provider}=http or none instead)`);
  const sandbox = o.sandbox(url);
  return { system: sandbox, sandbox };
}

/** What is missing of an outside system's `http` choice (its URL and secret), as the start's refusal names it. */
function httpChoice(name: string, what: string, url: string | undefined, secret: string | undefined, provider: string): { url: string; secret: string } {
  const missing = [url ? null : `${name}_API_URL (the ${what} API's base URL)`, secret ? null : `${name}_API_SECRET (the secret of its signed calls)`].filter((m) => m !== null);
  if (!url || !secret) throw new ConfigError(`Invalid configuration:\n${missing.map((m) => `  ${m}: must be set when ${provider}=http`).join('\n')}`);
  return { url, secret };
}

/** The e-wallet the configuration names (see outsideSystem). */
export function ewalletOf(config: Config, env: z.output<typeof depositEnv> = moduleConfig(config, depositEnv)): { ewallet: EWallet | null; sandbox: SandboxEWallet | null } {
  const { system, sandbox } = outsideSystem<EWallet, SandboxEWallet>(config, {
    provider: 'EWALLET_PROVIDER', chosen: env.EWALLET_PROVIDER, name: 'EWALLET', what: 'e-wallet', sandboxIs: 'its e-wallet is', url: env.EWALLET_API_URL, secret: env.EWALLET_API_SECRET,
    http: (api) => new HttpEWallet(api),
    sandbox: (url) => new SandboxEWallet({ url, secret: config.SANDBOX_EWALLET_SECRET }),
  });
  return { ewallet: system, sandbox };
}

/** The QR gateways the configuration names (see outsideSystem). */
export function gatewayOf(config: Config, env: z.output<typeof depositEnv> = moduleConfig(config, depositEnv)): { gateway: PaymentGateway | null; sandbox: SandboxGateway | null } {
  const { system, sandbox } = outsideSystem<PaymentGateway, SandboxGateway>(config, {
    provider: 'PAYMENT_GATEWAY', chosen: env.PAYMENT_GATEWAY, name: 'PAYMENT', what: 'gateway', sandboxIs: 'its gateways are', url: env.PAYMENT_API_URL, secret: env.PAYMENT_API_SECRET,
    http: (api) => new HttpGateway(api),
    sandbox: (url) => new SandboxGateway({ url, secret: config.SANDBOX_GATEWAY_SECRET }),
  });
  return { gateway: system, sandbox };
}

/** The bank the configuration names (slip look-ups, the feed's report; see outsideSystem). */
export function bankOf(config: Config, env: z.output<typeof depositEnv> = moduleConfig(config, depositEnv)): { bank: Bank | null; sandbox: SandboxBank | null } {
  const { system, sandbox } = outsideSystem<Bank, SandboxBank>(config, {
    provider: 'BANK_PROVIDER', chosen: env.BANK_PROVIDER, name: 'BANK', what: 'bank', sandboxIs: 'its bank is', url: env.BANK_API_URL, secret: env.BANK_API_SECRET,
    http: (api) => new HttpBank(api),
    sandbox: (url) => new SandboxBank({ url, secret: config.SANDBOX_BANK_SECRET }),
  });
  return { bank: system, sandbox };
}
