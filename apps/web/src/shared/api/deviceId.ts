import { readStorage, writeStorage } from '../storage';
import { createIdempotencyKey } from './idempotency';

/** Where the device id lives (issue 34): kept across sessions and members on this browser. */
export const DEVICE_ID_KEY = 'device-id';
/** The form the server accepts (http/device-id.ts): anything else there is ignored. */
const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

let memory: string | null = null;

/**
 * This browser's device id: a random id made once and kept in localStorage under `device-id`,
 * sent as `X-Device-Id` on every API call. It names a browser, not a person; the server uses it
 * only as evidence for risk signals (several accounts from one device). When storage is refused
 * (a private mode) the id lives as long as the page.
 */
export function deviceId(): string {
  const stored = readStorage('local', DEVICE_ID_KEY);
  if (stored && VALID.test(stored)) return stored;
  memory ??= createIdempotencyKey();
  writeStorage('local', DEVICE_ID_KEY, memory);
  return memory;
}
