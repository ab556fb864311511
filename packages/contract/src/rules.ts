import { ENGLISH_ONLY_NAME_BANKS, PHONE_LENGTH } from './constants';

/**
 * Validation rules of spec section 5, shared by the web app (to answer at once) and the server
 * (to be the authority). Each returns null when the value passes, or the code that names the
 * failure; codes from the spec's catalogue are used where one exists.
 *
 * Rules the spec leaves open, chosen here:
 * - phone numbers are digits only; outside Laos mode exactly 10, in Laos mode 8 to 15;
 * - passwords are 6 to 64 characters;
 * - profile names are 1 to 60 characters after trimming;
 * - bank account numbers are 10 to 18 digits;
 * - bank account names are letters (Thai, Lao or Latin), spaces and dots, 2 to 100 characters,
 *   and Latin letters and spaces only for KTB, TMB and BBL.
 */
export type RuleCode =
  | 'REQUIRED'
  | 'PHONE_NUMBER_REQUIRE_10_DIGIT'
  | 'PHONE_NUMBER_INVALID'
  | 'PASSWORD_TOO_SHORT'
  | 'PASSWORD_TOO_LONG'
  | 'PASSWORDS_NOT_MATCH'
  | 'NAME_TOO_LONG'
  | 'BANK_ACCOUNT_NO_INVALID'
  | 'BANK_ACCOUNT_NAME_INVALID'
  | 'BANK_ACCOUNT_NAME_ENG'
  | 'BIRTH_DATE_INVALID'
  | 'UNDERAGE';

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 64;
export const NAME_MAX = 60;
export const LAOS_PHONE_MIN = 8;
export const LAOS_PHONE_MAX = 15;

export function checkPhone(phone: string, laosMode: boolean): RuleCode | null {
  if (phone.length === 0) return 'REQUIRED';
  if (!laosMode) return /^\d+$/.test(phone) && phone.length === PHONE_LENGTH ? null : 'PHONE_NUMBER_REQUIRE_10_DIGIT';
  return /^\d+$/.test(phone) && phone.length >= LAOS_PHONE_MIN && phone.length <= LAOS_PHONE_MAX
    ? null
    : 'PHONE_NUMBER_INVALID';
}

export function checkPassword(password: string): RuleCode | null {
  if (password.length === 0) return 'REQUIRED';
  if (password.length < PASSWORD_MIN) return 'PASSWORD_TOO_SHORT';
  if (password.length > PASSWORD_MAX) return 'PASSWORD_TOO_LONG';
  return null;
}

export function checkPasswordsMatch(password: string, confirm: string): RuleCode | null {
  return password === confirm ? null : 'PASSWORDS_NOT_MATCH';
}

export function checkProfileName(name: string): RuleCode | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'REQUIRED';
  return trimmed.length > NAME_MAX ? 'NAME_TOO_LONG' : null;
}

export function checkBankAccountNo(accountNo: string): RuleCode | null {
  if (accountNo.length === 0) return 'REQUIRED';
  return /^\d{10,18}$/.test(accountNo) ? null : 'BANK_ACCOUNT_NO_INVALID';
}

/** Account names are upper-cased and trimmed on input (spec section 5). */
export function normaliseAccountName(name: string): string {
  return name.toUpperCase().replace(/\s+/g, ' ').trim();
}

/** First and last name joined by a space (spec section 3). */
export function joinAccountName(firstName: string, lastName: string): string {
  return normaliseAccountName(`${firstName} ${lastName}`);
}

export function isEnglishOnlyName(name: string): boolean {
  return /^[A-Za-z ]+$/.test(name) && name.trim().length > 0;
}

export function requiresEnglishName(bankCode: string): boolean {
  return (ENGLISH_ONLY_NAME_BANKS as readonly string[]).includes(bankCode);
}

export function checkBankAccountName(bankCode: string, name: string): RuleCode | null {
  const normalised = normaliseAccountName(name);
  if (normalised.length === 0) return 'REQUIRED';
  if (requiresEnglishName(bankCode) && !isEnglishOnlyName(normalised)) return 'BANK_ACCOUNT_NAME_ENG';
  if (normalised.length < 2 || normalised.length > 100) return 'BANK_ACCOUNT_NAME_INVALID';
  return /^[\p{L}\p{M}. ]+$/u.test(normalised) ? null : 'BANK_ACCOUNT_NAME_INVALID';
}

/** The spec's profile screen shows a 10-digit account number as 3-3-rest. */
export function formatAccountNo(accountNo: string): string {
  return /^\d{10}$/.test(accountNo) ? `${accountNo.slice(0, 3)}-${accountNo.slice(3, 6)}-${accountNo.slice(6)}` : accountNo;
}

/** Promotion codes are upper-cased before lookup and activation. */
export function normalisePromotionCode(code: string): string {
  return code.trim().toUpperCase();
}
