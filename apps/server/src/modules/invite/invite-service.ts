import { sameConnection } from '../../db/database';
import { sql, type Kysely } from 'kysely';
import { toBaht } from '@mw/contract/money';
import { AppError, uniqueViolation } from '../../lib/errors';
import { KeyTaken, type Idem } from '../../money';
import type { MoneyCore } from '../../money';
import { BASE_CURRENCY, CURRENCIES, memberCurrency, type Currency } from '../../money';
import { samePerson } from '../../lib/same-person';
import type { BonusService } from '../bonus/bonus-service';
import type { SettingsService } from '../settings/settings-service';
import type { InviteDb } from './tables';
import { transferCode } from '../../money';

/** This module's transfer code (the money core writes it into transfer_codes at start). */
export const INVITE_CODE = transferCode('invite', 'invite', 'An invite earning paid into the wallet');

/** The invite rule (setting `invite`): percents as numbers, the minimum per currency in its minor units. */
export interface InviteRules {
  active: boolean;
  /** Percent of each invitee deposit the inviter earns. */
  percent: number;
  /**
   * Smallest amount received at once, per currency (minor units). A currency with none has no
   * invite payouts (INVITE_INACTIVE for its members).
   */
  minimum: Partial<Record<Currency, number>>;
  /**
   * Shown in the receive confirmation (spec: invite success and fail percentages), and the
   * condition the payout opens: turnover of successPercent % of it, bust at failPercent % (see
   * PayoutRule; successPercent 0: no condition).
   */
  successPercent: number;
  failPercent: number;
}

export const DEFAULT_INVITE_RULES: InviteRules = { active: true, percent: 1, minimum: { [BASE_CURRENCY]: 100 }, successPercent: 100, failPercent: 0 };

/** Stored rules as they are now: a bare `minimum` (before currencies) was the base currency's. */
function normaliseRules(stored: Partial<Omit<InviteRules, 'minimum'>> & { minimum?: number | Partial<Record<Currency, number>> }): InviteRules {
  const { minimum, ...rest } = stored;
  return { ...DEFAULT_INVITE_RULES, ...rest, minimum: typeof minimum === 'number' ? { [BASE_CURRENCY]: minimum } : (minimum ?? DEFAULT_INVITE_RULES.minimum) };
}

/**
 * Invite a friend: invitees are members who registered with the inviter's code (`PR` + `_id`).
 * The inviter earns `percent` of each successful deposit of each invitee (the qualifying activity
 * is deposits), in the deposit's currency, accrued once per deposit operation when the inviter's
 * wallet or invite list is read. There is no exchange: only invitees of the inviter's currency
 * earn (a THB inviter gains nothing from a LAK friend's deposits). Nothing is earned when the
 * invitee is the inviter's own inviter (a loop A ⇄ B) or is the same person (same-person.ts: the
 * same holder name or account number, compared normalised). It is paid in the inviter's
 * currency, at that currency's minimum. `GET
 * /api/invite/bonus` pays what was accrued and not received yet into the wallet, once (a `bonus`
 * row "from" INVITE), under a turnover condition opened in the same statement (BONUS_REMAINING
 * while another condition is open): NO_INVITE_BONUS when there is nothing, INVITE_INACTIVE when invites are off,
 * INVITE_COLLECT under the minimum, NO_INVITEE_PLAY_INFO when no invitee has deposited yet.
 */
export class InviteService {
  constructor(
    private readonly db: Kysely<InviteDb>,
    private readonly money: MoneyCore,
    private readonly settings: SettingsService,
    private readonly bonuses: BonusService,
  ) {
    // An earning paid: its rows name the credit's operation, and its payout condition opens with it.
    money.credits.onCredited('invite_paid', async (trx, credited) => {
      await sql`UPDATE invite_earnings e SET paid_operation_id = u.op_id
        FROM unnest(${credited.map((c) => c.id)}::text[], ${credited.map((c) => c.operationId)}::text[]) AS u(payout, op_id)
        WHERE e.payout_id = u.payout AND e.paid_operation_id IS NULL`.execute(sameConnection<InviteDb>(trx));
      await bonuses.openPayoutConditions(trx, 'invite', credited);
    });
  }

  async rules(): Promise<InviteRules> {
    return normaliseRules(await this.settings.get<Parameters<typeof normaliseRules>[0]>('invite', {}));
  }

  /** Invitees who may earn for this inviter: not the inviter's own inviter, not the same person, of the inviter's currency. */
  private async earningInvitees(inviterId: string): Promise<string[]> {
    const columns = ['id', 'inviter_id', 'currency', 'bank_account_name', 'bank_account_no'] as const;
    // The inviter and the invitees in one statement (every wallet read asks).
    const rows = await this.db
      .selectFrom('member_view as members')
      .select(columns)
      .where((eb) => eb.or([eb('id', '=', inviterId), eb('inviter_id', '=', inviterId)]))
      .execute();
    const inviter = rows.find((r) => r.id === inviterId);
    if (!inviter) return [];
    const invitees = rows.filter((r) => r.inviter_id === inviterId);
    const holder = (m: typeof inviter) => ({ bankAccountName: m.bank_account_name, bankAccountNo: m.bank_account_no });
    return invitees.filter((i) => i.id !== inviter.id && i.id !== inviter.inviter_id && i.currency === inviter.currency && !samePerson(holder(inviter), holder(i))).map((i) => i.id);
  }

  /** Writes the inviter's earnings from invitees' deposits not counted yet, in the deposits' currency (idempotent, safe at once). */
  async accrue(inviterId: string, rules: InviteRules): Promise<void> {
    if (!rules.active || rules.percent <= 0) return;
    const invitees = await this.earningInvitees(inviterId);
    if (invitees.length === 0) return;
    // An invitee's deposits are in the invitee's currency, which is the inviter's (see earningInvitees).
    const currency = await memberCurrency(this.db, inviterId);
    await sql`
      INSERT INTO invite_earnings (operation_id, inviter_id, invitee_id, amount, currency)
      SELECT o.id, ${inviterId}, invitee.id, floor(o.amount * ${rules.percent}::numeric / 100)::bigint, ${currency}
      FROM member_view invitee
      JOIN operation_view o ON o.member_id = invitee.id AND o.type = 'deposit' AND o.status = 'SUCCESS'
      WHERE invitee.id = ANY(${invitees}::text[])
        AND invitee.inviter_id = ${inviterId}
        AND o.created_at >= invitee.created_at
        AND floor(o.amount * ${rules.percent}::numeric / 100) > 0
        AND NOT EXISTS (SELECT 1 FROM invite_earnings e WHERE e.operation_id = o.id)
      ON CONFLICT (operation_id) DO NOTHING`.execute(this.db);
  }

  private async unpaid(inviterId: string, currency: Currency): Promise<number> {
    const row = await this.db
      .selectFrom('invite_earnings')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), sql<string>`0`).as('n'))
      .where('inviter_id', '=', inviterId)
      .where('currency', '=', currency)
      .where('payout_id', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The wallet's invite fields: what can be received now, and the confirmation's percentages. */
  async summary(memberId: string): Promise<{ amount: number; success: number; fail: number }> {
    const rules = await this.rules();
    await this.accrue(memberId, rules);
    const currency = await memberCurrency(this.db, memberId);
    const open = rules.active && rules.minimum[currency] !== undefined;
    return { amount: open ? toBaht(await this.unpaid(memberId, currency)) : 0, success: rules.successPercent, fail: rules.failPercent };
  }

  async list(memberId: string, page: number, limit: number): Promise<{ total: number; invites: Array<{ from: { name: string }; amount: number; createdAt: string }> }> {
    await this.accrue(memberId, await this.rules());
    const [count, rows] = await Promise.all([
      this.db.selectFrom('invite_earnings').select((eb) => eb.fn.countAll<string>().as('n')).where('inviter_id', '=', memberId).executeTakeFirstOrThrow(),
      this.db
        .selectFrom('invite_earnings')
        .innerJoin('member_view as members', 'members.id', 'invite_earnings.invitee_id')
        .select(['members.name', 'invite_earnings.amount', 'invite_earnings.created_at'])
        .where('invite_earnings.inviter_id', '=', memberId)
        .orderBy('invite_earnings.created_at', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
    ]);
    return { total: Number(count.n), invites: rows.map((r) => ({ from: { name: r.name }, amount: toBaht(Number(r.amount)), createdAt: r.created_at.toISOString() })) };
  }

  /** Pays the accrued earnings into the wallet, once: the earnings are claimed by a payout id, then credited with it as the key. */
  async receive(memberId: string, idem: Idem | null = null): Promise<{ message: 'INVITE_BONUS_SUCCESS'; amount: number; wallet: { amount: number } }> {
    // Run again under its key after the answer was lost (the process died): the credit the key
    // recorded answers, as the first time (its amount, the wallet right after it).
    const earlier = idem ? await this.money.recorded(memberId, idem) : null;
    if (earlier) return { message: 'INVITE_BONUS_SUCCESS', amount: earlier.amount, wallet: earlier.wallet };
    const rules = await this.rules();
    // Paid in the member's currency, at its minimum; a currency the rules leave out has no payouts.
    const currency = await memberCurrency(this.db, memberId);
    const minimum = rules.minimum[currency];
    if (!rules.active || minimum === undefined) throw new AppError(403, 'INVITE_INACTIVE');
    // Under a key, the payout is named by it: a run that died after claiming the earnings and
    // before crediting them is finished by the retry (the credit once, by the payout's id).
    // A payout under the key that the sweep credited (settleClaimed: no key) answers from that credit.
    const payoutId = idem ? `${memberId}:key:${idem.key}` : `${memberId}:${Date.now()}:${Math.random().toString(36).slice(2, 10)}`;
    const left = idem ? await this.claimedBy(payoutId) : 0;
    if (left > 0) return this.pay(memberId, payoutId, left, currency, rules, idem);
    const swept = idem ? await this.money.creditAnswer(memberId, 'invite', payoutId) : null;
    if (swept) return { message: 'INVITE_BONUS_SUCCESS', amount: swept.amount, wallet: swept.wallet };
    await this.accrue(memberId, rules);
    const due = await this.unpaid(memberId, currency);
    if (due === 0) {
      // Friends who have not deposited yet, or nothing left to receive.
      const [invitee, earned] = await Promise.all([
        this.db.selectFrom('member_view as members').select('id').where('inviter_id', '=', memberId).executeTakeFirst(),
        this.db.selectFrom('invite_earnings').select('operation_id').where('inviter_id', '=', memberId).executeTakeFirst(),
      ]);
      throw new AppError(404, invitee && !earned ? 'NO_INVITEE_PLAY_INFO' : 'NO_INVITE_BONUS');
    }
    if (due < minimum) throw new AppError(400, 'INVITE_COLLECT', { minimum: toBaht(minimum) });
    await this.bonuses.settle(memberId);
    if (await this.bonuses.active(memberId)) throw new AppError(409, 'BONUS_REMAINING');
    const claimed = await sql<{ amount: string }>`
      WITH taken AS (
        UPDATE invite_earnings SET payout_id = ${payoutId} WHERE inviter_id = ${memberId} AND currency = ${currency} AND payout_id IS NULL RETURNING amount)
      SELECT coalesce(sum(amount), 0)::text AS amount FROM taken`.execute(this.db);
    const amount = Number(claimed.rows[0]?.amount ?? 0);
    if (amount === 0) throw new AppError(409, 'NO_INVITE_BONUS');
    return this.pay(memberId, payoutId, amount, currency, rules, idem);
  }

  /** What earnings a payout claimed and nothing credited yet (minor units). */
  private async claimedBy(payoutId: string): Promise<number> {
    const row = await this.db.selectFrom('invite_earnings').select((eb) => eb.fn.sum<string>('amount').as('amount')).where('payout_id', '=', payoutId).where('paid_operation_id', 'is', null).executeTakeFirst();
    return Number(row?.amount ?? 0);
  }

  /** Credits a payout's claimed earnings (once, by the payout's id) under the call's key; gives them back when nothing was credited. */
  private async pay(memberId: string, payoutId: string, amount: number, currency: Currency, rules: InviteRules, idem: Idem | null): Promise<{ message: 'INVITE_BONUS_SUCCESS'; amount: number; wallet: { amount: number } }> {
    let credit;
    try {
      credit = await this.money.credits.credit({ source: 'invite', ref: payoutId, memberId, amount, currency, kind: INVITE_CODE, from: 'INVITE', note: null, idem, tag: { name: 'invite_paid', id: payoutId, data: await this.bonuses.payoutCondition(memberId, amount, rules) } });
    } catch (error) {
      // Nothing was credited; give the earnings back. Another condition opened meanwhile (one per
      // member: its unique index) is BONUS_REMAINING; a key recorded first answers from its record.
      await this.db.updateTable('invite_earnings').set({ payout_id: null }).where('payout_id', '=', payoutId).where('paid_operation_id', 'is', null).execute();
      if (!(error instanceof KeyTaken) && uniqueViolation(error) !== null) throw new AppError(409, 'BONUS_REMAINING');
      throw error;
    }
    if (!credit.created) throw new AppError(409, 'INVITE_BONUS_FAIL');
    return { message: 'INVITE_BONUS_SUCCESS', amount: toBaht(amount), wallet: { amount: toBaht(credit.wallet ?? 0) } };
  }

  /** Payouts claimed but not credited (a crash between the two): credited now, with the same key. */
  async settleClaimed(): Promise<void> {
    const open = await this.db
      .selectFrom('invite_earnings')
      .select(['payout_id', 'inviter_id', 'currency', (eb) => eb.fn.sum<string>('amount').as('amount')])
      .where('payout_id', 'is not', null)
      .where('paid_operation_id', 'is', null)
      .where('created_at', '<', new Date(Date.now() - 60_000))
      .groupBy(['payout_id', 'inviter_id', 'currency'])
      .limit(100)
      .execute();
    const rules = await this.rules();
    for (const p of open) {
      const currency = CURRENCIES.find((c) => c === p.currency);
      if (!p.payout_id || !currency) continue;
      const amount = Number(p.amount);
      try {
        await this.money.credits.credit({ source: 'invite', ref: p.payout_id, memberId: p.inviter_id, amount, currency, kind: INVITE_CODE, from: 'INVITE', note: null, tag: { name: 'invite_paid', id: p.payout_id, data: await this.bonuses.payoutCondition(p.inviter_id, amount, rules) } });
      } catch (error) {
        // A condition is open now (its unique index): the claim is given back, to be received again later.
        if (uniqueViolation(error) === null) throw error;
        await this.db.updateTable('invite_earnings').set({ payout_id: null }).where('payout_id', '=', p.payout_id).where('paid_operation_id', 'is', null).execute();
      }
    }
  }
}
