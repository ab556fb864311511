import { sql, type Kysely, type Selectable } from 'kysely';
import type { Locale } from '@mw/contract/constants';
import type { Promotion } from '@mw/contract/bonus';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { sameConnection } from '../../db/database';
import type { MoneyCore } from '../../money';
import { CURRENCIES, memberCurrency, refuseOtherRequest, type Currency, type Idem } from '../../money';
import { bonusAmountsIn, type BonusService } from './bonus-service';
import type { BonusesTable, PromotionAmounts, PromotionsTable, BonusDb } from './tables';
import { BONUS_CODE } from './bonus-service';

type PromotionRow = Selectable<PromotionsTable>;
type Bonus = Selectable<BonusesTable>;

/** A credit code's amount in a currency (minor units), or null when it is not offered in it. */
function creditIn(amounts: PromotionAmounts, currency: Currency): number | null {
  const amount = amounts[currency];
  return amount !== undefined && amount > 0 ? amount : null;
}

/** The statement's "from" of a promotion's credit is its code; the credit's key is the use. */
export const PROMOTION_SOURCE = 'promotion';

/**
 * Promotion codes (`/api/promotion/...`): codes are upper-cased; a code works inside its window
 * (valid_from, valid_to), while its total uses are under max_uses and the member's under
 * max_per_member (PROMOTION_RECEIVED), else it is NO_PROMOTION. It grants either a fixed credit
 * (a `bonus` statement row, no condition) or a catalogue bonus's rule on the member's latest
 * deposit (a condition like the bonus's own, which check/active reports as type `promotion`).
 * Uses are counted under the member's lock, so parallel activations never grant twice.
 * Amounts are per currency: a credit code holds an amount per currency, a bonus code takes its
 * bonus's amounts; a code with nothing in the member's currency is NO_PROMOTION for that member
 * (a LAK member gets codes in LAK, a THB member in baht).
 */
export class PromotionService {
  constructor(
    private readonly db: Kysely<BonusDb>,
    private readonly money: MoneyCore,
    private readonly bonuses: BonusService,
    private readonly now: () => number = Date.now,
  ) {
    // A credit code's use credited: in the credit's transaction, so the two commit together.
    money.credits.onCredited('promotion_credited', async (trx, credited) => {
      await sql`UPDATE promotion_uses SET credited = true WHERE id = ANY(${credited.map((c) => c.id)}::text[])`.execute(sameConnection<BonusDb>(trx));
    });
  }

  private answer(row: PromotionRow, locale: Locale): Promotion {
    return { code: row.code, percentFail: Number(row.percent_fail), description: row.description[locale] || row.description.en || row.description.th };
  }

  /** A code open now and offered in the currency (with its bonus rule, for a bonus code). */
  private async valid(rawCode: string, currency: Currency): Promise<{ promotion: PromotionRow; bonus: Bonus | undefined }> {
    const code = rawCode.trim().toUpperCase();
    const row = await this.db.selectFrom('promotions').selectAll().where('code', '=', code).where('active', '=', true).executeTakeFirst();
    const now = this.now();
    if (!row || (row.valid_from && row.valid_from.getTime() > now) || (row.valid_to && row.valid_to.getTime() <= now)) throw new AppError(404, 'NO_PROMOTION');
    if (row.kind === 'credit') {
      if (!creditIn(row.amounts, currency)) throw new AppError(404, 'NO_PROMOTION');
      return { promotion: row, bonus: undefined };
    }
    const bonus = row.bonus_code ? await this.db.selectFrom('bonuses').selectAll().where('code', '=', row.bonus_code).executeTakeFirst() : undefined;
    if (!bonus || !bonusAmountsIn(bonus, currency)) throw new AppError(404, 'NO_PROMOTION');
    return { promotion: row, bonus };
  }

  async find(memberId: string, rawCode: string, locale: Locale): Promise<Promotion> {
    return this.answer((await this.valid(rawCode, await memberCurrency(this.db, memberId))).promotion, locale);
  }

  /** The promotion behind the member's open condition, if any. */
  async current(memberId: string, locale: Locale): Promise<{ promotion: Promotion | null }> {
    await this.bonuses.settle(memberId);
    const receipt = await this.bonuses.active(memberId);
    if (!receipt?.promotion_code) return { promotion: null };
    const row = await this.db.selectFrom('promotions').selectAll().where('code', '=', receipt.promotion_code).executeTakeFirst();
    return { promotion: row ? this.answer(row, locale) : null };
  }

  async activate(memberId: string, rawCode: string, locale: Locale, idem: Idem | null = null): Promise<{ ok: true; promotion: Promotion }> {
    const currency = await memberCurrency(this.db, memberId);
    // Run again under its key after the answer was lost (the process died): the use the first run
    // recorded is finished (its grant or credit, each once by its own key) and answers; no second use.
    const earlier = idem ? await this.db.selectFrom('promotion_uses').selectAll().where('member_id', '=', memberId).where('request_key', '=', idem.key).executeTakeFirst() : undefined;
    if (earlier && idem) {
      refuseOtherRequest(earlier.request_hash, idem);
      const used = await this.db.selectFrom('promotions').selectAll().where('code', '=', earlier.code).executeTakeFirst();
      if (!used) throw new AppError(404, 'NO_PROMOTION');
      const receipt = earlier.receipt_id ? await this.bonuses.receipt(earlier.receipt_id) : null;
      await this.pay(memberId, used.code, receipt, earlier);
      return { ok: true, promotion: this.answer(used, locale) };
    }
    const { promotion, bonus } = await this.valid(rawCode, currency);
    if (bonus) await this.bonuses.settle(memberId);
    const granted = await this.db.transaction().execute(async (trx) => {
      await this.bonuses.lockMember(trx, memberId);
      const mine = await trx.selectFrom('promotion_uses').select((eb) => eb.fn.countAll<string>().as('n')).where('code', '=', promotion.code).where('member_id', '=', memberId).executeTakeFirstOrThrow();
      if (Number(mine.n) >= promotion.max_per_member) throw new AppError(409, 'PROMOTION_RECEIVED');
      if (promotion.max_uses !== null) {
        // Every member's use of the code, counted under a lock on the code's row.
        await trx.selectFrom('promotions').select('code').where('code', '=', promotion.code).forUpdate().executeTakeFirst();
        const all = await trx.selectFrom('promotion_uses').select((eb) => eb.fn.countAll<string>().as('n')).where('code', '=', promotion.code).executeTakeFirstOrThrow();
        if (Number(all.n) >= promotion.max_uses) throw new AppError(404, 'NO_PROMOTION');
      }
      const receipt = bonus ? await this.bonuses.openReceipt(trx, memberId, bonus, promotion.code, currency) : null;
      // A credit code's worth now, in the member's currency: what the use is credited, whenever that happens.
      const worth = receipt ? null : creditIn(promotion.amounts, currency);
      const use = {
        id: newId(),
        credit_amount: worth,
        credit_currency: worth === null ? null : currency,
        credited: worth === null,
      };
      await trx
        .insertInto('promotion_uses')
        .values({ ...use, code: promotion.code, member_id: memberId, receipt_id: receipt?.id ?? null, request_key: idem?.key ?? null, request_hash: idem?.hash ?? null })
        .execute();
      return { use, receipt };
    });
    await this.pay(memberId, promotion.code, granted.receipt, granted.use);
    return { ok: true, promotion: this.answer(promotion, locale) };
  }

  /** A use's value: its bonus granted (once, by the receipt), or the credit it recorded (once, by the use). */
  private async pay(memberId: string, code: string, receipt: { id: string; bonus_amount: number } | null, use: { id: string; credit_amount: number | null; credit_currency: string | null }): Promise<void> {
    if (receipt) {
      await this.bonuses.grant(receipt.id, memberId, Number(receipt.bonus_amount), code);
      return;
    }
    const currency = CURRENCIES.find((c) => c === use.credit_currency);
    if (use.credit_amount === null || !currency) return;
    const credit = await this.money.credits.credit({ source: PROMOTION_SOURCE, ref: use.id, memberId, amount: Number(use.credit_amount), currency, kind: BONUS_CODE, from: code, note: null, tag: { name: 'promotion_credited', id: use.id } });
    // Credited before (an earlier run of the call, the sweep): its handler marked it then.
    if (!credit.created) await this.db.updateTable('promotion_uses').set({ credited: true }).where('id', '=', use.id).where('credited', '=', false).execute();
  }

  /**
   * Credits the credit codes' uses a crash left without their credit (the use is recorded first,
   * under the member's lock; the credit after it, once by the use's id), by the amount the use
   * recorded. A minute old at least (a call in progress finishes its own), oldest first; one that
   * fails does not hold back the others (the first failure is raised after the round).
   */
  async sweep(): Promise<number> {
    const open = await this.db
      .selectFrom('promotion_uses')
      .selectAll()
      .where('credited', '=', false)
      .where('created_at', '<', new Date(Date.now() - 60_000))
      .orderBy('created_at')
      .limit(200)
      .execute();
    let failed: unknown = null;
    for (const use of open) {
      try {
        await this.pay(use.member_id, use.code, null, use);
      } catch (error) {
        failed ??= error;
      }
    }
    if (failed) throw failed;
    return open.length;
  }

  /**
   * Adds the promotions that are missing, and to credit codes there the currencies they miss (an
   * operator's changes, and amounts already set, stay).
   */
  async seed(rows: Array<{ code: string; kind: 'credit' | 'bonus'; amounts: PromotionAmounts; bonusCode: string | null; percentFail: number; description: { th: string; la: string; en: string } }>): Promise<void> {
    for (const r of rows) {
      await this.db
        .insertInto('promotions')
        .values({ code: r.code, kind: r.kind, amounts: JSON.stringify(r.amounts), bonus_code: r.bonusCode, percent_fail: r.percentFail, description: JSON.stringify(r.description), max_uses: null, max_per_member: 1 })
        .onConflict((oc) => oc.column('code').doUpdateSet({ amounts: sql<string>`excluded.amounts || promotions.amounts` }))
        .execute();
    }
  }
}
