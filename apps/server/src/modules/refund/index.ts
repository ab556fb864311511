import { promotionOperatorCalls } from '@mw/contract/operator/promotions';
import { contractRoute } from '../../http/contract-route';
import { requireMember } from '../../http/handlers';
import { ledgerCurrencySqlText } from '../../money';
import { recordChange } from '../../platform/audit';
import { bannersFor, type StoredBanners } from '../../lib/banners';
import { defineModule } from '../../platform/module';
import { bannerSettingRoutes, operatorGuard, operatorName } from '../../platform/operator';
import { moduleDb } from '../../db/database';
import type { RefundTables } from './tables';
import { RefundService, type RefundRules } from './refund-service';
import './tables';

export type { RefundsTable, RefundTables } from './tables';
export { DEFAULT_REFUND_RULES, RefundService, type RefundRules } from './refund-service';

declare module '../../platform/services' {
  interface Services {
    refunds: RefundService;
  }
}

/** Refund of losses (spec sections 2, 3, 7, 8). Operator: GET/PUT /api/operator/refund-settings. */
export const refundModule = defineModule({
  name: 'refund',
  migrations: [
    {
      id: 'refund/001_refunds',
      sql: `
CREATE TABLE refunds (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  stakes bigint NOT NULL,
  wins bigint NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  status text NOT NULL CHECK (status IN ('AVAILABLE', 'RECEIVED', 'CREDITED', 'NONE')),
  created_at timestamptz NOT NULL DEFAULT now(),
  operation_id text,
  UNIQUE (member_id, period_start)
);`,
    },
    {
      id: 'refund/002_refunds_currency',
      sql: `
-- A refund is in the member's currency (their stakes and wins are in it).
ALTER TABLE refunds ADD COLUMN currency text;
UPDATE refunds r SET currency = ${ledgerCurrencySqlText('m.currency')} FROM members m WHERE m.id = r.member_id;
ALTER TABLE refunds ALTER COLUMN currency SET NOT NULL;`,
    },
    {
      id: 'refund/003_receive_key',
      sql: `
-- The member's Idempotency-Key of the receive that took a refund: a receive whose process died
-- before its answer was kept finds its refunds when run again and answers as the first time.
ALTER TABLE refunds ADD COLUMN receive_key text;
CREATE INDEX refunds_receive_key ON refunds (member_id, receive_key) WHERE receive_key IS NOT NULL;`,
    },
  ],
  setup(services) {
    services.refunds = new RefundService(moduleDb<RefundTables>(services.database), services.money, services.settings, services.activity, services.bonuses, () => services.bonusClock.now());
  },
  handlers: ({ refunds, settings }) => ({
    refundCheck: async (ctx) => refunds.check(requireMember(ctx).memberId, ctx.locale),
    refundReceive: async (ctx) => refunds.receive(requireMember(ctx).memberId, ctx.idem),
    refundAddWallet: async (ctx) => refunds.addWallet(requireMember(ctx).memberId, ctx.idem),
    refundList: async (ctx) => refunds.list(requireMember(ctx).memberId, ctx.body.page, ctx.body.limit),
    refundBanners: async (ctx) => bannersFor(await settings.get<StoredBanners>('refundBanners', []), ctx.locale),
  }),
  routes(app, services) {
    const { config, refunds, settings, database } = services;
    bannerSettingRoutes(app, services, 'refund');
    const guard = operatorGuard(config);
    const c = promotionOperatorCalls;
    contractRoute(app, c.refundSettingsGet, { preHandler: guard }, async () => refunds.rules());
    contractRoute(app, c.refundSettingsPut, { preHandler: guard }, async ({ body, request }) => {
      const rules: RefundRules = body;
      const before = await refunds.rules();
      await settings.set('refund', rules);
      const after = await refunds.rules();
      await recordChange(moduleDb<RefundTables>(database), { who: operatorName(request), entity: 'refund', key: 'rules', before, after });
      return after;
    });
  },
});
