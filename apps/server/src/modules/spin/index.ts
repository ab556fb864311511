import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireMember } from '../../http/handlers';
import { defineModule } from '../../platform/module';
import { operatorGuard, operatorName } from '../../platform/operator';
import { SpinService, type WheelInput } from './spin-service';
import './tables';

declare module '../../platform/services' {
  interface Services {
    spins: SpinService;
  }
}

const colour = z.string().regex(/^#[0-9A-Fa-f]{6}$/);
const sliceBody = z.strictObject({
  code: z.string().regex(/^[A-Z0-9_]{1,24}$/),
  label: z.string().trim().min(1).max(40),
  bgColor: colour,
  textColor: colour,
  htmlDescription: z.string().max(2000).default(''),
  weight: z.number().int().min(1).max(1_000_000),
  prize: z.strictObject({ name: z.string().trim().min(1).max(80), amount: z.number().int().min(0).max(10_000_000) }),
});
const wheelBody = z.strictObject({
  name: z.string().trim().min(1).max(80),
  active: z.boolean(),
  slices: z
    .array(sliceBody)
    .min(2)
    .max(16)
    .refine((slices) => new Set(slices.map((s) => s.code)).size === slices.length, 'slice codes must be unique'),
  depositPerCoin: z.number().int().min(0).max(100_000_000),
  couponTtlDays: z.number().int().min(1).max(365),
});

/** The operator's view of the wheel and its calls (until the back office exists). */
function operatorRoutes(app: FastifyInstance, guard: ReturnType<typeof operatorGuard>, spins: SpinService): void {
  app.get('/api/operator/spinwheel', { preHandler: guard }, async () => spins.operatorWheel());
  app.put('/api/operator/spinwheel', { preHandler: guard, schema: { body: wheelBody } }, async (request) => {
    const input = request.body as WheelInput;
    const before = await spins.operatorWheel();
    await spins.setWheel(input);
    const after = await spins.operatorWheel();
    await spins.audit(operatorName(request), before.wheel, after.wheel);
    return after;
  });
  const grantBody = z.strictObject({ coins: z.number().int().min(1).max(1000) });
  app.post('/api/operator/members/:id/coins', { preHandler: guard, schema: { params: z.object({ id: z.string().min(1).max(64) }), body: grantBody } }, async (request) => ({
    coin: await spins.grantCoins((request.params as { id: string }).id, (request.body as { coins: number }).coins),
  }));
}

/**
 * The prize wheel (spec sections 2, 3, 4, 7, 9): setup, spin, coupons, claim, active, and the
 * provable-fairness calls added to the spec. Operator: GET/PUT /api/operator/spinwheel (name,
 * active, slices with weights and prizes, the coin rule, coupon lifetime), POST
 * /api/operator/members/:id/coins {coins}.
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
  ],
  setup(services) {
    services.spins = new SpinService(services.database.db, services.money);
  },
  handlers: ({ spins }) => ({
    spinSetup: async (ctx) => spins.setup(requireMember(ctx).memberId),
    spin: async (ctx) => spins.spin(requireMember(ctx).memberId),
    spinCoupons: async (ctx) => spins.coupons(requireMember(ctx).memberId),
    spinCouponClaim: async (ctx) => spins.claim(requireMember(ctx).memberId, ctx.body.coupon),
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
