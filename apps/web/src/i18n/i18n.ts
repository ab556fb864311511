import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LAOS_LOCALE,
  DEFAULT_LOCALE,
  LOCALES,
  LOCALE_COOKIE,
  LOCALE_TAGS,
  STORAGE_KEYS,
  type Locale,
} from '@mw/contract/constants';
import { LAOS, LAOS_BUILD } from '../shared/config';
import { applyMoneyVariables } from '../shared/format/moneyCurrency';
import { readStorage, writeStorage } from '../shared/storage';
import { defaultMessages } from './defaultMessages';
import type { LaterMessages, MemberFirstMessages, MemberLaterMessages, Messages } from './messages';

/** The locale whose guest texts the entry bundles (th, or la in a Laos build). */
export const bundledLocale: Locale = LAOS_BUILD ? DEFAULT_LAOS_LOCALE : DEFAULT_LOCALE;

/**
 * What a visitor who chose nothing sees: la on the Lao site (the server's LAOS_MODE, read from the
 * page at run time), else th. When it is not the bundled one it loads before the first paint.
 */
export const defaultLocale: Locale = LAOS ? DEFAULT_LAOS_LOCALE : DEFAULT_LOCALE;

const loaders: Record<Locale, () => Promise<Messages>> = {
  th: () => import('./th').then((m) => m.th),
  la: () => import('./la').then((m) => m.la),
  en: () => import('./en').then((m) => m.en),
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The language the member chose (kept in localStorage), if any. */
export function chosenLocale(): Locale | null {
  const stored = readStorage('local', STORAGE_KEYS.locale);
  return isLocale(stored) ? stored : null;
}

/** The member's language: their choice (localStorage, else the cookie that mirrors it), or the site's default. */
export function storedLocale(): Locale {
  return chosenLocale() ?? cookieLocale() ?? defaultLocale;
}

/** The locale the language cookie names (what the server prerendered the page in), if any. */
export function cookieLocale(): Locale | null {
  if (typeof document === 'undefined') return null;
  const found = document.cookie.split(';').find((part) => part.trim().startsWith(`${LOCALE_COOKIE}=`));
  const value = found?.split('=')[1]?.trim();
  return isLocale(value) ? value : null;
}

/**
 * Tells the server the member's language (a cookie, a year long, as the choice in localStorage
 * is kept): the next page load comes prerendered in it. Written when it changes and at start.
 */
export function rememberLocaleCookie(locale: Locale): void {
  if (typeof document === 'undefined' || cookieLocale() === locale) return;
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
}

export function currentLocale(): Locale {
  const language = i18next.resolvedLanguage ?? i18next.language;
  return isLocale(language) ? language : defaultLocale;
}

/** The default locale's other texts, when they arrive before i18next is set up (main.tsx loads the member layout first). */
let pendingMessages: Partial<MemberFirstMessages & LaterMessages & MemberLaterMessages> = {};

/**
 * Adds the default locale's member texts of the first screens (memberMessages.ts, imported by the
 * member layout), or its texts after the first screen (loadLaterMessages), to the first screen's
 * texts, which the entry bundles: at once, or at set-up if it has not happened yet.
 */
export function registerDefaultMessages(messages: MemberFirstMessages | LaterMessages | MemberLaterMessages): void {
  if (i18next.isInitialized) i18next.addResourceBundle(bundledLocale, 'translation', messages, true, true);
  else pendingMessages = { ...pendingMessages, ...messages };
}

let laterMessages: Promise<void> | null = null;
let memberLaterMessages: Promise<void> | null = null;

/**
 * The default locale's texts that are not on the first screen: the guest pages' (registration,
 * password reset, how-to, contact, installable app, error messages…: defaultLaterMessages.ts) and,
 * with `member`, the member screens' and dialogs' beyond the dashboard
 * (defaultMemberLaterMessages.ts). main.tsx starts this after the first screen (the member's only
 * on a member screen: a guest page never downloads them); the screens that show them load with
 * them (AppRoutes.tsx, the home page's dialogs). (Another locale loads whole when chosen.)
 */
export function loadLaterMessages(options: { member?: boolean } = { member: true }): Promise<void> {
  laterMessages ??= import('./defaultLaterMessages').then(
    (m) => registerDefaultMessages(m.defaultLaterMessages),
    (error: unknown) => {
      laterMessages = null;
      throw error;
    },
  );
  if (!options.member) return laterMessages;
  memberLaterMessages ??= import('./defaultMemberLaterMessages').then(
    (m) => registerDefaultMessages(m.defaultMemberLaterMessages),
    (error: unknown) => {
      memberLaterMessages = null;
      throw error;
    },
  );
  return Promise.all([laterMessages, memberLaterMessages]).then(() => undefined);
}

/** Initialises i18next synchronously with the default locale's messages (its first screen's, and the others already loaded). */
export function setupI18n(): typeof i18next {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      lng: bundledLocale,
      fallbackLng: bundledLocale,
      supportedLngs: [...LOCALES],
      resources: { [bundledLocale]: { translation: { ...defaultMessages, ...pendingMessages } } },
      // {{sign}} and {{moneyUnit}}: the member's currency (shared/format/moneyCurrency.ts), baht until it is known.
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
      showSupportNotice: false,
    });
    // {{sign}} and {{moneyUnit}} in texts: the member's currency (baht until it is known).
    applyMoneyVariables();
    applyDocumentLocale(bundledLocale);
  }
  return i18next;
}

function applyDocumentLocale(locale: Locale): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = LOCALE_TAGS[locale];
  document.title = i18next.t('app.name');
  // Lao glyphs come from Noto Sans Lao, fetched only when Lao is in use.
  if (locale === 'la') void import('../shared/ui/fonts-lao');
}

/** Loads a locale's messages (lazily for non-default locales), switches to it and remembers it. */
export async function changeLocale(locale: Locale): Promise<void> {
  if (!i18next.hasResourceBundle(locale, 'translation')) {
    i18next.addResourceBundle(locale, 'translation', await loaders[locale]());
  }
  // <html lang> first: requests made while the screens re-render already ask in the new language.
  if (typeof document !== 'undefined') document.documentElement.lang = LOCALE_TAGS[locale];
  await i18next.changeLanguage(locale);
  writeStorage('local', STORAGE_KEYS.locale, locale);
  rememberLocaleCookie(locale);
  applyDocumentLocale(locale);
}
