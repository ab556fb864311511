import i18next from 'i18next';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from './shared/router';
import { LOCALE_TAGS, type Locale } from '@mw/contract/constants';
import { AppTree } from './app/App';
import { assumeSiteActive } from './app/guards/SiteActiveGuard';
import { en } from './i18n/en';
import { setupI18n } from './i18n/i18n';
import { la } from './i18n/la';
import { th } from './i18n/th';

/**
 * The guest pages' HTML at build time (scripts/prerender.mjs runs this module, built by Vite for
 * Node): React's static prerendering of the app's tree at a route, in a locale, as the browser
 * renders it before any data has come (the site's name not known yet, the chat switch off). The
 * browser then hydrates that HTML (main.tsx).
 */
export interface PrerenderedPage {
  /** React's HTML of the route, to go inside #root. */
  html: string;
  /** <html lang>. */
  lang: string;
  /** <title>. */
  title: string;
  /** The <noscript> line (a browser without JavaScript sees the page, and this under it). */
  noScript: string;
}

const messages: Record<Locale, typeof th> = { th, la, en };

export async function renderPage(route: string, locale: Locale): Promise<PrerenderedPage> {
  setupI18n();
  // Whole locales (guest and member halves), whichever the entry bundles.
  i18next.addResourceBundle(locale, 'translation', messages[locale], true, true);
  await i18next.changeLanguage(locale);
  assumeSiteActive();
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={route}>
        <AppTree />
      </StaticRouter>
    </StrictMode>,
  );
  const html = await new Response(prelude).text();
  return { html, lang: LOCALE_TAGS[locale], title: i18next.t('app.name'), noScript: i18next.t('app.noScript') };
}
