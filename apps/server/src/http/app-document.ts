import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { DEFAULT_LAOS_LOCALE, DEFAULT_LOCALE, LOCALE_COOKIE, LOCALES, PRERENDERED_ROUTES, type Locale } from '@mw/contract/constants';

/**
 * The web app's index.html as the server sends it for every history-style route (/, /login,
 * /user/…): the built file with the site's state written into a meta tag,
 *
 *   <meta name="mw-site-active" content="true">   (or "false" when the service is shut down)
 *
 * The spec's guard asks GET /api/lookup/active before /login shows; for the navigation that
 * loaded the page, the answer is already in the page, so the login form renders without a round
 * trip (the app's SiteActiveGuard reads it; later navigations still ask the API). A `false`
 * sends the visitor to /terminated before anything else shows.
 *
 * The variants (active, shut down, unknown) are built once, each as identity, gzip and brotli;
 * the client's Accept-Encoding picks one. `Vary: Accept-Encoding`, `Cache-Control: no-cache`. The
 * app trusts the meta only for a fresh load (not a page restored by back/forward).
 * GET and HEAD are answered.
 */
export interface AppDocument {
  /**
   * The body and its Content-Encoding (undefined: identity) for this state and Accept-Encoding.
   * `null`: the state could not be read (the database did not answer) — the page goes without the
   * meta tag, and the app asks GET /api/lookup/active itself.
   */
  pick(active: boolean | null, acceptEncoding: string | undefined): { body: Buffer; encoding: 'br' | 'gzip' | undefined };
}

export const SITE_ACTIVE_META = 'mw-site-active';

/**
 * In Laos mode (LAOS_MODE) every variant also carries `<meta name="mw-laos" content="true">` and
 * `<html lang="lo-LA">`: the web app reads it at start (apps/web/src/shared/config.ts `LAOS`) and is
 * the Lao site — Lao by default, 8–15 digit phones, BCEL, the currency choice — from this one
 * switch, whatever its build.
 */
export const LAOS_META = 'mw-laos';

function withLaos(html: string, keepLang = false): string {
  if (keepLang) return withMeta(html, `<meta name="${LAOS_META}" content="true" />`);
  const lang = html.replace(/<html(\s[^>]*)?>/i, (tag) => (/\slang=/i.test(tag) ? tag.replace(/\slang=("[^"]*"|'[^']*'|[^\s>]*)/i, ' lang="lo-LA"') : tag.replace(/^<html/i, '<html lang="lo-LA"')));
  return withMeta(lang, `<meta name="${LAOS_META}" content="true" />`);
}

interface Variant {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

function withState(html: string, active: boolean): string {
  return withMeta(html, `<meta name="${SITE_ACTIVE_META}" content="${active ? 'true' : 'false'}" />`);
}

function withMeta(html: string, meta: string): string {
  // Right after <head …>, so it is in the document before any script of the app runs.
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return `${meta}${html}`;
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}\n    ${meta}${html.slice(at)}`;
}

function variant(html: string): Variant {
  const identity = Buffer.from(html, 'utf8');
  return {
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

/** Whether Accept-Encoding allows a coding (present and not `;q=0`). */
function accepts(acceptEncoding: string, coding: string): boolean {
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    if (name.trim() !== coding) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/** `keepLang`: in Laos mode, the page keeps its <html lang> (a prerendered page's language). */
export function appDocument(source: string, options: { laos?: boolean; keepLang?: boolean } = {}): AppDocument {
  const html = options.laos ? withLaos(source, options.keepLang === true) : source;
  const variants = { active: variant(withState(html, true)), gone: variant(withState(html, false)), unknown: variant(html) };
  return {
    pick(active, acceptEncoding) {
      const chosen = active === null ? variants.unknown : active ? variants.active : variants.gone;
      const header = acceptEncoding ?? '';
      if (accepts(header, 'br')) return { body: chosen.br, encoding: 'br' };
      if (accepts(header, 'gzip')) return { body: chosen.gzip, encoding: 'gzip' };
      return { body: chosen.identity, encoding: undefined };
    },
  };
}

/**
 * The guest pages (/login, /register, /howto, /contact, /terminated), prerendered at build time in
 * each locale (apps/web/scripts/prerender.mjs: dist/prerendered/<site>/<locale>/<page>.html), and
 * the plain shell (index.html) for every other route. The guest page goes out with its form already
 * in the HTML, in the language the `mw-locale` cookie names (the web app writes it when the
 * language changes and at start), else the site's default (th, or la in LAOS_MODE); the browser
 * hydrates it. /login goes prerendered only when the site is known active (its guard would
 * otherwise show something else first: the shell, as before). Each document carries the site
 * state and the Laos meta as the shell does; its variants are built on first use.
 */
export interface AppDocuments {
  pick(request: { path: string; cookie: string | undefined; active: boolean | null; acceptEncoding: string | undefined }): {
    body: Buffer;
    encoding: 'br' | 'gzip' | undefined;
    /** Whether a prerendered page was chosen (its language depends on the cookie: `Vary: Cookie`). */
    prerendered: boolean;
  };
}

/** The locale a Cookie header names with `mw-locale`, if it is one of the app's. */
export function localeFromCookie(cookie: string | undefined): Locale | null {
  if (!cookie) return null;
  for (const part of cookie.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== LOCALE_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    return (LOCALES as readonly string[]).includes(value) ? (value as Locale) : null;
  }
  return null;
}

/** The prerendered route a path is (a trailing slash allowed), if any. */
export function prerenderedRoute(path: string): (typeof PRERENDERED_ROUTES)[number] | null {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return (PRERENDERED_ROUTES as readonly string[]).includes(trimmed) ? (trimmed as (typeof PRERENDERED_ROUTES)[number]) : null;
}

/**
 * `prerendered(locale, route)`: that page's HTML (null when the build has none: the shell goes).
 * In Laos mode the prerendered pages keep their own <html lang> (the page's language).
 */
export function appDocuments(shell: string, prerendered: (locale: Locale, route: string) => string | null, options: { laos?: boolean } = {}): AppDocuments {
  const plain = appDocument(shell, options);
  const pages = new Map<string, AppDocument | null>();
  const fallback: Locale = options.laos ? DEFAULT_LAOS_LOCALE : DEFAULT_LOCALE;
  const pageOf = (locale: Locale, route: string): AppDocument | null => {
    const key = `${locale}:${route}`;
    if (!pages.has(key)) {
      const html = prerendered(locale, route);
      pages.set(key, html === null ? null : appDocument(html, { ...options, keepLang: true }));
    }
    return pages.get(key) ?? null;
  };
  return {
    pick({ path, cookie, active, acceptEncoding }) {
      const route = prerenderedRoute(path);
      const page = route && (route !== '/login' || active === true) ? pageOf(localeFromCookie(cookie) ?? fallback, route) : null;
      if (page) return { ...page.pick(active, acceptEncoding), prerendered: true };
      return { ...plain.pick(active, acceptEncoding), prerendered: false };
    },
  };
}
