import i18next from 'i18next';
import { isErrorCode, isSlipReasonCode } from '@mw/contract/errors';
import { isRuleCode, ruleMessage } from '../forms/ruleMessage';
import { ApiError } from './ApiError';

/**
 * The text a member sees for a failed call: a known error code translated, any other server
 * message as sent (spec section 8), or a generic text when no answer arrived.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    switch (error.kind) {
      case 'network':
        return i18next.t('failure.network');
      case 'timeout':
        return i18next.t('failure.timeout');
      case 'invalidResponse':
        return i18next.t('failure.invalidResponse');
      default:
        break;
    }
    // The numbers beside the code fill its text (DEPOSIT_LIMIT's `left`).
    if (error.code) return codeMessage(error.code, error.detail);
  }
  return i18next.t('failure.generic');
}

/**
 * A code the server sent (as an error, or as `message` of an answer): translated when known, else
 * as sent. (The error texts load just after the first screen, i18n.ts loadLaterMessages; a failure
 * in that moment reads as the generic one.)
 */
export function codeMessage(code: string, detail: Readonly<Record<string, number>> = {}): string {
  if (isErrorCode(code)) return i18next.exists(`errors.${code}`) ? i18next.t(`errors.${code}`, detail) : i18next.t('failure.generic');
  // A slip refused for a reason (spec section 8): the reason's text.
  if (isSlipReasonCode(code)) return i18next.t(`slipReasons.${code}`);
  if (isRuleCode(code)) return ruleMessage(code);
  return code;
}
