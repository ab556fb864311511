import { z } from 'zod';
import { defineModule } from '../../platform/module';
import { operatorGuard } from '../../platform/operator';
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
  ],
  setup(services) {
    services.settings = new SettingsService(services.database.db);
  },
  async seed({ settings }) {
    await settings.setIfMissing('siteActive', true);
    await settings.setIfMissing('registerOTP', true);
    await settings.setIfMissing('enableChatWidget', false);
  },
  routes(app, { config, settings }) {
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
        await settings.set(key, value);
        return { key, value };
      },
    );
  },
});
