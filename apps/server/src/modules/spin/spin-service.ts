import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { Coupon, SpinFairness, SpinResult, SpinSetup } from '@mw/contract/spin';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { recordChange } from '../../platform/audit';
import { newId } from '../../lib/ids';
import type { MoneyCore } from '../../money/core';
import { ledgerCurrency } from '../../money/ledger';
import { newServerSeed, seedHash, sliceOf, spinRoll } from './fairness';
import type { SpinSeedsTable, SpinWheelsTable, StoredSlice } from './tables';

export const WHEEL_ID = 'default';
/** The statement's "from" of a prize. */
export const SPIN_SOURCE = 'SPIN';

type Wheel = Selectable<SpinWheelsTable>;

/** A wheel as an operator sets it (PUT /api/operator/spinwheel). */
export interface WheelInput {
  name: string;
  active: boolean;
  slices: StoredSlice[];
  depositPerCoin: number;
  couponTtlDays: number;
}

const newClientSeed = () => randomBytes(8).toString('hex');

/**
 * The prize wheel. Coins: every successful deposit of a baht member (bank, slip, QR, e-wallet,
 * manual, demo top-up) made while the wheel is active earns floor(amount / deposit_per_coin)
 * coins, once per deposit operation (coin_awards is keyed by it); they are added when the member's
 * coins are next read (setup, spin, active) and by a sweep every few seconds. A spin costs
 * one coin and is decided here — never in the browser — from the member's secret server seed,
 * client seed and nonce (fairness.ts), in one transaction with the coin it spends, the spin
 * record and the coupon it wins: 20 spins at once with 3 coins are exactly 3 spins, each stored
 * before it is answered. A coupon is claimed once (a credit keyed by the coupon: the prize comes
 * from the bonus account as a `bonus` operation, "from" SPIN) until it expires.
 *
 * The wheel is for baht members: a LAK member sees none (its prizes are in baht).
 */
export class SpinService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly money: MoneyCore,
  ) {
    money.credits.registerHook(
      'coupon_claimed',
      (name, rows) =>
        sql`${sql.ref(name)} AS (
          UPDATE spin_coupons c SET status = 'CLAIMED', claimed_at = now(), operation_id = u.op_id
          FROM unnest(${rows.ids}::text[], ${rows.operationIds}::text[]) AS u(id, op_id)
          JOIN op ON op.id = u.op_id
          WHERE c.id = u.id AND c.status = 'OPEN')`,
    );
  }

  /**
   * Adds the coins of deposits not yet counted — of one member, or (the sweep) of every member's
   * deposits of the last day. Idempotent and safe at the same moment: a deposit's award row is
   * written once, and only rows written now add coins.
   */
  async accrue(memberId?: string): Promise<number> {
    const result = await sql<{ n: string }>`
      WITH award AS (
        INSERT INTO coin_awards (operation_id, member_id, coins)
        SELECT o.id, o.member_id, (o.amount / w.deposit_per_coin)::int
        FROM operations o
        JOIN members m ON m.id = o.member_id AND m.currency <> 'LAK'
        JOIN spin_wheels w ON w.id = ${WHEEL_ID} AND w.active AND w.deposit_per_coin > 0
        WHERE o.type = 'deposit' AND o.status = 'SUCCESS' AND o.created_at >= w.coins_since AND o.amount >= w.deposit_per_coin
          ${memberId ? sql`AND o.member_id = ${memberId}` : sql`AND o.created_at > now() - interval '1 day'`}
          AND NOT EXISTS (SELECT 1 FROM coin_awards c WHERE c.operation_id = o.id)
        ON CONFLICT (operation_id) DO NOTHING
        RETURNING member_id, coins),
      added AS (
        UPDATE members m SET coin = m.coin + a.coins
        FROM (SELECT member_id, sum(coins)::bigint AS coins FROM award GROUP BY member_id) a
        WHERE m.id = a.member_id
        RETURNING m.id)
      SELECT count(*)::text AS n FROM added`.execute(this.db);
    return Number(result.rows[0]?.n ?? 0);
  }

  private async wheel(): Promise<Wheel | null> {
    const row = await this.db.selectFrom('spin_wheels').selectAll().where('id', '=', WHEEL_ID).executeTakeFirst();
    return row ?? null;
  }

  /** The active wheel for this member (baht members only), or null. */
  private async wheelFor(memberId: string): Promise<Wheel | null> {
    const [wheel, member] = await Promise.all([this.wheel(), this.db.selectFrom('members').select(['currency', 'coin']).where('id', '=', memberId).executeTakeFirst()]);
    if (!wheel?.active || !member || ledgerCurrency(member.currency) !== 'THB' || wheel.slices.length === 0) return null;
    return wheel;
  }

  async active(memberId: string): Promise<{ active: boolean }> {
    await this.accrue(memberId);
    return { active: (await this.wheelFor(memberId)) !== null };
  }

  async setup(memberId: string): Promise<SpinSetup> {
    await this.accrue(memberId);
    const [wheel, member] = await Promise.all([this.wheelFor(memberId), this.db.selectFrom('members').select('coin').where('id', '=', memberId).executeTakeFirst()]);
    return {
      result: {
        activeSpinwheel: wheel ? { name: wheel.name, slices: wheel.slices.map(({ code, label, bgColor, textColor, htmlDescription }) => ({ code, label, bgColor, textColor, htmlDescription })) } : null,
        userCoin: Number(member?.coin ?? 0),
      },
    };
  }

  /** The member's current (unrevealed) seed, made when there is none. */
  private async currentSeed(db: Kysely<DB>, memberId: string, forUpdate: boolean): Promise<Selectable<SpinSeedsTable>> {
    let query = db.selectFrom('spin_seeds').selectAll().where('member_id', '=', memberId).where('revealed_at', 'is', null);
    if (forUpdate) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (row) return row;
    const seed = newServerSeed();
    await db
      .insertInto('spin_seeds')
      .values({ id: newId(), member_id: memberId, seed, seed_hash: seedHash(seed), client_seed: newClientSeed() })
      .onConflict((oc) => oc.column('member_id').where('revealed_at', 'is', null).doNothing())
      .execute();
    let again = db.selectFrom('spin_seeds').selectAll().where('member_id', '=', memberId).where('revealed_at', 'is', null);
    if (forUpdate) again = again.forUpdate();
    return again.executeTakeFirstOrThrow();
  }

  async fairness(memberId: string): Promise<SpinFairness> {
    const wheel = await this.wheel();
    const seed = await this.currentSeed(this.db, memberId, false);
    const slices = (wheel?.slices ?? []).map(({ code, label, weight }) => ({ code, label, weight }));
    return { seedHash: seed.seed_hash, clientSeed: seed.client_seed, nonce: seed.nonce, slices, totalWeight: slices.reduce((n, s) => n + s.weight, 0) };
  }

  /** Reveals the member's seed and starts a new one (with the client seed given, or a random one). */
  async rotate(memberId: string, clientSeed: string | undefined): Promise<{ revealed: { seed: string; seedHash: string; clientSeed: string; spins: number }; next: SpinFairness }> {
    const revealed = await this.db.transaction().execute(async (trx) => {
      // The member's row orders this against their spins.
      await trx.selectFrom('members').select('id').where('id', '=', memberId).forUpdate().executeTakeFirstOrThrow();
      const old = await this.currentSeed(trx, memberId, true);
      await trx.updateTable('spin_seeds').set({ revealed_at: new Date() }).where('id', '=', old.id).execute();
      const seed = newServerSeed();
      await trx.insertInto('spin_seeds').values({ id: newId(), member_id: memberId, seed, seed_hash: seedHash(seed), client_seed: clientSeed ?? newClientSeed() }).execute();
      return { seed: old.seed, seedHash: old.seed_hash, clientSeed: old.client_seed, spins: old.nonce };
    });
    return { revealed, next: await this.fairness(memberId) };
  }

  /** One spin: a coin spent, the outcome decided and stored with its coupon, in one transaction. */
  async spin(memberId: string): Promise<SpinResult> {
    const wheel = await this.wheelFor(memberId);
    if (!wheel) throw new AppError(404, 'NO_SPINWHEEL', { success: false, error: 'NO_SPINWHEEL' });
    await this.accrue(memberId);
    const weights = wheel.slices.map((s) => s.weight);
    const total = weights.reduce((n, w) => n + w, 0);
    return this.db.transaction().execute(async (trx) => {
      const spent = await trx.updateTable('members').set({ coin: sql`coin - 1` }).where('id', '=', memberId).where('coin', '>', 0).returning('coin').executeTakeFirst();
      if (!spent) throw new AppError(409, 'NO_COIN', { success: false, error: 'NO_COIN' });
      const seed = await this.currentSeed(trx, memberId, true);
      const roll = spinRoll(seed.seed, seed.client_seed, seed.nonce, total);
      const slice = wheel.slices[sliceOf(roll, weights)] as StoredSlice;
      const spinId = newId();
      await trx.updateTable('spin_seeds').set({ nonce: seed.nonce + 1 }).where('id', '=', seed.id).execute();
      await trx
        .insertInto('spins')
        .values({ id: spinId, member_id: memberId, seed_id: seed.id, nonce: seed.nonce, roll, total_weight: total, slice_code: slice.code, slice_label: slice.label, weights: JSON.stringify(weights) })
        .execute();
      if (slice.prize.amount > 0) {
        await trx
          .insertInto('spin_coupons')
          .values({
            id: newId(),
            member_id: memberId,
            spin_id: spinId,
            slice_label: slice.label,
            name: slice.prize.name,
            amount: slice.prize.amount,
            status: 'OPEN',
            expires_at: new Date(Date.now() + Number(wheel.coupon_ttl_days) * 86_400_000),
            claimed_at: null,
            operation_id: null,
          })
          .execute();
      }
      return { success: true, result: { code: slice.code, label: slice.label, remainingCoin: Number(spent.coin) } };
    });
  }

  /** Coupons the member can claim, newest first (expired ones are not listed). */
  async coupons(memberId: string): Promise<Coupon[]> {
    const rows = await this.db
      .selectFrom('spin_coupons')
      .select(['id', 'slice_label', 'name', 'amount'])
      .where('member_id', '=', memberId)
      .where('status', '=', 'OPEN')
      .where('expires_at', '>', new Date())
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => ({ _id: r.id, prize: { slice: r.slice_label, name: r.name }, amount: toBaht(Number(r.amount)) }));
  }

  private claimGates: Array<(memberId: string) => Promise<void>> = [];

  /** A check before a prize is credited (the bonus domain refuses while a turnover remains: BONUS_REMAINING). */
  addClaimGate(gate: (memberId: string) => Promise<void>): void {
    this.claimGates.push(gate);
  }

  /** Credits a coupon's prize once (the credit's key is the coupon). */
  async claim(memberId: string, couponId: string): Promise<{ success: true; coupon: Coupon }> {
    for (const gate of this.claimGates) await gate(memberId);
    const row = await this.db.selectFrom('spin_coupons').selectAll().where('id', '=', couponId).where('member_id', '=', memberId).executeTakeFirst();
    if (!row || row.status !== 'OPEN') throw new AppError(404, 'NO_CLAIMABLE_COUPON', { success: false, error: 'NO_CLAIMABLE_COUPON' });
    if (row.expires_at.getTime() <= Date.now()) throw new AppError(410, 'COUPON_EXPIRED', { success: false, error: 'COUPON_EXPIRED' });
    const credit = await this.money.credits.credit({
      source: 'spin',
      ref: row.id,
      memberId,
      amount: Number(row.amount),
      currency: 'THB',
      kind: 'spin_prize',
      from: SPIN_SOURCE,
      note: row.name,
      tag: { hook: 'coupon_claimed', id: row.id },
    });
    if (!credit.created) throw new AppError(409, 'NO_CLAIMABLE_COUPON', { success: false, error: 'NO_CLAIMABLE_COUPON' });
    return { success: true, coupon: { _id: row.id, prize: { slice: row.slice_label, name: row.name }, amount: toBaht(Number(row.amount)) } };
  }

  /** The wheel with its weights and prizes (operators only). */
  async operatorWheel(): Promise<{ wheel: { name: string; active: boolean; slices: StoredSlice[]; depositPerCoin: number; couponTtlDays: number; updatedAt: string } | null }> {
    const wheel = await this.wheel();
    if (!wheel) return { wheel: null };
    return {
      wheel: {
        name: wheel.name,
        active: wheel.active,
        slices: wheel.slices,
        depositPerCoin: Number(wheel.deposit_per_coin),
        couponTtlDays: Number(wheel.coupon_ttl_days),
        updatedAt: wheel.updated_at.toISOString(),
      },
    };
  }

  async setWheel(input: WheelInput): Promise<Wheel> {
    const values = {
      id: WHEEL_ID,
      name: input.name,
      active: input.active,
      slices: JSON.stringify(input.slices),
      deposit_per_coin: input.depositPerCoin,
      coupon_ttl_days: input.couponTtlDays,
      updated_at: new Date(),
    };
    return this.db
      .insertInto('spin_wheels')
      .values(values)
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async seedWheel(input: WheelInput): Promise<void> {
    await this.db
      .insertInto('spin_wheels')
      .values({ id: WHEEL_ID, name: input.name, active: input.active, slices: JSON.stringify(input.slices), deposit_per_coin: input.depositPerCoin, coupon_ttl_days: input.couponTtlDays })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /** Records an operator's change of the wheel (platform/audit). */
  async audit(who: string, before: unknown, after: unknown): Promise<void> {
    await recordChange(this.db, { who, entity: 'spinwheel', key: WHEEL_ID, before, after });
  }

  /** Adds coins to a member (operator grants and tests). */
  async grantCoins(memberId: string, coins: number): Promise<number> {
    const row = await this.db.updateTable('members').set({ coin: sql`coin + ${coins}` }).where('id', '=', memberId).returning('coin').executeTakeFirst();
    if (!row) throw new AppError(404, 'NO_USER');
    return Number(row.coin);
  }
}
