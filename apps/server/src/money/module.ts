import { ledgerOperatorCalls } from '@mw/contract/operator/ledger';
import { moduleDb } from '../db/database';
import type { MoneyDb } from './tables';
import { contractRoute } from '../http/contract-route';
import { defineModule } from '../platform/module';
import { SandboxClock } from '../platform/clock';
import { operatorGuard } from '../platform/operator';
import { MoneyCore } from './core';
import { declaredCodes } from './codes';
import { checkInvariants } from './ledger';
import { moneyMigrations } from './migrations';

declare module '../platform/services' {
  interface Services {
    /** The money core: once-per-key answers and the policy hooks. */
    money: MoneyCore;
    /** The clock of periods (bonus days, deposit-limit windows), moved only in a sandbox (platform/clock.ts). */
    clock: SandboxClock;
  }
}

/**
 * The money core as a module: its tables (ledger, operations, keys) and
 *   GET /api/operator/ledger/check — the ledger's invariants over the whole database.
 */
export const moneyModule = defineModule({
  name: 'money',
  migrations: moneyMigrations,
  setup(services) {
    services.clock = new SandboxClock();
    const clock = services.clock;
    services.money = new MoneyCore(moduleDb<MoneyDb>(services.database), services.config.IDEMPOTENCY_CLAIM_STALE_MS, () => clock.now());
  },
  // Writes every transfer code a module declared (codes.ts) before any of them posts: a
  // ledger transaction's kind is a foreign key into transfer_codes. Only what is missing.
  async seed({ database }) {
    const codes = declaredCodes();
    if (codes.length === 0) return;
    await moduleDb<MoneyDb>(database).insertInto('transfer_codes').values(codes).onConflict((oc) => oc.column('code').doNothing()).execute();
  },
  // Settlements written behind their answers are written before the database closes.
  async close({ money }) {
    await money.transfers.drain();
  },
  routes(app, { config, database, money }) {
    // A transfer's settlement written behind its answer that failed every attempt stays PENDING
    // for the reconciler (operations.ts settleBehind): said in the log of every process.
    money.transfers.onBehindFailure = (error, op) => app.log.error({ err: error, operation: op.id }, 'transfer settlement written behind failed; the reconciler settles it');
    contractRoute(app, ledgerOperatorCalls.ledgerCheck, { preHandler: operatorGuard(config) }, async () => checkInvariants(moduleDb<MoneyDb>(database)));
  },
});
