import { useLocale } from '../../shared/format/useLocale';
import { depositTexts, type DepositTexts } from './depositTexts';

/** The deposit texts in the member's language; `{{name}}` placeholders filled from `values`. */
export function useDepositTexts(): (key: keyof DepositTexts, values?: Record<string, string | number>) => string {
  const texts = depositTexts[useLocale()];
  return (key, values = {}) => texts[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
