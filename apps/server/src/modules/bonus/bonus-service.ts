import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { WALLET_CODE } from '@mw/contract/constants';
import type { ActiveBonus, BonusItem, UserBonus } from '@mw/contract/bonus';
import { toBaht } from '@mw/contract/money';
import type { Locale } from '@mw/contract/constants';
import type { DB } from '../../db/schema';
import { bannersFor } from '../../lib/banners';
import { AppError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { MoneyCore } from '../../money/core';
import { account, ledgerCurrency, runPostingBatch } from '../../money/ledger';
import type { MoneyLeaving } from '../../money/policies';
import type { GameActivity } from '../activity';
import type { GameService } from '../wallet/game-service';
import type { WalletService } from '../wallet/wallet-service';
import { periodStart } from './periods';
import type { BonusInput } from './index';
import type { BonusesTable, BonusReceiptsTable, ReceiptOrigin } from './tables';

type Bonus = Selectable<BonusesTable>;
type Receipt = Selectable<BonusReceiptsTable>;

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

/** What a payout credit carries in its tag's data for `payoutConditionCte`. */
export function payoutConditionData(memberId: string, amount: number, rule: PayoutRule): string {
  return JSON.stringify({ id: newId(), member: memberId, target: Math.ceil((amount * rule.successPercent) / 100), fail: rule.failPercent });
}

/**
 * A data-modifying CTE, for a credit hook, opening the payout condition of each credited row in the
 * same statement as the credit (so money never arrives without its condition). One open condition
 * per member is a unique index: when another is open, the statement — the credit with it — fails.
 */
export function payoutConditionCte(name: string, origin: Exclude<ReceiptOrigin, 'bonus'>, rows: { operationIds: string[]; amounts: number[]; data: string[] }): RawBuilder<unknown> {
  return sql`${sql.ref(name)} AS (
    INSERT INTO bonus_receipts (id, member_id, bonus_code, deposit_operation_id, deposit_amount, bonus_amount, turnover_target, categories, percent_fail, status, started_at, period_at, credit_operation_id, origin)
    SELECT c.d->>'id', c.d->>'member', ${origin.toUpperCase()}, c.op_id, 0, c.amount, (c.d->>'target')::bigint,
      ARRAY(SELECT DISTINCT category FROM games ORDER BY 1), (c.d->>'fail')::numeric, 'ACTIVE', now(), now(), c.op_id, ${origin}
    FROM (SELECT u.op_id, u.amount, u.data::jsonb AS d
          FROM unnest(${rows.operationIds}::text[], ${rows.amounts.map(String)}::bigint[], ${rows.data}::text[]) AS u(op_id, amount, data)
          JOIN op ON op.id = u.op_id
          WHERE u.data <> '') c
    WHERE (c.d->>'target')::bigint > 0)`;
}

/**
 * Bonuses with a turnover condition (the model of the README "Bonuses"):
 * - activation grants percent × the member's latest deposit not yet used for a bonus (made within
 *   `deposit_window_minutes`, at least `min_deposit`, the wallet still holding it), at most
 *   `max_bonus`, as a credit from the bonus account, and opens the condition: turnover target =
 *   (deposit + bonus) × `turnover_multiple`, counted from stakes of rounds settled since, in the
 *   bonus's game categories;
 * - while it is open, a withdrawal, and a transfer out of a game of those categories, are refused
 *   with BONUS_CONDITION (a money-core policy hook);
 * - it ends as SUCCESS once the turnover is met (the money is free), or FAILED ("bust") when the
 *   member's total balance (wallet + game accounts) falls to `percent_fail` % of (deposit + bonus)
 *   or below; it is checked whenever the member acts and by a sweep; a `finish_bonus` statement
 *   row says how it ended;
 * - clear (cancel) forfeits the bonus and what it earned — the wallet keeps at most the deposit —
 *   and ends it; it is allowed while no money sits in the bonus's game categories (bring it to
 *   the wallet first: check/minimum says so).
 * Exhaustion per period (Asia/Bangkok) exactly as spec section 4; one active bonus at a time (a
 * unique key: 20 activations at once grant once); a deposit is used for one bonus only.
 */
export class BonusService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly money: MoneyCore,
    private readonly wallet: WalletService,
    private readonly games: GameService,
    private readonly activity: GameActivity,
    private readonly now: () => number = Date.now,
  ) {
    money.policies.register('bonus', (leaving) => this.policy(leaving));
    money.credits.registerHook('bonus_granted', (name, rows) =>
      sql`${sql.ref(name)} AS (
        UPDATE bonus_receipts r SET credit_operation_id = u.op_id
        FROM unnest(${rows.ids}::text[], ${rows.operationIds}::text[]) AS u(id, op_id)
        JOIN op ON op.id = u.op_id
        WHERE r.id = u.id)`,
    );
  }

  private async catalogue(): Promise<Bonus[]> {
    return this.db.selectFrom('bonuses').selectAll().where('active', '=', true).orderBy('sort').orderBy('code').execute();
  }

  async active(memberId: string): Promise<Receipt | null> {
    const row = await this.db.selectFrom('bonus_receipts').selectAll().where('member_id', '=', memberId).where('status', '=', 'ACTIVE').executeTakeFirst();
    return row ?? null;
  }

  /** Receipts of a bonus by a member within the bonus's current period. */
  private async receiptsInPeriod(memberId: string, bonus: Bonus): Promise<Array<{ id: string; started_at: Date; status: string }>> {
    const from = periodStart(bonus.type, new Date(this.now()));
    let query = this.db.selectFrom('bonus_receipts').select(['id', 'period_at as started_at', 'status']).where('member_id', '=', memberId).where('bonus_code', '=', bonus.code);
    if (from) query = query.where('period_at', '>=', from);
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
    const bonuses = await this.catalogue();
    return Promise.all(
      bonuses.map(async (b) => ({
        code: b.code,
        type: b.type,
        maxReceived: b.max_received,
        percentFail: Number(b.percent_fail),
        banners: bannersFor(b.banners, locale),
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
  async progress(memberId: string): Promise<{ code: string; turnover: number; target: number; bonus: number; deposit: number; bust: number } | null> {
    await this.settle(memberId);
    const receipt = await this.active(memberId);
    if (!receipt) return null;
    const turnover = (await this.activity.totals(memberId, receipt.started_at, null, receipt.categories)).stakes;
    const floor = Math.floor(((Number(receipt.deposit_amount) + Number(receipt.bonus_amount)) * Number(receipt.percent_fail)) / 100);
    return { code: receipt.bonus_code, turnover: toBaht(turnover), target: toBaht(Number(receipt.turnover_target)), bonus: toBaht(Number(receipt.bonus_amount)), deposit: toBaht(Number(receipt.deposit_amount)), bust: toBaht(floor) };
  }

  /** GET /api/bonus/activate/:code */
  async activate(memberId: string, rawCode: string): Promise<UserBonus> {
    const code = rawCode.trim().toUpperCase();
    const bonus = await this.db.selectFrom('bonuses').selectAll().where('code', '=', code).where('active', '=', true).executeTakeFirst();
    if (!bonus) throw notFound('NO_DATA');
    await this.settle(memberId);
    const receipt = await this.db.transaction().execute(async (trx) => {
      await this.lockMember(trx, memberId);
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
      return this.openReceipt(trx, memberId, bonus, null);
    });
    await this.grant(receipt.id, memberId, receipt.bonus_amount, code);
    const receipts = await this.receiptsInPeriod(memberId, bonus);
    return this.userBonus(receipts) ?? { _id: receipt.id, isActive: true, received: [{ updatedAt: receipt.period_at.toISOString() }] };
  }

  /** Locks the member's row (orders their activations); a LAK member has no bonuses (they are in baht). */
  async lockMember(trx: Kysely<DB>, memberId: string): Promise<void> {
    const member = await trx.selectFrom('members').select(['id', 'currency']).where('id', '=', memberId).forUpdate().executeTakeFirst();
    if (!member || ledgerCurrency(member.currency) !== 'THB') throw notFound('NO_DATA');
  }

  /**
   * Opens a condition under `bonus`'s rule on the member's latest qualifying deposit (inside the
   * caller's transaction, the member locked); answers the receipt to credit with `grant`.
   */
  async openReceipt(trx: Kysely<DB>, memberId: string, bonus: Bonus, promotionCode: string | null): Promise<{ id: string; bonus_amount: number; period_at: Date }> {
    const open = await trx.selectFrom('bonus_receipts').select('id').where('member_id', '=', memberId).where('status', '=', 'ACTIVE').executeTakeFirst();
    if (open) throw new AppError(409, 'BONUS_ALREADY_ACTIVE');
    // The latest deposit not used for a bonus yet, within the window, large enough.
    const deposit = await trx
      .selectFrom('operations')
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
    if (!deposit || depositAmount < Number(bonus.min_deposit)) throw new AppError(400, 'BONUS_CONDITION');
    // The wallet must still hold the deposit (it was not played or withdrawn already).
    const held = await trx.selectFrom('ledger_accounts').select('balance').where('id', '=', account.wallet(memberId)).executeTakeFirst();
    if (Number(held?.balance ?? 0) < depositAmount) throw new AppError(400, 'BONUS_CONDITION');
    const amount = Math.min(Math.floor((depositAmount * Number(bonus.percent)) / 100), Number(bonus.max_bonus));
    if (amount <= 0) throw new AppError(400, 'BONUS_CONDITION');
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
      status: 'ACTIVE' as const,
      // started_at: real time (rounds are counted from it); period_at: the clock's (day/week counting).
      started_at: new Date(),
      period_at: new Date(this.now()),
    };
    try {
      await trx.insertInto('bonus_receipts').values(row).execute();
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new AppError(409, 'BONUS_ALREADY_ACTIVE');
      throw error;
    }
    return row;
  }

  /** Credits a receipt's bonus (once: the credit's key is the receipt). */
  async grant(receiptId: string, memberId: string, amount: number, code: string): Promise<void> {
    await this.money.credits.credit({ source: BONUS_SOURCE, ref: receiptId, memberId, amount, currency: 'THB', kind: 'bonus', from: code, note: null, tag: { hook: 'bonus_granted', id: receiptId } });
  }

  /** Refuses money leaving while a condition is open: withdrawals, and transfers out of the bonus's game categories. */
  private async policy(leaving: MoneyLeaving): Promise<void> {
    // Into a game from the wallet is always allowed: no look-up on that (most common) path.
    if (leaving.action === 'transfer' && leaving.from === WALLET_CODE) return;
    const receipt = await this.active(leaving.memberId);
    if (!receipt) return;
    const settled = await this.settleReceipt(receipt);
    if (settled !== 'ACTIVE') return;
    if (leaving.action === 'withdraw') throw new AppError(403, 'BONUS_CONDITION');
    if (leaving.from !== WALLET_CODE) {
      const game = await this.db.selectFrom('games').select('category').where('code', '=', leaving.from).executeTakeFirst();
      if (game && receipt.categories.includes(game.category)) throw new AppError(403, 'BONUS_CONDITION');
    }
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
    const total = await this.totalBalance(receipt.member_id);
    const floor = ((Number(receipt.deposit_amount) + Number(receipt.bonus_amount)) * Number(receipt.percent_fail)) / 100;
    if (total <= floor) return (await this.finish(receipt, 'FAILED', 'BUST')) ? 'FAILED' : 'ACTIVE';
    return 'ACTIVE';
  }

  /** Wallet plus every game account, the games' balances read from their providers. */
  private async totalBalance(memberId: string): Promise<number> {
    const fresh = await this.games.refreshAll(memberId);
    let total = await this.wallet.balance(memberId);
    for (const balance of fresh.values()) total += balance;
    return total;
  }

  /** Closes a condition (once: only an ACTIVE receipt changes) with its finish_bonus statement row. */
  private async finish(receipt: Receipt, status: 'SUCCESS' | 'FAILED', note: string): Promise<boolean> {
    const done = await sql<{ id: string }>`
      WITH closed AS (
        UPDATE bonus_receipts SET status = ${status === 'SUCCESS' ? 'SUCCESS' : 'FAILED'}, ended_at = now()
        WHERE id = ${receipt.id} AND status = 'ACTIVE' RETURNING id)
      INSERT INTO operations (id, member_id, type, status, source, target, amount, note)
      SELECT ${newId()}, ${receipt.member_id}, 'finish_bonus', ${status}, ${receipt.bonus_code}, ${WALLET_CODE}, ${String(receipt.bonus_amount)}::bigint, ${note}
      FROM closed RETURNING id`.execute(this.db);
    return done.rows.length > 0;
  }

  /** GET /api/bonus/check/minimum: whether clear is allowed now (nothing left in the bonus's games). */
  async checkMinimum(memberId: string): Promise<{ status: boolean; amount: number; minimum: number }> {
    await this.settle(memberId);
    const receipt = await this.active(memberId);
    if (!receipt) return { status: false, amount: 0, minimum: 0 };
    const inGames = await this.inBonusGames(receipt);
    const walletBalance = await this.wallet.balance(memberId);
    return { status: inGames === 0, amount: toBaht(walletBalance + inGames), minimum: toBaht(Number(receipt.deposit_amount) + Number(receipt.bonus_amount)) };
  }

  private async inBonusGames(receipt: Receipt): Promise<number> {
    const fresh = await this.games.refreshAll(receipt.member_id);
    const categories = new Map((await this.db.selectFrom('games').select(['code', 'category']).execute()).map((g) => [g.code, g.category]));
    let total = 0;
    for (const [code, balance] of fresh) if (receipt.categories.includes(categories.get(code) ?? '')) total += balance;
    return total;
  }

  /** GET /api/bonus/clear: forfeits the bonus and what it earned (the wallet keeps at most the deposit) and ends the condition. */
  async clear(memberId: string): Promise<{ message: 'BONUS_CLEAR' }> {
    await this.settle(memberId);
    const receipt = await this.active(memberId);
    if (!receipt) throw notFound('NO_DATA');
    if ((await this.inBonusGames(receipt)) > 0) throw new AppError(409, 'BONUS_CONDITION');
    const walletBalance = await this.wallet.balance(memberId);
    // A bonus: the wallet keeps at most the deposit. A payout's condition: the payout goes back.
    const forfeit = receipt.origin === 'bonus' ? Math.max(0, walletBalance - Number(receipt.deposit_amount)) : Math.min(Math.max(0, walletBalance), Number(receipt.bonus_amount));
    const opId = newId();
    const closeAndRecord = [
      sql`closed AS (UPDATE bonus_receipts SET status = 'CLEARED', ended_at = now() WHERE id = ${receipt.id} AND status = 'ACTIVE' RETURNING id)`,
      sql`op AS (
        INSERT INTO operations (id, member_id, type, status, source, target, amount, note, start_tx)
        SELECT ${opId}, ${memberId}, 'finish_bonus', 'FAILED', ${receipt.bonus_code}, ${WALLET_CODE}, ${String(forfeit > 0 ? forfeit : Number(receipt.bonus_amount))}::bigint, 'BONUS_CLEAR',
          nextval(pg_get_serial_sequence('ledger_transactions', 'id'))
        FROM closed RETURNING id, start_tx AS tx_id)`,
    ];
    if (forfeit > 0) {
      const { posted } = await runPostingBatch(
        this.db,
        [{ kind: 'bonus', operationId: opId, postings: [{ account: account.wallet(memberId), amount: -forfeit }, { account: account.bonus('THB'), amount: forfeit }] }],
        { before: closeAndRecord, guard: 'op' },
      );
      if (!posted.has(opId)) throw new AppError(409, 'BONUS_CONDITION');
    } else {
      const done = await sql`WITH ${sql.join(closeAndRecord)} SELECT id FROM op`.execute(this.db);
      if (done.rows.length === 0) throw new AppError(409, 'BONUS_CONDITION');
    }
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
      max_bonus: input.maxBonus,
      min_deposit: input.minDeposit,
      turnover_multiple: input.turnoverMultiple,
      categories: input.categories,
      deposit_window_minutes: input.depositWindowMinutes,
      active: input.active,
      sort: input.sort,
      updated_at: new Date(),
    };
    return this.db.insertInto('bonuses').values(values).onConflict((oc) => oc.column('code').doUpdateSet(values)).returningAll().executeTakeFirstOrThrow();
  }

  /** Adds the bonuses that are missing (an operator's changes stay). */
  async seedCatalogue(items: Array<{ code: string } & BonusInput>): Promise<void> {
    for (const { code, ...input } of items) {
      const exists = await this.db.selectFrom('bonuses').select('code').where('code', '=', code).executeTakeFirst();
      if (!exists) await this.upsert(code, input);
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
