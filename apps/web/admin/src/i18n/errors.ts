import type { AdminErrorCode } from '@mw/contract/admin-errors';
import type { ErrorCode } from '@mw/contract/errors';
import { currentLocale } from './i18n';
import { errorsEn } from './errors.en';
import { errorsTh } from './errors.th';

/** Codes the back office's own client makes: no answer, an answer off the contract, a missing path parameter. */
export type ClientErrorCode = 'NETWORK' | 'UNEXPECTED_ANSWER' | 'MISSING_PARAM';

/**
 * Every code the server can answer (the contract's lists) and the client's own, each with a
 * sentence for an operator. The type makes both languages complete: a new code in the contract
 * without its Thai and English text fails `npm run typecheck`.
 */
export type OperatorErrorTexts = Record<ErrorCode | AdminErrorCode | ClientErrorCode, string>;

/** What an error code means, in the operator's language; null for a code no list knows. */
export function errorText(code: string): string | null {
  const texts: Record<string, string> = currentLocale() === 'en' ? errorsEn : errorsTh;
  return Object.hasOwn(texts, code) ? (texts[code] ?? null) : null;
}
