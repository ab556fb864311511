// Gzipped size of the JavaScript that index.html loads (entry, its modulepreloads and their static
// imports), file by file. The login page and the guest layout are a chunk of their own beside it
// (guestScreens.ts); scripts/first-load.mjs measures /login and /user/home whole, against their
// budgets. Fails above the budget.
// Usage: node apps/web/scripts/bundle-size.mjs [distDir] [budgetKB]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const budgetKB = Number(process.argv[3] ?? 110);
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const queue = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const seen = new Set();
while (queue.length > 0) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(join(dist, file), 'utf8');
  for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) queue.push(`assets/${m[1]}`);
}
let total = 0;
for (const file of [...seen].sort()) {
  const size = gzipSync(readFileSync(join(dist, file))).length;
  total += size;
  console.log(`${file.padEnd(50)} ${(size / 1024).toFixed(1).padStart(6)} KB`);
}
const totalKB = total / 1024;
console.log(`${'total (gzip)'.padEnd(50)} ${totalKB.toFixed(1).padStart(6)} KB  (budget ${budgetKB} KB)`);
if (totalKB > budgetKB) {
  console.error('Over the JavaScript budget of the first screen.');
  process.exit(1);
}
