import type { FastifyInstance } from 'fastify';
import { promotionOperatorCalls } from '@mw/contract/operator/promotions';
import { contractRoute } from '../../http/contract-route';
import { requireMember } from '../../http/handlers';
import { defineModule } from '../../platform/module';
import { operatorGuard, operatorName } from '../../platform/operator';
import { badRequest } from '../../lib/errors';
import { BASE_CURRENCY, type Currency } from '../../money/ledger';
import { currencyOf, SpinService, type WheelInput } from './spin-service';
import './tables';

declare module '../../platform/services' {
  interface Services {
    spins: SpinService;
  }
}

/** The wheel a call names: `?currency=` (THB when left out); another code is KEY_INVALID. */
function wheelCurrency(query: { currency?: string | undefined }): Currency {
  const currency = currencyOf(query.currency);
  if (!currency) throw badRequest('KEY_INVALID', { fields: [{ path: 'currency', code: 'invalid' }] });
  return currency;
}

/** The operator's view of the wheels (one per currency: `?currency=LAK`) and its calls (until the back office exists). */
function operatorRoutes(app: FastifyInstance, guard: ReturnType<typeof operatorGuard>, spins: SpinService): void {
  const c = promotionOperatorCalls;
  contractRoute(app, c.spinwheelGet, { preHandler: guard }, async ({ query }) => spins.operatorWheel(wheelCurrency(query)));
  contractRoute(app, c.spinwheelPut, { preHandler: guard }, async ({ query, body, request }) => {
    const currency = wheelCurrency(query);
    const input: WheelInput = body;
    const before = await spins.operatorWheel(currency);
    await spins.setWheel(currency, input);
    const after = await spins.operatorWheel(currency);
    await spins.audit(operatorName(request), currency, before.wheel, after.wheel);
    return after;
  });
  contractRoute(app, c.memberCoins, { preHandler: guard }, async ({ params, body }) => ({ coin: await spins.grantCoins(params.id, body.coins) }));
}

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
    services.spins = new SpinService(services.database.db, services.money);
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
  routes(app, { config, spins }) {
    operatorRoutes(app, operatorGuard(config), spins);
  },
  // Coins of recent deposits, every few seconds (a member's own are also added whenever they are read).
  start({ spins }, log) {
    const timer = setInterval(() => void spins.accrue().catch((error: unknown) => log.error({ err: error }, 'coin sweep failed')), 5_000);
    timer.unref();
    return () => clearInterval(timer);
  },
});
