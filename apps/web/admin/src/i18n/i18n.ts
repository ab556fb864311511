import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { th } from './th';

/** The back office speaks Thai (default) and English; both are small, so both ship in its bundle. */
export const ADMIN_LOCALES = ['th', 'en'] as const;
export type AdminLocale = (typeof ADMIN_LOCALES)[number];
const STORAGE_KEY = 'admin-locale';
const TAGS: Record<AdminLocale, string> = { th: 'th-TH', en: 'en-GB' };

function stored(): AdminLocale {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'en' ? 'en' : 'th';
  } catch {
    return 'th';
  }
}

export function setupI18n(): void {
  const lng = stored();
  void i18next.use(initReactI18next).init({
    lng,
    fallbackLng: 'th',
    supportedLngs: [...ADMIN_LOCALES],
    resources: { th: { translation: th }, en: { translation: en } },
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
    showSupportNotice: false,
  });
  applyDocument(lng);
}

function applyDocument(locale: AdminLocale): void {
  document.documentElement.lang = TAGS[locale];
  document.title = i18next.t('app.name');
}

export function currentLocale(): AdminLocale {
  return i18next.language === 'en' ? 'en' : 'th';
}

export async function changeLocale(locale: AdminLocale): Promise<void> {
  await i18next.changeLanguage(locale);
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // private mode: the choice lasts for this page only
  }
  applyDocument(locale);
}
