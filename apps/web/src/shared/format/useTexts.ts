import type { Locale } from '@mw/contract/constants';
import { useLocale } from './useLocale';

/**
 * A feature's own texts (kept in its chunk, outside the locale files) in the member's language;
 * `{{name}}` placeholders are filled from `values`.
 */
export function useTexts<T extends Record<string, string>>(texts: Readonly<Record<Locale, T>>): (key: keyof T, values?: Record<string, string | number>) => string {
  const chosen = texts[useLocale()];
  return (key, values = {}) => String(chosen[key]).replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
