import type { FastifyRequest } from 'fastify';

/** A device id as the member app sends it (a random id it keeps in localStorage `device-id`). */
const DEVICE_ID = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * The `X-Device-Id` header when it is well formed, else null (a missing or odd one is ignored, never
 * refused: it is a hint that makes limits fairer, not an identity). Anyone can send any id, so it
 * never loosens a limit by itself: per-device counters come on top of per-address backstops.
 */
export function deviceOf(request: FastifyRequest): string | null {
  const value = request.headers['x-device-id'];
  return typeof value === 'string' && DEVICE_ID.test(value) ? value : null;
}
