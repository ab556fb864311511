import { z } from 'zod';
import { inviteRulesBodySchema, promotionOperatorCalls } from '@mw/contract/operator/promotions';
import { contractRoute } from '../../http/contract-route';
import { requireMember } from '../../http/handlers';
import { BASE_CURRENCY, idempotencyOf, ledgerCurrencySqlText } from '../../money';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { moduleConfig } from '../../platform/module-config';
import { recordChange } from '../../platform/audit';
import { bannersFor, type StoredBanners } from '../../lib/banners';
import { defineModule } from '../../platform/module';
import { bannerSettingRoutes, operatorGuard, operatorIsOwner, operatorName } from '../../platform/operator';
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

const inviteCapsEnv = z.object({
  /** The largest invite percent (of each invitee deposit) marketing sets alone; raising it above needs a finance or owner approval. Default 5. */
  INVITE_PERCENT_CAP: z.coerce.number().min(0).max(100).default(5),
});

/** The same value, whatever the order of object keys (JSON-like values). */
function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, w]) => [k, canonical(w)])) : (v ?? null);
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * Whether a change of the invite rule needs a second person when anyone but an owner makes it: the
 * percent raised above INVITE_PERCENT_CAP, or the payout's condition loosened (successPercent
 * lowered, failPercent raised: at 0 and 100 the payout is withdrawable at once). Invite payouts are
 * money out of the house; marketing proposes more of it, finance or an owner approves.
 */
export function inviteNeedsApproval(before: InviteRules, after: InviteRules, percentCap: number): boolean {
  return (after.percent > percentCap && after.percent > before.percent) || after.successPercent < before.successPercent || after.failPercent > before.failPercent;
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
    const caps = moduleConfig(config, inviteCapsEnv);
    /** Stores the rule (audited with before and after by `who`). */
    const save = async (rules: InviteRules, who: string) => {
      const before = await invites.rules();
      await settings.set('invite', rules);
      const after = await invites.rules();
      await recordChange(moduleDb<InviteDb>(database), { who, entity: 'invite', key: 'rules', before, after });
      return after;
    };
    // Approved: applied if the rule is still what it was when asked (else 422 CHANGED_SINCE_REQUEST:
    // ask again); applied already (a retry after a crash): the rule as it is.
    services.approvals.register('invite.settings', async (payload, checker) => {
      const { before, after } = z.object({ before: z.unknown(), after: inviteRulesBodySchema }).parse(payload);
      const now = await invites.rules();
      if (sameValue(now, after)) return now;
      if (!sameValue(before, now)) throw new AppError(422, 'CHANGED_SINCE_REQUEST');
      return save(after, checker);
    });
    contractRoute(app, c.inviteSettingsPut, { preHandler: guard }, async ({ body, request, reply }) => {
      const rules: InviteRules = body;
      const before = await invites.rules();
      if (inviteNeedsApproval(before, rules, caps.INVITE_PERCENT_CAP) && !operatorIsOwner(request)) {
        const idem = idempotencyOf(request.headers['idempotency-key'], 'invite.settings', request.body);
        const changes = Object.entries(rules).filter(([field, value]) => !sameValue(before[field as keyof InviteRules], value)).map(([field, value]) => ({ field, before: before[field as keyof InviteRules], after: value }));
        const asked = await services.approvals.request({ action: 'invite.settings', dedupeKey: `invite.settings:rules:${idem?.key ?? newId()}`, requestHash: idem?.hash ?? '', payload: { target: 'invite', before, after: rules, changes }, memberId: null, amount: 0, currency: BASE_CURRENCY, maker: operatorName(request) });
        return 'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
      }
      return save(rules, operatorName(request));
    });
  },
  start({ invites }, log) {
    const timer = setInterval(() => void invites.settleClaimed().catch((error: unknown) => log.warn({ err: error }, 'invite settle failed')), 60_000);
    timer.unref();
    return () => clearInterval(timer);
  },
});
