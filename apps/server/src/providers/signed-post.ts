import { createHmac } from 'node:crypto';

/** What an outside API answered: its HTTP status and JSON body (`{}` when the body is not JSON). */
export interface SignedAnswer {
  httpStatus: number;
  body: Record<string, unknown>;
}

/**
 * One signed call of the outside systems' protocol (docs/sandbox.md): a JSON POST with
 * `X-Timestamp` (unix seconds) and `X-Signature` = hex HMAC-SHA256 of `${timestamp}.${body}` with
 * the shared secret. Throws what fetch throws (no connection, the signal's deadline, a reset);
 * any answer, whatever its status, is returned.
 */
export async function signedPost(url: string, secret: string, body: Record<string, unknown>, signal: AbortSignal): Promise<SignedAnswer> {
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature }, body: raw, signal });
  const text = await response.text();
  let parsed: unknown = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = {};
  }
  return { httpStatus: response.status, body: typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {} };
}

/** A connection refused or a name not found: the request never left (nothing can have happened). */
export function neverSent(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; errors?: unknown } | undefined) : undefined;
  const codes = [cause?.code, ...(Array.isArray(cause?.errors) ? cause.errors.map((e: { code?: unknown }) => e.code) : [])];
  return codes.some((code) => code === 'ECONNREFUSED' || code === 'ENOTFOUND');
}
