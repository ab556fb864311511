import { useTranslation } from 'react-i18next';
import { LOCALES } from '@mw/contract/constants';
import { changeLocale, currentLocale, isLocale } from '../../i18n/i18n';
import { Icon } from './Icon';
import { useHydrated } from './useHydrated';

/** Language dropdown: th, la, en, each in its own script; the current one is disabled. */
export function LanguageSelect({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = isLocale(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLocale();
  // On a prerendered page, usable once the app has taken it over.
  const hydrated = useHydrated();
  return (
    <label className={compact ? 'language-select language-select-compact' : 'language-select'}>
      <Icon name="globe" size={18} />
      <span className="visually-hidden">{t('language.label')}</span>
      <select
        name="locale"
        value={current}
        disabled={!hydrated}
        data-testid="language-select"
        aria-label={t('language.label')}
        onChange={(event) => {
          if (isLocale(event.target.value)) void changeLocale(event.target.value);
        }}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} disabled={locale === current}>
            {t(`language.${locale}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
