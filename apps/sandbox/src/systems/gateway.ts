/**
 * The QR payment gateways (WW, PAYTIMZ, PAYONEX, ZPAY, KBANK), as Thai gateways work: the
 * merchant opens an order for an amount and a reference and gets a Thai QR (EMVCo bill payment)
 * to show; a customer pays it once; the gateway tells the merchant by a signed webhook, and
 * answers "status" and "report" calls. Protocol: docs/sandbox.md.
 *
 * Merchant calls, `POST /gateway/{PROVIDER}/{action}`, signed (X-Timestamp, X-Signature = hex
 * HMAC-SHA256 of `${timestamp}.${body}` with the gateway API's secret; else `401 INVALID_SIGNATURE`):
 * - `orders {reference, amount, currency, expiresAt}` → `200 {status: "SUCCESS", gatewayRef, payload}`;
 *   the same reference again answers the same order (a retry after a lost answer opens no second one).
 * - `cancel {gatewayRef}` → `200 {status: "SUCCESS", order}` (an open order is cancelled; others stay).
 * - `status {gatewayRef}` → `200 {status: "SUCCESS", order}`; `404 ORDER_NOT_FOUND`.
 * - `report {from, to}` → `200 {status: "SUCCESS", payments: [...]}`, paid in [from, to).
 * Webhook: `POST {webhookUrl with {provider} replaced}` `{event: "payment.succeeded", paymentId,
 * provider, reference, amount: "100.00", currency, paidAt}` with the merchant's webhook secret.
 *
 * Control (unsigned): `PUT /control/gateway/merchant {webhookUrl, secret}`; `GET
 * /control/gateway/orders/{ref}`; `POST /control/gateway/orders/{ref}/pay {notify?}` (a customer
 * pays; 409 QR_EXPIRED, QR_CANCELLED, QR_ALREADY_PAID); `…/redeliver {times}`; `…/expire`;
 * `POST /control/gateway/payments {provider, paymentId, reference, amount, currency, paidAt}`
 * (a payment recorded after the fact, not reported).
 */
import { randomBytes } from 'node:crypto';
import { defineSystem, json, minor, redeliver, registerMerchant, str, verify, type Answer, type SandboxRequest, type SystemContext } from '../kit';

const PROVIDERS = ['WW', 'PAYTIMZ', 'PAYONEX', 'ZPAY', 'KBANK'] as const;
type Provider = (typeof PROVIDERS)[number];
const providerOf = (value: unknown): Provider | null => PROVIDERS.find((p) => p === value) ?? null;

/** The merchant (biller) id each gateway puts in its bill-payment QRs (15 digits). */
const BILLERS: Record<Provider, string> = {
  WW: '010556000000101',
  PAYTIMZ: '010556000000102',
  PAYONEX: '010556000000103',
  ZPAY: '010556000000104',
  KBANK: '010753600010286',
};

interface Order {
  gatewayRef: string;
  provider: Provider;
  reference: string;
  amount: number;
  currency: 'THB';
  payload: string;
  status: 'OPEN' | 'PAID' | 'CANCELLED';
  expiresAt: number;
  paymentId: string | null;
  paidAt: string | null;
}

export interface GatewayState {
  orders: Map<string, Order>;
  /** `${provider}:${reference}` → gatewayRef. */
  byReference: Map<string, string>;
  /** Where webhooks go, and their secret (the merchant registers them). */
  merchant: { webhookUrl: string; secret: string } | null;
}

export type GatewayEvent =
  | { type: 'order'; order: Order }
  | { type: 'paid'; gatewayRef: string; paymentId: string; paidAt: string }
  | { type: 'cancelled'; gatewayRef: string }
  | { type: 'expired'; gatewayRef: string; at: number }
  | { type: 'merchant'; webhookUrl: string; secret: string };

type Ctx = SystemContext<GatewayEvent>;

/** EMVCo TLV: tag, two-digit length, value. */
const tlv = (tag: string, value: string) => `${tag}${String(value.length).padStart(2, '0')}${value}`;

function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** A dynamic Thai QR for a bill payment: biller id, ref1 = the merchant's reference, ref2 = the gateway; THB amount; CRC last. */
function thaiQr(provider: Provider, reference: string, amount: number): string {
  const merchant = tlv('30', tlv('00', 'A000000677010112') + tlv('01', BILLERS[provider]) + tlv('02', reference) + tlv('03', provider));
  const body = tlv('00', '01') + tlv('01', '12') + merchant + tlv('53', '764') + tlv('54', (amount / 100).toFixed(2)) + tlv('58', 'TH') + tlv('59', 'GOLDEN WALLET') + tlv('60', 'BANGKOK') + '6304';
  return body + crc16(body);
}

const time = (value: unknown): number | null => {
  if (typeof value !== 'string' || value.length > 40) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
};

function orderView(o: Order, now: number) {
  const status = o.status === 'OPEN' && o.expiresAt <= now ? 'EXPIRED' : o.status;
  return { gatewayRef: o.gatewayRef, provider: o.provider, reference: o.reference, amount: o.amount, currency: o.currency, status, expiresAt: new Date(o.expiresAt).toISOString(), paymentId: o.paymentId, paidAt: o.paidAt };
}

function handle(req: SandboxRequest, state: GatewayState, ctx: Ctx, secret: string): Answer {
  const provider = providerOf(req.parts[0]);
  if (req.method !== 'POST' || !provider || req.parts.length !== 2) return json(404, { status: 'NOT_FOUND' });
  if (!verify(req.headers, req.raw, secret, ctx.now())) return json(401, { status: 'INVALID_SIGNATURE' });
  const body = req.body ?? {};
  const action = req.parts[1];
  if (action === 'orders') {
    const reference = str(body.reference, 20);
    const amount = minor(body.amount);
    const expiresAt = time(body.expiresAt);
    if (!reference || !/^[A-Z0-9]+$/.test(reference) || !amount || amount > 1_000_000_00 || expiresAt === null) return json(400, { status: 'BAD_REQUEST' });
    if (body.currency !== 'THB') return json(400, { status: 'CURRENCY_NOT_SUPPORTED' });
    const known = state.orders.get(state.byReference.get(`${provider}:${reference}`) ?? '');
    if (known) return known.amount === amount ? json(200, { status: 'SUCCESS', gatewayRef: known.gatewayRef, payload: known.payload }) : json(409, { status: 'DUPLICATE_REFERENCE' });
    const order: Order = { gatewayRef: `${provider}-${randomBytes(8).toString('hex')}`, provider, reference, amount, currency: 'THB', payload: thaiQr(provider, reference, amount), status: 'OPEN', expiresAt, paymentId: null, paidAt: null };
    ctx.commit({ type: 'order', order });
    return json(200, { status: 'SUCCESS', gatewayRef: order.gatewayRef, payload: order.payload });
  }
  if (action === 'cancel' || action === 'status') {
    const order = state.orders.get(str(body.gatewayRef, 64) ?? '');
    if (!order || order.provider !== provider) return json(404, { status: 'ORDER_NOT_FOUND' });
    if (action === 'cancel' && order.status === 'OPEN') ctx.commit({ type: 'cancelled', gatewayRef: order.gatewayRef });
    return json(200, { status: 'SUCCESS', order: orderView(order, ctx.now()) });
  }
  if (action === 'report') {
    const from = time(body.from);
    const to = time(body.to);
    if (from === null || to === null || from >= to) return json(400, { status: 'BAD_REQUEST' });
    const payments = [...state.orders.values()]
      .filter((o) => o.provider === provider && o.status === 'PAID' && o.paidAt !== null && Date.parse(o.paidAt) >= from && Date.parse(o.paidAt) < to)
      .map((o) => ({ paymentId: o.paymentId, reference: o.reference, amount: o.amount, currency: o.currency, paidAt: o.paidAt }));
    return json(200, { status: 'SUCCESS', payments });
  }
  return json(404, { status: 'NOT_FOUND' });
}

/** The webhook of a paid order to the merchant: its answer, `{status: 0}` when none came, null when no merchant is registered. */
async function report(state: GatewayState, ctx: Ctx, o: Order): Promise<{ status: number } | null> {
  if (!state.merchant || !o.paymentId || !o.paidAt) return null;
  const body = { event: 'payment.succeeded', paymentId: o.paymentId, provider: o.provider, reference: o.reference, amount: (o.amount / 100).toFixed(2), currency: o.currency, paidAt: o.paidAt };
  const answer = await ctx.send(state.merchant.webhookUrl.replace('{provider}', o.provider), body, state.merchant.secret, o.provider);
  return { status: answer?.status ?? 0 };
}

async function control(req: SandboxRequest, state: GatewayState, ctx: Ctx): Promise<Answer> {
  const body = req.body ?? {};
  const [area, ref, action] = req.parts;
  if (req.method === 'PUT' && area === 'merchant' && req.parts.length === 1) {
    return registerMerchant(body, state.merchant, (merchant) => ctx.commit({ type: 'merchant', ...merchant }));
  }
  if (req.method === 'POST' && area === 'payments' && req.parts.length === 1) {
    const provider = providerOf(body.provider);
    const paymentId = str(body.paymentId, 64);
    const reference = str(body.reference, 20);
    const amount = minor(body.amount);
    const paidAt = time(body.paidAt);
    if (!provider || !paymentId || !reference || !amount || paidAt === null || body.currency !== 'THB') return json(400, { status: 'BAD_REQUEST' });
    if ([...state.orders.values()].some((o) => o.paymentId === paymentId)) return json(200, { status: 'SUCCESS' });
    const order: Order = { gatewayRef: `${provider}-${randomBytes(8).toString('hex')}`, provider, reference, amount, currency: 'THB', payload: '', status: 'OPEN', expiresAt: paidAt + 1, paymentId: null, paidAt: null };
    ctx.commit({ type: 'order', order });
    ctx.commit({ type: 'paid', gatewayRef: order.gatewayRef, paymentId, paidAt: new Date(paidAt).toISOString() });
    return json(200, { status: 'SUCCESS', gatewayRef: order.gatewayRef });
  }
  if (area !== 'orders' || !ref) return json(404, { status: 'NOT_FOUND' });
  const order = state.orders.get(ref);
  if (!order) return json(404, { status: 'NO_QRCODE' });
  if (req.method === 'GET' && req.parts.length === 2) return json(200, orderView(order, ctx.now()));
  if (req.method !== 'POST' || req.parts.length !== 3) return json(404, { status: 'NOT_FOUND' });
  if (action === 'expire') {
    if (order.status === 'OPEN') ctx.commit({ type: 'expired', gatewayRef: ref, at: ctx.now() - 1000 });
    return json(200, orderView(order, ctx.now()));
  }
  if (action === 'pay') {
    // Whole, once: the customer's app refuses a paid, cancelled or expired order.
    if (order.status === 'PAID') return json(409, { status: 'QR_ALREADY_PAID' });
    if (order.status === 'CANCELLED') return json(409, { status: 'QR_CANCELLED' });
    if (order.expiresAt <= ctx.now()) return json(409, { status: 'QR_EXPIRED' });
    const paymentId = `PAY${randomBytes(10).toString('hex').toUpperCase()}`;
    ctx.commit({ type: 'paid', gatewayRef: ref, paymentId, paidAt: new Date(ctx.now()).toISOString() });
    const webhook = body.notify === false ? null : await report(state, ctx, order);
    return json(200, { paymentId, webhook });
  }
  if (action === 'redeliver') {
    if (order.status !== 'PAID') return json(409, { status: 'NO_QRCODE' });
    return redeliver(body, () => report(state, ctx, order));
  }
  return json(404, { status: 'NOT_FOUND' });
}

export function gatewaySystem(secret: string) {
  return defineSystem<GatewayState, GatewayEvent>({
    name: 'gateway',
    initial: () => ({ orders: new Map(), byReference: new Map(), merchant: null }),
    apply(state, event) {
      if (event.type === 'order') {
        state.orders.set(event.order.gatewayRef, event.order);
        // A payment recorded after the fact (no QR) does not take its reference from an order.
        if (event.order.payload !== '') state.byReference.set(`${event.order.provider}:${event.order.reference}`, event.order.gatewayRef);
        return;
      }
      if (event.type === 'merchant') {
        state.merchant = { webhookUrl: event.webhookUrl, secret: event.secret };
        return;
      }
      const order = state.orders.get(event.gatewayRef);
      if (!order) return;
      if (event.type === 'paid' && order.status === 'OPEN') Object.assign(order, { status: 'PAID', paymentId: event.paymentId, paidAt: event.paidAt });
      else if (event.type === 'cancelled' && order.status === 'OPEN') order.status = 'CANCELLED';
      else if (event.type === 'expired') order.expiresAt = Math.min(order.expiresAt, event.at);
    },
    handle: (req, state, ctx) => handle(req, state, ctx, secret),
    control: (req, state, ctx) => control(req, state, ctx),
    faultKey: (parts) => parts[0] ?? '*',
    summary: (state) => ({ orders: state.orders.size, paid: [...state.orders.values()].filter((o) => o.status === 'PAID').length }),
  });
}
