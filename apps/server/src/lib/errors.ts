import type { AdminErrorCode } from '@mw/contract/admin-errors';
import type { ErrorCode as MemberErrorCode, SlipReasonCode } from '@mw/contract/errors';

/** A code of the member API (errors.ts) or of the back office's (admin-errors.ts). */
export type ErrorCode = MemberErrorCode | AdminErrorCode;

/** A business error: answered as `{ message: code, ...extra }` with its HTTP status. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    /** An error code, or a slip reason code of spec section 8 (a slip upload refused for that reason). */
    readonly code: ErrorCode | SlipReasonCode,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export const badRequest = (code: ErrorCode, extra?: Record<string, unknown>) => new AppError(400, code, extra);
export const unauthorized = (code: ErrorCode) => new AppError(401, code);
export const forbidden = (code: ErrorCode) => new AppError(403, code);
export const notFound = (code: ErrorCode = 'NOT_FOUND') => new AppError(404, code);
export const conflict = (code: ErrorCode) => new AppError(409, code);
export const tooMany = (code: ErrorCode, retryAfter: number) => new AppError(429, code, { retryAfter });

/** PostgreSQL unique_violation, with the constraint that fired. */
export function uniqueViolation(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === '23505') {
    const constraint = (error as { constraint?: unknown }).constraint;
    return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}
