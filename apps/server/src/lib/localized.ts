import type { Locale } from '@mw/contract/constants';

/** Content an operator writes once per locale. */
export type Localized<T> = Record<Locale, T>;

export function pickLocale<T>(value: Localized<T> | T, locale: Locale): T {
  if (typeof value === 'object' && value !== null && 'th' in value && 'en' in value) {
    const localized = value as Localized<T>;
    return localized[locale] ?? localized.th;
  }
  return value as T;
}
