import { z } from 'zod';
import { promotionOperatorCalls, refundRulesBodySchema } from '@mw/contract/operator/promotions';
import { contractRoute } from '../../http/contract-route';
import { requireMember } from '../../http/handlers';
import { BASE_CURRENCY, CURRENCIES, idempotencyOf, ledgerCurrencySqlText, type Currency } from '../../money';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { moduleConfig } from '../../platform/module-config';
import { recordChange } from '../../platform/audit';
import { bannersFor, type StoredBanners } from '../../lib/banners';
import { defineModule } from '../../platform/module';
import { bannerSettingRoutes, operatorGuard, operatorIsOwner, operatorName } from '../../platform/operator';
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

const refundCapsEnv = z.object({
  /** The largest refund percent (of a period's net loss) marketing sets alone; raising it above needs a finance or owner approval. Default 20. */
  REFUND_PERCENT_CAP: z.coerce.number().min(0).max(100).default(20),
  /** The largest refund maximum (satang, one refund) marketing sets alone; raising a maximum above it needs an approval. Default ฿10,000. */
  REFUND_MAX_CAP_THB: z.coerce.number().int().min(0).default(1_000_000),
  /** …in kip (minor units, hundredths of a kip): default ₭6,000,000. */
  REFUND_MAX_CAP_LAK: z.coerce.number().int().min(0).default(600_000_000),
});
type RefundCaps = z.output<typeof refundCapsEnv>;

/** The same value, whatever the order of object keys (JSON-like values). */
function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, w]) => [k, canonical(w)])) : (v ?? null);
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * Whether a change of the refund rule needs a second person when anyone but an owner makes it
 * (null: it does not; else the amount and currency the approval shows): the percent raised above
 * REFUND_PERCENT_CAP, a currency's maximum raised above REFUND_MAX_CAP_<currency> (a currency
 * with no maximum had none: 0), or the condition loosened (successPercent lowered, failPercent
 * raised). Removing a currency's maximum turns its refunds off (REFUND_INACTIVE): it needs nobody.
 */
export function refundNeedsApproval(before: RefundRules, after: RefundRules, caps: RefundCaps): { amount: number; currency: Currency } | null {
  const cap: Record<Currency, number> = { THB: caps.REFUND_MAX_CAP_THB, LAK: caps.REFUND_MAX_CAP_LAK };
  const raised = CURRENCIES.map((currency) => ({ currency, amount: after.maximum[currency] ?? 0 })).find(({ currency, amount }) => amount > cap[currency] && amount > (before.maximum[currency] ?? 0));
  if (raised) return raised;
  const percent = after.percent > caps.REFUND_PERCENT_CAP && after.percent > before.percent;
  const loosened = after.successPercent < before.successPercent || after.failPercent > before.failPercent;
  return percent || loosened ? { amount: 0, currency: BASE_CURRENCY } : null;
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
    const caps = moduleConfig(config, refundCapsEnv);
    /** Stores the rule (audited with before and after by `who`). */
    const save = async (rules: RefundRules, who: string) => {
      const before = await refunds.rules();
      await settings.set('refund', rules);
      const after = await refunds.rules();
      await recordChange(moduleDb<RefundTables>(database), { who, entity: 'refund', key: 'rules', before, after });
      return after;
    };
    // Approved: applied if the rule is still what it was when asked (else 422 CHANGED_SINCE_REQUEST:
    // ask again); applied already (a retry after a crash): the rule as it is.
    services.approvals.register('refund.settings', async (payload, checker) => {
      const { before, after } = z.object({ before: z.unknown(), after: refundRulesBodySchema }).parse(payload);
      const now = await refunds.rules();
      if (sameValue(now, after)) return now;
      if (!sameValue(before, now)) throw new AppError(422, 'CHANGED_SINCE_REQUEST');
      return save(after, checker);
    });
    contractRoute(app, c.refundSettingsPut, { preHandler: guard }, async ({ body, request, reply }) => {
      const rules: RefundRules = body;
      const before = await refunds.rules();
      const over = refundNeedsApproval(before, rules, caps);
      if (over && !operatorIsOwner(request)) {
        const idem = idempotencyOf(request.headers['idempotency-key'], 'refund.settings', request.body);
        const changes = Object.entries(rules).filter(([field, value]) => !sameValue(before[field as keyof RefundRules], value)).map(([field, value]) => ({ field, before: before[field as keyof RefundRules], after: value }));
        const asked = await services.approvals.request({ action: 'refund.settings', dedupeKey: `refund.settings:rules:${idem?.key ?? newId()}`, requestHash: idem?.hash ?? '', payload: { target: 'refund', before, after: rules, changes }, memberId: null, amount: over.amount, currency: over.currency, maker: operatorName(request) });
        return 'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
      }
      return save(rules, operatorName(request));
    });
  },
});
