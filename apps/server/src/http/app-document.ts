import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

function withLaos(html: string): string {
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

export function appDocument(source: string, options: { laos?: boolean } = {}): AppDocument {
  const html = options.laos ? withLaos(source) : source;
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
