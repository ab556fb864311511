import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseBaht, toBaht } from '@mw/contract/money';
import { bankFeedSchema, slipSettingsSchema, depositOperatorCalls, depositSandboxCalls, depositWebhookCalls, ewalletFeedSchema, paymentWebhookSchema } from '@mw/contract/operator/deposit';
import { contractRoute } from '../../http/contract-route';
import { requireMember } from '../../http/handlers';
import { AppError, badRequest, tooMany } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { idempotencyOf } from '../../money';
import { defineModule } from '../../platform/module';
import { moduleConfig } from '../../platform/module-config';
import { operatorGuard, operatorIsOwner, operatorName } from '../../platform/operator';
import type { Services } from '../../platform/services';
import { ledgerCurrency } from '../../money';
import type { ActionResult, AwaitingApproval } from '../approval/approval-service';
import type { MatchedPayout, PayoutReconciliationReport } from '../../lib/payout-report';
import { rsaKeyPairOf, secretOf } from '../../platform/secrets';
import type { Bank, BankTransfer } from '../../providers/bank/bank';
import { HttpBank } from '../../providers/bank/http-bank';
import { SandboxBank } from '../../providers/bank/sandbox-bank';
import { isQrProvider, unconfiguredGateway, type PaymentGateway } from '../../providers/payments/gateway';
import { HttpGateway } from '../../providers/payments/http-gateway';
import { SandboxGateway } from '../../providers/payments/sandbox-gateway';
import { verifyWebhook } from '../../providers/payments/signing';
import { defaultReaderThreads, SlipReaderPool } from '../../providers/slips/reader-pool';
import { SlipVerifier } from '../../providers/slips/verifier';
import { Breaker } from '../../platform/breaker';
import { EWalletUnavailable } from '../../providers/ewallet/ewallet';
import { HttpEWallet } from '../../providers/ewallet/http-ewallet';
import type { EWallet } from '../../providers/ewallet/ewallet';
import { SandboxEWallet, type EwalletFault } from '../../providers/ewallet/sandbox-ewallet';
import { listeningBase, sandboxUrlOf } from '../../platform/sandbox-process';
import { ConfigError, type Config } from '../../config';
import { EwalletDepositService } from './ewallet-service';
import { BankDepositService } from './bank-deposit-service';
import { SlipHistory } from './slip-history';
import { slipLinksFor } from './slip-links';
import { SlipService } from './slip-service';
import { DepositReconciliation, type DetailedReconciliation } from './reconciliation';
import { reconciliationView } from './reconciliation-view';
import { ChannelService, type Channel, type NewChannel } from './channel-service';
import { newId } from '../../lib/ids';
import { recordChange } from '../../platform/audit';
import { depositMigrations } from './migrations';
import { defaultMinimums, QrService } from './qr-service';
import { processCount } from '../../config';
import './tables';
import type { DepositDb } from './tables';
import { moduleDb, type Database } from '../../db/database';

export interface DepositServices {
  channels: ChannelService;
  qr: QrService;
  bank: BankDepositService;
  /** Set while the sandbox gateway is selected (PAYMENT_GATEWAY=sandbox). */
  sandboxGateway: SandboxGateway | null;
  /** Set while the sandbox bank is selected (BANK_PROVIDER=sandbox). */
  sandboxBank: SandboxBank | null;
  /** What webhooks are signed with: PAYMENT_WEBHOOK_SECRET, BANK_FEED_WEBHOOK_SECRET, EWALLET_WEBHOOK_SECRET, or generated into DATA_DIR/secrets. */
  webhookSecrets: { payments: string; bank: string; ewallet: string };
  ewallet: EwalletDepositService;
  /** Set while the sandbox e-wallet is selected (EWALLET_PROVIDER=sandbox). */
  sandboxEwallet: SandboxEWallet | null;
  reconcile: { intervalMs: number; graceMs: number };
  slips: SlipService;
  /** The worker threads that read slip images (SLIP_READER_THREADS, SLIP_READER_QUEUE). */
  slipReaders: SlipReaderPool;
  slipRecheckMs: number;
  /** Deposits matched 1:1 with the outside systems' records (GET /api/operator/reconciliation, npm run reconcile). */
  reconciliation: DepositReconciliation;
  /** How often the reconciliation of the last 24 hours runs (DEPOSIT_AUDIT_INTERVAL_MS; 0: never). */
  auditIntervalMs: number;
  slipMaxBytes: number;
  /** Slip uploads per member (a minute, an hour) and per client address (a minute, a backstop). */
  slipLimits: { perMemberMinute: number; perMemberHour: number; perIpMinute: number };
  /** Days the image of a refused slip is kept (SLIP_REFUSED_IMAGE_DAYS; 0: for ever). */
  slipRefusedImageDays: number;
}

declare module '../../platform/services' {
  interface Services {
    deposits: DepositServices;
    /** A member's slip history and slip images (the deposit module owns the slips). */
    slipHistory: SlipHistory;
  }
}

const positiveBaht = z.coerce.number().int().min(1).max(1_000_000);
/** A kip figure in whole kip (₭10,000,000 is the most one call carries). */
const positiveKip = z.coerce.number().int().min(1).max(10_000_000);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM');
const secret = z.string().min(16, 'must be at least 16 characters').optional();

/** The deposit domain's own configuration (see the README). */
const depositEnv = z.object({
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
const unconfiguredBank: Bank = { lookup: () => Promise.resolve(null) };

function amountOf(value: string | number): number {
  const satang = parseBaht(value);
  if (satang === null || satang <= 0) throw badRequest('KEY_INVALID', { fields: [{ path: 'amount', code: 'invalid' }] });
  return satang;
}

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

/**
 * The e-wallet the configuration names: the sandbox service's (outside production by default), an
 * e-wallet API over HTTP, or none. An incomplete choice stops the start naming what is missing.
 */
export function ewalletOf(config: Config, env: z.output<typeof depositEnv> = moduleConfig(config, depositEnv)): { ewallet: EWallet | null; sandbox: SandboxEWallet | null } {
  const chosen = env.EWALLET_PROVIDER ?? (config.NODE_ENV === 'production' ? 'none' : 'sandbox');
  if (chosen === 'none') return { ewallet: null, sandbox: null };
  if (chosen === 'http') return { ewallet: new HttpEWallet(httpChoice('EWALLET', 'e-wallet', env.EWALLET_API_URL, env.EWALLET_API_SECRET, 'EWALLET_PROVIDER')), sandbox: null };
  const url = sandboxUrlOf(config);
  if (!url) throw new ConfigError('Invalid configuration:\n  SANDBOX_URL: must not be off when EWALLET_PROVIDER=sandbox (its e-wallet is the sandbox service\'s; name EWALLET_PROVIDER=http or none instead)');
  const sandbox = new SandboxEWallet({ url, secret: config.SANDBOX_EWALLET_SECRET });
  return { ewallet: sandbox, sandbox };
}

/** What is missing of an outside system's `http` choice (its URL and secret), as the start's refusal names it. */
function httpChoice(name: string, what: string, url: string | undefined, secret: string | undefined, provider: string): { url: string; secret: string } {
  const missing = [url ? null : `${name}_API_URL (the ${what} API's base URL)`, secret ? null : `${name}_API_SECRET (the secret of its signed calls)`].filter((m) => m !== null);
  if (!url || !secret) throw new ConfigError(`Invalid configuration:\n${missing.map((m) => `  ${m}: must be set when ${provider}=http`).join('\n')}`);
  return { url, secret };
}

/** The QR gateways the configuration names: the sandbox service's (outside production by default), a gateway API over HTTP, or none. */
export function gatewayOf(config: Config, env: z.output<typeof depositEnv> = moduleConfig(config, depositEnv)): { gateway: PaymentGateway | null; sandbox: SandboxGateway | null } {
  const chosen = env.PAYMENT_GATEWAY ?? (config.NODE_ENV === 'production' ? 'none' : 'sandbox');
  if (chosen === 'none') return { gateway: null, sandbox: null };
  if (chosen === 'http') return { gateway: new HttpGateway(httpChoice('PAYMENT', 'gateway', env.PAYMENT_API_URL, env.PAYMENT_API_SECRET, 'PAYMENT_GATEWAY')), sandbox: null };
  const url = sandboxUrlOf(config);
  if (!url) throw new ConfigError('Invalid configuration:\n  SANDBOX_URL: must not be off when PAYMENT_GATEWAY=sandbox (its gateways are the sandbox service\'s; name PAYMENT_GATEWAY=http or none instead)');
  const sandbox = new SandboxGateway({ url, secret: config.SANDBOX_GATEWAY_SECRET });
  return { gateway: sandbox, sandbox };
}

/** The bank the configuration names (slip look-ups, the feed's report): the sandbox service's (outside production by default), a bank API over HTTP, or none. */
export function bankOf(config: Config, env: z.output<typeof depositEnv> = moduleConfig(config, depositEnv)): { bank: Bank | null; sandbox: SandboxBank | null } {
  const chosen = env.BANK_PROVIDER ?? (config.NODE_ENV === 'production' ? 'none' : 'sandbox');
  if (chosen === 'none') return { bank: null, sandbox: null };
  if (chosen === 'http') return { bank: new HttpBank(httpChoice('BANK', 'bank', env.BANK_API_URL, env.BANK_API_SECRET, 'BANK_PROVIDER')), sandbox: null };
  const url = sandboxUrlOf(config);
  if (!url) throw new ConfigError('Invalid configuration:\n  SANDBOX_URL: must not be off when BANK_PROVIDER=sandbox (its bank is the sandbox service\'s; name BANK_PROVIDER=http or none instead)');
  const sandbox = new SandboxBank({ url, secret: config.SANDBOX_BANK_SECRET });
  return { bank: sandbox, sandbox };
}

/**
 * Webhooks: signed (X-Timestamp, X-Signature; see providers/payments/signing.ts) and verified
 * over the exact bytes received, so this scope keeps JSON bodies as text. A wrong signature or
 * a timestamp more than 300 s away is 401 and changes nothing. A verified message is applied
 * once, whatever order or how many times it comes (see QrService.paid, BankDepositService.feed).
 */
async function webhookRoutes(app: FastifyInstance, secrets: { payments: string; bank: string; ewallet: string }, deposits: DepositServices): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });
  const verified = (secretText: string, { request, raw }: { request: FastifyRequest; raw: string }): unknown => {
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const check = verifyWebhook(secretText, { timestamp: header('x-timestamp'), signature: header('x-signature') }, raw);
    if (!check.ok) throw new AppError(401, check.code);
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      throw badRequest('KEY_INVALID');
    }
  };
  const w = depositWebhookCalls;
  contractRoute(app, w.webhookPayment, async (ctx) => {
    const { provider } = ctx.params;
    const message = verified(secrets.payments, ctx);
    if (!isQrProvider(provider)) throw new AppError(404, 'NO_CHANNEL');
    const parsed = paymentWebhookSchema.safeParse(message);
    if (!parsed.success || parsed.data.provider !== provider) throw badRequest('KEY_INVALID');
    const body = parsed.data;
    // Only a succeeded payment moves money; other events are acknowledged and change nothing.
    if (body.event !== 'payment.succeeded') return { ok: true as const, credited: false, duplicate: false };
    const result = await deposits.qr.paid({
      provider,
      paymentId: body.paymentId,
      reference: body.reference,
      amount: amountOf(body.amount),
      currency: body.currency,
      paidAt: body.paidAt ? new Date(body.paidAt) : new Date(),
    });
    return { ok: true as const, ...result };
  });
  contractRoute(app, w.webhookBank, async (ctx) => {
    const message = verified(secrets.bank, ctx);
    const parsed = bankFeedSchema.safeParse(message);
    if (!parsed.success || parsed.data.toBankCode !== ctx.params.bankCode) throw badRequest('KEY_INVALID');
    const t = parsed.data;
    const transfer: BankTransfer = { ...t, amount: amountOf(t.amount), at: new Date(t.at) };
    return { ok: true as const, ...(await deposits.bank.feed(transfer)) };
  });
  contractRoute(app, w.webhookEwallet, async (ctx) => {
    const message = verified(secrets.ewallet, ctx);
    if (ctx.params.provider !== 'TRUEWALLET') throw new AppError(404, 'NO_WALLET');
    const parsed = ewalletFeedSchema.safeParse(message);
    if (!parsed.success) throw badRequest('KEY_INVALID');
    const t = parsed.data;
    return { ok: true as const, ...(await deposits.ewallet.feed({ ...t, amount: amountOf(t.amount), at: new Date(t.at) })) };
  });
}

/**
 * Counts one slip upload against the member's limits and the client address's backstop (sized
 * for the hundreds of players behind one carrier-grade NAT address), before the image is read or
 * verified, so refused uploads count too: 429 REQUEST_LIMIT_1MIN over a per-minute limit,
 * REQUEST_LIMIT over the hourly one.
 */
async function limitSlipUploads(limiter: RateLimiter, limits: DepositServices['slipLimits'], memberId: string, ip: string): Promise<void> {
  const [byMember, byMemberHour, byIp] = await Promise.all([
    limiter.hit(`slip:member:${memberId}`, limits.perMemberMinute, 60_000),
    limiter.hit(`slip:member-hour:${memberId}`, limits.perMemberHour, 3_600_000),
    limiter.hit(`slip:ip:${ip}`, limits.perIpMinute, 60_000),
  ]);
  const minute = [byMember, byIp].filter((r) => !r.allowed);
  if (minute.length > 0) throw tooMany('REQUEST_LIMIT_1MIN', Math.max(...minute.map((r) => r.retryAfter)));
  if (!byMemberHour.allowed) throw tooMany('REQUEST_LIMIT', byMemberHour.retryAfter);
}

/**
 * Deposits: channels (GET /api/lookup/deposit), QR payments through a payment gateway confirmed
 * by its signed webhook, the automatic bank feed, unmatched and manual deposits. Sandbox routes
 * (only with the sandbox gateway / bank):
 *   POST /api/sandbox/payments/:qrcodeId/pay                — a customer pays the QR
 *   POST /api/sandbox/payments/:qrcodeId/redeliver {times}  — the gateway delivers its webhook again, N at once
 *   POST /api/sandbox/bank/transfers {fromBankCode, fromAccountNo, toBankCode, toAccountNo, amount, at?, currency?}
 * Operator calls:
 *   GET  /api/operator/deposits/unmatched                  — money held with no member to credit
 *   POST /api/operator/deposits/:id/assign {memberId}      — credit it to a member (once)
 *   POST /api/operator/deposits {memberId, amount, currency, note, overLimit?} + Idempotency-Key — a manual deposit (over the member's deposit limit only by an owner with overLimit)
 *   GET  /api/operator/deposit-channels, PUT /api/operator/deposit-channels/:id, PUT /api/operator/deposit-manual {value}
 */
export const depositModule = defineModule({
  name: 'deposit',
  migrations: depositMigrations,
  setup(services) {
    const { config, database, lookups, settings, money, accounts } = services;
    const env = moduleConfig(config, depositEnv);
    const db = moduleDb<DepositDb>(database);
    // The secrets the webhook routes check (the sandboxes sign with the same ones).
    const secrets = {
      payments: secretOf(env.PAYMENT_WEBHOOK_SECRET, config.DATA_DIR, 'payment-webhook-secret'),
      bank: secretOf(env.BANK_FEED_WEBHOOK_SECRET, config.DATA_DIR, 'bank-feed-webhook-secret'),
      ewallet: secretOf(env.EWALLET_WEBHOOK_SECRET, config.DATA_DIR, 'ewallet-webhook-secret'),
    };
    const { gateway: gatewayApi, sandbox: sandboxGateway } = gatewayOf(config, env);
    const { bank: bankApi, sandbox: sandboxBank } = bankOf(config, env);
    const gateway: PaymentGateway = gatewayApi ?? unconfiguredGateway;
    const channels = new ChannelService(db, lookups, settings);
    const bank = new BankDepositService(db, money, channels, accounts);
    const qr = new QrService(db, gateway, channels, accounts, bank, money, {
      ttlSeconds: env.QR_TTL_SECONDS,
      minimums: {
        THB: defaultMinimums({ ...(env.PAYTIMZ_MIN ? { PAYTIMZ: env.PAYTIMZ_MIN } : {}), ...(env.ZPAY_MIN ? { ZPAY: env.ZPAY_MIN } : {}) }, 'THB'),
        LAK: defaultMinimums({ ...(env.PAYTIMZ_MIN_LAK ? { PAYTIMZ: env.PAYTIMZ_MIN_LAK } : {}), ...(env.ZPAY_MIN_LAK ? { ZPAY: env.ZPAY_MIN_LAK } : {}) }, 'LAK'),
      },
      maximum: { THB: env.QR_MAX_BAHT * 100, LAK: env.QR_MAX_LAK * 100 },
    });
    const slipReaders = new SlipReaderPool({ threads: env.SLIP_READER_THREADS ?? defaultReaderThreads(processCount(config)), queue: env.SLIP_READER_QUEUE });
    const slips = new SlipService(db, new SlipVerifier(bankApi ?? unconfiguredBank, (image) => slipReaders.read(image)), channels, accounts, settings, money, slipLinksFor(config), {
      recheckAfterMs: Math.max(env.SLIP_RECHECK_INTERVAL_MS, 1000),
      pendingMaxMs: env.SLIP_PENDING_MAX_MINUTES * 60_000,
    }, { uploadEnabled: true, closedFrom: env.SLIP_CLOSED_FROM, closedTo: env.SLIP_CLOSED_TO, maxAgeMinutes: env.SLIP_MAX_AGE_MINUTES });
    const { ewallet: ewalletApi, sandbox: sandboxEwallet } = ewalletOf(config, env);
    const breaker = new Breaker({
      failures: env.EWALLET_BREAKER_FAILURES,
      openMs: env.EWALLET_BREAKER_OPEN_MS,
      timeoutMs: env.EWALLET_TIMEOUT_MS,
      isFailure: (error) => error instanceof EWalletUnavailable,
    });
    // Made on first use (an RSA key takes a moment to generate).
    let keys: { privateKey: string; publicKey: string } | null = null;
    const linkKeys = () => (keys ??= rsaKeyPairOf(env.TRUELINK_PRIVATE_KEY, config.DATA_DIR, 'truelink-key'));
    const ewallet = new EwalletDepositService(db, ewalletApi, breaker, channels, accounts, bank, money, linkKeys, {
      minimum: { THB: Math.round(env.TRUELINK_MIN_BAHT * 100), LAK: env.TRUELINK_MIN_LAK * 100 },
      graceMs: Math.max(env.DEPOSIT_RECONCILE_GRACE_MS, env.EWALLET_TIMEOUT_MS),
    });
    const reconciliation = new DepositReconciliation(db, { bank: bankApi ?? unconfiguredBank, gateway, ewallet: ewalletApi }, channels);
    // Four eyes: what a second operator's approval runs (the maker's call, once; both are idempotent).
    // The stored payload is the parsed request (its amount already in minor units): read back as such, never parsed as baht again.
    const approvedManual = z.object({
      body: z.object({ memberId: z.string(), amount: z.number().int().positive(), currency: z.enum(['BAHT', 'THB', 'LAK']), note: z.string(), overLimit: z.boolean().optional() }),
      idem: z.object({ key: z.string(), hash: z.string() }),
      // Whether the maker was an owner (an over-limit credit needs one).
      owner: z.boolean().optional(),
    });
    services.approvals.register('deposit.manual', (payload) => {
      const { body, idem, owner } = approvedManual.parse(payload);
      return bank.manual(body, idem, owner === true);
    });
    services.approvals.register('deposit.assign', (payload) => {
      const { id, memberId } = z.object({ id: z.string(), memberId: z.string() }).parse(payload);
      return bank.assign(id, memberId);
    });
    // Four eyes on the settings that say where members send money and how deposits are checked: a
    // second person's approval applies the change if what it changes is as it was when asked.
    const asked = z.object({ target: z.string(), before: z.unknown(), after: z.record(z.string(), z.unknown()) });
    const unchangedSince = (was: unknown, now: unknown) => {
      if (!sameValue(was, now)) throw new AppError(422, 'CHANGED_SINCE_REQUEST');
    };
    const channelBody = z.object({ kind: z.enum(['bank', 'wallet']), bank_code: z.string(), bank_type: z.enum(['BANK', 'PAYMENT']), mode: z.enum(['AUTO', 'SMS', 'MANUAL', 'NONE', 'GIFT']), account_name: z.string(), account_no: z.string(), currency: z.string(), sort: z.number(), active: z.boolean() });
    services.approvals.register('deposit.channel', async (payload, checker) => {
      const { target, before } = asked.parse(payload);
      const after = channelBody.parse(asked.parse(payload).after);
      const current = (await channels.all()).find((ch) => ch.id === target);
      const now = current ? channelFieldsOf(current) : null;
      if (sameValue(now, after)) return current; // applied already (a retry after a crash)
      unchangedSince(before, now);
      const saved = await channels.upsert({ id: target, ...after });
      await recordChange(db, { who: checker, entity: 'deposit-channel', key: target, before: now, after });
      return saved;
    });
    services.approvals.register('deposit.slip-settings', async (payload, checker) => {
      const { before } = asked.parse(payload);
      const rules = slipSettingsSchema.parse(asked.parse(payload).after);
      const now = await slips.rules();
      if (sameValue(now, rules)) return now;
      unchangedSince(before, now);
      const saved = await slips.setRules(rules);
      await recordChange(db, { who: checker, entity: 'slip-settings', key: 'slip', before: now, after: saved });
      return saved;
    });
    services.approvals.register('deposit.manual-switch', async (payload, checker) => {
      const { before } = asked.parse(payload);
      const { value } = z.object({ value: z.boolean() }).parse(asked.parse(payload).after);
      const now = await settings.get<boolean>('depositManual', false);
      if (now === value) return { isManual: value };
      unchangedSince(before, { value: now });
      await settings.set('depositManual', value);
      await recordChange(db, { who: checker, entity: 'setting', key: 'depositManual', before: { value: now }, after: { value } });
      return { isManual: value };
    });
    services.slipHistory = new SlipHistory(db, slipLinksFor(config));
    services.deposits = {
      reconciliation,
      auditIntervalMs: env.DEPOSIT_AUDIT_INTERVAL_MS,
      ewallet,
      sandboxEwallet,
      channels,
      qr,
      bank,
      slips,
      slipReaders,
      slipMaxBytes: env.SLIP_MAX_BYTES,
      slipLimits: { perMemberMinute: env.SLIP_UPLOADS_PER_MEMBER_MINUTE, perMemberHour: env.SLIP_UPLOADS_PER_MEMBER_HOUR, perIpMinute: env.SLIP_UPLOADS_PER_IP_MINUTE },
      slipRefusedImageDays: env.SLIP_REFUSED_IMAGE_DAYS,
      slipRecheckMs: env.SLIP_RECHECK_INTERVAL_MS,
      sandboxGateway,
      sandboxBank,
      webhookSecrets: secrets,
      reconcile: { intervalMs: env.DEPOSIT_RECONCILE_INTERVAL_MS, graceMs: env.DEPOSIT_RECONCILE_GRACE_MS },
    };
  },
  async seed({ settings }) {
    await settings.setIfMissing('depositManual', false);
  },
  // Payments whose webhook never came are asked of the gateway, at start-up and then periodically.
  // Slips in progress are asked of the bank again, periodically.
  start({ deposits, payoutReconciliation }, log) {
    const timers: NodeJS.Timeout[] = [];
    const { intervalMs, graceMs } = deposits.reconcile;
    if (intervalMs > 0) {
      const run = () =>
        Promise.all([
          deposits.qr.reconcile(graceMs).catch((error: unknown) => log.error({ err: error }, 'QR reconcile failed')),
          deposits.ewallet.reconcile().catch((error: unknown) => log.error({ err: error }, 'gift voucher reconcile failed')),
        ]);
      void run();
      timers.push(setInterval(() => void run(), intervalMs));
    }
    if (deposits.slipRecheckMs > 0) {
      const recheck = () => deposits.slips.recheck().catch((error: unknown) => log.error({ err: error }, 'slip re-check failed'));
      timers.push(setInterval(() => void recheck(), deposits.slipRecheckMs));
    }
    if (deposits.auditIntervalMs > 0) {
      const audit = async () => {
        const to = new Date();
        const report = await deposits.reconciliation.run({ from: new Date(to.getTime() - RECONCILIATION_DEFAULT_MS), to });
        if (!report.ok) log.error({ breaches: report.breaches, from: report.from, to: report.to }, 'deposit reconciliation: BREACH');
        // Payouts against the bank's outgoing transfers, the same period.
        const payouts = await payoutReconciliation.run({ from: new Date(to.getTime() - RECONCILIATION_DEFAULT_MS), to });
        if (!payouts.ok) log.error({ breaches: payouts.breaches, from: payouts.from, to: payouts.to }, 'payout reconciliation: BREACH');
      };
      const run = () => audit().catch((error: unknown) => log.error({ err: error }, 'deposit reconciliation failed'));
      timers.push(setInterval(() => void run(), deposits.auditIntervalMs));
    }
    if (deposits.slipRefusedImageDays > 0) {
      // Refused slips keep their row (the statement shows them) but not their image past the retention.
      const days = deposits.slipRefusedImageDays;
      const clean = () => deposits.slips.dropRefusedImages(days).catch((error: unknown) => log.error({ err: error }, 'refused slip image cleaning failed'));
      void clean();
      timers.push(setInterval(() => void clean(), 3_600_000));
    }
    for (const timer of timers) timer.unref();
    return () => timers.forEach((timer) => clearInterval(timer));
  },
  // The slip readers' threads end with the app.
  async close({ deposits }) {
    await deposits.slipReaders.close();
  },
  // Slip images arrive as multipart/form-data (field `file`), one file, at most SLIP_MAX_BYTES.
  async prepare(app, { deposits }) {
    await app.register(fastifyMultipart, { limits: { fileSize: deposits.slipMaxBytes, files: 1, fields: 5, parts: 6 } });
  },
  handlers: ({ deposits, accounts, sandboxPayments, limiter }) => ({
    walletSlip: async (ctx) => {
      const { memberId } = requireMember(ctx);
      // Counted before the image is read or verified: refused uploads count too.
      await limitSlipUploads(limiter, deposits.slipLimits, memberId, ctx.ip);
      let image: Buffer | null = null;
      if (ctx.request.isMultipart()) {
        try {
          // Only the field `file` counts (spec section 7); other fields are ignored.
          const file = await ctx.request.file();
          image = file && file.fieldname === 'file' ? await file.toBuffer() : null;
        } catch (error) {
          if (error instanceof ctx.request.server.multipartErrors.RequestFileTooLargeError) throw new AppError(400, 'IMG_SIZE_UNABLE_TO_PROCESS');
          throw badRequest('SLIP_NO_FILE');
        }
      }
      return deposits.slips.upload(memberId, image, deposits.slipMaxBytes);
    },
    // The slip rules in force: the operator's, else the configured defaults.
    lookupSlip: async () => deposits.slips.rules(),
    walletTruelink: async (ctx) => deposits.ewallet.redeemLink(requireMember(ctx).memberId, ctx.body.link, ctx.idem),
    lookupDeposit: async (ctx) => {
      const member = await accounts.findById(requireMember(ctx).memberId);
      // demoTopUp (added): whether the sandbox's demo top-up exists, so the app offers it only then.
      const memberCurrency = member?.currency ?? 'BAHT';
      const currency = ledgerCurrency(memberCurrency);
      const channels = await deposits.channels.lookup(memberCurrency);
      // The figures of the member's currency: each QR channel its minimum and presets, each e-wallet its minimum.
      const banks = channels.banks.map((b) => {
        const figures = b.bankType === 'PAYMENT' || b.mode === 'SMS' ? deposits.qr.figures(b.bankCode, currency) : null;
        return figures ? { ...b, ...figures } : b;
      });
      const ewalletMinimum = toBaht(deposits.ewallet.minimum(currency));
      // Each e-wallet carries the key its gift links are encrypted with.
      const wallets = channels.wallets.map((w) => ({ ...w, publicKey: deposits.ewallet.publicKey(), minimum: ewalletMinimum }));
      return { ...channels, banks, wallets, demoTopUp: sandboxPayments, currency };
    },
    qrGet: async (ctx) => deposits.qr.get(requireMember(ctx).memberId, ctx.params.bankCode),
    qrCreate: async (ctx) => deposits.qr.create(requireMember(ctx).memberId, ctx.params.bankCode, ctx.body.amount),
    qrDelete: async (ctx) => {
      await deposits.qr.cancel(requireMember(ctx).memberId, ctx.params.qrcodeId);
      return { ok: true as const };
    },
  }),
  async routes(app, services) {
    const { config, deposits } = services;
    await app.register((scope) => webhookRoutes(scope, deposits.webhookSecrets, deposits));
    const sb = depositSandboxCalls;
    registerWithSandboxes(app, deposits);
    if (deposits.sandboxGateway) {
      const gateway = deposits.sandboxGateway;
      contractRoute(app, sb.sandboxPaymentPay, async ({ params }) => gateway.pay(await deposits.qr.gatewayRef(params.qrcodeId)));
      contractRoute(app, sb.sandboxPaymentRedeliver, async ({ params, body }) => {
        const ref = await deposits.qr.gatewayRef(params.qrcodeId);
        return { deliveries: await gateway.redeliver(ref, body.times) };
      });
    }
    if (deposits.sandboxBank) {
      const bank = deposits.sandboxBank;
      // The slip the sending bank's app shows for a transfer (PNG with the slip-verify mini-QR).
      contractRoute(app, sb.sandboxBankSlip, async ({ params, reply }) => {
        const png = await bank.slip(params.transRef);
        if (!png) return reply.status(404).send({ message: 'NOT_FOUND' });
        return reply.type('image/png').header('cache-control', 'no-store').send(png);
      });
      // Failure injection of the sandbox bank's look-ups (slip verification), in this process.
      contractRoute(app, depositOperatorCalls.sandboxBankFault, { preHandler: operatorGuard(config) }, async ({ body: { mode } }) => {
        await bank.setLookupFault(mode);
        return { mode };
      });
      contractRoute(app, sb.sandboxBankTransfer, async ({ body: input }) => {
        if (input.amount <= 0) throw badRequest('KEY_INVALID', { fields: [{ path: 'amount', code: 'invalid' }] });
        // The currency of the receiving account when not given (BCEL accounts hold LAK).
        const channel = await deposits.channels.byAccount(input.toBankCode, input.toAccountNo);
        const currency = input.currency ?? (channel?.currency === 'LAK' ? 'LAK' : 'THB');
        const { at, ...rest } = input;
        // The feed reports transfers into the accounts we subscribed (our AUTO channels).
        const report = await deposits.channels.fedByBank(input.toBankCode, input.toAccountNo);
        const { transfer, feed } = await bank.transfer({ ...rest, currency, report, ...(at ? { at: new Date(at) } : {}) });
        return { ...transfer, amount: transfer.amount / 100, at: transfer.at.toISOString(), feed };
      });
    }
    if (deposits.sandboxEwallet) sandboxEwalletRoutes(app, deposits.sandboxEwallet, deposits, operatorGuard(config));
    operatorRoutes(app, operatorGuard(config), services);
  },
});

function operatorRoutes(app: FastifyInstance, guard: ReturnType<typeof operatorGuard>, { config, deposits, settings, approvals, accounts, payoutReconciliation }: Services): void {
  const c = depositOperatorCalls;
  const options = { preHandler: guard };
  // The slip rules: upload on/off, the daily closed window (Asia/Bangkok), the oldest transfer accepted.
  contractRoute(app, c.slipSettings, options, async () => deposits.slips.rules());
  contractRoute(app, c.slipSettingsPut, options, async ({ body, request, reply }) => {
    const before = await deposits.slips.rules();
    // Closing uploads only lowers risk: at once. Any other change waits for a second person.
    const closingOnly = changesOf(before, body).every((c) => c.field === 'uploadEnabled' && c.after === false);
    if (closingOnly) return deposits.slips.setRules(body);
    return settingChange(reply, request, { action: 'deposit.slip-settings', target: 'slip', before, after: body, payload: { rules: body } });
  });
  // Slips for the back office; approve / reject of slips in progress (see SlipService).
  contractRoute(app, c.slipsList, options, async ({ query }) => deposits.slips.list(query.status, query.page));
  contractRoute(app, c.slipApprove, options, async ({ params, body }) => {
    const amount = body.amount;
    if (amount !== undefined && amount <= 0) throw badRequest('KEY_INVALID', { fields: [{ path: 'amount', code: 'invalid' }] });
    return deposits.slips.approve(params.id, amount, body.bankRef);
  });
  contractRoute(app, c.slipReject, options, async ({ params, body }) => deposits.slips.reject(params.id, body.reason));

  // Deposits against the outside systems' records, for [from, to) (ISO times; default: the 24 hours before `to`, `to` now).
  contractRoute(app, c.reconciliation, options, async ({ query }) => {
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - RECONCILIATION_DEFAULT_MS);
    if (!(from.getTime() < to.getTime())) throw badRequest('KEY_INVALID', { fields: [{ path: 'from', code: 'invalid' }] });
    // Deposits and payouts against the outside systems; ok only when both are. The screen's days and open items beside.
    const [detailed, payouts]: [DetailedReconciliation, { report: PayoutReconciliationReport; matched: MatchedPayout[] }] = await Promise.all([
      deposits.reconciliation.detailed({ from, to }),
      payoutReconciliation.detailed({ from, to }),
    ]);
    const report = detailed.report;
    const timeZone = config.LAOS_MODE ? 'Asia/Vientiane' : 'Asia/Bangkok';
    return { ...report, ok: report.ok && payouts.report.ok, payouts: payouts.report, timeZone, ...reconciliationView(detailed, payouts) };
  });

  contractRoute(app, c.depositManualSwitch, options, async ({ body: { value }, request, reply }) => {
    const before = await settings.get<boolean>('depositManual', false);
    if (before === value) return { isManual: value };
    return settingChange(reply, request, { action: 'deposit.manual-switch', target: 'depositManual', before: { value: before }, after: { value }, payload: { value } });
  });
  contractRoute(app, c.depositsUnmatched, options, async () => ({ deposits: await deposits.bank.unmatched() }));
  // Four eyes above FOUR_EYES_THRESHOLD: the call records an approval (202) a second operator runs.
  const awaiting = (reply: FastifyReply, asked: AwaitingApproval | ActionResult) =>
    'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
  contractRoute(app, c.depositAssign, options, async ({ params: { id }, body: { memberId }, request, reply }) => {
    const held = await deposits.bank.heldAmount(id);
    if (held && (await approvals.needsChecker({ kind: 'assign', subject: `deposit.assign:${id}`, memberId, operator: operatorName(request), amount: held.amount, currency: held.currency }))) {
      if (!(await accounts.findById(memberId))) throw new AppError(404, 'NO_USER');
      const asked = await approvals.request({ action: 'deposit.assign', dedupeKey: `deposit.assign:${id}`, payload: { id, memberId }, memberId, amount: held.amount, currency: held.currency, maker: operatorName(request) });
      return awaiting(reply, asked);
    }
    return deposits.bank.assign(id, memberId);
  });
  contractRoute(app, c.depositManual, options, async ({ body, request, reply }) => {
    const idem = idempotencyOf(request.headers['idempotency-key'], 'operatorDeposit', request.body);
    if (!idem) throw badRequest('KEY_MISSING', { fields: [{ path: 'Idempotency-Key', code: 'required' }] });
    // Operator keys live apart from members' own ('/' is not allowed in a member's key).
    const key = { key: `operator/${idem.key}`, hash: idem.hash };
    const currency = ledgerCurrency(body.currency);
    if (await approvals.needsChecker({ kind: 'manual', subject: `deposit.manual:${key.key}`, memberId: body.memberId, operator: operatorName(request), amount: body.amount, currency })) {
      if (!(await accounts.findById(body.memberId))) throw new AppError(404, 'NO_USER');
      const asked = await approvals.request({ action: 'deposit.manual', dedupeKey: `deposit.manual:${key.key}`, requestHash: key.hash, payload: { body, idem: key, owner: operatorIsOwner(request) }, memberId: body.memberId, amount: body.amount, currency, maker: operatorName(request) });
      return awaiting(reply, asked);
    }
    return deposits.bank.manual(body, key, operatorIsOwner(request));
  });
  contractRoute(app, c.depositChannels, options, async () => ({ channels: await deposits.channels.all() }));
  contractRoute(app, c.depositChannelPut, options, async ({ params: { id }, body: b, request, reply }) => {
    const current = (await deposits.channels.all()).find((ch) => ch.id === id);
    const before = current ? channelFieldsOf(current) : null;
    const after: ChannelFields = { kind: b.kind, bank_code: b.bankCode, bank_type: b.bankType, mode: b.mode, account_name: b.accountName, account_no: b.accountNo, currency: b.currency, sort: b.sort, active: b.active };
    const changes = changesOf(before, after);
    // Nothing changed, or only lowering risk (switching the channel off, its place in the list): at once.
    // Where members send money (a new channel, its account, bank, mode, currency, switching it on) waits for a second person.
    if (current && changes.every((ch) => ch.field === 'sort' || (ch.field === 'active' && ch.after === false))) return deposits.channels.upsert({ id, ...after });
    return settingChange(reply, request, { action: 'deposit.channel', target: id, before, after, payload: { id, channel: after } });
  });

  /**
   * Four eyes on where members send money and how deposits are checked: the change is recorded as
   * a request (202 awaiting-approval) with its before and after; a second person's approval applies
   * it, if what it changes is still as it was when asked (else 422 CHANGED_SINCE_REQUEST: ask again).
   * The same Idempotency-Key answers the same request; without one, each call is a request of its own.
   */
  async function settingChange(
    reply: FastifyReply,
    request: FastifyRequest,
    change: { action: string; target: string; before: object | null; after: object; payload: Record<string, unknown> },
  ) {
    const idem = idempotencyOf(request.headers['idempotency-key'], change.action, request.body);
    const asked = await approvals.request({
      action: change.action,
      dedupeKey: `${change.action}:${change.target}:${idem?.key ?? newId()}`,
      requestHash: idem?.hash ?? '',
      payload: { ...change.payload, target: change.target, before: change.before, after: change.after, changes: changesOf(change.before, change.after) },
      memberId: null,
      amount: 0,
      currency: 'THB',
      maker: operatorName(request),
    });
    return awaiting(reply, asked);
  }
}

type ChannelFields = Omit<NewChannel, 'id'>;
function channelFieldsOf(ch: Channel): ChannelFields {
  return { kind: ch.kind, bank_code: ch.bank_code, bank_type: ch.bank_type, mode: ch.mode, account_name: ch.account_name, account_no: ch.account_no, currency: ch.currency, sort: ch.sort, active: ch.active };
}

/** Whether two JSON values are equal, whatever their keys' order (jsonb keeps its own). */
function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, w]) => [k, canonical(w)])) : (v ?? null);
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** The fields a change alters, each with its value before and after (for the approval and the audit). */
export function changesOf(before: object | null, after: object): { field: string; before: unknown; after: unknown }[] {
  const was = (before ?? {}) as Record<string, unknown>;
  return Object.entries(after)
    .filter(([field, value]) => !sameValue(was[field], value))
    .map(([field, value]) => ({ field, before: was[field] ?? null, after: value }));
}

/**
 * As a merchant registers its webhook URL with a gateway or an e-wallet: once this server listens,
 * it tells the sandbox service's systems where to send webhooks and what to sign them with (the
 * sandbox routes register again before each call that sends one: a sandbox started afresh forgets).
 */
function registerWithSandboxes(app: FastifyInstance, deposits: DepositServices): void {
  const { sandboxGateway, sandboxEwallet, sandboxBank, webhookSecrets } = deposits;
  if (!sandboxGateway && !sandboxEwallet && !sandboxBank) return;
  app.addHook('onListen', async () => {
    const base = listeningBase(app.server);
    if (!base) return;
    const registrations = [
      sandboxGateway?.register(`${base}/api/webhooks/payments/{provider}`, webhookSecrets.payments),
      sandboxEwallet?.register(`${base}/api/webhooks/ewallet/TRUEWALLET`, webhookSecrets.ewallet),
      sandboxBank?.register(`${base}/api/webhooks/bank/{bankCode}`, webhookSecrets.bank),
    ];
    for (const result of await Promise.allSettled(registrations)) {
      if (result.status === 'rejected') app.log.warn({ err: result.reason as unknown }, 'the sandbox service did not take our webhook address (its webhooks wait for the next sandbox call that registers it)');
    }
  });
}

/**
 * The sandbox e-wallet (only with EWALLET_PROVIDER=sandbox):
 *   POST /api/sandbox/ewallet/vouchers {amount, expiresInSeconds?, fromPhone?} → { link, hash, expiresAt }
 *   POST /api/sandbox/ewallet/transfers {fromPhone, amount, toPhone?}       → { transferId, at, feed }
 *   POST /api/sandbox/ewallet/transfers/:id/redeliver {times}               — the webhook again, N at once
 *   PUT  /api/operator/sandbox/ewallet/fault {mode: none | down | hang}      — failure injection (every process)
 */
function sandboxEwalletRoutes(app: FastifyInstance, sandbox: SandboxEWallet, deposits: DepositServices, guard: ReturnType<typeof operatorGuard>): void {
  const autoWallet = async () => (await deposits.channels.all()).find((c) => c.kind === 'wallet' && c.active && c.mode === 'AUTO' && c.account_no !== '');
  const ours = async (phone: string) => (await deposits.channels.all()).some((c) => c.kind === 'wallet' && c.account_no === phone);
  const sb = depositSandboxCalls;
  contractRoute(app, sb.sandboxEwalletVoucher, async ({ body }) => {
    if (body.amount <= 0 || body.amount > 1_000_000_00) throw badRequest('KEY_INVALID', { fields: [{ path: 'amount', code: 'invalid' }] });
    const ownerPhone = body.fromPhone ?? `09${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const voucher = await sandbox.createVoucher({ amount: body.amount, expiresInSeconds: body.expiresInSeconds, ownerPhone });
    return { link: voucher.link, hash: voucher.hash, amount: body.amount / 100, expiresAt: voucher.expiresAt.toISOString() };
  });
  contractRoute(app, sb.sandboxEwalletTransfer, async ({ body }) => {
    if (body.amount <= 0) throw badRequest('KEY_INVALID', { fields: [{ path: 'amount', code: 'invalid' }] });
    const toPhone = body.toPhone ?? (await autoWallet())?.account_no;
    if (!toPhone) throw new AppError(404, 'NO_WALLET');
    const sent = await sandbox.transfer({ fromPhone: body.fromPhone, toPhone, amount: body.amount, report: await ours(toPhone) });
    return { transferId: sent.transferId, fromPhone: body.fromPhone, toPhone, amount: body.amount / 100, at: sent.at.toISOString(), feed: sent.feed };
  });
  contractRoute(app, sb.sandboxEwalletRedeliver, async ({ params, body }) => ({ deliveries: await sandbox.redeliver(params.id, body.times) }));
  contractRoute(app, depositOperatorCalls.sandboxEwalletFault, { preHandler: guard }, async ({ body: { mode } }) => {
    const fault: EwalletFault = mode;
    await sandbox.setFault(fault);
    return { mode };
  });
}
