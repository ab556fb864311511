import type { FastifyInstance } from 'fastify';
import { promotionOperatorCalls, wheelBodySchema } from '@mw/contract/operator/promotions';
import { contractRoute } from '../../http/contract-route';
import { requireMember } from '../../http/handlers';
import { defineModule } from '../../platform/module';
import { operatorGuard, operatorIsOwner, operatorName } from '../../platform/operator';
import { moduleConfig } from '../../platform/module-config';
import type { Services } from '../../platform/services';
import { idempotencyOf } from '../../money';
import { z } from 'zod';
import { AppError, badRequest } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { BASE_CURRENCY, type Currency } from '../../money';
import { currencyOf, SpinService, type WheelInput } from './spin-service';
import './tables';
import { moduleDb } from '../../db/database';
import type { SpinTables } from './tables';

declare module '../../platform/services' {
  interface Services {
    spins: SpinService;
  }
}

const coinLimitsEnv = z.object({
  /** Coins one operator grants in one call without a second person (finance or owner); the call's ceiling is 1,000. */
  COIN_GRANT_MAX_PER_CALL: z.coerce.number().int().min(0).max(1000).default(100),
  /** Coins granted to one member over 24 h without a second person. */
  COIN_GRANT_MAX_PER_DAY: z.coerce.number().int().min(0).max(1_000_000).default(300),
});
type CoinLimits = z.output<typeof coinLimitsEnv>;

const prizeCapsEnv = z.object({
  /** The largest wheel prize (satang) marketing sets alone; a wheel with a bigger one waits for a finance or owner approval. Default ฿2,000. */
  SPIN_PRIZE_CAP_THB: z.coerce.number().int().min(0).default(200_000),
  /** …in kip (minor units, hundredths of a kip): default ₭1,200,000. */
  SPIN_PRIZE_CAP_LAK: z.coerce.number().int().min(0).default(120_000_000),
  /** The largest expected prize per coin, in percent of the deposit that earns a coin, marketing sets alone. Default 50 %. */
  SPIN_RETURN_CAP_PERCENT: z.coerce.number().min(0).max(10_000).default(50),
});
type PrizeCaps = z.output<typeof prizeCapsEnv>;

/** The wheel fields a change sets (what an approval compares: the wheel now against the wheel when asked). */
const wheelFields = (wheel: WheelInput | null) => (wheel ? { name: wheel.name, active: wheel.active, slices: wheel.slices, depositPerCoin: wheel.depositPerCoin, couponTtlDays: wheel.couponTtlDays } : null);

/** The same value, whatever the order of object keys (JSON-like values). */
function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, w]) => [k, canonical(w)])) : (v ?? null);
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * Why a wheel needs a second person when marketing sets it (null: it does not): its largest prize
 * above the currency's cap (SPIN_PRIZE_CAP_THB / _LAK), or a coin earned by a deposit worth more in
 * expected prizes than SPIN_RETURN_CAP_PERCENT of that deposit (a coin rate of 1 satang would
 * turn each baht deposited into a hundred spins). Prizes are withdrawable money with no turnover.
 */
export function wheelOverCap(wheel: WheelInput, currency: Currency, caps: PrizeCaps): { amount: number } | null {
  const largest = Math.max(0, ...wheel.slices.map((s) => s.prize.amount));
  const cap = ({ THB: caps.SPIN_PRIZE_CAP_THB, LAK: caps.SPIN_PRIZE_CAP_LAK } satisfies Record<Currency, number>)[currency];
  const weights = wheel.slices.reduce((sum, s) => sum + s.weight, 0);
  const expected = weights > 0 ? wheel.slices.reduce((sum, s) => sum + s.weight * s.prize.amount, 0) / weights : 0;
  const overReturn = wheel.active && wheel.depositPerCoin > 0 && expected * 100 > wheel.depositPerCoin * caps.SPIN_RETURN_CAP_PERCENT;
  return largest > cap || overReturn ? { amount: largest } : null;
}

/** The wheel a call names: `?currency=` (THB when left out); another code is KEY_INVALID. */
function wheelCurrency(query: { currency?: string | undefined }): Currency {
  const currency = currencyOf(query.currency);
  if (!currency) throw badRequest('KEY_INVALID', { fields: [{ path: 'currency', code: 'invalid' }] });
  return currency;
}

/** The operator's view of the wheels (one per currency: `?currency=LAK`) and its calls (until the back office exists). */
function operatorRoutes(app: FastifyInstance, guard: ReturnType<typeof operatorGuard>, { spins, money, approvals }: Services, limits: CoinLimits, caps: PrizeCaps): void {
  const c = promotionOperatorCalls;
  contractRoute(app, c.spinwheelGet, { preHandler: guard }, async ({ query }) => spins.operatorWheel(wheelCurrency(query)));
  contractRoute(app, c.spinwheelPut, { preHandler: guard }, async ({ query, body, request, reply }) => {
    const currency = wheelCurrency(query);
    const input: WheelInput = body;
    const before = await spins.operatorWheel(currency);
    // A wheel over the caps (wheelOverCap) is marketing's proposal: a finance or owner approval
    // applies it (202), if the wheel is still as it was when asked; an owner's applies at once.
    const over = wheelOverCap(input, currency, caps);
    if (over && !operatorIsOwner(request)) {
      const idem = idempotencyOf(request.headers['idempotency-key'], 'spin.wheel', request.body, { currency });
      const asked = await approvals.request({ action: 'spin.wheel', dedupeKey: `spin.wheel:${currency}:${idem?.key ?? newId()}`, requestHash: idem?.hash ?? '', payload: { currency, before: wheelFields(before.wheel), wheel: input }, memberId: null, amount: over.amount, currency, maker: operatorName(request) });
      return 'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
    }
    await spins.setWheel(currency, input);
    const after = await spins.operatorWheel(currency);
    await spins.audit(operatorName(request), currency, before.wheel, after.wheel);
    return after;
  });
  // Coins on one operator's word: once per Idempotency-Key (the money core's once-per-key call, in
  // the member's keys under `operator/`), up to COIN_GRANT_MAX_PER_CALL a call and
  // COIN_GRANT_MAX_PER_DAY to a member in 24 h; above either, a finance or owner approval runs it.
  contractRoute(app, c.memberCoins, { preHandler: guard }, async ({ params, body, request, reply }) => {
    const idem = idempotencyOf(request.headers['idempotency-key'], 'operatorCoins', request.body, params);
    if (!idem) throw badRequest('KEY_MISSING', { fields: [{ path: 'Idempotency-Key', code: 'required' }] });
    const key = { key: `operator/${idem.key}`, hash: idem.hash };
    const currency = await spins.grantable(params.id);
    const since = () => new Date(Date.now() - 24 * 3600_000);
    const ask = async () => {
      const granted = await money.coins.grantedSince(params.id, since());
      const asked = await approvals.request({ action: 'spin.coins', dedupeKey: `spin.coins:${params.id}:${key.key}`, requestHash: key.hash, payload: { memberId: params.id, coins: body.coins, grantedToday: granted }, memberId: params.id, amount: 0, currency, maker: operatorName(request) });
      return 'approvalId' in asked ? reply.status(202).send(asked) : reply.status(asked.status).send(asked.body);
    };
    if (body.coins > limits.COIN_GRANT_MAX_PER_CALL) return ask();
    // The day's sum is read and the grant made under the member's coin account lock: grants at once
    // are counted one after another. Over the day's ceiling, the key's claim is given back and the
    // grant is asked of a second person instead.
    try {
      return (await money.call(params.id, key, false, async () => {
        const coin = await spins.grantCoinsWithin(params.id, body.coins, since(), limits.COIN_GRANT_MAX_PER_DAY);
        if (coin === null) throw new OverDailyGrants();
        return { coin };
      })) as { coin: number };
    } catch (error) {
      if (error instanceof OverDailyGrants) return ask();
      throw error;
    }
  });
}

/** A grant that would pass the member's daily ceiling of grants on one operator's word. */
class OverDailyGrants extends Error {}

/**
 * The prize wheel (spec sections 2, 3, 4, 7, 9): setup, spin, coupons, claim, active, and the
 * provable-fairness calls added to the spec. Operator: GET/PUT /api/operator/spinwheel?currency=
 * (one wheel per currency: name, active, slices with weights and prizes, the coin rule, coupon
 * lifetime, amounts in that currency), POST /api/operator/members/:id/coins {coins}.
 */
export const spinModule = defineModule({
  name: 'spin',
  migrations: [
    {
      id: 'spin/001_wheel',
      sql: `
CREATE TABLE spin_wheels (
  id text PRIMARY KEY,
  name text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  slices jsonb NOT NULL,
  deposit_per_coin bigint NOT NULL DEFAULT 10000 CHECK (deposit_per_coin >= 0),
  coupon_ttl_days integer NOT NULL DEFAULT 7 CHECK (coupon_ttl_days > 0),
  coins_since timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One secret server seed per member in use (its hash shown); revealed when the member rotates it.
CREATE TABLE spin_seeds (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  seed text NOT NULL,
  seed_hash text NOT NULL,
  client_seed text NOT NULL,
  nonce integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  revealed_at timestamptz
);
CREATE UNIQUE INDEX spin_seeds_current ON spin_seeds (member_id) WHERE revealed_at IS NULL;
CREATE TABLE spins (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  seed_id text NOT NULL REFERENCES spin_seeds(id),
  nonce integer NOT NULL,
  roll bigint NOT NULL,
  total_weight bigint NOT NULL,
  slice_code text NOT NULL,
  slice_label text NOT NULL,
  weights jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (seed_id, nonce)
);
CREATE INDEX spins_member ON spins (member_id, created_at DESC);
CREATE TABLE spin_coupons (
  id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  spin_id text NOT NULL UNIQUE REFERENCES spins(id),
  slice_label text NOT NULL,
  name text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  status text NOT NULL CHECK (status IN ('OPEN', 'CLAIMED')),
  expires_at timestamptz NOT NULL,
  claimed_at timestamptz,
  operation_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX spin_coupons_open ON spin_coupons (member_id, created_at DESC) WHERE status = 'OPEN';
-- Coins earned, once per deposit operation.
CREATE TABLE coin_awards (
  operation_id text PRIMARY KEY,
  member_id text NOT NULL REFERENCES members(id),
  coins integer NOT NULL CHECK (coins > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operations_deposits_recent ON operations (created_at) WHERE type = 'deposit' AND status = 'SUCCESS';`,
    },
    {
      id: 'spin/002_wheels_per_currency_coins_on_ledger',
      sql: `
-- One wheel per currency: its id is the currency; the wheel there was is the baht one.
UPDATE spin_wheels SET id = '${BASE_CURRENCY}' WHERE id = 'default';
ALTER TABLE spin_coupons ADD COLUMN currency text NOT NULL DEFAULT '${BASE_CURRENCY}';
ALTER TABLE spin_coupons ALTER COLUMN currency DROP DEFAULT;
-- A spin's Idempotency-Key (one spin per key) and its answer's coins left. Coins themselves are
-- on the ledger now (money/004_coins moved members.coin there; nothing writes that column).
ALTER TABLE spins ADD COLUMN request_key text;
ALTER TABLE spins ADD COLUMN remaining_coin integer;
CREATE UNIQUE INDEX spins_request_key ON spins (member_id, request_key) WHERE request_key IS NOT NULL;`,
    },
  ],
  setup(services) {
    services.spins = new SpinService(moduleDb<SpinTables>(services.database), services.money);
    // A granted request's coins, once (the approval's id is its key: run again after a crash, it answers the same).
    services.approvals.register('spin.coins', async (payload, _checker, approvalId) => {
      const { memberId, coins } = z.object({ memberId: z.string(), coins: z.number().int().positive() }).parse(payload);
      return services.money.call(memberId, { key: `approval/${approvalId}`, hash: 'spin.coins' }, false, async () => ({ coin: await services.spins.grantCoins(memberId, coins) }));
    });
    // A wheel over the caps, approved: applied if the wheel is still what it was when asked (else
    // 422 CHANGED_SINCE_REQUEST: ask again); applied already (a retry after a crash): its answer.
    services.approvals.register('spin.wheel', async (payload, checker) => {
      const { currency: code, before, wheel } = z.object({ currency: z.string(), before: z.unknown(), wheel: wheelBodySchema }).parse(payload);
      const currency = currencyOf(code);
      if (!currency) throw badRequest('KEY_INVALID', { fields: [{ path: 'currency', code: 'invalid' }] });
      const now = await services.spins.operatorWheel(currency);
      if (sameValue(wheelFields(now.wheel), wheel)) return now;
      if (!sameValue(before, wheelFields(now.wheel))) throw new AppError(422, 'CHANGED_SINCE_REQUEST');
      await services.spins.setWheel(currency, wheel);
      const after = await services.spins.operatorWheel(currency);
      await services.spins.audit(checker, currency, now.wheel, after.wheel);
      return after;
    });
  },
  handlers: ({ spins }) => ({
    spinSetup: async (ctx) => spins.setup(requireMember(ctx).memberId),
    spin: async (ctx) => spins.spin(requireMember(ctx).memberId, ctx.idem),
    spinCoupons: async (ctx) => spins.coupons(requireMember(ctx).memberId),
    spinCouponClaim: async (ctx) => spins.claim(requireMember(ctx).memberId, ctx.body.coupon, ctx.idem),
    spinActive: async (ctx) => spins.active(requireMember(ctx).memberId),
    spinFairness: async (ctx) => spins.fairness(requireMember(ctx).memberId),
    spinRotateSeed: async (ctx) => spins.rotate(requireMember(ctx).memberId, ctx.body.clientSeed),
  }),
  routes(app, services) {
    operatorRoutes(app, operatorGuard(services.config), services, moduleConfig(services.config, coinLimitsEnv), moduleConfig(services.config, prizeCapsEnv));
  },
  // Coins of recent deposits, every few seconds (a member's own are also added whenever they are read).
  start({ spins }, log) {
    const timer = setInterval(() => void spins.accrue().catch((error: unknown) => log.error({ err: error }, 'coin sweep failed')), 5_000);
    timer.unref();
    return () => clearInterval(timer);
  },
});
