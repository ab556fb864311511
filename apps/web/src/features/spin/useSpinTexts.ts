import { useLocale } from '../../shared/format/useLocale';
import { spinTexts, type SpinTexts } from './spinTexts';

/** The wheel page's texts in the member's language; `{{name}}` placeholders filled from `values`. */
export function useSpinTexts(): (key: keyof SpinTexts, values?: Record<string, string | number>) => string {
  const texts = spinTexts[useLocale()];
  return (key, values = {}) => texts[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
