import { sql, type Kysely, type Selectable } from 'kysely';
import { WALLET_CODE } from '@mw/contract/constants';
import type { ActiveBonus, BonusItem, UserBonus } from '@mw/contract/bonus';
import type { BonusConditionReason } from '@mw/contract/error-details';
import { toBaht } from '@mw/contract/money';
import type { Locale } from '@mw/contract/constants';
import { bannersFor } from '../../lib/banners';
import { bonusText } from './bonus-text';
import { AppError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Idem, MoneyCore } from '../../money';
import { account, balances, memberCurrency, refuseOtherRequest, transferCode, type Currency } from '../../money';
import { sameConnection, type Connection } from '../../db/database';
import type { Credited, MemberPosition } from '../../money';
import { BASE_CURRENCY } from '../../money';
import type { MoneyLeaving } from '../../money';
import type { GameActivity } from '../activity';
import { periodStart } from '../../lib/periods';
import type { BonusInput } from './index';
import type { BonusCurrencyAmounts, BonusesTable, BonusReceiptsTable, ReceiptOrigin, BonusDb } from './tables';

type Bonus = Selectable<BonusesTable>;
type Receipt = Selectable<BonusReceiptsTable>;


/** The transfer code of bonuses and promotions paid, and of their take-back at a condition's end. */
export const BONUS_CODE = transferCode('bonus', 'bonus', 'A bonus or promotion paid into the wallet, or taken back at its end');
/** A bonus's amounts in a currency, or null when it is not offered in that currency. */
export function bonusAmountsIn(bonus: Pick<Bonus, 'amounts'>, currency: Currency): BonusCurrencyAmounts | null {
  return bonus.amounts[currency] ?? null;
}

/** BONUS_CONDITION with what it is about (contract error-details.ts): the reason and its figures. */
function conditionError(status: number, reason: BonusConditionReason, figures: Record<string, unknown>): AppError {
  return new AppError(status, 'BONUS_CONDITION', { reason, ...figures });
}

/** The statement's "from" of bonus rows is the bonus code; the credit's key is the receipt. */
export const BONUS_SOURCE = 'bonus';

/**
 * The condition a payout of invite earnings or of a refund opens (their settings' `successPercent`
 * and `failPercent`, the percentages the member sees before receiving): turnover target =
 * amount × successPercent / 100 of stakes in any game, and it is bust when the total balance falls
 * to failPercent % of the amount. A successPercent of 0 opens none (the money is free at once).
 */
export interface PayoutRule {
  successPercent: number;
  failPercent: number;
}

/**
 * What bonuses need of the wallet and the games (the wallet module's WalletService and GameService
 * are these): declared here, so the bonus module imports nothing of the wallet module
 * (docs/development.md, "Layers").
 */
export interface BonusWallet {
  bringHome(memberId: string, purpose: 'bonus-clear'): Promise<void>;
}
export interface BonusGames {
  catalogue(): Promise<Array<{ code: string; category: string }>>;
  /** A game's category, active or not (null: no such game). */
  category(code: string): Promise<string | null>;
  refreshAll(memberId: string): Promise<unknown>;
}

/** The payout condition a payout credit (invite, refund) carries in its tag's data, opened when it is credited. */
interface PayoutCondition {
  id: string;
  member: string;
  target: number;
  fail: number;
  categories: string[];
}

function isPayoutCondition(value: unknown): value is PayoutCondition {
  const v = value as Partial<PayoutCondition> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.id === 'string' && typeof v.member === 'string' && Number.isSafeInteger(v.target) &&
    typeof v.fail === 'number' && Array.isArray(v.categories) && v.categories.every((c) => typeof c === 'string')
  );
}

/**
 * Bonuses with a turnover condition (the model of the README "Bonuses"):
 * - every amount is in the member's currency: a bonus holds `minDeposit` and `maxBonus` per
 *   currency (`amounts`, minor units); a member is offered only the bonuses that have amounts in
 *   the member's currency (a LAK member gets them in LAK, a THB member in baht);
 * - activation grants percent × the member's latest deposit not yet used for a bonus (made within
 *   `deposit_window_minutes`, at least `minDeposit`, the wallet still holding it), at most
 *   `maxBonus`, as a credit from the bonus account of the currency, and opens the condition: turnover target =
 *   (deposit + bonus) × `turnover_multiple`, counted from stakes of rounds settled since, in the
 *   bonus's game categories;
 * - while it is open, a withdrawal, and a transfer out of a game of those categories, are refused
 *   with BONUS_CONDITION (a money-core policy hook);
 * - money may go from the wallet into any game, and out of a game outside the bonus's categories
 *   back to the wallet; it all stays part of the member's position (below);
 * - the member's POSITION is the whole of their money: wallet + money in flight (a pending
 *   transfer) + every game account of every category (each provider asked for its balance first);
 * - it ends as SUCCESS once the turnover is met (the money is free), or FAILED ("bust") when the
 *   position falls to `percent_fail` % of (deposit + bonus) or below (the member keeps that
 *   remainder, less than the deposit); it is checked whenever the member acts and by a sweep; a
 *   `finish_bonus` statement row says how it ended;
 * - clear (cancel) forfeits the bonus and what it earned: the member keeps at most their own
 *   money of the position — what the wallet held when the bonus was taken (the deposit included)
 *   plus deposits since — and the rest goes back to the bonus account (losses come out of the
 *   bonus first). The bonus can take back only from the
 *   wallet, so clear is refused while any money sits elsewhere, the position locked while it
 *   decides (no transfer slips in between): money in a game of the bonus's categories is still in
 *   play (409 BONUS_CONDITION: it cannot leave before the turnover is met or the bust), money in
 *   any other game or in flight must come back to the wallet first (409 BONUS_MONEY_IN_GAMES,
 *   `games` lists those games, `inFlight` is true while a transfer is still pending). So no
 *   sequence of moves keeps a bonus, or its winnings, without its turnover.
 * Exhaustion per period (Asia/Bangkok) exactly as spec section 4; one active bonus at a time (a
 * unique key: 20 activations at once grant once); a deposit is used for one bonus only.
 */
export class BonusService {
  constructor(
    private readonly db: Kysely<BonusDb>,
    private readonly money: MoneyCore,
    private readonly wallet: BonusWallet,
    private readonly games: BonusGames,
    private readonly activity: GameActivity,
    private readonly now: () => number = Date.now,
  ) {
    money.policies.register('bonus', (leaving) => this.policy(leaving));
    // A bonus credited: its receipt names the credit's operation.
    money.credits.onCredited('bonus_granted', async (trx, credited) => {
      await sql`UPDATE bonus_receipts r SET credit_operation_id = u.op_id
        FROM unnest(${credited.map((c) => c.id)}::text[], ${credited.map((c) => c.operationId)}::text[]) AS u(id, op_id)
        WHERE r.id = u.id`.execute(sameConnection<BonusDb>(trx));
    });
  }

  private async catalogue(): Promise<Bonus[]> {
    return this.db.selectFrom('bonuses').selectAll().where('active', '=', true).orderBy('sort').orderBy('code').execute();
  }

  async active(memberId: string): Promise<Receipt | null> {
    const row = await this.db.selectFrom('bonus_receipts').selectAll().where('member_id', '=', memberId).where('status', '=', 'ACTIVE').executeTakeFirst();
    return row ?? null;
  }

  /** A member's receipts of a bonus in the period of `at` (default now), up to `at` when given. */
  private async receiptsInPeriod(memberId: string, bonus: Bonus, at?: Date): Promise<Array<{ id: string; started_at: Date; status: string }>> {
    const from = periodStart(bonus.type, at ?? new Date(this.now()));
    let query = this.db.selectFrom('bonus_receipts').select(['id', 'period_at as started_at', 'status']).where('member_id', '=', memberId).where('bonus_code', '=', bonus.code);
    if (from) query = query.where('period_at', '>=', from);
    if (at) query = query.where('period_at', '<=', at);
    return query.orderBy('period_at').execute();
  }

  private userBonus(receipts: Array<{ id: string; started_at: Date; status: string }>): UserBonus | null {
    const last = receipts[receipts.length - 1];
    if (!last) return null;
    return { _id: last.id, isActive: receipts.some((r) => r.status === 'ACTIVE'), received: receipts.map((r) => ({ updatedAt: r.started_at.toISOString() })) };
  }

  /** GET /api/bonus: the catalogue with the member's receipts of the current period. */
  async list(memberId: string, locale: Locale): Promise<BonusItem[]> {
    await this.settle(memberId);
    const currency = await memberCurrency(this.db, memberId);
    const bonuses = (await this.catalogue()).filter((b) => bonusAmountsIn(b, currency));
    return Promise.all(
      bonuses.map(async (b) => ({
        code: b.code,
        type: b.type,
        maxReceived: b.max_received,
        percentFail: Number(b.percent_fail),
        banners: bannersFor(b.banners, locale),
        text: bonusText({ type: b.type, percent: Number(b.percent), turnoverMultiple: Number(b.turnover_multiple), maxReceived: b.max_received, amounts: bonusAmountsIn(b, currency) ?? { minDeposit: 0, maxBonus: 0 }, currency }),
        userBonus: this.userBonus(await this.receiptsInPeriod(memberId, b)),
      })),
    );
  }

  async checkActive(memberId: string): Promise<ActiveBonus> {
    await this.settle(memberId);
    const receipt = await this.active(memberId);
    if (!receipt) return { status: false, type: null };
    // Promotion codes, and the conditions of invite and refund payouts, are not catalogue bonuses.
    if (receipt.promotion_code || receipt.origin !== 'bonus') return { status: true, type: 'promotion' };
    const bonus = await this.db.selectFrom('bonuses').select('type').where('code', '=', receipt.bonus_code).executeTakeFirst();
    return { status: true, type: bonus?.type ?? 'limit' };
  }

  /** The open condition's progress (turnover so far against its target), for the member's screens. */
  async progress(memberId: string): Promise<{ code: string; origin: ReceiptOrigin; turnover: number; target: number; bonus: number; deposit: number; bust: number } | null> {
    await this.settle(memberId);
    const receipt = await this.active(memberId);
    if (!receipt) return null;
    const turnover = (await this.activity.totals(memberId, receipt.started_at, null, receipt.categories)).stakes;
    const floor = Math.floor(((Number(receipt.deposit_amount) + Number(receipt.bonus_amount)) * Number(receipt.percent_fail)) / 100);
    return { code: receipt.bonus_code, origin: receipt.origin, turnover: toBaht(turnover), target: toBaht(Number(receipt.turnover_target)), bonus: toBaht(Number(receipt.bonus_amount)), deposit: toBaht(Number(receipt.deposit_amount)), bust: toBaht(floor) };
  }

  /** GET /api/bonus/activate/:code */
  async activate(memberId: string, rawCode: string, idem: Idem | null = null): Promise<UserBonus> {
    const code = rawCode.trim().toUpperCase();
    // Run again under its key after the answer was lost (the process died): the receipt the first
    // run opened is granted if it was not yet, and answers; no second receipt.
    const earlier = idem ? await this.db.selectFrom('bonus_receipts').selectAll().where('member_id', '=', memberId).where('request_key', '=', idem.key).executeTakeFirst() : undefined;
    if (earlier && idem) {
      refuseOtherRequest(earlier.request_hash, idem);
      const taken = await this.db.selectFrom('bonuses').selectAll().where('code', '=', earlier.bonus_code).executeTakeFirst();
      if (!taken) throw notFound('NO_DATA');
      if (!earlier.credit_operation_id) await this.grant(earlier.id, memberId, Number(earlier.bonus_amount), earlier.bonus_code);
      // As the first run answered: the receipts of its period up to it, this one active (a cancel
      // or a new period since changes nothing of that answer).
      const mine = this.userBonus(await this.receiptsInPeriod(memberId, taken, earlier.period_at));
      return { ...(mine ?? { received: [{ updatedAt: earlier.period_at.toISOString() }] }), _id: earlier.id, isActive: true };
    }
    const bonus = await this.db.selectFrom('bonuses').selectAll().where('code', '=', code).where('active', '=', true).executeTakeFirst();
    if (!bonus) throw notFound('NO_DATA');
    await this.settle(memberId);
    const receipt = await this.db.transaction().execute(async (trx) => {
      const currency = await this.lockMember(trx, memberId);
      if (!bonusAmountsIn(bonus, currency)) throw notFound('NO_DATA');
      const from = periodStart(bonus.type, new Date(this.now()));
      let taken = trx.selectFrom('bonus_receipts').select((eb) => eb.fn.countAll<string>().as('n')).where('member_id', '=', memberId).where('bonus_code', '=', code);
      if (from) taken = taken.where('period_at', '>=', from);
      const open = await trx.selectFrom('bonus_receipts').select('id').where('member_id', '=', memberId).where('status', '=', 'ACTIVE').executeTakeFirst();
      if (open) throw new AppError(409, 'BONUS_ALREADY_ACTIVE');
      if (Number((await taken.executeTakeFirstOrThrow()).n) >= bonus.max_received) throw new AppError(409, 'BONUS_MAX_CLAIMED');
      if (bonus.max_total !== null) {
        const all = await trx.selectFrom('bonus_receipts').select((eb) => eb.fn.countAll<string>().as('n')).where('bonus_code', '=', code).executeTakeFirstOrThrow();
        if (Number(all.n) >= bonus.max_total) throw new AppError(409, 'BONUS_FULL');
      }
      return this.openReceipt(trx, memberId, bonus, null, currency, idem);
    });
    await this.grant(receipt.id, memberId, receipt.bonus_amount, code);
    return this.activationAnswer(memberId, bonus, receipt);
  }

  /**
   * An activation's answer: the period's receipts, naming the receipt this call opened (not the
   * period's latest: a concurrent activation may already have opened the next one after this one ended).
   */
  private async activationAnswer(memberId: string, bonus: Bonus, receipt: { id: string; period_at: Date }): Promise<UserBonus> {
    const mine = this.userBonus(await this.receiptsInPeriod(memberId, bonus));
    return mine ? { ...mine, _id: receipt.id } : { _id: receipt.id, isActive: true, received: [{ updatedAt: receipt.period_at.toISOString() }] };
  }

  /** A receipt's grant (a promotion code's use finishing it). */
  async receipt(id: string): Promise<{ id: string; bonus_amount: number } | null> {
    return (await this.db.selectFrom('bonus_receipts').select(['id', 'bonus_amount']).where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** Whether a member takes this bonus once (type `limit`, at most once): a welcome or first-deposit bonus (risk signals). */
  async oneTime(rawCode: string): Promise<boolean> {
    const bonus = await this.db.selectFrom('bonuses').select(['type', 'max_received']).where('code', '=', rawCode.trim().toUpperCase()).executeTakeFirst();
    return bonus?.type === 'limit' && bonus.max_received <= 1;
  }

  /** Locks the member's row (orders their activations); answers the member's currency. */
  async lockMember(trx: Kysely<BonusDb>, memberId: string): Promise<Currency> {
    const member = await trx.selectFrom('member_view as members').select(['id']).where('id', '=', memberId).forUpdate().executeTakeFirst();
    if (!member) throw notFound('NO_DATA');
    return memberCurrency(trx, memberId);
  }

  /**
   * Opens a condition under `bonus`'s rule on the member's latest qualifying deposit (inside the
   * caller's transaction, the member locked); answers the receipt to credit with `grant`.
   */
  async openReceipt(trx: Kysely<BonusDb>, memberId: string, bonus: Bonus, promotionCode: string | null, currency: Currency, idem: Idem | null = null): Promise<{ id: string; bonus_amount: number; period_at: Date }> {
    const amounts = bonusAmountsIn(bonus, currency);
    if (!amounts) throw notFound('NO_DATA');
    const open = await trx.selectFrom('bonus_receipts').select('id').where('member_id', '=', memberId).where('status', '=', 'ACTIVE').executeTakeFirst();
    if (open) throw new AppError(409, 'BONUS_ALREADY_ACTIVE');
    // The latest deposit not used for a bonus yet, within the window, large enough.
    const deposit = await trx
      .selectFrom('operation_view as operations')
      .select(['id', 'amount', 'created_at'])
      .where('member_id', '=', memberId)
      .where('type', '=', 'deposit')
      .where('status', '=', 'SUCCESS')
      // Real elapsed time (the deposit's own clock), whatever the sandbox clock says.
      .where('created_at', '>=', new Date(Date.now() - Number(bonus.deposit_window_minutes) * 60_000))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('bonus_receipts').select('id').whereRef('bonus_receipts.deposit_operation_id', '=', 'operations.id'))))
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const depositAmount = Number(deposit?.amount ?? 0);
    if (!deposit || depositAmount < amounts.minDeposit) {
      throw conditionError(400, 'NO_QUALIFYING_DEPOSIT', { bonusCode: bonus.code, origin: 'bonus', minDeposit: toBaht(amounts.minDeposit), depositWindowMinutes: Number(bonus.deposit_window_minutes) });
    }
    // The wallet must still hold the deposit (it was not played or withdrawn already).
    const held = (await balances(trx, [account.wallet(memberId)])).get(account.wallet(memberId));
    if (Number(held?.balance ?? 0) < depositAmount) {
      throw conditionError(400, 'DEPOSIT_SPENT', { bonusCode: bonus.code, origin: 'bonus', deposit: toBaht(depositAmount), wallet: toBaht(Number(held?.balance ?? 0)) });
    }
    // Read after the wallet: a deposit the wallet did not show yet is after the mark.
    const mark = await this.money.positions.mark(trx);
    const amount = Math.min(Math.floor((depositAmount * Number(bonus.percent)) / 100), amounts.maxBonus);
    if (amount <= 0) throw conditionError(400, 'BONUS_TOO_SMALL', { bonusCode: bonus.code, origin: 'bonus', deposit: toBaht(depositAmount) });
    const row = {
      id: newId(),
      member_id: memberId,
      bonus_code: bonus.code,
      promotion_code: promotionCode,
      deposit_operation_id: deposit.id,
      deposit_amount: depositAmount,
      bonus_amount: amount,
      turnover_target: Math.ceil((depositAmount + amount) * Number(bonus.turnover_multiple)),
      categories: bonus.categories,
      percent_fail: bonus.percent_fail,
      own_amount: Number(held?.balance ?? 0),
      own_mark: mark,
      status: 'ACTIVE' as const,
      // started_at: real time (rounds are counted from it); period_at: the clock's (day/week counting).
      started_at: new Date(),
      period_at: new Date(this.now()),
      request_key: idem?.key ?? null,
      request_hash: idem?.hash ?? null,
    };
    try {
      await trx.insertInto('bonus_receipts').values(row).execute();
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new AppError(409, 'BONUS_ALREADY_ACTIVE');
      throw error;
    }
    return row;
  }

  /** Credits a receipt's bonus in the member's currency (once: the credit's key is the receipt). */
  async grant(receiptId: string, memberId: string, amount: number, code: string): Promise<void> {
    const currency = await memberCurrency(this.db, memberId);
    await this.money.credits.credit({ source: BONUS_SOURCE, ref: receiptId, memberId, amount, currency, kind: BONUS_CODE, from: code, note: null, tag: { name: 'bonus_granted', id: receiptId } });
  }

  /**
   * Refuses money leaving while a condition is open: withdrawals, and transfers out of the bonus's
   * game categories. Into any game is allowed, and out of a game outside them back to the wallet:
   * that money stays in the member's position, which bust and clear count whole.
   */
  private async policy(leaving: MoneyLeaving): Promise<void> {
    // Into a game from the wallet is always allowed: no look-up on that (most common) path.
    if (leaving.action === 'transfer' && leaving.from === WALLET_CODE) return;
    const receipt = await this.active(leaving.memberId);
    if (!receipt) return;
    const settled = await this.settleReceipt(receipt);
    if (settled !== 'ACTIVE') return;
    if (leaving.action === 'withdraw') throw conditionError(403, 'WITHDRAW_LOCKED', await this.figures(receipt));
    // A cancel brings the money of the bonus's games home before it takes the bonus back (clear).
    if (leaving.from !== WALLET_CODE && !(leaving.purpose === 'bonus-clear' && leaving.to === WALLET_CODE)) {
      const category = await this.games.category(leaving.from);
      if (category !== null && receipt.categories.includes(category)) throw conditionError(403, 'TRANSFER_LOCKED', { ...(await this.figures(receipt)), games: [leaving.from] });
    }
  }

  /** What a refusal by an open condition says about it: whose it is and the turnover left (baht). */
  private async figures(receipt: Receipt): Promise<Record<string, unknown>> {
    const turnover = (await this.activity.totals(receipt.member_id, receipt.started_at, null, receipt.categories)).stakes;
    const target = Number(receipt.turnover_target);
    return { bonusCode: receipt.bonus_code, origin: receipt.origin, turnover: toBaht(turnover), target: toBaht(target), remainingTurnover: toBaht(Math.max(0, target - turnover)) };
  }

  /** Ends the member's open condition when its turnover is met or its balance is bust. */
  async settle(memberId: string): Promise<void> {
    const receipt = await this.active(memberId);
    if (receipt) await this.settleReceipt(receipt);
  }

  private async settleReceipt(receipt: Receipt): Promise<Receipt['status']> {
    // A grant cut off by a crash is made now (idempotent by the receipt).
    if (!receipt.credit_operation_id) await this.grant(receipt.id, receipt.member_id, Number(receipt.bonus_amount), receipt.bonus_code);
    await this.activity.importAll();
    const turnover = (await this.activity.totals(receipt.member_id, receipt.started_at, null, receipt.categories)).stakes;
    if (turnover >= Number(receipt.turnover_target)) return (await this.finish(receipt, 'SUCCESS', 'TURNOVER_MET')) ? 'SUCCESS' : 'ACTIVE';
    const total = (await this.position(receipt.member_id)).total;
    const floor = ((Number(receipt.deposit_amount) + Number(receipt.bonus_amount)) * Number(receipt.percent_fail)) / 100;
    if (total <= floor) return (await this.finish(receipt, 'FAILED', 'BUST')) ? 'FAILED' : 'ACTIVE';
    return 'ACTIVE';
  }

  /**
   * The member's whole position (wallet + in flight + every game account, each game's balance
   * asked of its provider first and booked; a provider that does not answer counts with the
   * ledger's last copy).
   */
  private async position(memberId: string): Promise<MemberPosition> {
    await this.games.refreshAll(memberId);
    return this.money.positions.read(memberId, await memberCurrency(this.db, memberId));
  }

  /** Closes an ACTIVE condition (once) as status, with its finish_bonus statement row; answers whether this call closed it. */
  private async close(trx: Kysely<BonusDb>, receipt: Receipt, status: 'SUCCESS' | 'FAILED' | 'CLEARED', endKey: string | null = null): Promise<boolean> {
    const closed = await trx.updateTable('bonus_receipts').set({ status, ended_at: new Date(), end_key: endKey }).where('id', '=', receipt.id).where('status', '=', 'ACTIVE').returning('id').executeTakeFirst();
    return closed !== undefined;
  }

  /** Ends a condition as SUCCESS (turnover met) or FAILED (bust): nothing is taken back. */
  private async finish(receipt: Receipt, status: 'SUCCESS' | 'FAILED', note: string): Promise<boolean> {
    const currency = await memberCurrency(this.db, receipt.member_id);
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.close(trx, receipt, status))) return false;
      await this.money.positions.end(trx, { memberId: receipt.member_id, currency, source: receipt.bonus_code, status, amount: Number(receipt.bonus_amount), takeBack: 0, note, code: BONUS_CODE });
      return true;
    });
  }

  /** Game code → category, from the game service's catalogue. */
  /**
   * The payout condition of a payout credit (invite, refund) of `amount` under `rule`, as the
   * credit's tag data: turnover of `successPercent` % of the amount in every game category.
   */
  async payoutCondition(memberId: string, amount: number, rule: PayoutRule): Promise<string> {
    const categories = [...new Set((await this.games.catalogue()).map((g) => g.category))].sort();
    const condition: PayoutCondition = { id: newId(), member: memberId, target: Math.ceil((amount * rule.successPercent) / 100), fail: rule.failPercent, categories };
    return JSON.stringify(condition);
  }

  /**
   * Opens the payout condition of each credited payout, in the credit's transaction (so money never
   * arrives without its condition). One open condition per member is a unique index: when another
   * is open, this throws and the credit is undone with it.
   */
  async openPayoutConditions(trx: Connection, origin: Exclude<ReceiptOrigin, 'bonus'>, credited: Credited[]): Promise<void> {
    const rows = credited.flatMap((c) => {
      if (c.data === '') return [];
      const condition: unknown = JSON.parse(c.data);
      if (!isPayoutCondition(condition)) throw new Error(`payout condition of ${c.operationId}: not a condition`);
      return condition.target > 0 ? [{ condition, credit: c }] : [];
    });
    if (rows.length === 0) return;
    await sameConnection<BonusDb>(trx)
      .insertInto('bonus_receipts')
      .values(
        rows.map(({ condition, credit }) => ({
          id: condition.id,
          member_id: condition.member,
          bonus_code: origin.toUpperCase(),
          deposit_operation_id: credit.operationId,
          deposit_amount: 0,
          bonus_amount: credit.amount,
          turnover_target: condition.target,
          categories: condition.categories,
          percent_fail: condition.fail,
          status: 'ACTIVE',
          started_at: sql<Date>`now()`,
          period_at: sql<Date>`now()`,
          credit_operation_id: credit.operationId,
          origin,
        })),
      )
      .execute();
  }

  private async categories(): Promise<Map<string, string>> {
    return new Map((await this.games.catalogue()).map((g) => [g.code, g.category]));
  }

  /**
   * Where money sits that a clear cannot take back (see the class comment): games of the bonus's
   * categories (still in play), and other games or in flight (to bring back to the wallet first).
   */
  private blocked(receipt: Receipt, position: MemberPosition, categories: Map<string, string>): { inPlay: string[]; elsewhere: string[]; inFlight: boolean } {
    const inPlay: string[] = [];
    const elsewhere: string[] = [];
    for (const [code, balance] of position.games) {
      if (balance <= 0) continue;
      if (receipt.categories.includes(categories.get(code) ?? '')) inPlay.push(code);
      else elsewhere.push(code);
    }
    return { inPlay, elsewhere, inFlight: position.inflight > 0 };
  }

  /** The member's own money under a bonus: the wallet when it was taken plus deposits since. */
  private async ownMoney(receipt: Receipt): Promise<number> {
    if (receipt.own_amount === null || receipt.own_mark === null) return Number(receipt.deposit_amount);
    return Number(receipt.own_amount) + (await this.money.positions.depositedSince(this.db, receipt.member_id, Number(receipt.own_mark)));
  }

  /**
   * GET /api/bonus/check/minimum: whether clear is allowed now (all the member's money in the
   * wallet), the position (`amount`) and deposit + bonus (`minimum`).
   */
  async checkMinimum(memberId: string): Promise<{ status: boolean; amount: number; minimum: number; wallet?: number; games?: number; takeBack?: number; keep?: number }> {
    await this.settle(memberId);
    const receipt = await this.active(memberId);
    if (!receipt) return { status: false, amount: 0, minimum: 0 };
    const position = await this.position(memberId);
    const { inPlay, elsewhere, inFlight } = this.blocked(receipt, position, await this.categories());
    const keep = receipt.origin === 'bonus' ? await this.ownMoney(receipt) : Math.max(0, position.total - Number(receipt.bonus_amount));
    const games = [...position.games.values()].reduce((sum, balance) => sum + Math.max(0, balance), 0);
    return {
      status: inPlay.length === 0 && elsewhere.length === 0 && !inFlight,
      amount: toBaht(position.total),
      minimum: toBaht(Number(receipt.deposit_amount) + Number(receipt.bonus_amount)),
      wallet: toBaht(position.wallet),
      games: toBaht(games),
      takeBack: toBaht(Math.max(0, position.total - keep)),
      keep: toBaht(Math.min(keep, position.total)),
    };
  }

  /**
   * GET /api/bonus/clear: forfeits the bonus and what it earned and ends the condition. Decided on
   * the member's whole position with every account of the member locked: refused while money sits
   * where it cannot be taken back (BONUS_CONDITION: in the bonus's games; BONUS_MONEY_IN_GAMES:
   * in other games or in flight, listed in `games`); else a bonus keeps at most the member's own
   * money and a payout's condition gives the payout back, taken from the wallet.
   */
  async clear(memberId: string, idem: Idem | null = null): Promise<{ message: 'BONUS_CLEAR' }> {
    // Run again under its key after the answer was lost: the receipt the first run closed answers.
    if (idem && (await this.db.selectFrom('bonus_receipts').select('id').where('member_id', '=', memberId).where('end_key', '=', idem.key).executeTakeFirst())) return { message: 'BONUS_CLEAR' };
    await this.settle(memberId);
    const receipt = await this.active(memberId);
    if (!receipt) throw notFound('NO_DATA');
    // Every game balance comes home first (the bonus's lock lets this one move pass): the cancel
    // takes back from the wallet what the games held too, instead of sending the member to move
    // money its own lock keeps in the games. Each move is a transfer of what the game holds now, so
    // a retried cancel moves only what is still out.
    await this.wallet.bringHome(memberId, 'bonus-clear');
    // Book every provider's balance (wins and losses) before the position is locked and read.
    await this.games.refreshAll(memberId);
    const currency = await memberCurrency(this.db, memberId);
    // Read before the lock: inside it only the transaction's own connection may be used.
    const categories = await this.categories();
    await this.money.positions.locked(memberId, currency, async (connection, position) => {
      const trx = sameConnection<BonusDb>(connection);
      const { inPlay, elsewhere, inFlight } = this.blocked(receipt, position, categories);
      if (inPlay.length > 0) throw conditionError(409, 'MONEY_IN_GAMES', { bonusCode: receipt.bonus_code, origin: receipt.origin, games: inPlay });
      if (elsewhere.length > 0 || inFlight) throw new AppError(409, 'BONUS_MONEY_IN_GAMES', { games: elsewhere, inFlight });
      // Everything is in the wallet now: the position is the wallet. A bonus: the member keeps
      // their own money (when it was taken, plus deposits since); a payout's condition: the payout goes back.
      const own =
        receipt.own_amount !== null && receipt.own_mark !== null
          ? Number(receipt.own_amount) + (await this.money.positions.depositedSince(trx, memberId, Number(receipt.own_mark)))
          : Number(receipt.deposit_amount);
      const keep = receipt.origin === 'bonus' ? own : Math.max(0, position.total - Number(receipt.bonus_amount));
      const takeBack = Math.max(0, Math.min(position.wallet, position.total - keep));
      if (!(await this.close(trx, receipt, 'CLEARED', idem?.key ?? null))) throw notFound('NO_DATA');
      await this.money.positions.end(trx, { memberId, currency, source: receipt.bonus_code, status: 'FAILED', amount: takeBack > 0 ? takeBack : Number(receipt.bonus_amount), takeBack, note: 'BONUS_CLEAR', code: BONUS_CODE });
    });
    return { message: 'BONUS_CLEAR' };
  }

  /** An operator creates or changes a bonus (receipts already taken keep their own terms). */
  async upsert(code: string, input: BonusInput): Promise<Bonus> {
    const values = {
      code,
      type: input.type,
      max_received: input.maxReceived,
      max_total: input.maxTotal,
      percent_fail: input.percentFail,
      banners: JSON.stringify(input.banners),
      percent: input.percent,
      amounts: JSON.stringify({ ...(input.minDeposit && input.maxBonus ? { [BASE_CURRENCY]: { minDeposit: input.minDeposit, maxBonus: input.maxBonus } } : {}), ...input.amounts }),
      turnover_multiple: input.turnoverMultiple,
      categories: input.categories,
      deposit_window_minutes: input.depositWindowMinutes,
      active: input.active,
      sort: input.sort,
      updated_at: new Date(),
    };
    return this.db.insertInto('bonuses').values(values).onConflict((oc) => oc.column('code').doUpdateSet(values)).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * Adds the bonuses that are missing, and to those there the currencies they miss (an
   * operator's changes, and amounts already set, stay).
   */
  async seedCatalogue(items: Array<{ code: string } & BonusInput>): Promise<void> {
    for (const { code, ...input } of items) {
      const exists = await this.db.selectFrom('bonuses').select(['code', 'amounts']).where('code', '=', code).executeTakeFirst();
      if (!exists) await this.upsert(code, input);
      else await this.db.updateTable('bonuses').set({ amounts: JSON.stringify({ ...input.amounts, ...exists.amounts }) }).where('code', '=', code).execute();
    }
  }

  /** Ends every open condition whose turnover is met or that is bust (the sweep). */
  async sweep(): Promise<number> {
    const open = await this.db.selectFrom('bonus_receipts').selectAll().where('status', '=', 'ACTIVE').limit(200).execute();
    let ended = 0;
    for (const receipt of open) if ((await this.settleReceipt(receipt)) !== 'ACTIVE') ended += 1;
    return ended;
  }
}
