// The guest pages prerendered to HTML, after the member app's build (`npm run build`): Vite builds
// src/prerender.tsx for Node (.prerender/), which renders /login, /register, /howto, /contact and
// /terminated in th, la and en, for the site as it is and for the Lao site (LAOS_MODE: its
// register page differs). Each page is dist/index.html with React's HTML in #root (marked with
// its route and locale, which main.tsx hydrates), its <html lang> and <title>, and links to its
// lazy screen's script and CSS. Written to dist/prerendered/<site>/<locale>/<page>.html, where
// <site> is `default` or `laos`; the server picks one per request (apps/server/src/http/app-document.ts).
// Usage: node apps/web/scripts/prerender.mjs [--mode <vite mode>]
//        node apps/web/scripts/prerender.mjs --json <file>   (tests: only React's HTML of each page
//        of the default site, as {"<locale> <route>": html}, without a client build)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const modeAt = process.argv.indexOf('--mode');
const mode = modeAt > 0 ? process.argv[modeAt + 1] : 'production';

export const ROUTES = ['/login', '/register', '/howto', '/contact', '/terminated'];
export const LOCALES = ['th', 'la', 'en'];
export const SITES = ['default', 'laos'];

/**
 * The lazy modules each page renders (their scripts are preloaded, their CSS linked, before
 * hydration); `texts`: the default locale's texts after the first screen (i18n.ts loadLaterMessages).
 */
const LAZY = {
  '/login': ['src/app/guestScreens.ts'],
  '/register': ['src/app/guestScreens.ts', 'src/features/auth/register/RegisterPage.tsx', 'src/app/providers/QueryLayer.tsx', 'texts'],
  '/howto': ['src/app/guestScreens.ts', 'src/features/howto/HowtoPage.tsx', 'texts'],
  '/contact': ['src/app/guestScreens.ts', 'src/features/contact/ContactPage.tsx', 'src/app/providers/QueryLayer.tsx', 'texts'],
  '/terminated': ['src/app/statusScreens.ts'],
};

const jsonAt = process.argv.indexOf('--json');
const ssrOut = jsonAt > 0 ? mkdtempSync(join(tmpdir(), 'mw-prerender-')) : join(web, '.prerender');
await build({ root: web, mode, logLevel: 'warn', build: { ssr: 'src/prerender.tsx', outDir: ssrOut } });
const bundle = pathToFileURL(join(ssrOut, 'prerender.js')).href;
if (jsonAt > 0) {
  globalThis.__MW_PRERENDER_LAOS__ = false;
  const { renderPage } = await import(bundle);
  const pages = {};
  for (const locale of LOCALES) for (const route of ROUTES) pages[`${locale} ${route}`] = (await renderPage(route, locale)).html;
  writeFileSync(process.argv[jsonAt + 1], JSON.stringify(pages));
  rmSync(ssrOut, { recursive: true, force: true });
  process.exit(0);
}

const template = readFileSync(join(dist, 'index.html'), 'utf8');
const files = JSON.parse(readFileSync(join(web, '.chunks', 'member.files.json'), 'utf8'));
const modules = JSON.parse(readFileSync(join(web, '.chunks', 'member.json'), 'utf8'));
/** The chunk of the default locale's texts after the first screen (src/i18n/defaultLaterMessages.ts, or its .laos.ts twin). */
const laterTexts = Object.keys(modules).find((file) => modules[file].some((id) => /^src\/i18n\/defaultLaterMessages(\.laos)?\.ts$/.test(id)));
const linked = new Set([...template.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((m) => m[1]));

/** The <link>s a page adds to the shell's head: its lazy chunks (and what they import) and their CSS. */
function headLinks(route, locale) {
  const scripts = new Set();
  const css = new Set();
  const visit = (file) => {
    if (scripts.has(file)) return;
    scripts.add(file);
    for (const sheet of files[file]?.css ?? []) css.add(sheet);
    for (const next of files[file]?.imports ?? []) visit(next);
  };
  // A Lao page's text is drawn in Noto Sans Lao, whose faces the app loads with the Lao locale
  // (i18n.ts): linked here, so the page is painted in it, not in a fallback font first.
  for (const module of locale === 'la' ? [...LAZY[route], 'src/shared/ui/fonts-lao.ts'] : LAZY[route]) {
    const file = module === 'texts' ? laterTexts : Object.keys(modules).find((name) => modules[name].includes(module));
    if (!file) throw new Error(`prerender: no chunk for ${module}`);
    visit(file);
  }
  const tags = [];
  for (const sheet of css) if (!linked.has(sheet)) tags.push(`<link rel="stylesheet" crossorigin href="/${sheet}">`);
  // (A chunk of CSS only, such as the Lao fonts', has no script in dist: Vite drops it.)
  for (const script of scripts) if (!linked.has(script) && existsSync(join(dist, script))) tags.push(`<link rel="modulepreload" crossorigin href="/${script}">`);
  return tags;
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The script that starts the app on a prerendered page, once the page is painted: it adds the
 * page's module preloads and the entry module when the browser reports the first contentful paint
 * (a PerformanceObserver of `paint`; a browser without one starts a frame later, and any after a
 * second at the latest: a hidden tab paints nothing). The page is HTML and CSS that need no script to be seen, so nothing delays its first
 * paint; without it the browser fetched and ran the app's ~100 KB of modules before painting
 * (they are fetched at high priority), and Lighthouse's simulated slow phone counted them before
 * the first contentful paint (2.1 s). Waiting for a frame (requestAnimationFrame) was not enough:
 * Chrome holds the first paint while preloaded fonts arrive, and the modules were asked for before
 * it. A classic deferred script (low priority, run after parsing); CSP allows only the site's own
 * scripts, so it is a file, not inline.
 */
const BOOT = `(function () {
  var me = document.currentScript;
  var entry = me.getAttribute('data-entry');
  var preloads = (me.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  var started = false;
  function start() {
    if (started) return;
    started = true;
    preloads.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    // The app's modules did not come (a request dropped on a phone's network): the page is
    // loaded again once, after a moment, instead of staying a form that cannot be used.
    script.onerror = function () {
      try {
        if (sessionStorage.getItem('mw-boot-retried')) return;
        sessionStorage.setItem('mw-boot-retried', '1');
      } catch (error) {
        return;
      }
      setTimeout(function () {
        location.reload();
      }, 1500);
    };
    script.onload = function () {
      try {
        sessionStorage.removeItem('mw-boot-retried');
      } catch (error) {
        // storage off: nothing was kept
      }
    };
    document.head.appendChild(script);
  }
  // Started when the browser reports the first contentful paint; where it cannot (no paint timing:
  // observe() would accept the type and never call back), a frame later.
  var paintTiming = typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes || []).indexOf('paint') >= 0;
  if (paintTiming) {
    new PerformanceObserver(function (list, observer) {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      start();
    }).observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  }
  setTimeout(start, 1000);
})();
`;
const bootFile = `assets/boot-${createHash('sha256').update(BOOT).digest('base64url').slice(0, 8)}.js`;

/**
 * The page's stylesheets, inlined: no request stands between the HTML and its first paint. Each
 * keeps a disabled <link> of its file (never fetched, never applied): Vite's loader of a lazy
 * chunk looks for the chunk's CSS as a <link rel="stylesheet" href> and, finding none, would fetch
 * it again and hold the chunk's import — and so the hydration — until it came.
 */
function inlineStyles(html) {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g, (_, file) => {
    const css = readFileSync(join(dist, file), 'utf8').replace(/<\/style/gi, '<\\/style');
    return `<style data-href="/${file}">${css}</style><link rel="stylesheet" crossorigin href="/${file}" disabled>`;
  });
}

/**
 * Preloads for the fonts the page's text is drawn in, both weights of each script it uses (Thai,
 * Lao, Latin): the browser otherwise discovers each font only when it lays the text out, and asks
 * for it then at the highest priority, ahead of the first paint (Lighthouse's simulated phone
 * counted them in its first contentful paint). Only the font files the page's inlined CSS names.
 */
function fontPreloads(html) {
  const text = html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ');
  const subsets = [];
  if (/[\u0E01-\u0E5B]/.test(text)) subsets.push('thai-thai');
  if (/[\u0E81-\u0EDF]/.test(text)) subsets.push('lao-lao');
  if (/[A-Za-z0-9]/.test(text)) subsets.push('thai-latin');
  const fonts = [...new Set([...html.matchAll(/url\((\/assets\/noto-sans-([a-z]+-[a-z]+)-(?:400|600)-normal-[\w-]+\.woff2)\)/g)].filter((m) => subsets.includes(m[2])).map((m) => m[1]))];
  const links = fonts.filter((font) => !html.includes(`<link rel="preload" href="${font}"`)).map((font) => `<link rel="preload" href="${font}" as="font" type="font/woff2" crossorigin="">`);
  return links.length === 0 ? html : html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
}

/** The entry script and module preloads, handed to the boot script (BOOT) instead. */
function bootAfterPaint(html) {
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(html);
  if (!entry) throw new Error('prerender: dist/index.html has no entry module script');
  const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
  let out = html.replace(entry[0], `<script defer src="/${bootFile}" data-entry="${entry[1]}" data-preload="${preloads.join(' ')}"></script>`);
  out = out.replace(/\s*<link rel="modulepreload" crossorigin href="[^"]+">/g, '');
  return out;
}

function page(route, locale, rendered) {
  const start = template.indexOf('<div id="root">');
  const end = template.indexOf('<noscript>');
  if (start < 0 || end < start) throw new Error('prerender: dist/index.html has no <div id="root"> before <noscript>');
  const root = `<div id="root" data-prerendered="${route}" data-locale="${locale}">${rendered.html}</div>\n    `;
  let html = `${template.slice(0, start)}${root}${template.slice(end)}`;
  html = html.replace(/<html lang="[^"]*">/, `<html lang="${rendered.lang}">`);
  html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(rendered.title)}</title>`);
  html = html.replace(/<noscript>[^<]*<\/noscript>/, `<noscript><p class="noscript">${escapeHtml(rendered.noScript)}</p></noscript>`);
  const links = headLinks(route, locale);
  if (links.length > 0) html = html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
  return bootAfterPaint(fontPreloads(inlineStyles(html)));
}

const out = join(dist, 'prerendered');
rmSync(out, { recursive: true, force: true });
writeFileSync(join(dist, bootFile), BOOT);
let count = 0;
for (const site of SITES) {
  // Each import is an app of its own (the bundle holds everything); the flag is read as it starts.
  globalThis.__MW_PRERENDER_LAOS__ = site === 'laos';
  const { renderPage } = await import(`${bundle}?site=${site}`);
  for (const locale of LOCALES) {
    for (const route of ROUTES) {
      const rendered = await renderPage(route, locale);
      const file = join(out, site, locale, `${route.slice(1)}.html`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, page(route, locale, rendered));
      count += 1;
    }
  }
}
rmSync(ssrOut, { recursive: true, force: true });
console.log(`prerendered ${count} pages into dist/prerendered/`);
