import type { Registration } from '@mw/contract/account';
import { bangkokDay, checkBirthDate, DEFAULT_MIN_AGE } from '@mw/contract/age';
import { DEFAULT_LAOS_CURRENCY, type Currency } from '@mw/contract/constants';
import {
  checkBankAccountName,
  checkBankAccountNo,
  checkPassword,
  checkPasswordsMatch,
  checkPhone,
  checkProfileName,
  isEnglishOnlyName,
  joinAccountName,
  normaliseAccountName,
  requiresEnglishName,
  type RuleCode,
} from '@mw/contract/rules';

/** Everything the four register steps collect. */
export interface RegisterForm {
  phone: string;
  otpCode: string;
  name: string;
  password: string;
  confirmPassword: string;
  sourceCode: string;
  inviteCode: string;
  bankCode: string;
  firstName: string;
  lastName: string;
  bankAccountNo: string;
  currency: Currency;
  /** YYYY-MM-DD (the age gate). */
  birthDate: string;
}

export type RegisterField = keyof RegisterForm;
export type FieldErrors = Partial<Record<RegisterField, RuleCode>>;

export function initialRegisterForm(inviteCode: string): RegisterForm {
  return {
    phone: '',
    otpCode: '',
    name: '',
    password: '',
    confirmPassword: '',
    sourceCode: '',
    inviteCode,
    bankCode: '',
    firstName: '',
    lastName: '',
    bankAccountNo: '',
    currency: DEFAULT_LAOS_CURRENCY,
    birthDate: '',
  };
}

function compact(errors: Partial<Record<RegisterField, RuleCode | null>>): FieldErrors {
  const result: FieldErrors = {};
  for (const [field, code] of Object.entries(errors) as Array<[RegisterField, RuleCode | null]>) {
    if (code) result[field] = code;
  }
  return result;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** Step 1: required; exactly 10 digits outside the Laos build. */
export function validatePhoneStep(form: RegisterForm, laos: boolean): FieldErrors {
  return compact({ phone: checkPhone(form.phone, laos) });
}

/** The birth date: required, a real day, at least `minAge` years before today (in Asia/Bangkok, as the server counts). */
export function checkBirthDateField(birthDate: string, minAge: number, now = Date.now()): RuleCode | null {
  if (birthDate.trim() === '') return 'REQUIRED';
  return checkBirthDate(birthDate.trim(), minAge, bangkokDay(now));
}

/** Step 3: name, password and its confirmation (they must match), the birth date. */
export function validateProfileStep(form: RegisterForm, minAge = DEFAULT_MIN_AGE): FieldErrors {
  return compact({
    birthDate: checkBirthDateField(form.birthDate, minAge),
    name: checkProfileName(form.name),
    password: checkPassword(form.password),
    confirmPassword: form.confirmPassword === '' ? 'REQUIRED' : checkPasswordsMatch(form.password, form.confirmPassword),
  });
}

function accountNamePartError(bankCode: string, part: string): RuleCode | null {
  const name = normaliseAccountName(part);
  if (name === '') return 'REQUIRED';
  return requiresEnglishName(bankCode) && !isEnglishOnlyName(name) ? 'BANK_ACCOUNT_NAME_ENG' : null;
}

/** Step 4: bank, first and last name (English only for KTB, TMB, BBL), account number. */
export function validateBankStep(form: RegisterForm): FieldErrors {
  const firstName = accountNamePartError(form.bankCode, form.firstName);
  let lastName = accountNamePartError(form.bankCode, form.lastName);
  if (!firstName && !lastName) lastName = checkBankAccountName(form.bankCode, joinAccountName(form.firstName, form.lastName));
  return compact({
    bankCode: form.bankCode === '' ? 'REQUIRED' : null,
    firstName,
    lastName,
    bankAccountNo: checkBankAccountNo(form.bankAccountNo),
  });
}

/**
 * The body of POST /api/account/validate and POST /api/account; `otpToken` is the token this
 * client verified for the phone (the server requires it to register while OTP is on).
 */
export function toRegistration(form: RegisterForm, laos: boolean, otpToken?: string | null): Registration {
  return {
    name: form.name.trim(),
    username: form.phone,
    password: form.password,
    sourceCode: form.sourceCode,
    inviteCode: form.inviteCode.trim(),
    bankCode: form.bankCode,
    bankAccountName: joinAccountName(form.firstName, form.lastName),
    bankAccountNo: form.bankAccountNo,
    ...(laos ? { currency: form.currency } : {}),
    ...(form.birthDate.trim() ? { birthDate: form.birthDate.trim() } : {}),
    ...(otpToken ? { otpToken } : {}),
  };
}

/** The registration code this tab verified, kept in session storage so a reload does not ask again. */
export interface VerifiedOtp {
  phone: string;
  token: string;
}

export function parseVerifiedOtp(raw: string | null): VerifiedOtp | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && 'phone' in value && 'token' in value && typeof value.phone === 'string' && typeof value.token === 'string') {
      return { phone: value.phone, token: value.token };
    }
  } catch {
    // a broken entry is no entry
  }
  return null;
}

/** Server field paths that belong to the bank step (not yet filled in when the profile step validates). */
export const BANK_STEP_PATHS: ReadonlySet<string> = new Set(['bankCode', 'bankAccountName', 'bankAccountNo', 'currency']);

/**
 * Answers of POST /api/account/validate that only complain about the bank step. The profile step
 * validates the full body while its bank part is still empty (the server answers KEY_MISSING for
 * the empty bankCode); those complaints are for the bank step, which checks them again on submit.
 */
const BANK_STEP_CODES: ReadonlySet<string> = new Set([
  'KEY_MISSING',
  'INVALID_BANK',
  'BANK_ACCOUNT_NO_INVALID',
  'BANK_ACCOUNT_NAME_INVALID',
  'BANK_ACCOUNT_NAME_ENG',
  'EXISTING_BANK',
]);

export function onlyBankStepComplaints(code: string | null, fields: ReadonlyArray<{ path: string }>): boolean {
  if (fields.length > 0) return fields.every((field) => BANK_STEP_PATHS.has(field.path));
  return code !== null && BANK_STEP_CODES.has(code);
}

/** Maps a server field path to the wizard's input. */
export function fieldForPath(path: string): RegisterField | null {
  switch (path) {
    case 'username':
      return 'phone';
    case 'bankAccountName':
      return 'lastName';
    case 'name':
    case 'password':
    case 'sourceCode':
    case 'inviteCode':
    case 'bankCode':
    case 'bankAccountNo':
    case 'currency':
      return path;
    default:
      return null;
  }
}
