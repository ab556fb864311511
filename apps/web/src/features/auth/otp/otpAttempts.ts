import type { Locale } from '@mw/contract/constants';
import { ApiError } from '../../../shared/api/ApiError';
import { errorMessage } from '../../../shared/api/errorMessage';

/** "N tries left" after a wrong code (OTP_CODE_INVALID's `attemptsLeft`), kept with the OTP pages' chunk. */
const TRIES_LEFT: Record<Locale, { one: string; other: string }> = {
  th: { one: 'ลองได้อีก {{count}} ครั้ง', other: 'ลองได้อีก {{count}} ครั้ง' },
  la: { one: 'ລອງໄດ້ອີກ {{count}} ເທື່ອ', other: 'ລອງໄດ້ອີກ {{count}} ເທື່ອ' },
  en: { one: '{{count}} try left.', other: '{{count}} tries left.' },
};

/** The text of a failed OTP step: the code's text, and after a wrong code how many tries are left. */
export function otpErrorMessage(error: unknown, locale: Locale): string {
  const text = errorMessage(error);
  if (!(error instanceof ApiError) || error.code !== 'OTP_CODE_INVALID') return text;
  const left = error.detail.attemptsLeft;
  if (left === undefined) return text;
  const forms = TRIES_LEFT[locale];
  return `${text} ${(left === 1 ? forms.one : forms.other).replace('{{count}}', String(left))}`;
}
