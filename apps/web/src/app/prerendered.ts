import { isLocale } from '../i18n/i18n';
import type { Locale } from '@mw/contract/constants';

/**
 * The guest page the server sent prerendered (apps/web/scripts/prerender.mjs writes
 * `<div id="root" data-prerendered="/login" data-locale="th">` around React's HTML of it), when it
 * is the page of this address; null for the plain shell (member pages, or no prerendered page).
 */
export function prerenderedPage(root: HTMLElement, pathname: string): { route: string; locale: Locale } | null {
  const route = root.dataset.prerendered;
  const locale = root.dataset.locale;
  if (!route || !isLocale(locale)) return null;
  if (pathname.replace(/\/+$/, '') !== route) return null;
  return { route, locale };
}
