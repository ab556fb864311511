import { useLocale } from '../../shared/format/useLocale';
import { bonusTexts, type BonusTexts } from './bonusTexts';

/** The bonus page's texts in the member's language; `{{name}}` placeholders filled from `values`. */
export function useBonusTexts(): (key: keyof BonusTexts, values?: Record<string, string | number>) => string {
  const texts = bonusTexts[useLocale()];
  return (key, values = {}) => texts[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
