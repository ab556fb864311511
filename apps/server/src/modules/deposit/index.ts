import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import { toBaht } from '@mw/contract/money';
import { slipSettingsSchema, depositOperatorCalls, depositSandboxCalls } from '@mw/contract/operator/deposit';
import { contractRoute } from '../../http/contract-route';
import { requireMember } from '../../http/handlers';
import { AppError, badRequest, tooMany } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { defineModule } from '../../platform/module';
import { moduleConfig } from '../../platform/module-config';
import { operatorGuard } from '../../platform/operator';
import { ledgerCurrency } from '../../money';
import { rsaKeyPairOf, secretOf } from '../../platform/secrets';
import { type SandboxBank } from '../../providers/bank/sandbox-bank';
import { unconfiguredGateway, type PaymentGateway } from '../../providers/payments/gateway';
import { type SandboxGateway } from '../../providers/payments/sandbox-gateway';
import { defaultReaderThreads, SlipReaderPool } from '../../providers/slips/reader-pool';
import { SlipVerifier } from '../../providers/slips/verifier';
import { Breaker } from '../../platform/breaker';
import { EWalletUnavailable } from '../../providers/ewallet/ewallet';
import { type SandboxEWallet } from '../../providers/ewallet/sandbox-ewallet';
import { EwalletDepositService } from './ewallet-service';
import { BankDepositService } from './bank-deposit-service';
import { SlipHistory } from './slip-history';
import { slipLinksFor } from './slip-links';
import { SlipService } from './slip-service';
import { DepositReconciliation } from './reconciliation';
import { ChannelService } from './channel-service';
import { recordChange } from '../../platform/audit';
import type { ApprovalService } from '../approval/approval-service';
import { depositMigrations } from './migrations';
import { defaultMinimums, QrService } from './qr-service';
import { processCount } from '../../config';
import './tables';
import type { DepositDb } from './tables';
import { moduleDb } from '../../db/database';
import { bankOf, depositEnv, ewalletOf, gatewayOf, RECONCILIATION_DEFAULT_MS, unconfiguredBank } from './config';
import { registerWithSandboxes, sandboxEwalletRoutes, webhookRoutes } from './webhooks';
import { channelFieldsOf, operatorRoutes, sameValue } from './operator-routes';

export { bankOf, ewalletOf, gatewayOf, reconciliationFor, RECONCILIATION_DEFAULT_MS } from './config';
export { changesOf } from './operator-routes';

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
    registerMoneyApprovals(services.approvals, bank, slips);
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
      return deposits.slips.upload(memberId, image, deposits.slipMaxBytes, ctx.idem);
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

/** Four eyes: what a second operator's approval of a deposit runs (the maker's call, once; each is idempotent). */
function registerMoneyApprovals(approvals: ApprovalService, bank: BankDepositService, slips: SlipService): void {
  // The stored payload is the parsed request (its amount already in minor units): read back as such, never parsed as baht again.
  const approvedManual = z.object({
    body: z.object({ memberId: z.string(), amount: z.number().int().positive(), currency: z.enum(['BAHT', 'THB', 'LAK']), note: z.string(), overLimit: z.boolean().optional() }),
    idem: z.object({ key: z.string(), hash: z.string() }),
    // Whether the maker was an owner (an over-limit credit needs one).
    owner: z.boolean().optional(),
  });
  approvals.register('deposit.manual', (payload) => {
    const { body, idem, owner } = approvedManual.parse(payload);
    return bank.manual(body, idem, owner === true);
  });
  // A slip credited with the amount an operator typed (the bank knows neither reference): the amount is minor units.
  approvals.register('deposit.slip-approve', (payload) => {
    const { id, amount, bankRef } = z.object({ id: z.string(), amount: z.number().int().positive(), bankRef: z.string() }).parse(payload);
    return slips.approve(id, amount, bankRef);
  });
  approvals.register('deposit.assign', (payload) => {
    const { id, memberId } = z.object({ id: z.string(), memberId: z.string() }).parse(payload);
    return bank.assign(id, memberId);
  });
}
