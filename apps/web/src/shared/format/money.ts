import { LOCALE_TAGS, type Locale } from '@mw/contract/constants';

// Parsing typed amounts lives in amountInput.ts: it needs the contract's money module (and zod
// with it), which the screens that only show amounts (the home dashboard) do not load.

/**
 * Separators of the locales whose number format is the same everywhere (CLDR: th and en write
 * 1,234.56 in Latin digits). Their amounts are written here without Intl: the first
 * Intl.NumberFormat of a page loads the ICU number data, a long task (~25 ms, 100 ms on a slow
 * phone) in the middle of the home dashboard's first render. Lao (whose separators differ between
 * ICU builds) and anything out of the plain range below still go through Intl.
 */
const PLAIN_SEPARATORS: Partial<Record<Locale, { group: string; decimal: string }>> = {
  th: { group: ',', decimal: '.' },
  en: { group: ',', decimal: '.' },
};

/** Below this every amount in satang is an exact integer in a double. */
const PLAIN_LIMIT = 1e13;

/**
 * An amount with exactly 2 decimals as Intl.NumberFormat writes it: the shortest decimal form of
 * the double, rounded half away from zero (1.005 → 1.01), "-" before a negative amount (-0 too).
 */
function plainFixed2(amount: number, group: string, decimal: string): string | null {
  const abs = Math.abs(amount);
  if (!Number.isFinite(amount) || abs >= PLAIN_LIMIT) return null;
  let cents = 0;
  if (abs >= 1e-6) {
    // No exponent in this range: "123.456" → integer "123", fraction "456".
    const [whole, fraction = ''] = String(abs).split('.');
    cents = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
    if (fraction.length > 2 && fraction.charCodeAt(2) >= 53 /* '5' */) cents += 1;
  }
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const rest = cents % 100;
  const sign = amount < 0 || Object.is(amount, -0) ? '-' : '';
  return `${sign}${whole}${decimal}${rest < 10 ? '0' : ''}${rest}`;
}

const formatters = new Map<Locale, Intl.NumberFormat>();

/** Baht with exactly 2 decimals in the locale's own digits and separators (spec section 9). */
export function formatMoney(amount: number, locale: Locale): string {
  const separators = PLAIN_SEPARATORS[locale];
  const plain = separators ? plainFixed2(amount, separators.group, separators.decimal) : null;
  if (plain !== null) return plain;
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
