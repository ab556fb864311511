import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Services } from '../platform/services';
import { appDocuments } from './app-document';
import { isAdminPath, isApiPath, normalisedPath } from './paths';

/**
 * The built web app (apps/web/dist): the member app's index.html and prerendered guest pages with
 * the site's state in them, the back office's page under /admin, the manifests with the site's
 * name, static assets (pre-compressed, immutable under assets/), and every other GET answered with
 * the app (history routes); API paths and assets not found answer 404 JSON.
 */
export async function registerWebApp(app: FastifyInstance, config: Config, services: Services, builtWebDir: string): Promise<void> {
  const root = config.WEB_DIST ? resolve(config.WEB_DIST) : builtWebDir;
  const hasWeb = existsSync(join(root, 'index.html'));
  // index.html, and the guest pages prerendered in each locale, with the site's state in them
  // (http/app-document.ts); read once (each prerendered page when first asked for).
  const prerendered = join(root, 'prerendered', config.LAOS_MODE ? 'laos' : 'default');
  const document = hasWeb
    ? appDocuments(
        readFileSync(join(root, 'index.html'), 'utf8'),
        (locale, route) => {
          const file = join(prerendered, locale, `${route.slice(1)}.html`);
          return existsSync(file) ? readFileSync(file, 'utf8') : null;
        },
        { laos: config.LAOS_MODE },
      )
    : null;
  // The back office's page (its own build: dist/admin/index.html) for /admin and every /admin/… route.
  const adminIndex = join(root, 'admin', 'index.html');
  const adminDocument = existsSync(adminIndex) ? readFileSync(adminIndex) : null;
  if (hasWeb) {
    // The installed app's name is the site's name from its settings (as the tab title and every
    // screen): the built manifests (apps/web/pwa) are sent with `name` and `short_name` replaced.
    app.addHook('onRequest', async (request, reply) => {
      const manifest = /^\/manifest\.(th|la|en)\.webmanifest$/.exec(request.url.split('?')[0] ?? '');
      if (!manifest || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      const file = join(root, `manifest.${manifest[1]}.webmanifest`);
      if (!existsSync(file)) return;
      const built = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const info = await services.settings.get<{ name?: string }>('info', {}).catch(() => ({ name: undefined }));
      const name = typeof info.name === 'string' && info.name.trim() !== '' ? info.name.trim() : null;
      const body = name ? { ...built, name, short_name: name } : built;
      return reply.header('cache-control', 'no-cache').type('application/manifest+json').send(JSON.stringify(body));
    });
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset; they are sent to clients that accept them.
      preCompressed: true,
      setHeaders: (res, path) => {
        void res.header('cache-control', path.includes(join(root, 'assets')) || path.includes(join(root, 'admin', 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The service worker (the installable app, apps/web/pwa): checked with the server on every
        // update check, never kept as immutable, and allowed the whole site as its scope.
        if (path.replace(/\.(br|gz)$/, '') === join(root, 'sw.js')) void res.header('service-worker-allowed', '/');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url;
    const path = normalisedPath(url);
    if (isApiPath(path) || /^\/+(admin\/+)?assets\//i.test(path) || (request.method !== 'GET' && request.method !== 'HEAD') || !document) {
      return reply.status(404).header('cache-control', 'no-store').send({ message: 'NOT_FOUND' });
    }
    if (isAdminPath(path)) {
      if (!adminDocument) return reply.status(404).header('cache-control', 'no-store').send({ message: 'NOT_FOUND' });
      return reply.header('cache-control', 'no-cache').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(adminDocument);
    }
    // History-style routes: every other GET gets the app, which shows its own 404 page.
    // Without an answer from the database the page still goes out, without the state in it.
    const active = await services.settings.siteActive().catch((error: unknown) => {
      request.log.warn({ err: error }, 'site state unknown: the page goes out without it');
      return null;
    });
    const { body, encoding, prerendered: guestPage } = document.pick({
      path,
      cookie: request.headers.cookie,
      active,
      acceptEncoding: request.headers['accept-encoding'],
    });
    if (encoding) void reply.header('content-encoding', encoding);
    // A guest page's language follows the language cookie.
    const vary = guestPage ? 'Accept-Encoding, Cookie' : 'Accept-Encoding';
    return reply.header('cache-control', 'no-cache').header('vary', vary).type('text/html; charset=utf-8').send(body);
  });
}

