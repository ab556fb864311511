import { settingsCalls } from '@mw/contract/operator/settings';
import { contractRoute } from '../../http/contract-route';
import { readChanges, recordChange } from '../../platform/audit';
import { defineModule } from '../../platform/module';
import { processLeasesMigration } from '../../platform/leader';
import { operatorGuard, operatorName } from '../../platform/operator';
import { SettingsService } from './settings-service';
import './tables';
import { moduleDb } from '../../db/database';
import type { SettingsTables } from './tables';

declare module '../../platform/services' {
  interface Services {
    settings: SettingsService;
  }
}

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
    services.settings = new SettingsService(moduleDb<SettingsTables>(services.database));
  },
  async seed({ settings, config }) {
    await settings.setIfMissing('siteActive', true);
    await settings.setIfMissing('registerOTP', true);
    // The demo shows the chat widget (its sandbox bot answers); a real deployment switches it on itself.
    await settings.setIfMissing('enableChatWidget', config.SEED_DEMO);
  },
  routes(app, { config, settings, database }) {
    contractRoute(app, settingsCalls.operatorChanges, { preHandler: operatorGuard(config) }, async ({ query }) => ({
      changes: await readChanges(moduleDb<SettingsTables>(database), query),
    }));
    contractRoute(app, settingsCalls.operatorSettings, { preHandler: operatorGuard(config) }, async () => ({
      siteActive: await settings.get('siteActive', true),
      registerOTP: await settings.get('registerOTP', true),
      enableChatWidget: await settings.get('enableChatWidget', false),
      depositManual: await settings.get('depositManual', false),
    }));
    contractRoute(app, settingsCalls.operatorSetting, { preHandler: operatorGuard(config) }, async ({ params: { key }, body: { value }, request }) => {
      const before = await settings.get<boolean | null>(key, null);
      await settings.set(key, value);
      await recordChange(moduleDb<SettingsTables>(database), { who: operatorName(request), entity: 'setting', key, before, after: value });
      return { key, value };
    });
  },
});
