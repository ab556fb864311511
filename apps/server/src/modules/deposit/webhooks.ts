import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseBaht } from '@mw/contract/money';
import { bankFeedSchema, depositOperatorCalls, depositSandboxCalls, depositWebhookCalls, ewalletFeedSchema, paymentWebhookSchema } from '@mw/contract/operator/deposit';
import { contractRoute } from '../../http/contract-route';
import { AppError, badRequest } from '../../lib/errors';
import { type operatorGuard } from '../../platform/operator';
import type { BankTransfer } from '../../providers/bank/bank';
import { isQrProvider } from '../../providers/payments/gateway';
import { verifyWebhook } from '../../providers/payments/signing';
import { type SandboxEWallet, type EwalletFault } from '../../providers/ewallet/sandbox-ewallet';
import { listeningBase } from '../../platform/sandbox-process';
import './tables';
import type { DepositServices } from './index';

// What outside systems send the deposit module: signed webhooks, and the sandbox service's merchant registration and control routes.

function amountOf(value: string | number): number {
  const satang = parseBaht(value);
  if (satang === null || satang <= 0) throw badRequest('KEY_INVALID', { fields: [{ path: 'amount', code: 'invalid' }] });
  return satang;
}

/**
 * Webhooks: signed (X-Timestamp, X-Signature; see providers/payments/signing.ts) and verified
 * over the exact bytes received, so this scope keeps JSON bodies as text. A wrong signature or
 * a timestamp more than 300 s away is 401 and changes nothing. A verified message is applied
 * once, whatever order or how many times it comes (see QrService.paid, BankDepositService.feed).
 */
export async function webhookRoutes(app: FastifyInstance, secrets: { payments: string; bank: string; ewallet: string }, deposits: DepositServices): Promise<void> {
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
 * As a merchant registers its webhook URL with a gateway or an e-wallet: once this server listens,
 * it tells the sandbox service's systems where to send webhooks and what to sign them with (the
 * sandbox routes register again before each call that sends one: a sandbox started afresh forgets).
 */
export function registerWithSandboxes(app: FastifyInstance, deposits: DepositServices): void {
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
export function sandboxEwalletRoutes(app: FastifyInstance, sandbox: SandboxEWallet, deposits: DepositServices, guard: ReturnType<typeof operatorGuard>): void {
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
