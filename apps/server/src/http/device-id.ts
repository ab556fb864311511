/**
 * The member app's device id (issue 34): a random token it keeps in localStorage (`device-id`)
 * and sends as `X-Device-Id` on every call. It is the client's word, so it is only evidence for
 * risk signals, never an identity: a value that is not a bounded token (1–128 of letters, digits,
 * `.`, `_`, `:`, `-`) is ignored, never an error.
 */
const DEVICE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function deviceIdOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return DEVICE_ID.test(trimmed) ? trimmed : null;
}
