import { createHmac } from 'node:crypto';
import { Breaker } from '../../platform/breaker';
import { EmvcoError, parseThaiQr } from '../../lib/emvco';
import { GatewayError, QR_PROVIDERS, PAYMENT_ID, type GatewayPaymentRecord, type OrderState, type PaymentGateway, type QrOrder, type QrProvider } from './gateway';

export interface HttpGatewayOptions {
  /** The gateways' API base, e.g. http://127.0.0.1:3100 (PAYMENT_API_URL; the sandbox service). */
  url: string;
  /** The HMAC-SHA256 secret of its signed calls (PAYMENT_API_SECRET). */
  secret: string;
  /** Deadline of one call (a report call gets at least 30 s). */
  timeoutMs?: number;
}

/** The gateway answered with a status of its protocol (not SUCCESS). */
class Answered extends Error {
  constructor(
    readonly httpStatus: number,
    readonly status: string,
  ) {
    super(`gateway answered ${httpStatus} ${status}`);
  }
}

/**
 * The QR payment gateways over HTTP (the protocol of docs/sandbox.md, "QR gateways"): signed
 * JSON POSTs to `/gateway/{PROVIDER}/{action}` under a deadline and a circuit breaker per
 * gateway. The QR an order answers is checked before a member sees it: a Thai QR whose CRC
 * holds, a bill payment naming our reference, for our amount in baht — anything else is no
 * order (QR_FAIL). An order call whose answer is lost is safe to repeat (the same reference
 * answers the same order), but the member simply asks again; "status" settles payments whose
 * webhook never came. Nothing is retried here.
 */
export class HttpGateway implements PaymentGateway {
  private readonly base: string;
  private readonly breakers = new Map<string, Breaker>();

  constructor(private readonly options: HttpGatewayOptions) {
    this.base = options.url.replace(/\/+$/, '');
  }

  private breaker(key: string, timeoutMs: number): Breaker {
    let breaker = this.breakers.get(key);
    if (!breaker) {
      breaker = new Breaker({ failures: 5, openMs: 10_000, timeoutMs, isFailure: (error) => !(error instanceof Answered) || error.httpStatus >= 500 });
      this.breakers.set(key, breaker);
    }
    return breaker;
  }

  protected async post(provider: QrProvider, action: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', this.options.secret).update(`${timestamp}.${raw}`).digest('hex');
    const report = action === 'report';
    const timeoutMs = report ? Math.max(this.options.timeoutMs ?? 10_000, 30_000) : (this.options.timeoutMs ?? 10_000);
    try {
      return await this.breaker(report ? `${provider}:report` : provider, timeoutMs).run(async (signal) => {
        const response = await fetch(`${this.base}/gateway/${provider}/${action}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature },
          body: raw,
          signal,
        });
        const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
        if (!response.ok || answer.status !== 'SUCCESS') throw new Answered(response.status, typeof answer.status === 'string' ? answer.status : 'ERROR');
        return answer;
      });
    } catch (error) {
      if (error instanceof Answered) throw new GatewayError(`${provider} ${action}: ${error.message}`, { cause: error });
      throw new GatewayError(`${provider} ${action}: no answer (${String(error)})`, { cause: error });
    }
  }

  async createOrder(order: QrOrder): Promise<{ payload: string; gatewayRef: string }> {
    const answer = await this.post(order.provider, 'orders', { reference: order.reference, amount: order.amount, currency: order.currency, expiresAt: order.expiresAt.toISOString() });
    const { gatewayRef, payload } = answer;
    if (typeof gatewayRef !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(gatewayRef) || typeof payload !== 'string') throw new GatewayError(`${order.provider} orders: an answer we cannot read`);
    checkQr(payload, order);
    return { payload, gatewayRef };
  }

  async cancelOrder(provider: QrProvider, gatewayRef: string): Promise<void> {
    await this.post(provider, 'cancel', { gatewayRef });
  }

  async lookupOrder(provider: QrProvider, gatewayRef: string): Promise<OrderState> {
    let answer: Record<string, unknown>;
    try {
      answer = await this.post(provider, 'status', { gatewayRef });
    } catch (error) {
      if (error instanceof GatewayError && error.cause instanceof Answered && error.cause.status === 'ORDER_NOT_FOUND') return { status: 'UNKNOWN' };
      throw error;
    }
    const o = (answer.order ?? {}) as Record<string, unknown>;
    if (o.status === 'PAID') {
      const paidAt = new Date(String(o.paidAt));
      if (typeof o.paymentId !== 'string' || !PAYMENT_ID.test(o.paymentId) || typeof o.reference !== 'string' || !Number.isSafeInteger(o.amount) || !Number.isFinite(paidAt.getTime())) throw new GatewayError(`${provider} status: a paid order we cannot read`);
      return { status: 'PAID', paymentId: o.paymentId, reference: o.reference, amount: o.amount as number, currency: o.currency === 'LAK' ? 'LAK' : 'THB', paidAt };
    }
    // An expired order is open in the gateway's books (it takes no money after its time: the reconciler lets it go then).
    return { status: o.status === 'CANCELLED' ? 'CANCELLED' : 'OPEN' };
  }

  /** Every gateway's payments; one that does not answer fails the list (the reconciliation then names the gateways unanswered). */
  async payments(from: Date, to: Date): Promise<GatewayPaymentRecord[]> {
    const lists = await Promise.all(
      QR_PROVIDERS.map(async (provider) => {
        const { payments } = await this.post(provider, 'report', { from: from.toISOString(), to: to.toISOString() });
        if (!Array.isArray(payments)) throw new GatewayError(`${provider} report: no list in the answer`);
        return payments.map((p: Record<string, unknown>): GatewayPaymentRecord => {
          const paidAt = new Date(String(p.paidAt));
          if (typeof p.paymentId !== 'string' || typeof p.reference !== 'string' || !Number.isSafeInteger(p.amount) || !Number.isFinite(paidAt.getTime())) throw new GatewayError(`${provider} report: a malformed payment`);
          return { provider, paymentId: p.paymentId, reference: p.reference, amount: p.amount as number, currency: p.currency === 'LAK' ? 'LAK' : 'THB', paidAt };
        });
      }),
    );
    return lists.flat();
  }
}

/**
 * The order's QR as the member will scan it: a Thai QR (CRC valid) with exactly one merchant
 * account (tags 26–51), a bill payment naming our reference, for our amount in the order's
 * currency and country — so a second payee (a PromptPay target beside the bill payment) or
 * another amount never reaches a member.
 */
function checkQr(payload: string, order: QrOrder): void {
  try {
    const qr = parseThaiQr(payload);
    const merchant = qr.merchant;
    const accounts = qr.fields.filter((f) => Number(f.tag) >= 26 && Number(f.tag) <= 51).length;
    const [currency, country] = order.currency === 'LAK' ? ['418', 'LA'] : ['764', 'TH'];
    const ok = qr.crcValid && accounts === 1 && qr.currency === currency && qr.country === country && qr.amountSatang === order.amount && merchant.kind === 'billPayment' && merchant.ref1 === order.reference;
    if (!ok) throw new GatewayError(`${order.provider} orders: the QR does not ask for this payment`);
  } catch (error) {
    if (error instanceof EmvcoError) throw new GatewayError(`${order.provider} orders: not a Thai QR (${error.message})`);
    throw error;
  }
}
