import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A 24-hex-digit id (the spec's `_id` reads like a MongoDB ObjectId; the invite link uses it). */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** OTP reference shown to the user beside the code: four letters. */
export function otpRef(): string {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  return Array.from({ length: 4 }, () => letters[randomInt(0, letters.length)]).join('');
}
