/* The member app's service worker. Written to dist/sw.js by the build (apps/web/pwa/plugin.ts),
 * which fills in the build's id and the files to precache. Rules:
 * - install: precache the app's built files (scripts, styles, fonts, icons, manifests, the offline
 *   page) under a cache named by the build; nothing else is ever put in a cache;
 * - /api, /socket.io, /sandbox and /admin are never touched (the browser fetches them itself);
 * - a page (navigation) always comes from the network — the server puts the site's state in
 *   it — and when the network fails the offline page answers, in the member's language;
 * - a precached file comes from the cache, anything else from the network;
 * - a new build's worker waits until the app asks it to take over (the "new version — reload"
 *   prompt), then old caches are deleted. */
const BUILD = __BUILD__;
const PRECACHE = __PRECACHE__;
const OFFLINE = '/offline.html';
const CACHE = `mw-shell-${BUILD}`;
const BYPASS = /^\/+(api|socket\.io|sandbox|admin)(?![a-z0-9_.~-])/i;
const precached = new Set(PRECACHE);

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith('mw-shell-') && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') void self.skipWaiting();
  if (event.data && event.data.type === 'BUILD' && event.ports[0]) event.ports[0].postMessage(BUILD);
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || BYPASS.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.open(CACHE).then((cache) => cache.match(OFFLINE)).then((page) => page || Response.error())));
    return;
  }
  if (!precached.has(url.pathname)) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(url.pathname))
      .then((hit) => hit || fetch(request)),
  );
});
