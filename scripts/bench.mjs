#!/usr/bin/env node
// `npm run bench`: the benchmark suite. Builds the app, starts it on a fresh embedded database,
// and prints each figure next to its budget. Not a test: it reports, and says which budget is missed.
//
//   page weight  gzipped JavaScript and CSS that /login (budget: JS <= 110 KB) and /user/home
//                (budget: JS <= 125 KB) load, as a browser gets them (the build check
//                apps/web/scripts/first-load.mjs holds the same budgets on the built files)
//   lighthouse   performance score of both pages, mobile defaults, Debian's Chromium (>= 98), with
//                /login's FCP (<= 1.0 s) and LCP (<= 1.5 s) and /user/home's LCP (<= 1.5 s): the
//                guest pages come prerendered (apps/web/scripts/prerender.mjs), painted before their
//                JavaScript
//   slips        time to verify a 1080×2340 JPEG phone screenshot of a slip, POST /api/wallet/slip
//                to the answer, one at a time (budget: p95 <= 300 ms); then 8 at once, 5 times,
//                while 4 clients read GET /api/wallet: the reads' p99 (budget <= 50 ms: the slips
//                are read in worker threads, off the event loop)
//   reports      a year of daily rows of each back-office report on the embedded database with
//                10,000 members, a year of ledger activity and 1,000,000 rounds (budget <= 2 s each;
//                scripts/bench-reports.ts, run alone with `npx tsx scripts/bench-reports.ts`)
//   transfers    HTTP load test of POST /api/wallet/transfer on PostgreSQL, 32 clients, and
//                pgbench -b tpcb-like on the same server: ratio (>= 0.5) and p99 (<= 50 ms), and the rows written in our database per transfer (<= 8)
//
// Lighthouse is fetched on demand with npx (it is not a dependency of the project).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chatBench } from './bench-chat.mjs';
import { slipBench, slipLoadBench } from './bench-slip.mjs';
import { transferBench } from './bench-transfer.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from '../e2e/chromium.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 3290);
const BASE = `http://127.0.0.1:${PORT}`;
const BENCH_OPERATOR_TOKEN = 'bench-operator-token-0001';
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

async function demoToken() {
  const res = await fetch(`${BASE}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: '0812345678', password: 'demo1234' }) });
  return (await res.json()).token;
}

/**
 * A member as they reach /user/home: they came through /login (so its code is in the browser's
 * cache, as for every real member, who has just signed in there) and hold the token (remember me)
 * and the agreement seen. The storage is set once /login has settled: the guest pages clear a
 * stored token as they start.
 */
async function signIn(page, token) {
  await page.goto(`${BASE}/login`, { waitUntil: 'networkidle' });
  await page.evaluate((t) => {
    localStorage.setItem('token', t);
    localStorage.setItem('remember-agreement', 'true');
  }, token);
  await page.waitForTimeout(300);
  if ((await page.evaluate(() => localStorage.getItem('token'))) !== token) throw new Error('the token did not stay in storage');
}

async function pageWeight(path, token) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  if (token) await signIn(page, token);
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
  const landed = new URL(page.url()).pathname;
  await browser.close();
  if (landed !== path) throw new Error(`${path} was measured as ${landed}: the sign-in did not hold`);
  const sum = (type) => bodies.filter((b) => b.type === type).reduce((n, b) => n + gzipSync(b.bytes, { level: 9 }).length, 0);
  return { js: sum('script'), css: sum('stylesheet'), files: bodies.length };
}

/**
 * Lighthouse against a Chromium the bench starts itself, so a member's storage can be set first
 * (--disable-storage-reset keeps it for the audited page).
 */
async function lighthouse(path, token) {
  const out = join(tmpdir(), `lh-${Date.now()}.json`);
  const port = 9333;
  const profile = mkdtempSync(join(tmpdir(), 'mw-lh-'));
  const browserProcess = spawn(CHROMIUM, ['--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, ...CHROMIUM_ARGS, 'about:blank'], {
    stdio: 'ignore',
    detached: true,
  });
  const browserExited = new Promise((resolve) => browserProcess.once('exit', resolve));
  try {
    await waitFor(`http://127.0.0.1:${port}/json/version`, 20_000);
    if (token) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const page = await browser.contexts()[0].newPage();
      await signIn(page, token);
      await page.close();
      await browser.close();
    }
    const result = spawnSync(
      'npx',
      ['--yes', LIGHTHOUSE, `${BASE}${path}`, '--quiet', '--only-categories=performance', '--output=json', `--output-path=${out}`, `--port=${port}`, '--disable-storage-reset'],
      { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CHROME_PATH: CHROMIUM } },
    );
    if (result.status !== 0) return null;
  } finally {
    // Chromium and its helper processes, as a group.
    try {
      process.kill(-browserProcess.pid, 'SIGKILL');
    } catch {
      browserProcess.kill('SIGKILL');
    }
    await browserExited;
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    } catch {
      // a temporary folder left behind is harmless
    }
  }
  try {
    const data = JSON.parse(readFileSync(out, 'utf8'));
    // BENCH_LIGHTHOUSE_DIR keeps each report (to read where the time goes), else it is dropped.
    if (process.env.BENCH_LIGHTHOUSE_DIR) {
      mkdirSync(process.env.BENCH_LIGHTHOUSE_DIR, { recursive: true });
      copyFileSync(out, join(process.env.BENCH_LIGHTHOUSE_DIR, `${path.replace(/\W+/g, '_').replace(/^_/, '')}-${Date.now()}.json`));
    }
    rmSync(out, { force: true });
    const landed = new URL(data.finalDisplayedUrl ?? data.finalUrl).pathname;
    if (landed !== path) throw new Error(`${path} was audited as ${landed}: the sign-in did not hold`);
    const metric = (id) => data.audits[id]?.displayValue ?? '?';
    console.log(`  ${path}: FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, SI ${metric('speed-index')}`);
    return {
      score: Math.round(data.categories.performance.score * 100),
      fcp: data.audits['first-contentful-paint']?.numericValue ?? Infinity,
      lcp: data.audits['largest-contentful-paint']?.numericValue ?? Infinity,
    };
  } catch (error) {
    console.log(`  ${path}: Lighthouse gave no score (${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    const built = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
    if (built.status !== 0) process.exit(1);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'mw-bench-'));
  const server = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/cpuprof'] : []), 'apps/server/dist/main.js'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(PORT), SANDBOX_PORT: String(PORT + 1000), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', PAYMENT_GATEWAY: 'sandbox', BANK_PROVIDER: 'sandbox', GAME_PROVIDER: 'sandbox', SEED_DEMO: 'true', SEED_DEMO_QUEUE: 'false', SLIP_CLOSED_FROM: '00:00', SLIP_CLOSED_TO: '00:00', SLIP_UPLOADS_PER_MEMBER_MINUTE: '100000', SLIP_UPLOADS_PER_MEMBER_HOUR: '100000', OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN, CHAT_BOT: 'off' },
  });
  try {
    await waitFor(`${BASE}/healthz`, 60_000);
    console.log('\nfigure                                            value unit   budget     verdict');
    const token = await demoToken();
    for (const [path, budget, asMember] of process.env.BENCH_SKIP_PAGES === '1' ? [] : [['/login', 110, false], ['/user/home', 125, true]]) {
      const weight = await pageWeight(path, asMember ? token : undefined);
      report(`${path} JavaScript (gzip)`, (weight.js / 1024).toFixed(1), 'KB', `<= ${budget} KB`, weight.js <= budget * 1024);
      report(`${path} CSS (gzip)`, (weight.css / 1024).toFixed(1), 'KB', '-', true);
      // Three audits, their median (Lighthouse now and then fails to record the page load,
      // NO_NAVSTART: one more try then).
      const runs = [];
      for (let i = 0; i < 3; i += 1) {
        const run = (await lighthouse(path, asMember ? token : undefined)) ?? (await lighthouse(path, asMember ? token : undefined));
        if (run) runs.push(run);
      }
      const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
      if (runs.length === 0) {
        report(`${path} Lighthouse performance (mobile)`, 'n/a', '', '>= 98', false);
      } else {
        const score = median(runs.map((r) => r.score));
        const fcp = median(runs.map((r) => r.fcp)) / 1000;
        const lcp = median(runs.map((r) => r.lcp)) / 1000;
        report(`${path} Lighthouse performance (mobile, median of ${runs.length})`, score, '/100', '>= 98', score >= 98);
        if (!asMember) report(`${path} first contentful paint (median)`, fcp.toFixed(2), 's', '<= 1.0 s', fcp <= 1.0);
        report(`${path} largest contentful paint (median)`, lcp.toFixed(2), 's', '<= 1.5 s', lcp <= 1.5);
      }
    }
    if (process.env.BENCH_SKIP_SLIPS !== '1') {
      const profile = await (await fetch(`${BASE}/api/account/profile`, { headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' } })).json();
      const s = await slipBench(BASE, token, { bankCode: profile.bankCode, accountNo: profile.bankAccountNo });
      report(`slip verification median (${s.count} JPEGs, ${(s.bytes / 1024).toFixed(0)} KB)`, s.median, 'ms', '-', true);
      report('slip verification p95', s.p95, 'ms', '<= 300 ms', s.p95 <= 300);
      report('slips credited (SUCCESS / uploaded)', `${s.credited} / ${s.count}`, '', 'all', s.credited === s.count);
      const l = await slipLoadBench(BASE, token, { bankCode: profile.bankCode, accountNo: profile.bankAccountNo });
      report('GET /api/wallet p99, no slips', l.aloneP99, 'ms', '-', true);
      report('GET /api/wallet p99 while 8 slips verify', l.walletP99, 'ms', '<= 50 ms', l.walletP99 <= 50);
      report(`GET /api/wallet p50 while 8 slips verify (${l.reads})`, l.walletP50, 'ms', '-', true);
      report('slip verification p95, 8 at once', l.slipP95, 'ms', '-', true);
      report('slips credited, 8 at once', `${l.credited} / ${l.count}`, '', 'all', l.credited === l.count);
    }
    if (process.env.BENCH_SKIP_CHAT !== '1') {
      const c = await chatBench(BASE, BENCH_OPERATOR_TOKEN, { clients: 500, rate: 200, seconds: Number(process.env.BENCH_CHAT_SECONDS ?? 10) });
      report(`chat fan-out: clients connected`, c.clients, '', '500', c.clients === 500);
      report('chat messages sent (operator API)', c.rate.toFixed(0), 'msg/s', '200', c.rate >= 190);
      report('chat messages delivered', c.deliveredPerSecond.toFixed(0), 'msg/s', '-', true);
      report('chat delivered / sent', `${c.delivered} / ${c.sent}`, '', 'all', c.delivered === c.sent && c.errors === 0);
      report('chat delivery p50', c.p50, 'ms', '-', true);
      report('chat delivery p99 (send to messaging event)', c.p99, 'ms', '<= 100 ms', c.p99 <= 100);
    }
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (process.env.BENCH_SKIP_REPORTS !== '1') {
    console.log('\nreports over a year on the embedded database (filling it takes about a minute)…');
    const run = spawnSync('npx', ['tsx', 'scripts/bench-reports.ts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = (run.stdout ?? '').split('\n').filter((l) => l.startsWith('{'));
    if (run.status !== 0 || lines.length === 0) report('reports bench', 'failed', '', 'ran', false);
    for (const r of lines.map((l) => JSON.parse(l))) report(`report ${r.report}, a year by day (${r.rounds} rounds)`, r.ms, 'ms', '<= 2000 ms', r.ms <= 2000);
  }
  if (process.env.BENCH_SKIP_TRANSFERS !== '1') {
    console.log('\ntransfer and webhook load tests on PostgreSQL (this takes about a minute and a half)…');
    const t = await transferBench(PORT + 1);
    report('pgbench -b tpcb-like throughput (-c 16 -j 2)', t.sql.tps.toFixed(0), 'tps', '-', true);
    for (const run of [{ label: '1 process', ...t.http }, ...(t.many ? [{ label: `${t.many.processes} processes`, ...t.many }] : [])]) {
      const ratio = run.rps / t.sql.tps;
      report(`POST /api/wallet/transfer throughput, ${run.label}`, run.rps.toFixed(0), 'req/s', '-', true);
      report(`transfer / pgbench ratio, ${run.label}`, ratio.toFixed(2), '', '>= 0.5', ratio >= 0.5);
      report(`transfer p99 latency, ${run.label}`, run.p99, 'ms', '<= 50 ms', run.p99 <= 50);
      report(`transfer p50 latency, ${run.label}`, run.p50, 'ms', '-', true);
      report(`transfer errors (non-2xx), ${run.label}`, run.errors, '', '0', run.errors === 0);
      if (run.commitsPerTransfer !== undefined) report(`database commits per transfer, ${run.label}`, run.commitsPerTransfer, '', '-', true);
      // The budget is one process's (issue 35). The run of several processes follows the webhook
      // load, whose deposits the wheel's coin accrual is still working through (coin_awards and
      // their ledger rows): its figure is shown, not judged.
      const oneProcess = run.label === '1 process';
      if (run.rowsPerTransfer !== undefined) report(`rows written per transfer (pg_stat_user_tables), ${run.label}`, run.rowsPerTransfer, '', oneProcess ? '<= 8' : '-', !oneProcess || run.rowsPerTransfer <= 8);
      if (run.rowsByTable) console.log(`    rows per transfer by table, ${run.label}: ${Object.entries(run.rowsByTable).map(([table, n]) => `${table} ${n}`).join(', ')}`);
      if (run.cpu) report(`CPU during the load (% of one core), ${run.label}`, `server ${run.cpu.server}, PostgreSQL ${run.cpu.postgres}, load ${run.cpu.load}`, '', '-', true);
      if (run.cpuMsPerTransfer) report(`CPU per transfer (ms), ${run.label}`, `server ${run.cpuMsPerTransfer.server}, PostgreSQL ${run.cpuMsPerTransfer.postgres}`, '', '-', true);
      if (run.ledgerOk !== undefined) report(`ledger check after the load, ${run.label}`, run.ledgerOk ? 'ok' : 'BROKEN', '', 'ok', run.ledgerOk);
    }
    const w = t.webhooks;
    report('payment webhook credits', w.rps.toFixed(0), 'req/s', '-', true);
    report('webhook credits / transfer throughput', (w.rps / t.http.rps).toFixed(2), '', '-', true);
    report('webhook p99 latency', w.p99, 'ms', '<= 50 ms', w.p99 <= 50);
    report('webhook p50 latency', w.p50, 'ms', '-', true);
    report('webhook errors (non-2xx)', w.errors, '', '0', w.errors === 0);
    // No double credit: one deposit per credited payment id, every payment answered 200 credited, none credited that was never sent.
    const once = w.deposits === w.credits && w.creditedAnswered === w.distinctAnswered && w.credits <= w.distinctSent;
    report('payments credited once (credited / answered 200 / sent)', `${w.credits} / ${w.distinctAnswered} / ${w.distinctSent}`, '', 'once each', once);
    report('ledger check after the load', w.ledgerOk ? 'ok' : 'BROKEN', '', 'ok', w.ledgerOk);
  }
  console.log(misses.length ? `\nbudgets missed: ${misses.join(', ')}` : '\nall budgets met');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
