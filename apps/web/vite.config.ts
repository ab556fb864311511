import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { pwa } from './pwa/plugin';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = 'http://localhost:3000';

/** The first paint already carries the build's default language (th, or lo for the Laos build). */
function htmlLang(laos: boolean): Plugin {
  return {
    name: 'mw:html-lang',
    transformIndexHtml: (html) => html.replace('<html lang="th-TH">', `<html lang="${laos ? 'lo-LA' : 'th-TH'}">`),
  };
}

/**
 * Preloads the regular weight of the script the first screen is written in (Thai, or Lao for the
 * Laos build): the browser would otherwise discover it only after React has rendered Thai text.
 */
function preloadMainFont(laos: boolean): Plugin {
  const pattern = laos ? /noto-sans-lao-lao-400-normal-[\w-]+\.woff2$/ : /noto-sans-thai-thai-400-normal-[\w-]+\.woff2$/;
  return {
    name: 'mw:preload-main-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((name) => pattern.test(name));
        if (!font) return [];
        return [{ tag: 'link', attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' }, injectTo: 'head' }];
      },
    },
  };
}

/**
 * Writes .br and .gz next to every text asset of the build, so the server can send them as they
 * are (@fastify/static `preCompressed: true`) instead of compressing on each request.
 */
export function precompress(subdir = ''): Plugin {
  let outDir = '';
  return {
    name: 'mw:precompress',
    apply: 'build',
    configResolved(resolved) {
      outDir = resolved.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(join(outDir, subdir))) {
        if (!/\.(js|css|html|svg|json|webmanifest)$/.test(file)) continue;
        const source = readFileSync(file);
        if (source.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * Writes which source modules went into which output chunk (`.chunks/<name>.json`, outside the
 * served folder): scripts/first-load.mjs checks with it that no back-office module reaches the
 * member pages' first download. The JavaScript written is not touched.
 */
export function chunkModules(name: string): Plugin {
  return {
    name: 'mw:chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {};
      // And for each lazy module (a route's page…), its chunk, the chunks it imports and their CSS:
      // the prerendered pages (scripts/prerender.mjs) link them from their <head>.
      const files: Record<string, { module: string | null; imports: string[]; css: string[] }> = {};
      const local = (id: string) => relative(root, id).split(sep).join('/');
      for (const [file, output] of Object.entries(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks[file] = output.moduleIds.map(local);
        files[file] = {
          module: output.facadeModuleId ? local(output.facadeModuleId) : null,
          imports: output.imports,
          css: [...(output.viteMetadata?.importedCss ?? [])],
        };
      }
      mkdirSync(join(root, '.chunks'), { recursive: true });
      writeFileSync(join(root, '.chunks', `${name}.json`), `${JSON.stringify(chunks, null, 1)}\n`);
      writeFileSync(join(root, '.chunks', `${name}.files.json`), `${JSON.stringify(files, null, 1)}\n`);
    },
  };
}

export default defineConfig(({ mode, isSsrBuild }) => {
  const env = loadEnv(mode, root, 'VITE_');
  const laos = env.VITE_LAOS === 'true';
  // React 19 has useSyncExternalStore: react-i18next's import of the shim (for React 16/17) gets React's.
  const shim = { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: `${root}src/shared/vendor/useSyncExternalStoreShim.ts` };
  const alias = laos
    ? [
        shim,
        { find: /^\.\/defaultMessages$/, replacement: `${root}src/i18n/defaultMessages.laos.ts` },
        { find: /^\.\/defaultMemberMessages$/, replacement: `${root}src/i18n/defaultMemberMessages.laos.ts` },
        { find: /^\.\/defaultLaterMessages$/, replacement: `${root}src/i18n/defaultLaterMessages.laos.ts` },
        { find: /^\.\/defaultMemberLaterMessages$/, replacement: `${root}src/i18n/defaultMemberLaterMessages.laos.ts` },
      ]
    : [shim];
  // The year the guest pages are prerendered in (the browser's first render of them says the same).
  const define = { 'import.meta.env.VITE_BUILD_YEAR': JSON.stringify(String(new Date().getFullYear())) };
  if (isSsrBuild) {
    // The guest pages' prerendering (scripts/prerender.mjs): src/prerender.tsx for Node, one file
    // with everything in it (React too), so that each import of it is an app of its own.
    return {
      root,
      oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
      resolve: { alias },
      define,
      ssr: { noExternal: true, target: 'node' },
      build: {
        ssr: 'src/prerender.tsx',
        outDir: '.prerender',
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        rolldownOptions: {
          output: { codeSplitting: false },
          onwarn(warning, warn) {
            if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
            warn(warning);
          },
        },
      },
    };
  }
  const proxy = {
    '/api': { target: apiTarget, changeOrigin: true },
    '/sandbox': { target: apiTarget, changeOrigin: true },
    '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
  };
  return {
    root,
    // Vite 8 transforms TSX itself (Oxc); no React plugin needed.
    oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
    plugins: [htmlLang(laos), preloadMainFont(laos), pwa(root, laos), precompress(), chunkModules('member')],
    // The Laos build bundles Lao as its default locale instead of Thai (see src/i18n/defaultMessages.ts,
    // defaultLaterMessages.ts and defaultMemberMessages.ts).
    resolve: { alias },
    define,
    server: { port: 5173, proxy },
    preview: { port: 4173, proxy },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: true,
      // Every browser the app supports preloads modules itself: no polyfill in the entry.
      modulePreload: { polyfill: false },
      chunkSizeWarningLimit: 300,
      rolldownOptions: {
        output: {
          // Every module the first screen needs statically (React, the router, i18n, the API
          // client, the default locale's guest texts…) in one chunk beside the entry, instead of
          // the handful of small shared chunks the automatic split makes: fewer requests on the
          // first load of a slow phone. Lazy screens still get chunks of their own.
          // React Query, which the guest pages' first screen does not use, in one chunk of its own
          // (one request, compressed as one) for the screens that do.
          codeSplitting: {
            groups: [
              { name: 'boot', tags: ['$initial'] },
              { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
            ],
          },
        },
        onwarn(warning, warn) {
          // React Query's "use client" directives mean nothing in a client-only bundle.
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          warn(warning);
        },
      },
    },
  };
});
