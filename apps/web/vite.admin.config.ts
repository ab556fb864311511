import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { chunkModules, precompress } from './vite.config';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = 'http://localhost:3000';

/**
 * The back office (/admin) is a build of its own, run after the member app's (`npm run build`):
 * its entry is admin/index.html, its files go to dist/admin/ (the page) and dist/admin/assets/.
 * A second input of the member build would let the bundler hoist modules both entries use (React,
 * i18next, the query client) into chunks shared by both, which changes the member pages' files;
 * as a separate build the member output is exactly what it was without the back office
 * (scripts/first-load.mjs checks it).
 */
export default defineConfig({
  root,
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  plugins: [precompress('admin'), chunkModules('admin')],
  publicDir: false,
  server: {
    port: 5174,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // The member build (run first) empties dist; this one only adds dist/admin.
    emptyOutDir: false,
    assetsDir: 'admin/assets',
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      input: { admin: fileURLToPath(new URL('./admin/index.html', import.meta.url)) },
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
