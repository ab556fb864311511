import { promotionOperatorCalls } from '@mw/contract/operator/promotions';
import { contractRoute } from '../../http/contract-route';
import { requireMember } from '../../http/handlers';
import { ledgerCurrencySqlText } from '../../money';
import { recordChange } from '../../platform/audit';
import { bannersFor, type StoredBanners } from '../../lib/banners';
import { defineModule } from '../../platform/module';
import { bannerSettingRoutes, operatorGuard, operatorName } from '../../platform/operator';
import { moduleDb } from '../../db/database';
import type { InviteDb } from './tables';
import { InviteService, type InviteRules } from './invite-service';
import './tables';

export type { InviteEarningsTable, InviteTables, InviteDb } from './tables';
export { DEFAULT_INVITE_RULES, InviteService, type InviteRules } from './invite-service';

declare module '../../platform/services' {
  interface Services {
    invites: InviteService;
  }
}

/** Invite a friend (spec sections 2, 3, 7, 8). Operator: GET/PUT /api/operator/invite-settings. */
export const inviteModule = defineModule({
  name: 'invite',
  migrations: [
    {
      id: 'invite/001_invite_earnings',
      sql: `
CREATE TABLE invite_earnings (
  operation_id text PRIMARY KEY,
  inviter_id text NOT NULL REFERENCES members(id),
  invitee_id text NOT NULL REFERENCES members(id),
  amount bigint NOT NULL CHECK (amount > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  payout_id text,
  paid_operation_id text
);
CREATE INDEX invite_earnings_inviter ON invite_earnings (inviter_id, created_at DESC);`,
    },
    {
      id: 'invite/002_earnings_currency',
      sql: `
-- Earnings are in the currency of the deposit they come from (the invitee's).
ALTER TABLE invite_earnings ADD COLUMN currency text;
UPDATE invite_earnings e SET currency = ${ledgerCurrencySqlText('m.currency')} FROM members m WHERE m.id = e.invitee_id;
ALTER TABLE invite_earnings ALTER COLUMN currency SET NOT NULL;`,
    },
  ],
  setup(services) {
    services.invites = new InviteService(moduleDb<InviteDb>(services.database), services.money, services.settings, services.bonuses);
    const invites = services.invites;
    services.wallet.setInviteSummary((memberId) => invites.summary(memberId));
  },
  handlers: ({ invites, settings }) => ({
    inviteList: async (ctx) => invites.list(requireMember(ctx).memberId, ctx.body.page, ctx.body.limit),
    inviteBonus: async (ctx) => invites.receive(requireMember(ctx).memberId, ctx.idem),
    inviteBanners: async (ctx) => bannersFor(await settings.get<StoredBanners>('inviteBanners', []), ctx.locale),
  }),
  routes(app, services) {
    const { config, invites, settings, database } = services;
    bannerSettingRoutes(app, services, 'invite');
    const guard = operatorGuard(config);
    const c = promotionOperatorCalls;
    contractRoute(app, c.inviteSettingsGet, { preHandler: guard }, async () => invites.rules());
    contractRoute(app, c.inviteSettingsPut, { preHandler: guard }, async ({ body, request }) => {
      const rules: InviteRules = body;
      const before = await invites.rules();
      await settings.set('invite', rules);
      const after = await invites.rules();
      await recordChange(moduleDb<InviteDb>(database), { who: operatorName(request), entity: 'invite', key: 'rules', before, after });
      return after;
    });
  },
  start({ invites }, log) {
    const timer = setInterval(() => void invites.settleClaimed().catch((error: unknown) => log.warn({ err: error }, 'invite settle failed')), 60_000);
    timer.unref();
    return () => clearInterval(timer);
  },
});
