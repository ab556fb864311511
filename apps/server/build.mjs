// Bundles the server into dist/main.js, and the slip readers' worker thread into dist/slip-worker.js
// (reader-pool.ts starts it from beside main.js). The workspace contract (TypeScript source) is
// bundled in; dist/sandbox.js is the sandbox service (apps/sandbox), which main.js starts beside itself; every other dependency stays an import from node_modules.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@mw/'));

await build({
  entryPoints: { main: 'src/main.ts', 'slip-worker': 'src/providers/slips/slip-worker.ts', sandbox: '../sandbox/src/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});
