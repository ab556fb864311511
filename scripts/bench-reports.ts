// Reports over a year (issue 34): an embedded database (PGlite, on disk) filled with 10,000
// members, a year of ledger activity and 1,000,000 game rounds, then each report's year of daily
// rows asked through the real route (inject), twice; prints one JSON line per report with the
// slower of the two answers. Run by scripts/bench.mjs (`npx tsx scripts/bench-reports.ts`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/database';

const MEMBERS = Number(process.env.BENCH_REPORT_MEMBERS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_REPORT_ROUNDS ?? 1_000_000);
const DEPOSITS = Number(process.env.BENCH_REPORT_DEPOSITS ?? 100_000);
const TOKEN = 'bench-reports-operator-token';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mw-bench-reports-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, OPERATOR_TOKEN: TOKEN, ROUND_IMPORT_INTERVAL_MS: '0', SEED_DEMO_QUEUE: 'false', SHED_LAG_MS: '0' });
  const database = await openDatabase(config);
  const { app } = await buildApp(config, database);
  await app.ready();
  const db = database.db;
  try {
    const year = 365 * 86_400;
    const startedAt = Date.now();
    // A year that ends now: every row's time is spread over it.
    await sql`INSERT INTO members (id, username, name, password_hash, bank_code, bank_account_name, bank_account_no, currency, created_at)
      SELECT 'bm' || g, '09' || lpad(g::text, 8, '0'), 'Member ' || g, 'x', 'KBANK', 'MEMBER', '5' || lpad(g::text, 9, '0'), 'BAHT', now() - make_interval(secs => (g::bigint * 7919) % ${year})
      FROM generate_series(1, ${MEMBERS}) g`.execute(db);
    await sql`INSERT INTO ledger_accounts (id, member_id, kind, currency)
      SELECT 'm:bm' || g || ':' || k, 'bm' || g, k, 'THB' FROM generate_series(1, ${MEMBERS}) g, unnest(ARRAY['wallet', 'withdrawal']) k`.execute(db);
    // Deposits (a third through each of the bank feed, a QR gateway and the e-wallet), withdrawals asked and paid, bonuses.
    await sql`INSERT INTO operations (id, member_id, type, status, source, target, amount, created_at)
      SELECT 'bop' || g, 'bm' || (1 + g % ${MEMBERS}), 'deposit', 'SUCCESS', 'KBANK', 'WALLET', 100 * (1 + g % 997), now() - make_interval(secs => (g::bigint * 104729) % ${year})
      FROM generate_series(1, ${DEPOSITS}) g`.execute(db);
    await sql`INSERT INTO external_credits (source, ref, operation_id)
      SELECT (ARRAY['banktx', 'gateway:WW', 'ewallet:TRUEWALLET'])[1 + g % 3], 'ref' || g, 'bop' || g FROM generate_series(1, ${DEPOSITS}) g`.execute(db);
    await sql`INSERT INTO ledger_transactions (operation_id, kind, created_at) SELECT id, 'deposit', created_at FROM operations WHERE id LIKE 'bop%'`.execute(db);
    await sql`INSERT INTO ledger_transactions (operation_id, kind, created_at)
      SELECT 'bw' || g, k, now() - make_interval(secs => (g::bigint * 15485863) % ${year})
      FROM generate_series(1, ${DEPOSITS / 4}) g, unnest(ARRAY['withdraw_hold', 'withdraw_complete']) k`.execute(db);
    await sql`INSERT INTO ledger_transactions (operation_id, kind, created_at)
      SELECT 'bb' || g, 'bonus', now() - make_interval(secs => (g::bigint * 32452843) % ${year}) FROM generate_series(1, ${DEPOSITS / 5}) g`.execute(db);
    await sql`INSERT INTO ledger_entries (transaction_id, account_id, amount)
      SELECT t.id, x.account, x.amount FROM ledger_transactions t
      JOIN operations o ON o.id = t.operation_id
      CROSS JOIN LATERAL (VALUES ('m:' || o.member_id || ':wallet', o.amount), ('sys:deposits', -o.amount)) AS x(account, amount)
      WHERE t.kind = 'deposit'`.execute(db);
    await sql`INSERT INTO ledger_entries (transaction_id, account_id, amount)
      SELECT t.id, x.account, x.amount FROM ledger_transactions t
      CROSS JOIN LATERAL (SELECT 'm:bm' || (1 + substr(t.operation_id, 3)::int % ${MEMBERS}) AS member) m
      CROSS JOIN LATERAL (VALUES
        (CASE t.kind WHEN 'withdraw_hold' THEN m.member || ':withdrawal' WHEN 'withdraw_complete' THEN 'sys:withdrawals' ELSE m.member || ':wallet' END, 5000::bigint),
        (CASE t.kind WHEN 'withdraw_hold' THEN m.member || ':wallet' WHEN 'withdraw_complete' THEN m.member || ':withdrawal' ELSE 'sys:bonus' END, -5000::bigint)) AS x(account, amount)
      WHERE t.kind IN ('withdraw_hold', 'withdraw_complete', 'bonus')`.execute(db);
    for (let done = 0; done < ROUNDS; done += 250_000) {
      const n = Math.min(250_000, ROUNDS - done);
      await sql`INSERT INTO game_rounds (provider, round_id, member_id, category, stake, win, settled_at)
        SELECT (ARRAY['PG', 'JOKER', 'BETFLIX', 'PP'])[1 + g % 4], 'br' || g, 'bm' || (1 + g % ${MEMBERS}), 'slot', 100 * (1 + g % 50), 100 * ((g::bigint * 7) % 60), now() - make_interval(secs => (g::bigint * 2654435761) % ${year})
        FROM generate_series(${done + 1}::int, ${done + n}::int) g`.execute(db);
    }
    await sql`ANALYZE`.execute(db);
    process.stderr.write(`reports bench: filled in ${((Date.now() - startedAt) / 1000).toFixed(0)} s\n`);
    const day = (ms: number) => new Date(ms + 7 * 3_600_000).toISOString().slice(0, 10);
    const to = day(Date.now());
    const from = day(Date.now() - 364 * 86_400_000);
    for (const name of ['cash', 'bonus-cost', 'ggr', 'members', 'top-depositors']) {
      const times: number[] = [];
      for (let i = 0; i < 2; i++) {
        const began = performance.now();
        const res = await app.inject({ method: 'GET', url: `/api/operator/reports/${name}?from=${from}&to=${to}&granularity=day&currency=THB`, headers: { authorization: `Bearer ${TOKEN}` } });
        times.push(performance.now() - began);
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      console.log(JSON.stringify({ report: name, ms: Math.round(Math.max(...times)), members: MEMBERS, rounds: ROUNDS }));
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
