/**
 * The deposit domain's error codes, in a file of their own without zod: errors.ts (and so the
 * web app's first bundle) reads them without pulling in the schemas.
 */
export const depositErrorCodes = [
  /** 400: a deposit above its maximum (the answer carries `maximum` in baht). */
  'DEPOSIT_MAXIMUM',
  /** 404: a deposit channel (bank code of a QR provider) that does not exist or is not active. */
  'NO_CHANNEL',
  /** 404: a QR that does not exist, is not the caller's, or is no longer open. */
  'NO_QRCODE',
  /** 409: the member already has an open QR at this provider (GET it, or cancel it first). */
  'QR_ALREADY_OPEN',
  /** 409 (sandbox gateway): the QR expired; a customer can no longer pay it. */
  'QR_EXPIRED',
  /** 409 (sandbox gateway): the QR was cancelled; a customer can no longer pay it. */
  'QR_CANCELLED',
  /** 409 (sandbox gateway): the QR was paid already (single use). */
  'QR_ALREADY_PAID',
  /** 401: a webhook whose X-Signature is missing or wrong (nothing changes). */
  'INVALID_SIGNATURE',
  /** 401: a webhook whose X-Timestamp is missing or more than 300 s from the server's clock (nothing changes). */
  'STALE_WEBHOOK',
  /** 404: an unmatched deposit the operator named does not exist. */
  'NO_DEPOSIT',
  /** 409: the unmatched deposit was assigned already (to the member the answer names). */
  'DEPOSIT_ALREADY_ASSIGNED',
  /** 403: slip upload is closed now (the daily window of the deposit texts, or switched off). */
  'SLIP_UPLOAD_CLOSED',
  /** 409 (operator): the slip is no longer in progress (approved, rejected or credited already). */
  'SLIP_NOT_PENDING',
  /** 404 (operator): no slip with this id. */
  'NO_SLIP',
  /** 503: the e-wallet (gift vouchers) does not answer now; nothing was taken — try again later. */
  'TRUELINK_UNAVAILABLE',
  /** 400: money in one currency cannot be credited to a member who holds another (no exchange). */
  'CURRENCY_MISMATCH',
] as const;
