import { useTranslation } from 'react-i18next';
import type { Locale } from '@mw/contract/constants';
import { currentLocale, isLocale } from '../../i18n/i18n';

/** The UI locale; components using it re-render when the member switches language. */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return isLocale(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLocale();
}
