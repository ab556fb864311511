import { AppError } from '../../lib/errors';
import { sandboxControl } from '../sandbox-control';
import type { Currency } from '../../lib/currency';
import type { QrProvider } from './gateway';
import { HttpGateway } from './http-gateway';

export interface SandboxGatewayOptions {
  /** The sandbox service (apps/sandbox): SANDBOX_URL, or the one on SANDBOX_PORT. */
  url: string;
  /** Its gateway API's secret (SANDBOX_GATEWAY_SECRET). */
  secret: string;
}

/** An order as the sandbox gateway's control API shows it. */
export interface SandboxOrder {
  gatewayRef: string;
  provider: QrProvider;
  reference: string;
  amount: number;
  currency: Currency;
  status: 'OPEN' | 'PAID' | 'CANCELLED' | 'EXPIRED';
  paymentId: string | null;
  paidAt: string | null;
}

/**
 * The sandbox service's QR gateways (its `gateway` system), over the wire: the gateways are the
 * HTTP adapter (http-gateway.ts) against it; this adds its control API for the demo and the tests
 * — a customer pays a QR, the webhook comes again, an order expires — and registers where its
 * webhooks go (our server). Nothing of it is in our database.
 */
export class SandboxGateway extends HttpGateway {
  private merchant: { webhookUrl: string; secret: string } | null = null;

  constructor(private readonly sandbox: SandboxGatewayOptions) {
    super({ url: sandbox.url, secret: sandbox.secret });
  }

  private control(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    return sandboxControl(this.sandbox.url, 'gateway', method, path, body);
  }

  /** Where the gateways send webhooks (`{provider}` is replaced by the gateway's code), and their secret. */
  async register(webhookUrl: string, secret: string): Promise<void> {
    this.merchant = { webhookUrl, secret };
    const res = await this.control('PUT', 'merchant', this.merchant);
    if (res.status !== 200) throw new Error(`sandbox gateway merchant: ${res.status}`);
  }

  private async registered(): Promise<void> {
    if (this.merchant) await this.register(this.merchant.webhookUrl, this.merchant.secret);
  }

  /** The sandbox's answer as ours: its 404 / 409 codes (NO_QRCODE, QR_EXPIRED, QR_CANCELLED, QR_ALREADY_PAID) are the member's. */
  private answer(res: { status: number; body: Record<string, unknown> }): Record<string, unknown> {
    if (res.status === 200) return res.body;
    const code = res.body.status;
    if (res.status === 404) throw new AppError(404, 'NO_QRCODE');
    if (res.status === 409) throw new AppError(409, code === 'QR_EXPIRED' || code === 'QR_CANCELLED' || code === 'QR_ALREADY_PAID' ? code : 'NO_QRCODE');
    throw new Error(`sandbox gateway: ${res.status} ${String(code)}`);
  }

  /** A customer pays the order (its full amount, once), then the gateway sends its webhook (unless `notify` is false: a webhook lost). */
  async pay(gatewayRef: string, notify = true): Promise<{ paymentId: string; webhook: { status: number } }> {
    if (notify) await this.registered();
    const body = this.answer(await this.control('POST', `orders/${encodeURIComponent(gatewayRef)}/pay`, { notify }));
    const webhook = body.webhook as { status?: unknown } | null;
    return { paymentId: String(body.paymentId), webhook: { status: typeof webhook?.status === 'number' ? webhook.status : 0 } };
  }

  /** The webhook of a paid order, delivered `times` times at once (the same body, freshly signed). */
  async redeliver(gatewayRef: string, times: number): Promise<Array<{ status: number }>> {
    await this.registered();
    const body = this.answer(await this.control('POST', `orders/${encodeURIComponent(gatewayRef)}/redeliver`, { times }));
    return Array.isArray(body.deliveries) ? body.deliveries.map((d: { status?: unknown }) => ({ status: typeof d.status === 'number' ? d.status : 0 })) : [];
  }

  /** The order's time runs out now (the gateway takes no money for it after). */
  async expire(gatewayRef: string): Promise<void> {
    this.answer(await this.control('POST', `orders/${encodeURIComponent(gatewayRef)}/expire`, {}));
  }

  async order(gatewayRef: string): Promise<SandboxOrder> {
    return this.answer(await this.control('GET', `orders/${encodeURIComponent(gatewayRef)}`)) as unknown as SandboxOrder;
  }

  /** A payment the gateway took (a test's forged-then-genuine webhook names one): recorded, not reported. */
  async record(payment: { provider: string; paymentId: string; reference: string; amount: number; currency: string; paidAt: Date }): Promise<void> {
    await this.control('POST', 'payments', { ...payment, paidAt: payment.paidAt.toISOString() });
  }
}
