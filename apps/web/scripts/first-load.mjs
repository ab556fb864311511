// The member pages' first download, the back office, and the prerendered guest pages, checked on
// the built files (after `npm run build`). Fails when
//   - the gzipped JavaScript of /login is over 110 KB, or /user/home's over 125 KB (the budgets of
//     issue 23; README "Benchmark");
//   - a back-office module (apps/web/admin/…) is in any chunk of the member build, or a file of
//     dist/admin/ is in the /login or /user/home first-load graph;
//   - a prerendered /login (dist/prerendered/<site>/<locale>/login.html, every site and locale) does
//     not have the login form in its HTML: the phone and password inputs, before any script runs;
//   - a prerendered page names a file under /assets that is not in dist.
// /login loads index.html's scripts and their static imports, and the guest screens' chunk
// (guestScreens.ts: main.tsx starts it at once, the prerendered page preloads it). /user/home adds
// what main.tsx loads before a member's first render: the member layout's and the dashboard's
// chunks, React Query's layer (QueryLayer.tsx) and the boot's data calls (memberData.ts), with
// their imports.
// Usage: node apps/web/scripts/first-load.mjs
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const BUDGETS_KB = { login: 110, home: 125 };
const LOCALES = ['th', 'la', 'en'];
const SITES = ['default', 'laos'];

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
const memberChunks = JSON.parse(readFileSync(join(web, '.chunks', 'member.json'), 'utf8'));
/** The chunk that holds this source file. */
const chunk = (module) => {
  const found = Object.keys(memberChunks).find((file) => memberChunks[file].includes(module));
  if (!found) throw new Error(`no chunk of ${module} in dist/assets`);
  return found;
};
const login = new Set([...graph(entry), ...graph([chunk('src/app/guestScreens.ts')])]);
const home = new Set([
  ...graph(entry),
  ...graph(['src/app/layouts/MemberLayout.tsx', 'src/app/pages/MemberHomeRoute.tsx', 'src/app/providers/QueryLayer.tsx', 'src/app/memberData.ts'].map(chunk)),
]);

const problems = [];
for (const [page, files] of [['/login', login], ['/user/home', home]]) {
  for (const file of files) if (file.startsWith('admin/')) problems.push(`${page} loads ${file} (a back-office file)`);
}
for (const [file, modules] of Object.entries(memberChunks)) {
  for (const id of modules) if (id.startsWith('admin/')) problems.push(`member chunk ${file} holds ${id}`);
}
if (!existsSync(join(dist, 'admin', 'index.html'))) problems.push('dist/admin/index.html is missing (the back office was not built)');

const sizes = { login: gz(login), home: gz(home) };
for (const [key, page, files] of [['login', '/login', login], ['home', '/user/home', home]]) {
  const kb = sizes[key] / 1024;
  console.log(`${page.padEnd(11)} ${kb.toFixed(1).padStart(6)} KB gzip (${files.size} files), budget ${BUDGETS_KB[key]} KB`);
  if (kb > BUDGETS_KB[key]) problems.push(`${page} loads ${kb.toFixed(1)} KB of gzipped JavaScript, over its budget of ${BUDGETS_KB[key]} KB`);
}

// The prerendered login page: the form is in the HTML, whatever the site and the language.
for (const site of SITES) {
  for (const locale of LOCALES) {
    const file = join(dist, 'prerendered', site, locale, 'login.html');
    if (!existsSync(file)) {
      problems.push(`${file} is missing (the guest pages were not prerendered)`);
      continue;
    }
    const page = readFileSync(file, 'utf8');
    const root = page.slice(page.indexOf('<div id="root"'));
    const form = /<form[^>]*data-testid="login-form"[^>]*>([\s\S]*?)<\/form>/.exec(root)?.[1] ?? '';
    const inputs = [...form.matchAll(/<input [^>]*>/g)].map((m) => m[0]);
    const phone = inputs.some((tag) => tag.includes('name="username"') && tag.includes('inputMode="tel"'));
    const password = inputs.some((tag) => tag.includes('name="password"') && tag.includes('type="password"'));
    if (!root.startsWith(`<div id="root" data-prerendered="/login" data-locale="${locale}">`)) problems.push(`${site}/${locale}/login.html: #root is not the prerendered /login in ${locale}`);
    if (!phone || !password) problems.push(`${site}/${locale}/login.html: the login form (phone and password inputs) is not in the HTML`);
  }
}
console.log(`prerendered /login: ${SITES.length * LOCALES.length} pages checked for the login form`);

// Every prerendered page: each file it names under /assets (links, scripts, the boot script's
// modules, fonts in its inlined CSS) is in dist — a missing one is a 404 in every visitor's console.
let named = 0;
for (const site of SITES) {
  for (const locale of LOCALES) {
    for (const route of ['login', 'register', 'howto', 'contact', 'terminated']) {
      const file = join(dist, 'prerendered', site, locale, `${route}.html`);
      if (!existsSync(file)) {
        problems.push(`${file} is missing (the guest pages were not prerendered)`);
        continue;
      }
      for (const asset of new Set(readFileSync(file, 'utf8').match(/\/assets\/[\w.-]+/g) ?? [])) {
        named += 1;
        if (!existsSync(join(dist, asset))) problems.push(`${site}/${locale}/${route}.html names ${asset}, which is not in dist`);
      }
    }
  }
}
console.log(`prerendered pages: ${named} asset references checked`);
for (const problem of problems) console.error(problem);
process.exit(problems.length > 0 ? 1 : 0);
