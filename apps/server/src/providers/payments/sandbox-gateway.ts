import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from '../../db/migrations';
import type { DB, DefaultTimestamp, Timestamp } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { buildThaiQr } from './emvco';
import { GatewayError, isQrProvider, type GatewayPaymentRecord, type OrderState, type PaymentGateway, type QrOrder, type QrProvider } from './gateway';
import { deliverSigned, type WebhookDelivery } from './signing';

/** The sandbox gateways' own book: an outside system's state, reached only through this adapter. */
export interface SandboxGatewayOrdersTable {
  gateway_ref: string;
  provider: string;
  reference: string;
  amount: number;
  currency: string;
  payload: string;
  status: 'OPEN' | 'PAID' | 'CANCELLED';
  expires_at: Timestamp;
  payment_id: string | null;
  paid_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

declare module '../../db/schema' {
  interface DB {
    sandbox_gateway_orders: SandboxGatewayOrdersTable;
  }
}

export const sandboxGatewayMigrations: readonly Migration[] = [
  {
    id: 'deposit/002_sandbox_gateway',
    sql: `
CREATE TABLE sandbox_gateway_orders (
  gateway_ref text PRIMARY KEY,
  provider text NOT NULL,
  reference text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL CHECK (status IN ('OPEN', 'PAID', 'CANCELLED')),
  expires_at timestamptz NOT NULL,
  payment_id text UNIQUE,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);`,
  },
];

/** The merchant (biller) id each sandbox provider puts in its bill-payment QRs (15 digits). */
const BILLERS: Record<QrProvider, string> = {
  WW: '010556000000101',
  PAYTIMZ: '010556000000102',
  PAYONEX: '010556000000103',
  ZPAY: '010556000000104',
  KBANK: '010753600010286',
};

/**
 * The sandbox of the QR payment gateways (WW, PAYTIMZ, PAYONEX, ZPAY, KBANK): it keeps its
 * orders in sandbox_gateway_orders, answers a real Thai QR (bill payment, tag 30: biller id,
 * ref1 = our reference, ref2 = the provider; amount in tag 54, THB, CRC in tag 63), takes a
 * customer's payment once (refusing expired, cancelled and paid orders, as a real one does) and
 * then delivers its signed webhook to our server, again on demand (gateways retry).
 */
export class SandboxGateway implements PaymentGateway {
  private deliver: WebhookDelivery | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Where webhooks go (our server's routes, in process). */
  connect(deliver: WebhookDelivery): void {
    this.deliver = deliver;
  }

  async createOrder(order: QrOrder): Promise<{ payload: string; gatewayRef: string }> {
    if (order.currency !== 'THB') throw new GatewayError('the sandbox gateways take THB only');
    const payload = buildThaiQr({
      merchant: { kind: 'billPayment', billerId: BILLERS[order.provider], ref1: order.reference, ref2: order.provider },
      amountSatang: order.amount,
      currency: '764',
      country: 'TH',
      merchantName: 'GOLDEN WALLET',
      merchantCity: 'BANGKOK',
    });
    const gatewayRef = `${order.provider}-${randomBytes(8).toString('hex')}`;
    await this.db
      .insertInto('sandbox_gateway_orders')
      .values({ gateway_ref: gatewayRef, provider: order.provider, reference: order.reference, amount: order.amount, currency: order.currency, payload, status: 'OPEN', expires_at: order.expiresAt, payment_id: null, paid_at: null })
      .execute();
    return { payload, gatewayRef };
  }

  async cancelOrder(_provider: QrProvider, gatewayRef: string): Promise<void> {
    await this.db.updateTable('sandbox_gateway_orders').set({ status: 'CANCELLED' }).where('gateway_ref', '=', gatewayRef).where('status', '=', 'OPEN').execute();
  }

  async lookupOrder(_provider: QrProvider, gatewayRef: string): Promise<OrderState> {
    const order = await this.db.selectFrom('sandbox_gateway_orders').selectAll().where('gateway_ref', '=', gatewayRef).executeTakeFirst();
    if (!order) return { status: 'UNKNOWN' };
    if (order.status === 'PAID' && order.payment_id && order.paid_at) {
      return { status: 'PAID', paymentId: order.payment_id, reference: order.reference, amount: Number(order.amount), currency: order.currency === 'LAK' ? 'LAK' : 'THB', paidAt: order.paid_at };
    }
    return { status: order.status === 'CANCELLED' ? 'CANCELLED' : 'OPEN' };
  }

  async payments(from: Date, to: Date): Promise<GatewayPaymentRecord[]> {
    const rows = await this.db
      .selectFrom('sandbox_gateway_orders')
      .select(['provider', 'payment_id', 'reference', 'amount', 'currency', 'paid_at'])
      .where('status', '=', 'PAID')
      .where('paid_at', '>=', from)
      .where('paid_at', '<', to)
      .orderBy('paid_at')
      .execute();
    const payments: GatewayPaymentRecord[] = [];
    for (const r of rows) {
      if (!r.payment_id || !r.paid_at || !isQrProvider(r.provider)) continue;
      payments.push({ provider: r.provider, paymentId: r.payment_id, reference: r.reference, amount: Number(r.amount), currency: r.currency === 'LAK' ? 'LAK' : 'THB', paidAt: r.paid_at });
    }
    return payments;
  }

  /**
   * A customer pays the order (its full amount, once). Refused with QR_EXPIRED, QR_CANCELLED or
   * QR_ALREADY_PAID as the gateway's app would. Then the webhook is delivered; answers the
   * payment id and what our server answered the webhook.
   */
  async pay(gatewayRef: string): Promise<{ paymentId: string; webhook: { status: number } }> {
    const paymentId = `PAY${randomBytes(10).toString('hex').toUpperCase()}`;
    const paid = await this.db
      .updateTable('sandbox_gateway_orders')
      .set({ status: 'PAID', payment_id: paymentId, paid_at: new Date(this.now()) })
      .where('gateway_ref', '=', gatewayRef)
      .where('status', '=', 'OPEN')
      .where('expires_at', '>', new Date(this.now()))
      .returning('gateway_ref')
      .executeTakeFirst();
    if (!paid) {
      const order = await this.db.selectFrom('sandbox_gateway_orders').select(['status', 'expires_at']).where('gateway_ref', '=', gatewayRef).executeTakeFirst();
      if (!order) throw new AppError(404, 'NO_QRCODE');
      if (order.status === 'PAID') throw new AppError(409, 'QR_ALREADY_PAID');
      if (order.status === 'CANCELLED') throw new AppError(409, 'QR_CANCELLED');
      throw new AppError(409, 'QR_EXPIRED');
    }
    const [webhook] = await this.redeliver(gatewayRef, 1);
    return { paymentId, webhook: { status: webhook?.status ?? 0 } };
  }

  /** The webhook of a paid order, delivered `times` times at once (the same body, freshly signed). */
  async redeliver(gatewayRef: string, times: number): Promise<Array<{ status: number }>> {
    const order = await this.db.selectFrom('sandbox_gateway_orders').selectAll().where('gateway_ref', '=', gatewayRef).executeTakeFirst();
    if (!order) throw new AppError(404, 'NO_QRCODE');
    if (order.status !== 'PAID' || !order.payment_id || !order.paid_at) throw new AppError(409, 'NO_QRCODE');
    const body = JSON.stringify({
      event: 'payment.succeeded',
      paymentId: order.payment_id,
      provider: order.provider,
      reference: order.reference,
      amount: (Number(order.amount) / 100).toFixed(2),
      currency: order.currency,
      paidAt: order.paid_at.toISOString(),
    });
    const deliver = this.deliver;
    if (!deliver) throw new Error('the sandbox gateway is not connected to a server');
    const results = await Promise.all(Array.from({ length: times }, () => deliverSigned(deliver, this.secret, `/api/webhooks/payments/${order.provider}`, body)));
    return results.map((r) => ({ status: r.status }));
  }
}
