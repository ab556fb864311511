import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far (seconds) a webhook's X-Timestamp may be from our clock. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The webhook signature scheme of payment gateways and bank feeds: `X-Timestamp` (unix seconds)
 * and `X-Signature` = hex HMAC-SHA256 with the shared secret over `${timestamp}.${rawBody}`.
 */
export function signWebhook(secret: string, timestamp: number | string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

export type WebhookCheck = { ok: true } | { ok: false; code: 'INVALID_SIGNATURE' | 'STALE_WEBHOOK' };

/**
 * Checks a webhook: a timestamp (digits only) within the tolerance of `now`, and the signature
 * over exactly the bytes received, compared in constant time.
 */
export function verifyWebhook(secret: string, headers: { timestamp: string | undefined; signature: string | undefined }, rawBody: string, nowMs = Date.now()): WebhookCheck {
  const { timestamp, signature } = headers;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return { ok: false, code: 'STALE_WEBHOOK' };
  // Whole seconds on both sides: the window is the same 300 s into the past and the future.
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return { ok: false, code: 'STALE_WEBHOOK' };
  if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature)) return { ok: false, code: 'INVALID_SIGNATURE' };
  // Signed over the header exactly as sent (a zero-padded timestamp is another text).
  const expected = Buffer.from(signWebhook(secret, timestamp, rawBody), 'hex');
  const given = Buffer.from(signature.toLowerCase(), 'hex');
  return timingSafeEqual(expected, given) ? { ok: true } : { ok: false, code: 'INVALID_SIGNATURE' };
}

/** Delivers a signed webhook to our own server (the sandboxes' way of calling us); answers the status. */
export type WebhookDelivery = (path: string, headers: Record<string, string>, body: string) => Promise<{ status: number; body: string }>;

/** Signs a body with the current time and delivers it. */
export async function deliverSigned(deliver: WebhookDelivery, secret: string, path: string, body: string): Promise<{ status: number; body: string }> {
  const timestamp = Math.floor(Date.now() / 1000);
  return deliver(path, { 'content-type': 'application/json', 'x-timestamp': String(timestamp), 'x-signature': signWebhook(secret, timestamp, body) }, body);
}
