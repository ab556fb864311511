import { defineModule } from '../platform/module';
import { operatorGuard } from '../platform/operator';
import { MoneyCore } from './core';
import { checkInvariants } from './ledger';
import { moneyMigrations } from './migrations';

declare module '../platform/services' {
  interface Services {
    /** The money core: once-per-key answers and the policy hooks. */
    money: MoneyCore;
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
    services.money = new MoneyCore(services.database.db, services.config.IDEMPOTENCY_CLAIM_STALE_MS);
  },
  routes(app, { config, database }) {
    app.get('/api/operator/ledger/check', { preHandler: operatorGuard(config) }, async () => checkInvariants(database.db));
  },
});
