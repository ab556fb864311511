// The member pages' first download and the back office, compared on the built files (after
// `npm run build`). Fails when
//   - a back-office module (apps/web/admin/…) is in any chunk of the member build, or a file of
//     dist/admin/ is in the /login or /user/home first-load graph;
//   - the gzipped JavaScript of /login or /user/home differs from first-load-baseline.json by more
//     than 1 KB (the back office must not change them).
// /login loads index.html's scripts and their static imports; /user/home adds the member layout's
// and the dashboard's chunks (main.tsx loads both before the first render) and their imports.
// Usage: node apps/web/scripts/first-load.mjs [--update]   (--update writes the baseline)
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const baselineFile = join(web, 'first-load-baseline.json');
const TOLERANCE = 1024;

function graph(roots) {
  const queue = [...roots];
  const seen = new Set();
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dist, file), 'utf8');
    for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) queue.push(`${dirname(file)}/${m[1]}`);
  }
  return seen;
}

const gz = (files) => [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const chunk = (prefix) => {
  const found = readdirSync(join(dist, 'assets')).find((name) => name.startsWith(`${prefix}-`) && name.endsWith('.js'));
  if (!found) throw new Error(`no ${prefix} chunk in dist/assets`);
  return `assets/${found}`;
};
const login = graph(entry);
const home = new Set([...login, ...graph([chunk('MemberLayout'), chunk('MemberHomeRoute')])]);

const problems = [];
for (const [page, files] of [['/login', login], ['/user/home', home]]) {
  for (const file of files) if (file.startsWith('admin/')) problems.push(`${page} loads ${file} (a back-office file)`);
}
const memberChunks = JSON.parse(readFileSync(join(web, '.chunks', 'member.json'), 'utf8'));
for (const [file, modules] of Object.entries(memberChunks)) {
  for (const id of modules) if (id.startsWith('admin/')) problems.push(`member chunk ${file} holds ${id}`);
}
if (!existsSync(join(dist, 'admin', 'index.html'))) problems.push('dist/admin/index.html is missing (the back office was not built)');

const sizes = { login: gz(login), home: gz(home) };
console.log(`/login      ${(sizes.login / 1024).toFixed(1)} KB gzip (${login.size} files)`);
console.log(`/user/home  ${(sizes.home / 1024).toFixed(1)} KB gzip (${home.size} files)`);
if (process.argv.includes('--update')) {
  writeFileSync(baselineFile, `${JSON.stringify(sizes, null, 2)}\n`);
  console.log('baseline written');
} else {
  const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
  for (const key of ['login', 'home']) {
    const delta = sizes[key] - baseline[key];
    console.log(`${key}: ${delta >= 0 ? '+' : ''}${delta} bytes against the baseline`);
    if (Math.abs(delta) > TOLERANCE) problems.push(`${key} JavaScript changed by ${delta} bytes (more than 1 KB)`);
  }
}
for (const problem of problems) console.error(problem);
process.exit(problems.length > 0 ? 1 : 0);
