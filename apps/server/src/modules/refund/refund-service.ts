import { sameConnection } from '../../db/database';
import { sql, type Kysely } from 'kysely';
import type { Locale } from '@mw/contract/constants';
import { toBaht } from '@mw/contract/money';
import type { RefundCheck } from '@mw/contract/refund';
import { AppError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { MoneyCore } from '../../money';
import { BASE_CURRENCY, memberCurrency, type Currency } from '../../money';
import type { Idem } from '../../money';
import { uniqueViolation } from '../../lib/errors';
import type { GameActivity } from '../activity';
import type { BonusService } from '../bonus/bonus-service';
import { KeyTaken } from '../../money';
import type { SettingsService } from '../settings/settings-service';
import { periodStart } from '../../lib/periods';
import type { RefundsTable, RefundTables } from './tables';
import { transferCode } from '../../money';

/** This module's transfer code (the money core writes it into transfer_codes at start). */
export const REFUND_CODE = transferCode('refund', 'refund', 'A refund of losses paid into the wallet');

/** The refund rule (setting `refund`; amounts per currency in its minor units, percents as numbers). */
export interface RefundRules {
  active: boolean;
  period: 'day' | 'week';
  /** Percent of the period's net loss. */
  percent: number;
  /** Per currency: a currency with no minimum and maximum has no refunds (REFUND_INACTIVE for its members). */
  minimum: Partial<Record<Currency, number>>;
  maximum: Partial<Record<Currency, number>>;
  /**
   * Shown in the add-to-wallet confirmation (spec: refundSuccess, refundFail), and the condition
   * the refund is added under: turnover of successPercent % of it, bust at failPercent % (see
   * PayoutRule; successPercent 0: no condition).
   */
  successPercent: number;
  failPercent: number;
  /** The refund modal's text per currency (it names the maximum in that currency), per locale. */
  info: Partial<Record<Currency, Record<Locale, string>>>;
}

export const DEFAULT_REFUND_RULES: RefundRules = {
  active: true,
  period: 'week',
  percent: 5,
  minimum: { [BASE_CURRENCY]: 100 },
  maximum: { [BASE_CURRENCY]: 500_000 },
  successPercent: 100,
  failPercent: 0,
  info: {
    [BASE_CURRENCY]: {
      th: '<p>รับคืนยอดเสีย 5% ของสัปดาห์ที่แล้ว (จันทร์–อาทิตย์) สูงสุด ฿5,000</p>',
      la: '<p>ຮັບຄືນຍອດເສຍ 5% ຂອງອາທິດທີ່ແລ້ວ (ຈັນ–ອາທິດ) ສູງສຸດ ฿5,000</p>',
      en: '<p>5% of last week’s net loss (Monday to Sunday) back, up to ฿5,000.</p>',
    },
  },
};

type StoredRefundRules = Partial<Omit<RefundRules, 'minimum' | 'maximum' | 'info'>> & {
  minimum?: number | Partial<Record<Currency, number>>;
  maximum?: number | Partial<Record<Currency, number>>;
  info?: Record<Locale, string> | Partial<Record<Currency, Record<Locale, string>>>;
};

const isLocaleTexts = (info: NonNullable<StoredRefundRules['info']>): info is Record<Locale, string> => typeof (info as { en?: unknown }).en === 'string';

/** Stored rules as they are now: bare amounts and texts (before currencies) were the base currency's. */
function normaliseRules(stored: StoredRefundRules): RefundRules {
  const { minimum, maximum, info, ...rest } = stored;
  const perCurrency = (value: number | Partial<Record<Currency, number>> | undefined, fallback: Partial<Record<Currency, number>>) => (typeof value === 'number' ? { [BASE_CURRENCY]: value } : (value ?? fallback));
  return {
    ...DEFAULT_REFUND_RULES,
    ...rest,
    minimum: perCurrency(minimum, DEFAULT_REFUND_RULES.minimum),
    maximum: perCurrency(maximum, DEFAULT_REFUND_RULES.maximum),
    info: info === undefined ? DEFAULT_REFUND_RULES.info : isLocaleTexts(info) ? { [BASE_CURRENCY]: info } : info,
  };
}

/** A currency's amounts, when the rules give refunds in it. */
function amountsOf(rules: RefundRules, currency: Currency): { minimum: number; maximum: number } | null {
  const minimum = rules.minimum[currency];
  const maximum = rules.maximum[currency];
  return minimum === undefined || maximum === undefined ? null : { minimum, maximum };
}

/**
 * Refund of losses: for each closed period (the last full day or week, Asia/Bangkok by the bonus
 * clock), the member's net loss = stakes − wins of the rounds settled in it (all games), times
 * `percent`, at most `maximum`; under `minimum` it is nothing — all in the member's currency
 * (their stakes and wins are in it; minimum and maximum are that currency's), and credited in it. It is computed once per (member,
 * period) — the first look after the period closed writes it (rounds are imported first) and it
 * never changes. `receive` takes the available refunds (REFUND_SUCCESS; refused while a bonus is
 * open: REFUND_CONDITION); `addWallet` credits the received ones to the wallet, once per refund
 * (a `bonus` statement row "from" REFUND, paid from the bonus account), under a turnover condition
 * opened in the same statement (refused with REFUND_CONDITION while another condition is open).
 */
export class RefundService {
  constructor(
    private readonly db: Kysely<RefundTables>,
    private readonly money: MoneyCore,
    private readonly settings: SettingsService,
    private readonly activity: GameActivity,
    private readonly bonuses: BonusService,
    private readonly now: () => number,
  ) {
    // The refunds paid by a credit (its tag names them, comma-separated) are CREDITED with it, and its payout condition opens with it.
    money.credits.onCredited('refund_credited', async (trx, credited) => {
      await sql`UPDATE refunds r SET status = 'CREDITED', operation_id = u.op_id
        FROM unnest(${credited.map((c) => c.id)}::text[], ${credited.map((c) => c.operationId)}::text[]) AS u(ids, op_id)
        WHERE r.id = ANY(string_to_array(u.ids, ',')) AND r.status = 'RECEIVED'`.execute(sameConnection<RefundTables>(trx));
      await bonuses.openPayoutConditions(trx, 'refund', credited);
    });
  }

  async rules(): Promise<RefundRules> {
    return normaliseRules(await this.settings.get<StoredRefundRules>('refund', {}));
  }

  /** Writes the refund of the last closed period, once, in the member's currency (answers nothing). */
  private async compute(memberId: string, rules: RefundRules, currency: Currency): Promise<void> {
    const limits = amountsOf(rules, currency);
    if (!limits) return;
    const now = new Date(this.now());
    const current = periodStart(rules.period, now) ?? now;
    const previous = periodStart(rules.period, new Date(current.getTime() - 1)) ?? current;
    const exists = await this.db.selectFrom('refunds').select('id').where('member_id', '=', memberId).where('period_start', '=', previous).executeTakeFirst();
    if (exists) return;
    await this.activity.importAll();
    const totals = await this.activity.totals(memberId, previous, current, null);
    const loss = Math.max(0, totals.stakes - totals.wins);
    const amount = Math.min(limits.maximum, Math.floor((loss * rules.percent) / 100));
    await this.db
      .insertInto('refunds')
      .values({ id: newId(), member_id: memberId, period_start: previous, period_end: current, stakes: totals.stakes, wins: totals.wins, amount, currency, status: amount >= limits.minimum && amount > 0 ? 'AVAILABLE' : 'NONE', operation_id: null })
      .onConflict((oc) => oc.columns(['member_id', 'period_start']).doNothing())
      .execute();
  }

  async check(memberId: string, locale: Locale): Promise<RefundCheck> {
    const rules = await this.rules();
    const currency = await memberCurrency(this.db, memberId);
    const active = rules.active && amountsOf(rules, currency) !== null;
    if (active) await this.compute(memberId, rules, currency);
    const [available, received] = await Promise.all([this.sum(memberId, 'AVAILABLE', currency), this.sum(memberId, 'RECEIVED', currency)]);
    await this.bonuses.settle(memberId);
    const bonus = (await this.bonuses.active(memberId)) !== null;
    const info = rules.info[currency];
    return { result: active && available > 0, bonus, info: info ? info[locale] || info.en : '', refundAmount: toBaht(available), received: toBaht(received), refundSuccess: rules.successPercent, refundFail: rules.failPercent };
  }

  private async sum(memberId: string, status: RefundsTable['status'], currency: Currency): Promise<number> {
    const row = await this.db
      .selectFrom('refunds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), sql<string>`0`).as('n'))
      .where('member_id', '=', memberId)
      .where('status', '=', status)
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async receive(memberId: string, idem: Idem | null = null): Promise<{ message: 'REFUND_SUCCESS' }> {
    // Run again under its key after the answer was lost (the process died): the refunds it took answer.
    if (idem && (await this.db.selectFrom('refunds').select('id').where('member_id', '=', memberId).where('receive_key', '=', idem.key).executeTakeFirst())) return { message: 'REFUND_SUCCESS' };
    const rules = await this.rules();
    const currency = await memberCurrency(this.db, memberId);
    if (!rules.active || !amountsOf(rules, currency)) throw new AppError(403, 'REFUND_INACTIVE');
    await this.compute(memberId, rules, currency);
    await this.bonuses.settle(memberId);
    if (await this.bonuses.active(memberId)) throw new AppError(409, 'REFUND_CONDITION');
    const any = await this.db.selectFrom('refunds').select(['id', 'status']).where('member_id', '=', memberId).where('status', 'in', ['AVAILABLE', 'NONE']).orderBy('period_start', 'desc').executeTakeFirst();
    if (!any) throw notFound('NO_REFUND');
    // One conditional update: receives at once take each refund once.
    const taken = await this.db.updateTable('refunds').set({ status: 'RECEIVED', receive_key: idem?.key ?? null }).where('member_id', '=', memberId).where('currency', '=', currency).where('status', '=', 'AVAILABLE').executeTakeFirst();
    // Taken by a receive at the same moment: nothing left to receive.
    if (Number(taken.numUpdatedRows) === 0) throw any.status === 'AVAILABLE' ? notFound('NO_REFUND') : new AppError(400, 'REFUND_MINIMUM');
    return { message: 'REFUND_SUCCESS' };
  }

  async addWallet(memberId: string, idem: Idem | null = null): Promise<{ ok: true; amount: number; wallet: { amount: number } }> {
    // Run again under its key after the answer was lost (the process died): the credit the key
    // recorded answers, as the first time (its amount, the wallet right after it).
    const earlier = idem ? await this.money.recorded(memberId, idem) : null;
    if (earlier) return { ok: true, amount: earlier.amount, wallet: earlier.wallet };
    // Credited in the member's currency, the refunds' own.
    const currency = await memberCurrency(this.db, memberId);
    const received = await this.db.selectFrom('refunds').select(['id', 'amount']).where('member_id', '=', memberId).where('currency', '=', currency).where('status', '=', 'RECEIVED').orderBy('period_start').execute();
    if (received.length === 0) throw notFound('NO_REFUND');
    const rules = await this.rules();
    // All the received refunds are added in one credit (one condition): its key is the oldest
    // one's id, and the credit's hook marks every one of them credited in the same statement.
    const amount = received.reduce((sum, r) => sum + Number(r.amount), 0);
    const first = received[0] as (typeof received)[number];
    await this.bonuses.settle(memberId);
    if (await this.bonuses.active(memberId)) throw new AppError(409, 'REFUND_CONDITION');
    let credit;
    try {
      credit = await this.money.credits.credit({ source: 'refund', ref: first.id, memberId, amount, currency, kind: REFUND_CODE, from: 'REFUND', note: null, idem, tag: { name: 'refund_credited', id: received.map((r) => r.id).join(','), data: await this.bonuses.payoutCondition(memberId, amount, rules) } });
    } catch (error) {
      // Another condition opened meanwhile (one per member: its unique index): nothing was
      // credited. A key recorded first answers from its record (KeyTaken goes up).
      if (!(error instanceof KeyTaken) && uniqueViolation(error) !== null) throw new AppError(409, 'REFUND_CONDITION');
      throw error;
    }
    if (!credit.created) throw notFound('NO_REFUND');
    return { ok: true, amount: toBaht(amount), wallet: { amount: toBaht(credit.wallet ?? 0) } };
  }

  /** The log: refunds the member received (added to the wallet or not yet), newest first. */
  async list(memberId: string, page: number, limit: number): Promise<{ total: number; refunds: Array<{ refundAmount: number; createdAt: string }> }> {
    const [count, rows] = await Promise.all([
      this.db.selectFrom('refunds').select((eb) => eb.fn.countAll<string>().as('n')).where('member_id', '=', memberId).where('status', 'in', ['RECEIVED', 'CREDITED']).executeTakeFirstOrThrow(),
      this.db.selectFrom('refunds').select(['amount', 'created_at']).where('member_id', '=', memberId).where('status', 'in', ['RECEIVED', 'CREDITED']).orderBy('created_at', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    ]);
    return { total: Number(count.n), refunds: rows.map((r) => ({ refundAmount: toBaht(Number(r.amount)), createdAt: r.created_at.toISOString() })) };
  }
}
