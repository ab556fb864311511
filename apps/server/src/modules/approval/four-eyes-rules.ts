import { sql, type ColumnType, type Kysely } from 'kysely';
import type { DefaultTimestamp } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { Currency } from '../../money';
import type { SettingsService } from '../settings/settings-service';

/**
 * What a single operator's word moved without a second person: one row per thing (a withdrawal, an
 * unmatched deposit, a manual credit's key), so a retry is not counted twice. The four-eyes rule
 * sums these per member over a rolling 24 hours (money in: manual credits and assignments; money
 * out: payouts) and per operator, so splitting a large sum into small ones does not avoid a second
 * person.
 */
export interface FourEyesSpendTable {
  id: string;
  /** The thing moved (`withdrawal:<id>`, `deposit.assign:<id>`, `deposit.manual:<key>`): once each. */
  subject: string;
  kind: FourEyesKind;
  direction: 'in' | 'out';
  member_id: string;
  operator: string;
  /** Minor units of `currency`. */
  amount: ColumnBigint;
  currency: string;
  created_at: DefaultTimestamp;
}
type ColumnBigint = ColumnType<string, number, number>;

/** The tables this area owns: its query builder (`moduleDb`) sees these and no other area's. */
export interface FourEyesTables {
  four_eyes_spend: FourEyesSpendTable;
}

declare module '../../db/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the whole schema is every area's tables
  interface DB extends FourEyesTables {}
}

export const FOUR_EYES_KINDS = ['manual', 'assign', 'payout'] as const;
export type FourEyesKind = (typeof FOUR_EYES_KINDS)[number];

/** The thresholds of one currency, in major units (baht, kip): above them a second person approves. */
export interface CurrencyThresholds {
  /** A member's manual credits and assigned deposits over 24 h (with this one). */
  manual: number;
  assign: number;
  /** A member's payouts approved or completed by hand over 24 h (with this one). */
  payout: number;
  /** Everything one operator moved alone over 24 h, a second ceiling. */
  operatorDay: number;
}
export type FourEyesThresholds = Record<Currency, CurrencyThresholds>;

/**
 * Defaults under the largest withdrawal, so every kind can reach a second person: ฿20,000 per member
 * a day (₭12,000,000: about 600 kip to the baht, rounded), ฿200,000 per operator a day
 * (₭120,000,000). FOUR_EYES_THRESHOLD / FOUR_EYES_THRESHOLD_LAK set the per-member defaults.
 */
export function defaultThresholds(thb: number, lak: number): FourEyesThresholds {
  return {
    THB: { manual: thb, assign: thb, payout: thb, operatorDay: thb * 10 },
    LAK: { manual: lak, assign: lak, payout: lak, operatorDay: lak * 10 },
  };
}

export const DAY_MS = 24 * 60 * 60_000;

/** The fields of `value` finer than the minor unit (0.01 baht or kip; the sums are in minor units), as field errors. */
export function belowMinorUnit(value: FourEyesThresholds): Array<{ path: string; code: 'invalid' }> {
  const fields: Array<{ path: string; code: 'invalid' }> = [];
  for (const [currency, limits] of Object.entries(value)) {
    for (const [field, amount] of Object.entries(limits)) {
      const minor = Number(amount) * 100;
      if (Math.abs(minor - Math.round(minor)) > 1e-6) fields.push({ path: `${currency}.${field}`, code: 'invalid' });
    }
  }
  return fields;
}

/** The rule: the thresholds (settings, owner only) and the 24-hour sums. */
export class FourEyesRules {
  constructor(
    private readonly db: Kysely<FourEyesTables>,
    private readonly defaults: FourEyesThresholds,
    private readonly settings: () => SettingsService,
  ) {}

  async thresholds(): Promise<FourEyesThresholds> {
    const stored = await this.settings().get<Partial<Record<Currency, Partial<CurrencyThresholds>>> | null>('fourEyes', null);
    return {
      THB: { ...this.defaults.THB, ...(stored?.THB ?? {}) },
      LAK: { ...this.defaults.LAK, ...(stored?.LAK ?? {}) },
    };
  }

  async setThresholds(value: FourEyesThresholds): Promise<void> {
    await this.settings().set('fourEyes', value);
  }

  /** Forgets a move counted for `subject` that was refused (nothing moved): it no longer counts in the sums. */
  async release(subject: string): Promise<void> {
    await this.db.deleteFrom('four_eyes_spend').where('subject', '=', subject).execute();
  }

  /**
   * Whether moving `amount` (minor units) on one operator's word needs a second person. When it
   * does not, the move is recorded (once per subject) in the same locked step, so two moves at once
   * for one member cannot both pass under the threshold.
   */
  async needsChecker(input: { kind: FourEyesKind; subject: string; memberId: string; operator: string; amount: number; currency: Currency }): Promise<boolean> {
    const limits = (await this.thresholds())[input.currency];
    const direction = input.kind === 'payout' ? 'out' : 'in';
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`four-eyes:${input.memberId}`}))`.execute(trx);
      const done = await trx.selectFrom('four_eyes_spend').select('id').where('subject', '=', input.subject).executeTakeFirst();
      if (done) return false;
      const since = new Date(Date.now() - DAY_MS);
      const [member, operator] = await Promise.all([
        trx.selectFrom('four_eyes_spend').select(sql<string>`COALESCE(SUM(amount), 0)`.as('total')).where('member_id', '=', input.memberId).where('direction', '=', direction).where('currency', '=', input.currency).where('created_at', '>', since).executeTakeFirstOrThrow(),
        trx.selectFrom('four_eyes_spend').select(sql<string>`COALESCE(SUM(amount), 0)`.as('total')).where('operator', '=', input.operator).where('currency', '=', input.currency).where('created_at', '>', since).executeTakeFirstOrThrow(),
      ]);
      const memberTotal = Number(member.total) + input.amount;
      const operatorTotal = Number(operator.total) + input.amount;
      if (memberTotal > Math.round(limits[input.kind] * 100) || operatorTotal > Math.round(limits.operatorDay * 100)) return true;
      await trx.insertInto('four_eyes_spend').values({ id: newId(), subject: input.subject, kind: input.kind, direction, member_id: input.memberId, operator: input.operator, amount: input.amount, currency: input.currency }).execute();
      return false;
    });
  }
}
