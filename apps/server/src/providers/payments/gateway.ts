import type { Currency } from '../../lib/currency';

/** QR payment providers of spec sections 2, 5, 9. KBANK is the bank's own QR (its SMS mode). */
export const QR_PROVIDERS = ['WW', 'PAYTIMZ', 'PAYONEX', 'ZPAY', 'KBANK'] as const;
export type QrProvider = (typeof QR_PROVIDERS)[number];

/** A payment id as gateways issue them: letters, digits, `-` and `_` (it is a credit's key as is). */
export const PAYMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function isQrProvider(code: string): code is QrProvider {
  return (QR_PROVIDERS as readonly string[]).includes(code);
}

export interface QrOrder {
  provider: QrProvider;
  /** Our reference for the payment (A–Z, 0–9, ≤ 20): the gateway puts it in the QR and in its webhook. */
  reference: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  expiresAt: Date;
}

/**
 * A payment gateway: it opens a payment order for a QR (answering the EMVCo payload the customer
 * scans) and confirms payments only by a signed webhook (POST /api/webhooks/payments/{provider},
 * see signing.ts) carrying `{ event: 'payment.succeeded', paymentId, provider, reference, amount,
 * currency, paidAt }`. A QR is single use and expires; the gateway refuses to take money for an
 * expired or cancelled order.
 */
export interface PaymentGateway {
  createOrder(order: QrOrder): Promise<{ payload: string; gatewayRef: string }>;
  /** Cancels an open order (nothing happens for one that was paid or expired). */
  cancelOrder(provider: QrProvider, gatewayRef: string): Promise<void>;
  /**
   * What the gateway knows of an order: paid (with its payment), or not (yet). Asked by the
   * reconciler for webhooks that never came (our crash, a gateway that stopped retrying).
   */
  lookupOrder(provider: QrProvider, gatewayRef: string): Promise<OrderState>;
  /**
   * The payments the gateway took with a payment time in [from, to) (reconciliation). A gateway
   * that cannot list (none configured) leaves it out: its credits are reported as not verifiable.
   */
  payments?(from: Date, to: Date): Promise<GatewayPaymentRecord[]>;
}

/** A payment as the gateway's own books hold it. */
export interface GatewayPaymentRecord {
  provider: QrProvider;
  paymentId: string;
  /** Our reference (the QR's ref1). */
  reference: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  paidAt: Date;
}

export type OrderState =
  | { status: 'PAID'; paymentId: string; reference: string; amount: number; currency: Currency; paidAt: Date }
  | { status: 'OPEN' | 'CANCELLED' | 'UNKNOWN' };

/** A gateway that cannot be reached or refused the order. */
export class GatewayError extends Error {}

/** No gateway configured (PAYMENT_GATEWAY=none): every QR create answers QR_FAIL. */
export const unconfiguredGateway: PaymentGateway = {
  createOrder: () => Promise.reject(new GatewayError('no payment gateway is configured')),
  cancelOrder: () => Promise.resolve(),
  lookupOrder: () => Promise.resolve({ status: 'UNKNOWN' }),
};
