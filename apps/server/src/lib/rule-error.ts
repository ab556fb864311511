import type { ErrorCode } from '@mw/contract/errors';
import type { RuleCode } from '@mw/contract/rules';
import { badRequest, type AppError } from './errors';

/** A failed shared rule as a wire error: an empty required field is KEY_MISSING. */
export function ruleError(code: RuleCode | null): AppError | null {
  if (code === null) return null;
  const wire: ErrorCode = code === 'REQUIRED' ? 'KEY_MISSING' : code === 'PASSWORDS_NOT_MATCH' ? 'KEY_INVALID' : code;
  return badRequest(wire);
}
