#!/usr/bin/env node
// `npm run bench`: the benchmark suite. Builds the app, starts it on a fresh embedded database,
// and prints each figure next to its budget. Not a test: it reports, and says which budget is missed.
//
//   page weight  gzipped JavaScript and CSS that /login loads (budget: JS <= 130 KB)
//   lighthouse   performance score of /login, mobile defaults, Debian's Chromium (budget: >= 95)
//
// Lighthouse is fetched on demand with npx (it is not a dependency of the project).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const PORT = Number(process.env.BENCH_PORT ?? 3290);
const BASE = `http://127.0.0.1:${PORT}`;
const LIGHTHOUSE = process.env.LIGHTHOUSE_VERSION ?? 'lighthouse@12';

const misses = [];
function report(label, value, unit, budget, ok) {
  const verdict = ok ? 'ok' : 'MISSED';
  if (!ok) misses.push(label);
  console.log(`${label.padEnd(44)} ${String(value).padStart(10)} ${unit.padEnd(6)} budget ${budget.padEnd(10)} ${verdict}`);
}

async function waitFor(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url}`);
}

async function pageWeight(path) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const bodies = [];
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || type === 'stylesheet') {
      try {
        bodies.push({ type, url: response.url(), bytes: await response.body() });
      } catch {
        // redirected or aborted
      }
    }
  });
  await page.goto(`${BASE}${path}`, { waitUntil: 'networkidle' });
  await browser.close();
  const sum = (type) => bodies.filter((b) => b.type === type).reduce((n, b) => n + gzipSync(b.bytes, { level: 9 }).length, 0);
  return { js: sum('script'), css: sum('stylesheet'), files: bodies.length };
}

function lighthouse(path) {
  const out = join(tmpdir(), `lh-${Date.now()}.json`);
  const result = spawnSync(
    'npx',
    ['--yes', LIGHTHOUSE, `${BASE}${path}`, '--quiet', '--only-categories=performance', '--output=json', `--output-path=${out}`,
      `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CHROME_PATH: CHROMIUM } },
  );
  if (result.status !== 0) return null;
  try {
    const data = JSON.parse(readFileSync(out, 'utf8'));
    rmSync(out, { force: true });
    return Math.round(data.categories.performance.score * 100);
  } catch {
    return null;
  }
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    const built = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
    if (built.status !== 0) process.exit(1);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'mw-bench-'));
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' },
  });
  try {
    await waitFor(`${BASE}/healthz`, 60_000);
    console.log('\nfigure                                            value unit   budget     verdict');
    const login = await pageWeight('/login');
    report('/login JavaScript (gzip)', (login.js / 1024).toFixed(1), 'KB', '<= 130 KB', login.js <= 130 * 1024);
    report('/login CSS (gzip)', (login.css / 1024).toFixed(1), 'KB', '-', true);
    const score = lighthouse('/login');
    if (score === null) report('/login Lighthouse performance (mobile)', 'n/a', '', '>= 95', false);
    else report('/login Lighthouse performance (mobile)', score, '/100', '>= 95', score >= 95);
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(misses.length ? `\nbudgets missed: ${misses.join(', ')}` : '\nall budgets met');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
