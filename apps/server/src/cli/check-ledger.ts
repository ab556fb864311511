import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrations';
import { modules } from '../modules';
import { migrationsOf } from '../platform/module';
import { checkInvariants } from '../money';

/**
 * `npm run ledger:check`: checks the ledger's invariants over the whole database (DATABASE_URL,
 * or the embedded database in DATA_DIR, which must not be open in a running server; a running
 * server answers the same check at GET /api/operator/ledger/check). Exits 1 when one is broken.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await migrate(database, migrationsOf(modules));
    const report = await checkInvariants(database.db);
    console.log(JSON.stringify(report, null, 2));
    console.log(report.ok ? 'ledger OK' : 'LEDGER BROKEN');
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
