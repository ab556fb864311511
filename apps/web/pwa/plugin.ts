import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { en } from '../src/i18n/en';
import { laGuest } from '../src/i18n/la.guest';
import { thGuest } from '../src/i18n/th.guest';

/**
 * The installable app, made at build time (no dependency: a hand-written worker of ~60 lines with
 * the build's file list, instead of vite-plugin-pwa / workbox-build and their ~150 packages):
 *   manifest.<th|la|en>.webmanifest — one per language, the page links the one of its language;
 *   offline.html + offline.js       — the page the worker answers a navigation with when offline;
 *   sw.js                           — pwa/sw.js with the build id and the files to precache.
 * The icons are committed PNGs (public/icons, made by scripts/make-icons.mjs).
 */

type PwaLocale = 'th' | 'la' | 'en';
const LOCALES: PwaLocale[] = ['th', 'la', 'en'];
const TAGS: Record<PwaLocale, string> = { th: 'th-TH', la: 'lo-LA', en: 'en-GB' };
const MESSAGES = { th: thGuest, la: laGuest, en };

/** Icons and the files of public/ the worker keeps (not the banners and videos: large, and not the app's shell). */
const ICONS = ['/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png', '/icons/apple-touch-icon.png', '/favicon.svg'];

/** A colour of the design tokens (src/shared/ui/theme.css). */
function token(css: string, name: string): string {
  const match = new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{3,8})\\s*;`).exec(css);
  if (!match?.[1]) throw new Error(`design token --${name} not found in theme.css`);
  return match[1];
}

export function manifestOf(locale: PwaLocale, colours: { theme: string; background: string }): Record<string, unknown> {
  const m = MESSAGES[locale];
  return {
    // One id for the three: whichever language's manifest the browser read, it is one installed app.
    id: '/user/home',
    name: m.app.name,
    short_name: m.pwa.shortName,
    description: m.app.tagline,
    lang: TAGS[locale],
    dir: 'ltr',
    start_url: '/user/home',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: colours.theme,
    background_color: colours.background,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

function offlineHtml(locale: PwaLocale, colours: { theme: string; background: string }): string {
  const m = MESSAGES[locale];
  // Styles inline (the CSP allows inline styles, not inline scripts): the page needs no other file but its script.
  return `<!doctype html>
<html lang="${TAGS[locale]}">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
    <meta name="theme-color" content="${colours.theme}" />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <title>${m.pwa.offlineTitle}</title>
    <style>
      html, body { margin: 0; min-height: 100%; background: ${colours.background}; color: #f5f3ff; }
      body { font-family: 'Noto Sans Thai', 'Noto Sans Lao', system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; }
      main { box-sizing: border-box; max-width: 480px; min-height: 100vh; margin: 0 auto; padding: 32px 24px; display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center; gap: 16px; }
      h1 { font-size: 1.4rem; margin: 8px 0 0; }
      p { color: #bcb5e0; line-height: 1.6; margin: 0; }
      button { margin-top: 8px; min-height: 48px; padding: 0 28px; border: 0; border-radius: 14px; background: linear-gradient(135deg, #f5c451, #e9a91c); color: #231800; font: inherit; font-weight: 600; cursor: pointer; }
      button:focus-visible { outline: none; box-shadow: 0 0 0 3px rgba(245, 196, 81, 0.55); }
    </style>
  </head>
  <body>
    <main data-testid="offline-page">
      <img src="/icons/icon-192.png" alt="" width="88" height="88" />
      <h1 id="offline-title" data-testid="offline-title">${m.pwa.offlineTitle}</h1>
      <p id="offline-text">${m.pwa.offlineText}</p>
      <button type="button" id="offline-retry" data-testid="offline-retry">${m.pwa.retry}</button>
    </main>
    <script src="/offline.js"></script>
  </body>
</html>
`;
}

export function pwa(root: string, laos: boolean): Plugin {
  const defaultLocale: PwaLocale = laos ? 'la' : 'th';
  const colours = () => {
    const css = readFileSync(join(root, 'src/shared/ui/theme.css'), 'utf8');
    return { theme: token(css, 'bg'), background: token(css, 'bg') };
  };
  return {
    name: 'mw:pwa',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'link', attrs: { rel: 'manifest', href: `/manifest.${defaultLocale}.webmanifest` }, injectTo: 'head' },
      { tag: 'link', attrs: { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon.png' }, injectTo: 'head' },
    ],
    generateBundle: {
      // After Vite's own hooks (which drop the chunks of CSS-only modules from the bundle).
      order: 'post',
      handler(_options, bundle) {
        const c = colours();
        const files = new Map<string, string>();
        for (const locale of LOCALES) files.set(`manifest.${locale}.webmanifest`, `${JSON.stringify(manifestOf(locale, c), null, 2)}\n`);
        files.set('offline.html', offlineHtml(defaultLocale, c));
        const texts = Object.fromEntries(LOCALES.map((l) => [l, { tag: TAGS[l], title: MESSAGES[l].pwa.offlineTitle, text: MESSAGES[l].pwa.offlineText, retry: MESSAGES[l].pwa.retry }]));
        files.set(
          'offline.js',
          readFileSync(join(root, 'pwa/offline.js'), 'utf8').replace('__TEXTS__', JSON.stringify(texts)).replace('__DEFAULT_LOCALE__', JSON.stringify(defaultLocale)),
        );
        // The app's own files: every script and style, and the fonts' woff2 faces (browsers that take the app's worker read woff2).
        const built = Object.keys(bundle).filter((name) => /^assets\/.+\.(js|css|woff2)$/.test(name));
        const precache = [...built.map((name) => `/${name}`), ...[...files.keys()].map((name) => `/${name}`), ...ICONS].sort();
        const template = readFileSync(join(root, 'pwa/sw.js'), 'utf8');
        const build = createHash('sha256')
          .update(template)
          .update(precache.join('\n'))
          .update([...files.values()].join('\n'))
          .digest('hex')
          .slice(0, 16);
        files.set('sw.js', template.replace('__BUILD__', JSON.stringify(build)).replace('__PRECACHE__', JSON.stringify(precache)));
        for (const [fileName, source] of files) this.emitFile({ type: 'asset', fileName, source });
      },
    },
  };
}
