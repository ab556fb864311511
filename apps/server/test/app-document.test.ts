import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDocument, appDocuments, localeFromCookie, prerenderedRoute } from '../src/http/app-document';
import { dbKinds, OPERATOR_TOKEN, startApp, type TestApp } from './helpers';

const INDEX = `<!doctype html>
<html lang="th-TH">
  <head>
    <meta charset="UTF-8" />
    <title>Member Wallet</title>
    <script type="module" src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

function metaOf(html: string): string | null {
  return /<meta name="mw-site-active" content="([^"]*)" \/>/.exec(html)?.[1] ?? null;
}

describe('the app document (index.html with the site state)', () => {
  const document = appDocument(INDEX);

  it('writes the state into <head>, before the first script, and keeps the rest of the page', () => {
    const active = document.pick(true, undefined);
    expect(active.encoding).toBeUndefined();
    const html = active.body.toString('utf8');
    expect(metaOf(html)).toBe('true');
    expect(html.indexOf('mw-site-active')).toBeLessThan(html.indexOf('<script'));
    expect(html.replace(/\n\s*<meta name="mw-site-active"[^>]*>/, '')).toBe(INDEX);
    expect(metaOf(document.pick(false, '').body.toString('utf8'))).toBe('false');
  });

  it('sends brotli, then gzip, then identity, as Accept-Encoding allows', () => {
    const br = document.pick(false, 'gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(metaOf(brotliDecompressSync(br.body).toString('utf8'))).toBe('false');
    const gzip = document.pick(true, 'gzip;q=0.8, br;q=0');
    expect(gzip.encoding).toBe('gzip');
    expect(metaOf(gunzipSync(gzip.body).toString('utf8'))).toBe('true');
    expect(document.pick(true, 'identity').encoding).toBeUndefined();
    expect(document.pick(true, 'BR').encoding).toBe('br');
    expect(document.pick(true, 'brotli, xgzip').encoding).toBeUndefined();
  });

  it('leaves the meta out when the state is unknown', () => {
    expect(document.pick(null, undefined).body.toString('utf8')).toBe(INDEX);
    expect(gunzipSync(document.pick(null, 'gzip').body).toString('utf8')).toBe(INDEX);
  });

  it('still works on a page without <head>', () => {
    expect(metaOf(appDocument('<p>hi</p>').pick(true, undefined).body.toString('utf8'))).toBe('true');
  });

  it('in Laos mode marks every variant as the Lao site (meta mw-laos, <html lang="lo-LA">); otherwise not', () => {
    const laos = appDocument(INDEX, { laos: true });
    for (const state of [true, false, null]) {
      const html = laos.pick(state, undefined).body.toString('utf8');
      expect(html).toContain('<meta name="mw-laos" content="true" />');
      expect(html).toContain('<html lang="lo-LA">');
      expect(html.indexOf('mw-laos')).toBeLessThan(html.indexOf('<script'));
    }
    expect(metaOf(laos.pick(false, undefined).body.toString('utf8'))).toBe('false');
    expect(gunzipSync(laos.pick(true, 'gzip').body).toString('utf8')).toContain('mw-laos');
    expect(document.pick(true, undefined).body.toString('utf8')).not.toContain('mw-laos');
    // A page whose <html> has no lang gets one.
    expect(appDocument('<html><head></head></html>', { laos: true }).pick(null, undefined).body.toString('utf8')).toContain('<html lang="lo-LA">');
  });
});

/** A prerendered page as scripts/prerender.mjs writes it: the shell with a form in #root. */
function prerenderedPage(locale: string, route: string): string {
  const lang = { th: 'th-TH', la: 'lo-LA', en: 'en-GB' }[locale] ?? 'th-TH';
  return INDEX.replace('<html lang="th-TH">', `<html lang="${lang}">`).replace(
    '<div id="root"></div>',
    `<div id="root" data-prerendered="${route}" data-locale="${locale}"><form><input name="username"><input name="password" type="password"></form></div>`,
  );
}

function rootOf(html: string): { route: string; locale: string } | null {
  const found = /<div id="root" data-prerendered="([^"]*)" data-locale="([^"]*)">/.exec(html);
  return found ? { route: found[1] ?? '', locale: found[2] ?? '' } : null;
}

describe('the document of a route (prerendered guest page or shell)', () => {
  const asked: string[] = [];
  const documents = appDocuments(INDEX, (locale, route) => {
    asked.push(`${locale}:${route}`);
    return route === '/contact' && locale === 'la' ? null : prerenderedPage(locale, route);
  });
  const pick = (path: string, cookie?: string, active: boolean | null = true) => {
    const chosen = documents.pick({ path, cookie, active, acceptEncoding: undefined });
    return { ...chosen, html: chosen.body.toString('utf8') };
  };

  it('reads the language cookie; anything else is no choice', () => {
    expect(localeFromCookie('mw-locale=en')).toBe('en');
    expect(localeFromCookie('a=1; mw-locale=la; b=2')).toBe('la');
    expect(localeFromCookie('mw-locale=fr')).toBeNull();
    expect(localeFromCookie('xmw-locale=en')).toBeNull();
    expect(localeFromCookie(undefined)).toBeNull();
    expect(prerenderedRoute('/login/')).toBe('/login');
    expect(prerenderedRoute('/user/home')).toBeNull();
  });

  it('sends each guest page prerendered in the cookie\'s language, Thai without one', () => {
    for (const route of ['/login', '/register', '/howto', '/contact', '/terminated']) {
      const th = pick(route);
      expect(th.prerendered, route).toBe(true);
      expect(rootOf(th.html), route).toEqual({ route, locale: 'th' });
      expect(th.html, route).toContain('<html lang="th-TH">');
      expect(metaOf(th.html), route).toBe('true');
      expect(rootOf(pick(route, 'mw-locale=en').html), route).toEqual({ route, locale: 'en' });
    }
    expect(rootOf(pick('/login/', 'theme=dark; mw-locale=la').html)).toEqual({ route: '/login', locale: 'la' });
    // A language the cookie names wrongly: the default.
    expect(rootOf(pick('/howto', 'mw-locale=xx').html)).toEqual({ route: '/howto', locale: 'th' });
  });

  it('sends the shell for member pages, unknown routes, and a page the build did not prerender', () => {
    for (const path of ['/', '/user/home', '/user/profile', '/forgot-password', '/nope']) {
      const shell = pick(path, 'mw-locale=en');
      expect(shell.prerendered, path).toBe(false);
      expect(shell.html.replace(/\n\s*<meta name="mw-site-active"[^>]*>/, ''), path).toBe(INDEX);
    }
    expect(pick('/contact', 'mw-locale=la').prerendered).toBe(false);
  });

  it('sends /login prerendered only while the site is known active (its guard would show otherwise)', () => {
    expect(pick('/login', undefined, false).prerendered).toBe(false);
    expect(metaOf(pick('/login', undefined, false).html)).toBe('false');
    expect(pick('/login', undefined, null).prerendered).toBe(false);
    expect(pick('/terminated', undefined, false).prerendered).toBe(true);
    expect(metaOf(pick('/terminated', undefined, false).html)).toBe('false');
  });

  it('reads a page once, and in Laos mode defaults to Lao and keeps each page\'s own language', () => {
    const count = asked.filter((key) => key === 'th:/login').length;
    pick('/login');
    expect(asked.filter((key) => key === 'th:/login').length).toBe(count);
    const laos = appDocuments(INDEX, prerenderedPage, { laos: true });
    const lao = laos.pick({ path: '/login', cookie: undefined, active: true, acceptEncoding: 'br' });
    expect(lao.encoding).toBe('br');
    const html = brotliDecompressSync(lao.body).toString('utf8');
    expect(rootOf(html)).toEqual({ route: '/login', locale: 'la' });
    expect(html).toContain('<meta name="mw-laos" content="true" />');
    const en = laos.pick({ path: '/login', cookie: 'mw-locale=en', active: true, acceptEncoding: undefined }).body.toString('utf8');
    expect(en).toContain('<html lang="en-GB">');
    expect(en).toContain('mw-laos');
    expect(laos.pick({ path: '/user/home', cookie: 'mw-locale=en', active: true, acceptEncoding: undefined }).body.toString('utf8')).toContain('<html lang="lo-LA">');
  });
});

describe.each(dbKinds)('the server sends the app document on %s', (kind) => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'mw-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(join(dist, 'manifest.en.webmanifest'), JSON.stringify({ id: '/', name: 'Member Wallet', short_name: 'Wallet', start_url: '/user/home' }));
    for (const locale of ['th', 'en']) {
      mkdirSync(join(dist, 'prerendered', 'default', locale), { recursive: true });
      writeFileSync(join(dist, 'prerendered', 'default', locale, 'login.html'), prerenderedPage(locale, '/login'));
    }
    t = await startApp(kind, { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  async function page(url: string, encoding?: string): Promise<{ status: number; html: string; headers: Record<string, unknown> }> {
    const res = await t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
    const coding = res.headers['content-encoding'];
    const html = coding === 'br' ? brotliDecompressSync(res.rawPayload) : coding === 'gzip' ? gunzipSync(res.rawPayload) : res.rawPayload;
    return { status: res.statusCode, html: html.toString('utf8'), headers: res.headers };
  }

  it('writes LAOS_MODE into the page: the web app is the Lao site from the server\'s one switch', async () => {
    const lao = await startApp(kind, { WEB_DIST: dist, LAOS_MODE: 'true' });
    try {
      const res = await lao.app.inject({ method: 'GET', url: '/register' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<meta name="mw-laos" content="true" />');
      expect(res.body).toContain('<html lang="lo-LA">');
    } finally {
      await lao.close();
    }
    expect((await page('/register')).html).not.toContain('mw-laos');
  });

  it('sends /login prerendered in the language of the cookie, with the form in the HTML', async () => {
    const th = await page('/login', 'gzip');
    expect(rootOf(th.html)).toEqual({ route: '/login', locale: 'th' });
    expect(th.html).toContain('<input name="password" type="password">');
    expect(th.headers['vary']).toMatch(/cookie/i);
    const res = await t.app.inject({ method: 'GET', url: '/login?next=1', headers: { cookie: 'mw-locale=en' } });
    expect(rootOf(res.body)).toEqual({ route: '/login', locale: 'en' });
    expect(metaOf(res.body)).toBe('true');
    // Not built for this language: the shell.
    const la = await t.app.inject({ method: 'GET', url: '/login', headers: { cookie: 'mw-locale=la' } });
    expect(rootOf(la.body)).toBeNull();
    expect((await page('/user/home')).html).toBe(INDEX.replace('<head>', '<head>\n    <meta name="mw-site-active" content="true" />'));
  });

  it('answers every history route with the page, marked active, never cached', async () => {
    for (const url of ['/', '/login', '/user/home', '/no/such/page?x=1']) {
      const res = await page(url, 'br');
      expect(res.status, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['vary'], url).toMatch(/accept-encoding/i);
      expect(metaOf(res.html), url).toBe('true');
    }
    // Assets and API paths are not pages.
    expect((await page('/assets/missing.js')).status).toBe(404);
    expect((await page('/api/nothing')).status).toBe(404);
    expect((await page('/assets/index-abc.js')).status).toBe(200);
  });

  it('sends the installed app\'s manifest with the site\'s name from its settings', async () => {
    await t.services.settings.set('info', { name: 'Golden Wallet', website: 'goldenwallet.example' });
    const res = await t.app.inject({ method: 'GET', url: '/manifest.en.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.json()).toEqual({ id: '/', name: 'Golden Wallet', short_name: 'Golden Wallet', start_url: '/user/home' });
    await t.services.settings.set('info', { name: 'Lucky Kip', website: '' });
    expect((await t.app.inject({ method: 'GET', url: '/manifest.en.webmanifest?v=2' })).json()).toMatchObject({ name: 'Lucky Kip', short_name: 'Lucky Kip' });
    // A language the build has no manifest for is not a page either.
    expect((await t.app.inject({ method: 'GET', url: '/manifest.la.webmanifest' })).statusCode).not.toBe(500);
  });

  it('answers HEAD like GET, without a body; other methods are not pages', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/login' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(head.rawPayload.length).toBe(0);
    expect((await t.app.inject({ method: 'POST', url: '/login' })).statusCode).toBe(404);
  });

  it('sends the page without the state when the database does not answer', async () => {
    const settings = t.services.settings;
    const original = settings.siteActive.bind(settings);
    settings.siteActive = () => Promise.reject(new Error('database down'));
    try {
      const res = await page('/login');
      expect(res.status).toBe(200);
      expect(metaOf(res.html)).toBeNull();
      expect(res.html).toBe(INDEX);
    } finally {
      settings.siteActive = original;
    }
  });

  it('marks the page shut down while the site is, and active again after', async () => {
    const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    const put = (value: boolean) => t.app.inject({ method: 'PUT', url: '/api/operator/settings/siteActive', headers: operator, payload: { value } });
    expect((await put(false)).statusCode).toBe(200);
    try {
      const gone = await page('/login', 'gzip');
      expect(gone.status).toBe(200);
      expect(gone.headers['content-encoding']).toBe('gzip');
      expect(metaOf(gone.html)).toBe('false');
    } finally {
      expect((await put(true)).statusCode).toBe(200);
    }
    const back = await page('/login');
    expect(back.headers['content-encoding']).toBeUndefined();
    expect(metaOf(back.html)).toBe('true');
  });
});
