import { randomBytes } from 'node:crypto';
import { sameConnection } from '../../db/database';
import { sql, type Kysely, type Selectable } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { Coupon, SpinFairness, SpinResult, SpinSetup } from '@mw/contract/spin';
import { AppError } from '../../lib/errors';
import { recordChange } from '../../platform/audit';
import { newId } from '../../lib/ids';
import { uniqueViolation } from '../../lib/errors';
import type { MoneyCore } from '../../money';
import type { Idem } from '../../money';
import { BASE_CURRENCY, CURRENCIES, InsufficientFunds, LedgerError, ledgerCurrencySql, memberCurrency, type Currency } from '../../money';
import { newServerSeed, seedHash, sliceOf, spinRoll } from './fairness';
import type { SpinCouponsTable, SpinSeedsTable, SpinWheelsTable, StoredSlice, SpinTables } from './tables';
import { transferCode } from '../../money';

/** This module's transfer code (the money core writes it into transfer_codes at start). */
export const SPIN_PRIZE_CODE = transferCode('spin', 'spin_prize', 'A wheel prize paid into the wallet');

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

/** A currency code of an operator's call or a stored row, checked against the ledger's list. */
export function currencyOf(value: string | undefined): Currency | null {
  if (value === undefined) return BASE_CURRENCY;
  return CURRENCIES.find((c) => c === value) ?? null;
}

/**
 * The prize wheel, one per currency (spin_wheels.id is the currency: THB, LAK): a member plays the
 * wheel of their own currency, whose coin rate and prizes are in that currency. Coins are value on
 * the ledger (their own unit COIN, money/coins.ts): every successful deposit (bank, slip, QR,
 * e-wallet, manual, demo top-up) made while the member's wheel is active earns
 * floor(amount / deposit_per_coin) coins, both in the deposit's currency, once per deposit
 * operation (the coin_awards row is written in the statement that posts them); they are added
 * when the member's coins are next read (setup, spin, active) and by a sweep every few seconds.
 * A spin costs one coin and is decided here — never in the browser — from the member's secret
 * server seed, client seed and nonce (fairness.ts), in one transaction with the coin it spends
 * (a posting that locks the member's coin account), the spin record and the coupon it wins:
 * 20 spins at once with 3 coins are exactly 3 spins, each stored before it is answered; spins
 * with one Idempotency-Key are one spin (a unique key on spins). A coupon is claimed once (a
 * credit keyed by the coupon, in the coupon's currency: the prize comes from the bonus account as
 * a `bonus` operation, "from" SPIN) until it expires.
 */
export class SpinService {
  constructor(
    private readonly db: Kysely<SpinTables>,
    private readonly money: MoneyCore,
  ) {
    // A coupon whose prize is credited: CLAIMED with its operation.
    money.credits.onCredited('coupon_claimed', async (trx, credited) => {
      await sql`UPDATE spin_coupons c SET status = 'CLAIMED', claimed_at = now(), operation_id = u.op_id
        FROM unnest(${credited.map((c) => c.id)}::text[], ${credited.map((c) => c.operationId)}::text[]) AS u(id, op_id)
        WHERE c.id = u.id AND c.status = 'OPEN'`.execute(sameConnection<SpinTables>(trx));
    });
  }

  /**
   * Adds the coins of deposits not yet counted — of one member, or (the sweep) of every member's
   * deposits of the last day — at the coin rate of the wheel in the deposit's currency (a
   * member's deposits are in the member's currency). Idempotent and safe at the same moment: a
   * deposit's award row is written once, in the statement that posts its coins, and only rows
   * written now post. Answers how many deposits earned coins now.
   */
  async accrue(memberId?: string): Promise<number> {
    const due = await sql<{ id: string; member_id: string; coins: number | string }>`
      SELECT o.id, o.member_id, (o.amount / w.deposit_per_coin)::int AS coins
      FROM operation_view o
      JOIN member_view m ON m.id = o.member_id
      JOIN spin_wheels w ON w.id = ${ledgerCurrencySql('m.currency')} AND w.active AND w.deposit_per_coin > 0
      WHERE o.type = 'deposit' AND o.status = 'SUCCESS' AND o.created_at >= w.coins_since AND o.amount >= w.deposit_per_coin
        ${memberId ? sql`AND o.member_id = ${memberId}` : sql`AND o.created_at > now() - interval '1 day'`}
        AND NOT EXISTS (SELECT 1 FROM coin_awards c WHERE c.operation_id = o.id)
      ORDER BY o.id
      LIMIT 500`.execute(this.db);
    if (due.rows.length === 0) return 0;
    const rows = due.rows.map((r) => ({ id: r.id, memberId: r.member_id, coins: Number(r.coins) }));
    const posted = await this.money.coins.earn(
      rows.map((r) => ({ ref: `coin-award:${r.id}`, memberId: r.memberId, coins: r.coins })),
      (name) => sql`${sql.ref(name)} AS (
        INSERT INTO coin_awards (operation_id, member_id, coins)
        SELECT * FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.memberId)}::text[], ${rows.map((r) => r.coins)}::int[])
        ON CONFLICT (operation_id) DO NOTHING
        RETURNING 'coin-award:' || operation_id AS ref)`,
    );
    return posted.size;
  }

  private async wheel(currency: Currency): Promise<Wheel | null> {
    const row = await this.db.selectFrom('spin_wheels').selectAll().where('id', '=', currency).executeTakeFirst();
    return row ?? null;
  }

  /** The active wheel of the member's currency, or null. */
  private async wheelFor(memberId: string): Promise<Wheel | null> {
    const wheel = await this.wheel(await this.currencyOfMember(memberId));
    if (!wheel?.active || wheel.slices.length === 0) return null;
    return wheel;
  }

  private async currencyOfMember(memberId: string): Promise<Currency> {
    try {
      return await memberCurrency(this.db, memberId);
    } catch (error) {
      if (error instanceof LedgerError) throw new AppError(404, 'NO_USER');
      throw error;
    }
  }

  async active(memberId: string): Promise<{ active: boolean }> {
    await this.accrue(memberId);
    return { active: (await this.wheelFor(memberId)) !== null };
  }

  async setup(memberId: string): Promise<SpinSetup> {
    await this.accrue(memberId);
    const [wheel, coins] = await Promise.all([this.wheelFor(memberId), this.money.coins.balance(memberId)]);
    return {
      result: {
        activeSpinwheel: wheel ? { name: wheel.name, slices: wheel.slices.map(({ code, label, bgColor, textColor, htmlDescription }) => ({ code, label, bgColor, textColor, htmlDescription })) } : null,
        userCoin: coins,
      },
    };
  }

  /** The member's current (unrevealed) seed, made when there is none. */
  private async currentSeed(db: Kysely<SpinTables>, memberId: string, forUpdate: boolean): Promise<Selectable<SpinSeedsTable>> {
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
    const wheel = await this.wheel(await this.currencyOfMember(memberId));
    const seed = await this.currentSeed(this.db, memberId, false);
    const slices = (wheel?.slices ?? []).map(({ code, label, weight }) => ({ code, label, weight }));
    return { seedHash: seed.seed_hash, clientSeed: seed.client_seed, nonce: seed.nonce, slices, totalWeight: slices.reduce((n, s) => n + s.weight, 0) };
  }

  /** Reveals the member's seed and starts a new one (with the client seed given, or a random one). */
  async rotate(memberId: string, clientSeed: string | undefined): Promise<{ revealed: { seed: string; seedHash: string; clientSeed: string; spins: number }; next: SpinFairness }> {
    const revealed = await this.db.transaction().execute(async (trx) => {
      // The current seed's row lock orders this against the member's spins (they lock it too).
      const old = await this.currentSeed(trx, memberId, true);
      await trx.updateTable('spin_seeds').set({ revealed_at: new Date() }).where('id', '=', old.id).execute();
      const seed = newServerSeed();
      await trx.insertInto('spin_seeds').values({ id: newId(), member_id: memberId, seed, seed_hash: seedHash(seed), client_seed: clientSeed ?? newClientSeed() }).execute();
      return { seed: old.seed, seedHash: old.seed_hash, clientSeed: old.client_seed, spins: old.nonce };
    });
    return { revealed, next: await this.fairness(memberId) };
  }

  /** A spin made under this Idempotency-Key, answered as it was. */
  private async spinByKey(memberId: string, idem: Idem | null): Promise<SpinResult | null> {
    if (!idem) return null;
    const row = await this.db.selectFrom('spins').select(['slice_code', 'slice_label', 'remaining_coin']).where('member_id', '=', memberId).where('request_key', '=', idem.key).executeTakeFirst();
    return row ? { success: true, result: { code: row.slice_code, label: row.slice_label, remainingCoin: Number(row.remaining_coin ?? 0) } } : null;
  }

  /**
   * One spin: a coin spent (a ledger posting), the outcome decided and stored with its coupon, in
   * one transaction. With an Idempotency-Key it is one spin per key, also when the requests
   * arrive at once (the key is unique on spins: a second transaction with it rolls back, coin and
   * all, and answers the first spin).
   */
  async spin(memberId: string, idem: Idem | null = null): Promise<SpinResult> {
    const wheel = await this.wheelFor(memberId);
    if (!wheel) throw new AppError(404, 'NO_SPINWHEEL', { success: false, error: 'NO_SPINWHEEL' });
    const earlier = await this.spinByKey(memberId, idem);
    if (earlier) return earlier;
    await this.accrue(memberId);
    const weights = wheel.slices.map((s) => s.weight);
    const total = weights.reduce((n, w) => n + w, 0);
    const spinId = newId();
    try {
      return await this.db.transaction().execute(async (trx) => this.money.coins.spend(trx, memberId, 1, `spin:${spinId}`, async (remaining) => {
        const seed = await this.currentSeed(trx, memberId, true);
        const roll = spinRoll(seed.seed, seed.client_seed, seed.nonce, total);
        const slice = wheel.slices[sliceOf(roll, weights)] as StoredSlice;
        await trx.updateTable('spin_seeds').set({ nonce: seed.nonce + 1 }).where('id', '=', seed.id).execute();
        await trx
          .insertInto('spins')
          .values({
            id: spinId,
            member_id: memberId,
            seed_id: seed.id,
            nonce: seed.nonce,
            roll,
            total_weight: total,
            slice_code: slice.code,
            slice_label: slice.label,
            weights: JSON.stringify(weights),
            request_key: idem?.key ?? null,
            remaining_coin: remaining,
          })
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
              currency: wheel.id,
              status: 'OPEN',
              expires_at: new Date(Date.now() + Number(wheel.coupon_ttl_days) * 86_400_000),
              claimed_at: null,
              operation_id: null,
            })
            .execute();
        }
        return { success: true, result: { code: slice.code, label: slice.label, remainingCoin: remaining } };
      }));
    } catch (error) {
      // The same key at the same moment: the first spin is the answer (this one rolled back).
      const first = (error instanceof InsufficientFunds || uniqueViolation(error) !== null) && (await this.spinByKey(memberId, idem));
      if (first) return first;
      if (error instanceof InsufficientFunds) throw new AppError(409, 'NO_COIN', { success: false, error: 'NO_COIN' });
      throw error;
    }
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
  async claim(memberId: string, couponId: string, idem: Idem | null = null): Promise<{ success: true; coupon: Coupon }> {
    // Run again under its key after the answer was lost (the process died): the coupon the key's
    // credit claimed answers, as the first time.
    const earlier = idem ? await this.money.recorded(memberId, idem) : null;
    if (earlier) {
      const claimed = await this.db.selectFrom('spin_coupons').selectAll().where('member_id', '=', memberId).where('operation_id', '=', earlier.reference).executeTakeFirst();
      if (claimed) return this.claimAnswer(claimed);
    }
    for (const gate of this.claimGates) await gate(memberId);
    const row = await this.db.selectFrom('spin_coupons').selectAll().where('id', '=', couponId).where('member_id', '=', memberId).executeTakeFirst();
    if (!row || row.status !== 'OPEN') throw new AppError(404, 'NO_CLAIMABLE_COUPON', { success: false, error: 'NO_CLAIMABLE_COUPON' });
    if (row.expires_at.getTime() <= Date.now()) throw new AppError(410, 'COUPON_EXPIRED', { success: false, error: 'COUPON_EXPIRED' });
    // The prize is in the currency of the wheel that gave it (the member's).
    const currency = currencyOf(row.currency);
    if (!currency) throw new AppError(409, 'INVALID_COUPON_TYPE', { success: false, error: 'INVALID_COUPON_TYPE' });
    const credit = await this.money.credits.credit({
      source: 'spin',
      ref: row.id,
      memberId,
      amount: Number(row.amount),
      currency,
      kind: SPIN_PRIZE_CODE,
      from: SPIN_SOURCE,
      note: row.name,
      tag: { name: 'coupon_claimed', id: row.id },
      idem,
    });
    if (!credit.created) throw new AppError(409, 'NO_CLAIMABLE_COUPON', { success: false, error: 'NO_CLAIMABLE_COUPON' });
    return this.claimAnswer(row);
  }

  private claimAnswer(row: Pick<Selectable<SpinCouponsTable>, 'id' | 'slice_label' | 'name' | 'amount'>): { success: true; coupon: Coupon } {
    return { success: true, coupon: { _id: row.id, prize: { slice: row.slice_label, name: row.name }, amount: toBaht(Number(row.amount)) } };
  }

  /** The wheel with its weights and prizes (operators only). */
  async operatorWheel(currency: Currency): Promise<{ wheel: { name: string; active: boolean; slices: StoredSlice[]; depositPerCoin: number; couponTtlDays: number; updatedAt: string } | null }> {
    const wheel = await this.wheel(currency);
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

  async setWheel(currency: Currency, input: WheelInput): Promise<Wheel> {
    const values = {
      id: currency,
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

  /** The wheel of one currency, when it has none yet (the demo seed). */
  async seedWheel(currency: Currency, input: WheelInput): Promise<void> {
    await this.db
      .insertInto('spin_wheels')
      .values({ id: currency, name: input.name, active: input.active, slices: JSON.stringify(input.slices), deposit_per_coin: input.depositPerCoin, coupon_ttl_days: input.couponTtlDays })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /** Records an operator's change of the wheel (platform/audit). */
  async audit(who: string, currency: Currency, before: unknown, after: unknown): Promise<void> {
    await recordChange(this.db, { who, entity: 'spinwheel', key: currency, before, after });
  }

  /** Adds coins to a member (operator grants and tests): a posting from the coin issuer. */
  /** Whether the member exists (404 NO_USER otherwise), before a grant is asked for. */
  async grantable(memberId: string): Promise<Currency> {
    return this.currencyOfMember(memberId);
  }

  async grantCoins(memberId: string, coins: number): Promise<number> {
    await this.currencyOfMember(memberId);
    return this.money.coins.grant(memberId, coins);
  }

  /** Grants coins unless the member's grants since `since` would pass `max` (null: nothing granted). */
  async grantCoinsWithin(memberId: string, coins: number, since: Date, max: number): Promise<number | null> {
    await this.currencyOfMember(memberId);
    return this.money.coins.grantWithin(memberId, coins, since, max);
  }
}
