import { LOCALE_TAGS, type Locale } from '@mw/contract/constants';
import { parseBaht, type Satang } from '@mw/contract/money';

const formatters = new Map<Locale, Intl.NumberFormat>();

/** Baht with exactly 2 decimals in the locale's own digits and separators (spec section 9). */
export function formatMoney(amount: number, locale: Locale): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(LOCALE_TAGS[locale], { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    formatters.set(locale, formatter);
  }
  return formatter.format(amount);
}

/** A whole number of baht without decimals (preset buttons). */
export function formatWhole(amount: number, locale: Locale): string {
  return new Intl.NumberFormat(LOCALE_TAGS[locale], { maximumFractionDigits: 0 }).format(amount);
}

/**
 * An amount as a member types it, in satang, or null when it is not an amount. Thousands commas
 * are dropped ("1,000"); a lone comma before one or two final digits is the decimal mark the Lao
 * locale shows ("100,50").
 */
export function parseAmountInput(text: string): Satang | null {
  let value = text.replace(/[\s\u00a0฿]/g, '');
  if (value.includes('.')) value = value.replace(/,/g, '');
  else if (/^\d+,\d{1,2}$/.test(value)) value = value.replace(',', '.');
  else value = value.replace(/,/g, '');
  return value === '' ? null : parseBaht(value);
}
