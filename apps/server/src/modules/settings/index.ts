import { z } from 'zod';
import { readChanges, recordChange } from '../../platform/audit';
import { defineModule } from '../../platform/module';
import { processLeasesMigration } from '../../platform/leader';
import { operatorGuard, operatorName } from '../../platform/operator';
import { SettingsService } from './settings-service';
import './tables';

declare module '../../platform/services' {
  interface Services {
    settings: SettingsService;
  }
}

/** Settings an operator may switch over the API. */
const switchable = z.enum(['siteActive', 'registerOTP', 'enableChatWidget']);

/**
 * Key/value settings (site content and switches) every domain reads through SettingsService.
 *   PUT /api/operator/settings/:key { value: boolean } — siteActive, registerOTP, enableChatWidget
 */
export const settingsModule = defineModule({
  name: 'settings',
  migrations: [
    {
      id: 'settings/001_settings',
      appliedWith: '005_money_core',
      sql: `CREATE TABLE settings (key text PRIMARY KEY, value jsonb NOT NULL);`,
    },
    {
      id: 'settings/002_operator_changes',
      sql: `
-- Operators' changes of configuration (bonus rules, promotion codes, the wheel): who, when, before, after.
CREATE TABLE operator_changes (
  id text PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  who text NOT NULL,
  entity text NOT NULL,
  key text NOT NULL,
  before jsonb,
  after jsonb
);
CREATE INDEX operator_changes_entity ON operator_changes (entity, key, at DESC);`,
    },
    processLeasesMigration,
  ],
  setup(services) {
    services.settings = new SettingsService(services.database.db);
  },
  async seed({ settings, config }) {
    await settings.setIfMissing('siteActive', true);
    await settings.setIfMissing('registerOTP', true);
    // The demo shows the chat widget (its sandbox bot answers); a real deployment switches it on itself.
    await settings.setIfMissing('enableChatWidget', config.SEED_DEMO);
  },
  routes(app, { config, settings, database }) {
    // Operators' configuration changes (the audit log's rows with an entity), newest first.
    const changesQuery = z.object({ entity: z.string().max(32).optional(), key: z.string().max(64).optional() });
    app.get('/api/operator/changes', { preHandler: operatorGuard(config), schema: { querystring: changesQuery } }, async (request) => {
      const { entity, key } = request.query as z.output<typeof changesQuery>;
      return { changes: await readChanges(database.db, { entity, key }) };
    });
    app.put(
      '/api/operator/settings/:key',
      {
        preHandler: operatorGuard(config),
        schema: {
          params: z.strictObject({ key: switchable }),
          body: z.strictObject({ value: z.boolean() }),
          response: { 200: z.object({ key: z.string(), value: z.boolean() }) },
        },
      },
      async (request) => {
        const { key } = request.params as { key: z.infer<typeof switchable> };
        const { value } = request.body as { value: boolean };
        const before = await settings.get<boolean | null>(key, null);
        await settings.set(key, value);
        await recordChange(database.db, { who: operatorName(request), entity: 'setting', key, before, after: value });
        return { key, value };
      },
    );
  },
});
