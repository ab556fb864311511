#!/usr/bin/env node
// `npm test`: typecheck, lint, unit and server integration tests (Vitest, on the embedded database
// and on PostgreSQL), the end-to-end tests in Debian's Chromium (Playwright), the how-to recorder on
// one journey, then a 20 s chaos run. Every step runs
// even when an earlier one fails; the last line counts what passed and failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const results = [];
const outDir = '.test-results';
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

function run(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const child = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = child.status === 0;
  console.log(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${child.status ?? child.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const only = process.argv.slice(2);
const flaky = [];
/** The tests that failed, named again in the summary (the run's tail is often all a CI log keeps). */
const failures = [];

/** The failed tests of a Vitest JSON report: file › title. */
function vitestFailures(report) {
  const names = [];
  for (const file of report?.testResults ?? []) {
    const where = String(file.name ?? '').replace(`${process.cwd()}/`, '');
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') names.push(`${where} › ${test.fullName ?? test.title}`);
    }
    if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') names.push(`${where} (the file failed: ${String(file.message ?? '').split('\n')[0]})`);
  }
  return names;
}

/** The titles of the tests Playwright's report gives this status ('flaky': failed, then passed on a retry; 'unexpected': failed). */
function playwrightTests(report, status) {
  const names = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === status) names.push([...path, spec.title].filter(Boolean).join(' › ') + ` (${spec.file}:${spec.line})`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  return names;
}
const wants = (step) => only.length === 0 || only.includes(step);

if (wants('typecheck')) {
  const ok = run('typecheck', 'npm', ['run', '--silent', 'typecheck']);
  results.push({ step: 'typecheck', passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}
if (wants('lint')) {
  const ok = run('lint', 'npx', ['eslint', '.', '--max-warnings=0']);
  results.push({ step: 'lint', passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}
if (wants('unit')) {
  const file = `${outDir}/vitest.json`;
  const ok = run('unit and integration (vitest)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], { VITEST_EXCLUDE_SOLO: '1' });
  const report = readJson(file);
  const passed = report?.numPassedTests ?? 0;
  const failed = (report?.numFailedTests ?? 0) + (ok ? 0 : report ? (report.numFailedTests ? 0 : 1) : 1);
  results.push({ step: 'vitest', passed, failed });
  for (const name of vitestFailures(report)) failures.push(`vitest: ${name}`);
  // The latency-budget files (vitest.config.ts SOLO), alone and one at a time: nothing else on the cores.
  const soloFile = `${outDir}/vitest-solo.json`;
  const soloOk = run('latency budgets (vitest, alone)', 'npx', ['vitest', 'run', '--project', 'server', '--maxWorkers=1', '--reporter=default', '--reporter=json', `--outputFile.json=${soloFile}`], { VITEST_SOLO: '1' });
  const solo = readJson(soloFile);
  const soloFailed = (solo?.numFailedTests ?? 0) + (soloOk ? 0 : solo ? (solo.numFailedTests ? 0 : 1) : 1);
  results.push({ step: 'vitest-solo', passed: solo?.numPassedTests ?? 0, failed: soloFailed });
  for (const name of vitestFailures(solo)) failures.push(`vitest-solo: ${name}`);
}
if (wants('e2e')) {
  const built = run('build for end-to-end', 'npm', ['run', '--silent', 'build']);
  if (!built) {
    results.push({ step: 'e2e', passed: 0, failed: 1 });
  } else {
    // The member pages' first download within its budgets (/login 110 KB, /user/home 125 KB gzipped), nothing of the
    // back office in it, and the login form in every prerendered /login.
    const split = run('first-load check (budgets, back office, prerendered login form)', 'node', ['apps/web/scripts/first-load.mjs']);
    results.push({ step: 'first-load', passed: split ? 1 : 0, failed: split ? 0 : 1 });
    const file = `${outDir}/playwright.json`;
    const ok = run('end-to-end (playwright, chromium)', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: resolve(file),
    });
    const report = existsSync(file) ? readJson(file) : null;
    const passed = (report?.stats?.expected ?? 0) + (report?.stats?.flaky ?? 0);
    const failed = (report?.stats?.unexpected ?? 0) + (ok ? 0 : report?.stats?.unexpected ? 0 : 1);
    results.push({ step: 'e2e', passed, failed });
    // A test that failed and passed on its retry is not hidden: it is named at the end of the run.
    for (const name of playwrightTests(report, 'flaky')) flaky.push(name);
    for (const name of playwrightTests(report, 'unexpected')) failures.push(`e2e: ${name}`);
  }
}

if (wants('howto')) {
  // The how-to recorder (npm run howto) on one journey in one language, so it cannot rot: it films
  // the built app in Chromium, cuts and encodes the film and checks it with ffprobe.
  const ok = run('how-to recorder (check balance, la)', 'npm', [
    'run', '--silent', 'howto', '--', '--journey', 'checkBalance', '--locale', 'la', '--no-build', '--pace', '0.5', '--out', `${outDir}/howto`,
  ]);
  results.push({ step: 'howto', passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}

if (wants('chaos')) {
  // The money core under kills, provider faults and replays: two processes on PostgreSQL + Redis.
  const ok = run('chaos (20 s, two processes, PostgreSQL + Redis)', 'npx', ['tsx', 'apps/server/test/chaos/chaos.ts', '--seconds', '20']);
  results.push({ step: 'chaos', passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log('\n=== summary');
if (flaky.length > 0) {
  console.log(`flaky end-to-end tests (failed, then passed on their retry): ${flaky.length}`);
  for (const name of flaky) console.log(`  flaky: ${name}`);
}
for (const name of failures) console.log(`  failed: ${name}`);
for (const r of results) console.log(`${r.step.padEnd(10)} ${r.passed} passed, ${r.failed} failed`);
console.log(`Total: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
