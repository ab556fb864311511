import i18next from 'i18next';
import { PHONE_LENGTH } from '@mw/contract/constants';
import { config } from '../config';
import { LAOS_PHONE_MAX, LAOS_PHONE_MIN, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, type RuleCode } from '@mw/contract/rules';

/** The translated text of a validation rule code of the contract (rules.ts). */
export function ruleMessage(code: RuleCode): string {
  return i18next.t(`rules.${code}`, {
    phoneLength: PHONE_LENGTH,
    phoneMin: LAOS_PHONE_MIN,
    phoneMax: LAOS_PHONE_MAX,
    passwordMin: PASSWORD_MIN,
    passwordMax: PASSWORD_MAX,
    nameMax: NAME_MAX,
    minAge: config.minAge,
  });
}

const RULE_CODES: Record<RuleCode, true> = {
  REQUIRED: true,
  PHONE_NUMBER_REQUIRE_10_DIGIT: true,
  PHONE_NUMBER_INVALID: true,
  PASSWORD_TOO_SHORT: true,
  PASSWORD_TOO_LONG: true,
  PASSWORDS_NOT_MATCH: true,
  NAME_TOO_LONG: true,
  BANK_ACCOUNT_NO_INVALID: true,
  BANK_ACCOUNT_NAME_INVALID: true,
  BANK_ACCOUNT_NAME_ENG: true,
  BIRTH_DATE_INVALID: true,
  UNDERAGE: true,
};

/** Every RuleCode of rules.ts (the Record type makes the compiler check the list is complete). */
export const ruleCodes = Object.keys(RULE_CODES) as RuleCode[];

export function isRuleCode(value: unknown): value is RuleCode {
  return typeof value === 'string' && Object.hasOwn(RULE_CODES, value);
}
