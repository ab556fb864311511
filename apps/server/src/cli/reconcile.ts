import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrations';
import { modules } from '../modules';
import { reconciliationFor } from '../modules/deposit';
import { payoutReconciliationFor } from '../modules/wallet';
import { migrationsOf } from '../platform/module';

/** `--from=ISO` / `--to=ISO` (or `--from ISO`); null when not given, NaN-dated when not a time. */
function argument(name: string, args: readonly string[]): Date | null {
  const at = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (at < 0) return null;
  const arg = args[at] ?? '';
  const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (args[at + 1] ?? '');
  return new Date(value);
}

/**
 * `npm run reconcile [-- --from=ISO] [--to=ISO]`: matches every deposit credited in [from, to)
 * with its outside record (bank transfers, gateway payments, e-wallet vouchers and transfers),
 * and every withdrawal completed with the payout provider's outgoing transfer (and back) —
 * by default over all time up to now — over the database of DATABASE_URL, or the embedded one in
 * DATA_DIR (which must not be open in a running server; a running server answers the same at
 * GET /api/operator/reconciliation). Prints the report; exits 1 on a breach, 2 on bad arguments or
 * an error.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const to = argument('to', args) ?? new Date();
  const from = argument('from', args) ?? new Date(0);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from.getTime() >= to.getTime()) {
    console.error('usage: npm run reconcile [-- --from=ISO-time] [--to=ISO-time]   (from before to)');
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await migrate(database, migrationsOf(modules));
    const report = await reconciliationFor(database, config).run({ from, to });
    const payouts = await payoutReconciliationFor(database, config).run({ from, to });
    console.log(JSON.stringify({ ...report, ok: report.ok && payouts.ok, payouts }, null, 2));
    console.log(report.ok ? 'deposits reconciled: OK' : `DEPOSIT RECONCILIATION BREACH: ${report.breaches.length}`);
    console.log(payouts.ok ? 'payouts reconciled: OK' : `PAYOUT RECONCILIATION BREACH: ${payouts.breaches.length}`);
    process.exitCode = report.ok && payouts.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
