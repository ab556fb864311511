import { z } from 'zod';
import { bonusBodySchema, promotionBodySchema, promotionOperatorCalls } from '@mw/contract/operator/promotions';
import { contractRoute } from '../../http/contract-route';
import { requireMember } from '../../http/handlers';
import { AppError, badRequest, tooMany } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { pickLocale, type Localized } from '../../lib/localized';
import { defineModule } from '../../platform/module';
import { recordChange } from '../../platform/audit';
import { operatorGuard, operatorIsOwner, operatorName } from '../../platform/operator';
import { idempotencyOf } from '../../money';
import { newId } from '../../lib/ids';
import type { Currency } from '../../money';
import { BASE_CURRENCY } from '../../money';
import type { SandboxClock } from '../../platform/clock';
import { BonusService } from './bonus-service';
import { PromotionService } from './promotion-service';

export { SandboxClock } from '../../platform/clock';
import { moduleConfig } from '../../platform/module-config';
import './tables';
import { moduleDb } from '../../db/database';
import type { BonusDb } from './tables';

const bonusCapsEnv = z.object({
  /** The largest bonus payment (maxBonus, satang) marketing sets alone; above it, a finance or owner approval. Default ฿5,000. */
  BONUS_CAP_THB: z.coerce.number().int().min(0).default(500_000),
  /** …in kip (minor units): default ₭3,000,000. */
  BONUS_CAP_LAK: z.coerce.number().int().min(0).default(300_000_000),
});

declare module '../../platform/services' {
  interface Services {
    bonuses: BonusService;
    promotions: PromotionService;
    /** The clock of bonus periods (moved only in a sandbox: PUT /api/operator/sandbox/clock); the same object as `clock`. */
    bonusClock: SandboxClock;
  }
}

export type BonusInput = z.output<typeof bonusBodySchema>;

/** The limits of promotion code calls (see PROMOTION_CODES_* in config.ts). */
export interface PromotionCodeLimits {
  perMemberMinute: number;
  perMemberHour: number;
  perIpMinute: number;
}

/**
 * Counts one promotion code call (find or activate) against the member's limits and the client
 * address's backstop, atomically first (parallel guesses cannot all pass a check made before
 * counting): 429 REQUEST_LIMIT_1MIN over a per-minute limit, REQUEST_LIMIT over the hourly one.
 */
export async function limitCodeCalls(limiter: RateLimiter, limits: PromotionCodeLimits, memberId: string, ip: string): Promise<void> {
  const [byMember, byMemberHour, byIp] = await Promise.all([
    limiter.hit(`promo:member:${memberId}`, limits.perMemberMinute, 60_000),
    limiter.hit(`promo:member-hour:${memberId}`, limits.perMemberHour, 3_600_000),
    limiter.hit(`promo:ip:${ip}`, limits.perIpMinute, 60_000),
  ]);
  const minute = [byMember, byIp].filter((r) => !r.allowed);
  if (minute.length > 0) throw tooMany('REQUEST_LIMIT_1MIN', Math.max(...minute.map((r) => r.retryAfter)));
  if (!byMemberHour.allowed) throw tooMany('REQUEST_LIMIT', byMemberHour.retryAfter);
}

/**
 * Bonuses (spec sections 2, 3, 4, 8): list, activate, check/active, check/minimum, clear, with
 * the turnover condition as a money-core policy. Operator: GET /api/operator/bonuses,
 * PUT /api/operator/bonuses/:code (amounts per currency in minor units; percents as numbers).
 */
export const bonusModule = defineModule({
  name: 'bonus',
  migrations: [
    {
      id: 'bonus/001_bonuses',
      sql: `
CREATE TABLE bonuses (
  code text PRIMARY KEY CHECK (code = upper(code)),
  type text NOT NULL CHECK (type IN ('limit', 'day', 'week')),
  max_received integer NOT NULL CHECK (max_received > 0),
  max_total integer CHECK (max_total > 0),
  percent_fail numeric(6, 2) NOT NULL CHECK (percent_fail >= 0 AND percent_fail <= 100),
  banners jsonb NOT NULL DEFAULT '[]',
  percent numeric(7, 2) NOT NULL CHECK (percent > 0),
  max_bonus bigint NOT NULL CHECK (max_bonus > 0),
  min_deposit bigint NOT NULL CHECK (min_deposit > 0),
  turnover_multiple numeric(6, 2) NOT NULL CHECK (turnover_multiple >= 0),
  categories text[] NOT NULL,
  deposit_window_minutes integer NOT NULL DEFAULT 60 CHECK (deposit_window_minutes > 0),
  active boolean NOT NULL DEFAULT true,
  sort integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE bonus_receipts (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  bonus_code text NOT NULL REFERENCES bonuses(code),
  deposit_operation_id text NOT NULL UNIQUE,
  deposit_amount bigint NOT NULL CHECK (deposit_amount > 0),
  bonus_amount bigint NOT NULL CHECK (bonus_amount > 0),
  turnover_target bigint NOT NULL CHECK (turnover_target >= 0),
  categories text[] NOT NULL,
  percent_fail numeric(6, 2) NOT NULL,
  status text NOT NULL CHECK (status IN ('ACTIVE', 'SUCCESS', 'FAILED', 'CLEARED')),
  started_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz,
  credit_operation_id text
);
-- One open condition per member: activations at the same moment cannot both pass.
CREATE UNIQUE INDEX bonus_receipts_one_active ON bonus_receipts (member_id) WHERE status = 'ACTIVE';
CREATE INDEX bonus_receipts_member_code ON bonus_receipts (member_id, bonus_code, started_at);`,
    },
    {
      id: 'bonus/002_promotions',
      sql: `
ALTER TABLE bonus_receipts ADD COLUMN promotion_code text;
CREATE TABLE promotions (
  code text PRIMARY KEY CHECK (code = upper(code)),
  kind text NOT NULL CHECK (kind IN ('credit', 'bonus')),
  amount bigint CHECK (amount > 0),
  bonus_code text REFERENCES bonuses(code),
  percent_fail numeric(6, 2) NOT NULL DEFAULT 0,
  description jsonb NOT NULL,
  valid_from timestamptz,
  valid_to timestamptz,
  max_uses integer CHECK (max_uses > 0),
  max_per_member integer NOT NULL DEFAULT 1 CHECK (max_per_member > 0),
  active boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'credit' AND amount IS NOT NULL) OR (kind = 'bonus' AND bonus_code IS NOT NULL))
);
CREATE TABLE promotion_uses (
  id text PRIMARY KEY,
  code text NOT NULL REFERENCES promotions(code),
  member_id text NOT NULL REFERENCES members(id),
  receipt_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX promotion_uses_code_member ON promotion_uses (code, member_id);`,
    },
    {
      id: 'bonus/003_period_at',
      sql: `
-- When a receipt was taken by the bonus clock (a sandbox can move that clock); day and week limits count by it.
ALTER TABLE bonus_receipts ADD COLUMN period_at timestamptz;
UPDATE bonus_receipts SET period_at = started_at;
ALTER TABLE bonus_receipts ALTER COLUMN period_at SET NOT NULL;
ALTER TABLE bonus_receipts ALTER COLUMN period_at SET DEFAULT now();
CREATE INDEX bonus_receipts_member_period ON bonus_receipts (member_id, bonus_code, period_at);`,
    },
    {
      id: 'bonus/004_payout_conditions',
      sql: `
-- Invite and refund payouts open a turnover condition too: no deposit, no catalogue bonus.
ALTER TABLE bonus_receipts ADD COLUMN origin text NOT NULL DEFAULT 'bonus' CHECK (origin IN ('bonus', 'invite', 'refund'));
ALTER TABLE bonus_receipts DROP CONSTRAINT bonus_receipts_bonus_code_fkey;
ALTER TABLE bonus_receipts DROP CONSTRAINT bonus_receipts_deposit_amount_check;
ALTER TABLE bonus_receipts ADD CONSTRAINT bonus_receipts_deposit_amount_check CHECK (deposit_amount > 0 OR (origin <> 'bonus' AND deposit_amount = 0));`,
    },
    {
      id: 'bonus/005_amounts_per_currency',
      sql: `
-- Amounts per currency (THB, LAK), minor units: {"THB": {"minDeposit": 10000, "maxBonus": 50000}, "LAK": {...}}
-- for a bonus, {"THB": 5000, "LAK": 3000000} for a credit code. The old single amounts were baht.
ALTER TABLE bonuses ADD COLUMN amounts jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(amounts) = 'object');
UPDATE bonuses SET amounts = jsonb_build_object('THB', jsonb_build_object('minDeposit', min_deposit, 'maxBonus', max_bonus));
ALTER TABLE bonuses DROP COLUMN min_deposit;
ALTER TABLE bonuses DROP COLUMN max_bonus;
ALTER TABLE promotions ADD COLUMN amounts jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(amounts) = 'object');
UPDATE promotions SET amounts = jsonb_build_object('THB', amount) WHERE amount IS NOT NULL;
ALTER TABLE promotions DROP COLUMN amount;
ALTER TABLE promotions ADD CONSTRAINT promotions_kind_amounts CHECK ((kind = 'credit' AND amounts <> '{}'::jsonb) OR (kind = 'bonus' AND bonus_code IS NOT NULL));
-- What a cancel lets the member keep: their own money when the bonus was taken, plus deposits since.
ALTER TABLE bonus_receipts ADD COLUMN own_amount bigint;
ALTER TABLE bonus_receipts ADD COLUMN own_mark bigint;`,
    },
    {
      id: 'bonus/006_request_keys',
      sql: `
-- The member's Idempotency-Key, written with the call's first record (an activation's receipt, a
-- code's use, a cancel's close): a call whose process died before its answer was kept finds it
-- when run again, finishes what is left and answers as the first time, instead of taking another.
ALTER TABLE bonus_receipts ADD COLUMN request_key text;
ALTER TABLE bonus_receipts ADD COLUMN end_key text;
ALTER TABLE promotion_uses ADD COLUMN request_key text;
CREATE UNIQUE INDEX bonus_receipts_request_key ON bonus_receipts (member_id, request_key) WHERE request_key IS NOT NULL;
CREATE UNIQUE INDEX bonus_receipts_end_key ON bonus_receipts (member_id, end_key) WHERE end_key IS NOT NULL;
CREATE UNIQUE INDEX promotion_uses_request_key ON promotion_uses (member_id, request_key) WHERE request_key IS NOT NULL;`,
    },
    {
      id: 'bonus/007_use_credit_and_request_hash',
      sql: `
-- A credit code's use is recorded before its credit: false until the credit (its handler) says so;
-- the sweep credits a use a crash left without one, by the amount and currency the use recorded
-- (what the code was worth when the member used it). Uses before this were credited in their call.
-- (IF NOT EXISTS: an interim build added the flag under bonus/006.)
ALTER TABLE promotion_uses ADD COLUMN IF NOT EXISTS credited boolean NOT NULL DEFAULT true;
CREATE INDEX IF NOT EXISTS promotion_uses_uncredited ON promotion_uses (created_at) WHERE NOT credited;
ALTER TABLE promotion_uses ADD COLUMN credit_amount bigint;
ALTER TABLE promotion_uses ADD COLUMN credit_currency text;
-- The request's hash beside its key: the key with another request (its claim given back after a
-- 5xx) is IDEMPOTENCY_KEY_REUSED, never the earlier request's record.
ALTER TABLE promotion_uses ADD COLUMN request_hash text;
ALTER TABLE bonus_receipts ADD COLUMN request_hash text;`,
    },
  ],
  setup(services) {
    // The money core's clock (responsible play's limit windows count by it too): one clock moves them all.
    services.bonusClock = services.clock;
    const clock = services.bonusClock;
    services.bonuses = new BonusService(moduleDb<BonusDb>(services.database), services.money, services.wallet, services.games, services.activity, () => clock.now());
    // A prize is not credited into a wallet under a bonus's turnover (spec: BONUS_REMAINING on claim).
    const bonuses = services.bonuses;
    services.spins.addClaimGate(async (memberId) => {
      await bonuses.settle(memberId);
      if (await bonuses.active(memberId)) throw new AppError(409, 'BONUS_REMAINING', { success: false, error: 'BONUS_REMAINING' });
    });
    services.promotions = new PromotionService(moduleDb<BonusDb>(services.database), services.money, services.bonuses, () => clock.now());
  },
  handlers: ({ bonuses, promotions, settings, sessions, limiter, config, risk }) => {
    const codeLimits: PromotionCodeLimits = {
      perMemberMinute: config.PROMOTION_CODES_PER_MEMBER_MINUTE,
      perMemberHour: config.PROMOTION_CODES_PER_MEMBER_HOUR,
      perIpMinute: config.PROMOTION_CODES_PER_IP_MINUTE,
    };
    return {
    // The bonus notice (a public call); for a member with an open condition, %percentFail% is that bonus's.
    lookupNotice: async (ctx) => {
      const notice = pickLocale(await settings.get<Localized<string>>('notice', { th: '', la: '', en: '' }), ctx.locale);
      const member = ctx.request.headers.authorization ? await sessions.authenticate(ctx.request.headers.authorization).catch(() => null) : null;
      const receipt = member ? await bonuses.active(member.memberId) : null;
      return { notice: receipt ? notice.replace(/%percentFail%/g, String(Number(receipt.percent_fail))) : notice };
    },
    // Limited per member and per address: codes must not be guessable.
    promotionFind: async (ctx) => {
      const { memberId } = requireMember(ctx);
      await limitCodeCalls(limiter, codeLimits, memberId, ctx.ip);
      return promotions.find(memberId, ctx.params.code, ctx.locale);
    },
    promotionActivate: async (ctx) => {
      const { memberId } = requireMember(ctx);
      await limitCodeCalls(limiter, codeLimits, memberId, ctx.ip);
      return promotions.activate(memberId, ctx.params.code, ctx.locale, ctx.idem);
    },
    promotionCurrent: async (ctx) => promotions.current(requireMember(ctx).memberId, ctx.locale),
    bonusList: async (ctx) => bonuses.list(requireMember(ctx).memberId, ctx.locale),
    bonusActivate: async (ctx) => {
      const { memberId } = requireMember(ctx);
      const taken = await bonuses.activate(memberId, ctx.params.code, ctx.idem);
      // A risk signal (a one-time bonus from a device or address another claimer used); it never refuses.
      await risk.bonusClaimed({ memberId, code: ctx.params.code.trim().toUpperCase(), oneTime: await bonuses.oneTime(ctx.params.code).catch(() => false), deviceId: ctx.deviceId, address: ctx.ip });
      return taken;
    },
    bonusCheckActive: async (ctx) => bonuses.checkActive(requireMember(ctx).memberId),
    bonusCheckMinimum: async (ctx) => bonuses.checkMinimum(requireMember(ctx).memberId),
    bonusClear: async (ctx) => bonuses.clear(requireMember(ctx).memberId, ctx.idem),
    bonusProgress: async (ctx) => ({ progress: await bonuses.progress(requireMember(ctx).memberId) }),
    };
  },
  routes(app, { config, bonuses, database, bonusClock, approvals }) {
    const caps = moduleConfig(config, bonusCapsEnv);
    const guard = operatorGuard(config);
    const c = promotionOperatorCalls;
    // The bonus clock, outside production: {at} (an instant) or {offsetMs}; {} puts it back.
    if (config.NODE_ENV !== 'production') {
      contractRoute(app, c.sandboxClock, { preHandler: guard }, async ({ body }) => {
        bonusClock.set(body.at ? new Date(body.at).getTime() - Date.now() : (body.offsetMs ?? 0));
        return { now: new Date(bonusClock.now()).toISOString(), offsetMs: bonusClock.offset };
      });
    }
    /** Creates or changes a promotion code (audited with before and after by `who`). */
    const savePromotion = async (code: string, p: z.output<typeof promotionBodySchema>, who: string) => {
      const amounts = p.kind === 'credit' ? { ...(p.amount ? { [BASE_CURRENCY]: p.amount } : {}), ...p.amounts } : {};
      const values = {
        code,
        kind: p.kind,
        amounts: JSON.stringify(amounts),
        bonus_code: p.kind === 'bonus' ? (p.bonusCode?.toUpperCase() ?? null) : null,
        percent_fail: p.percentFail,
        description: JSON.stringify(p.description),
        valid_from: p.validFrom ? new Date(p.validFrom) : null,
        valid_to: p.validTo ? new Date(p.validTo) : null,
        max_uses: p.maxUses,
        max_per_member: p.maxPerMember,
        active: p.active,
        updated_at: new Date(),
      };
      const before = await moduleDb<BonusDb>(database).selectFrom('promotions').selectAll().where('code', '=', code).executeTakeFirst();
      const after = await moduleDb<BonusDb>(database).insertInto('promotions').values(values).onConflict((oc) => oc.column('code').doUpdateSet(values)).returningAll().executeTakeFirstOrThrow();
      await recordChange(moduleDb<BonusDb>(database), { who, entity: 'promotion', key: code, before, after });
      return after;
    };
    // An approval applies what was asked only over the version it was asked about (`updated_at` when
    // asked; null: none yet): a later edit, an owner's switch-off say, is not undone silently
    // (422 CHANGED_SINCE_REQUEST: ask again). Requests kept before the version was recorded have none.
    const versionOf = async (table: 'promotions' | 'bonuses', code: string): Promise<string | null> => {
      const row = await moduleDb<BonusDb>(database).selectFrom(table).select('updated_at').where('code', '=', code).executeTakeFirst();
      return row ? new Date(row.updated_at).toISOString() : null;
    };
    const unchangedSince = async (table: 'promotions' | 'bonuses', code: string, version: string | null | undefined) => {
      if (version !== undefined && (await versionOf(table, code)) !== version) throw new AppError(422, 'CHANGED_SINCE_REQUEST');
    };
    approvals.register('promotion.credit', async (payload, checker) => {
      const { code, promotion, version } = z.object({ code: z.string(), promotion: promotionBodySchema, version: z.string().nullable().optional() }).parse(payload);
      await unchangedSince('promotions', code, version);
      return savePromotion(code, promotion, checker);
    });
    contractRoute(app, c.promotionsList, { preHandler: guard }, async () => ({ promotions: await moduleDb<BonusDb>(database).selectFrom('promotions').selectAll().orderBy('code').execute() }));
    contractRoute(app, c.promotionPut, { preHandler: guard }, async ({ params, body: p, request, reply }) => {
      const code = params.code.toUpperCase();
      const amounts = p.kind === 'credit' ? { ...(p.amount ? { [BASE_CURRENCY]: p.amount } : {}), ...p.amounts } : {};
      if (p.kind === 'credit' ? Object.keys(amounts).length === 0 : !p.bonusCode) throw badRequest('KEY_MISSING', { fields: [{ path: p.kind === 'credit' ? 'amounts' : 'bonusCode', code: 'required' }] });
      // A bonus code names a bonus that exists (else 400 KEY_INVALID on bonusCode, not the database's refusal).
      if (p.kind === 'bonus' && p.bonusCode && !(await moduleDb<BonusDb>(database).selectFrom('bonuses').select('code').where('code', '=', p.bonusCode.toUpperCase()).executeTakeFirst())) {
        throw badRequest('KEY_INVALID', { fields: [{ path: 'bonusCode', code: 'unknown' }] });
      }
      // A credit code pays withdrawable money with no turnover: marketing does not mint it alone.
      // Its creation or change waits for a finance or owner approval (202); an owner's applies at once.
      if (p.kind === 'credit' && !operatorIsOwner(request)) {
        const idem = idempotencyOf(request.headers['idempotency-key'], 'promotion.credit', request.body, params);
        const [currency, amount] = (Object.entries(amounts)[0] ?? [BASE_CURRENCY, 0]) as [Currency, number];
        const asked = await approvals.request({ action: 'promotion.credit', dedupeKey: `promotion.credit:${code}:${idem?.key ?? newId()}`, requestHash: idem?.hash ?? '', payload: { code, promotion: p, amounts, version: await versionOf('promotions', code) }, memberId: null, amount, currency, maker: operatorName(request) });
        return 'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
      }
      return savePromotion(code, p, operatorName(request));
    });
    contractRoute(app, c.bonusesList, { preHandler: guard }, async () => ({ bonuses: await moduleDb<BonusDb>(database).selectFrom('bonuses').selectAll().orderBy('sort').execute() }));
    const saveBonus = async (code: string, input: z.output<typeof bonusBodySchema>, who: string) => {
      const before = await moduleDb<BonusDb>(database).selectFrom('bonuses').selectAll().where('code', '=', code).executeTakeFirst();
      const after = await bonuses.upsert(code, input);
      await recordChange(moduleDb<BonusDb>(database), { who, entity: 'bonus', key: code, before, after });
      return after;
    };
    approvals.register('bonus.put', async (payload, checker) => {
      const { code, bonus, version } = z.object({ code: z.string(), bonus: bonusBodySchema, version: z.string().nullable().optional() }).parse(payload);
      await unchangedSince('bonuses', code, version);
      return saveBonus(code, bonus, checker);
    });
    contractRoute(app, c.bonusPut, { preHandler: guard }, async ({ params, body: input, request, reply }) => {
      const code = params.code.toUpperCase();
      if (Object.keys(input.amounts).length === 0 && !(input.minDeposit && input.maxBonus)) throw badRequest('KEY_MISSING', { fields: [{ path: 'amounts', code: 'required' }] });
      // A bonus whose largest payment is above the cap (BONUS_CAP_THB / BONUS_CAP_LAK, minor units) is
      // marketing's proposal: a finance or owner approval applies it (202); an owner's applies at once.
      const maxima: Array<[Currency, number]> = [
        ...(input.maxBonus ? [[BASE_CURRENCY, input.maxBonus] as [Currency, number]] : []),
        ...Object.entries(input.amounts).map(([currency, a]) => [currency as Currency, a.maxBonus] as [Currency, number]),
      ];
      const cap: Record<Currency, number> = { THB: caps.BONUS_CAP_THB, LAK: caps.BONUS_CAP_LAK };
      const over = maxima.find(([currency, max]) => max > cap[currency]);
      if (over && !operatorIsOwner(request)) {
        const idem = idempotencyOf(request.headers['idempotency-key'], 'bonus.put', request.body, params);
        const asked = await approvals.request({ action: 'bonus.put', dedupeKey: `bonus.put:${code}:${idem?.key ?? newId()}`, requestHash: idem?.hash ?? '', payload: { code, bonus: input, version: await versionOf('bonuses', code) }, memberId: null, amount: over[1], currency: over[0], maker: operatorName(request) });
        return 'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
      }
      return saveBonus(code, input, operatorName(request));
    });
  },
  start({ bonuses, promotions }, log) {
    const sweep = async () => {
      await bonuses.sweep();
      await promotions.sweep();
    };
    const timer = setInterval(() => void sweep().catch((error: unknown) => log.warn({ err: error }, 'bonus sweep failed')), 30_000);
    timer.unref();
    return () => clearInterval(timer);
  },
});
