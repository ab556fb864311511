import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { MoneyDb } from './tables';
import { dayOf, periodOf, type ReportSpan } from '../lib/report-span';
import type { Currency } from './ledger';

/** Deposits of a period through one channel (minor units). */
export interface ChannelFigure {
  period: number;
  /** bank (the bank feed, and bank transfers assigned by an operator), slip, qr:<gateway>, ewallet, voucher, manual, sandbox, other. */
  channel: string;
  amount: number;
  count: number;
}

/** Withdrawals of a period (minor units): held when asked, paid out, returned to the wallet. */
export interface WithdrawalFigure {
  period: number;
  requested: number;
  paid: number;
  returned: number;
}

/** What promotions paid in a period, per kind (minor units; a bonus taken back counts against `bonus`). */
export interface PromotionFigure {
  period: number;
  kind: 'bonus' | 'promotion' | 'wheel' | 'invite' | 'refund';
  amount: number;
}

export interface MemberMoneyFigure {
  period: number;
  deposits: number;
  depositCount: number;
  /** Members whose wallet, game, in-flight or withdrawal accounts moved. */
  active: number;
}

export interface DepositorFigure {
  memberId: string;
  deposits: number;
  depositCount: number;
  withdrawalsPaid: number;
}

type Num = string | number;

/** `AND <member column> IN (members)` when a report is narrowed to some members (a tag), else nothing. */
const onlyMembers = (column: RawBuilder<unknown>, members: RawBuilder<unknown> | undefined) => (members ? sql`AND ${column} IN (${members})` : sql``);

/**
 * Report figures read from the ledger's postings, per period of a span and one currency. Nothing
 * here writes and nothing is counted apart from the postings: every figure is a sum over
 * ledger_entries of the transactions made in the span (by their time, in the span's time zone).
 */
export class LedgerReports {
  constructor(private readonly db: Kysely<MoneyDb>) {}

  /**
   * Deposits per channel and period. The channel is the outside system the credit came from
   * (external_credits.source); a bank transfer credited through a slip is told from the bank
   * feed by `slipTransfers` (the deposit module's subquery of credited slips' transfer keys).
   */
  async deposits(span: ReportSpan, currency: Currency, slipTransfers: RawBuilder<unknown>, members?: RawBuilder<unknown>): Promise<ChannelFigure[]> {
    const rows = await sql<{ period: number; channel: string; amount: Num; n: Num }>`
      SELECT ${dayOf(span, sql`t.created_at`)} AS period,
        CASE
          WHEN ec.source IS NULL THEN CASE WHEN o.source = 'SANDBOX' THEN 'sandbox' ELSE 'other' END
          WHEN ec.source = 'banktx' THEN CASE WHEN ec.ref IN (${slipTransfers}) THEN 'slip' ELSE 'bank' END
          WHEN ec.source LIKE 'gateway:%' THEN 'qr:' || substr(ec.source, 9)
          WHEN ec.source LIKE 'ewallet:%' THEN 'ewallet'
          WHEN ec.source LIKE 'voucher:%' THEN 'voucher'
          WHEN ec.source = 'manual' THEN 'manual'
          ELSE 'other'
        END AS channel,
        sum(e.amount) AS amount, count(*) AS n
      FROM ledger_transactions t
      JOIN ledger_entries e ON e.transaction_id = t.id
      JOIN ledger_accounts a ON a.id = e.account_id
      LEFT JOIN external_credits ec ON ec.operation_id = t.operation_id
      LEFT JOIN operations o ON o.id = t.operation_id
      WHERE t.kind = 'deposit' AND t.created_at >= ${span.from} AND t.created_at < ${span.to}
        AND a.kind = 'wallet' AND a.currency = ${currency} ${onlyMembers(sql`a.member_id`, members)}
      GROUP BY 1, 2`.execute(this.db);
    return rows.rows.map((r) => ({ period: Number(r.period), channel: r.channel, amount: Number(r.amount), count: Number(r.n) }));
  }

  /** Withdrawals per period: the money held when members asked, paid out, and returned. */
  async withdrawals(span: ReportSpan, currency: Currency, members?: RawBuilder<unknown>): Promise<WithdrawalFigure[]> {
    const rows = await sql<{ period: number; requested: Num; paid: Num; returned: Num }>`
      SELECT ${dayOf(span, sql`t.created_at`)} AS period,
        coalesce(sum(CASE WHEN t.kind = 'withdraw_hold' THEN e.amount END), 0) AS requested,
        coalesce(sum(CASE WHEN t.kind = 'withdraw_complete' THEN -e.amount END), 0) AS paid,
        coalesce(sum(CASE WHEN t.kind = 'withdraw_reject' THEN -e.amount END), 0) AS returned
      FROM ledger_transactions t
      JOIN ledger_entries e ON e.transaction_id = t.id
      JOIN ledger_accounts a ON a.id = e.account_id
      WHERE t.kind IN ('withdraw_hold', 'withdraw_complete', 'withdraw_reject') AND t.created_at >= ${span.from} AND t.created_at < ${span.to}
        AND a.kind = 'withdrawal' AND a.currency = ${currency} ${onlyMembers(sql`a.member_id`, members)}
      GROUP BY 1`.execute(this.db);
    return rows.rows.map((r) => ({ period: Number(r.period), requested: Number(r.requested), paid: Number(r.paid), returned: Number(r.returned) }));
  }

  /**
   * What left the promotion account (sys:bonus of the currency) per kind: bonuses (less what
   * ending a bonus took back), promotion codes (bonus credits keyed `promotion`), wheel prizes,
   * invite and refund payouts.
   */
  async promotions(span: ReportSpan, currency: Currency, members?: RawBuilder<unknown>): Promise<PromotionFigure[]> {
    const rows = await sql<{ period: number; kind: PromotionFigure['kind']; amount: Num }>`
      SELECT ${dayOf(span, sql`t.created_at`)} AS period,
        CASE
          WHEN t.kind = 'spin_prize' THEN 'wheel'
          WHEN t.kind IN ('invite', 'refund') THEN t.kind
          WHEN ec.source = 'promotion' THEN 'promotion'
          ELSE 'bonus'
        END AS kind,
        sum(-e.amount) AS amount
      FROM ledger_transactions t
      JOIN ledger_entries e ON e.transaction_id = t.id
      JOIN ledger_accounts a ON a.id = e.account_id
      LEFT JOIN external_credits ec ON ec.operation_id = t.operation_id
      WHERE t.created_at >= ${span.from} AND t.created_at < ${span.to}
        AND a.kind = 'system' AND a.currency = ${currency} AND (a.id = 'sys:bonus' OR a.id LIKE 'sys:bonus:%')
        ${members ? sql`AND EXISTS (SELECT 1 FROM ledger_entries me JOIN ledger_accounts ma ON ma.id = me.account_id WHERE me.transaction_id = t.id AND ma.member_id IN (${members}))` : sql``}
      GROUP BY 1, 2`.execute(this.db);
    return rows.rows.map((r) => ({ period: Number(r.period), kind: r.kind, amount: Number(r.amount) }));
  }

  /** Per period: deposits (amount and how many) and the members whose accounts moved. */
  async memberMoney(span: ReportSpan, currency: Currency, members?: RawBuilder<unknown>): Promise<MemberMoneyFigure[]> {
    const rows = await sql<{ period: number; deposits: Num; n: Num; active: Num }>`
      SELECT ${periodOf(span, sql`t.created_at`)} AS period,
        coalesce(sum(CASE WHEN t.kind = 'deposit' AND a.kind = 'wallet' THEN e.amount END), 0) AS deposits,
        count(CASE WHEN t.kind = 'deposit' AND a.kind = 'wallet' THEN 1 END) AS n,
        count(DISTINCT a.member_id) AS active
      FROM ledger_transactions t
      JOIN ledger_entries e ON e.transaction_id = t.id
      JOIN ledger_accounts a ON a.id = e.account_id
      WHERE t.created_at >= ${span.from} AND t.created_at < ${span.to} AND a.member_id IS NOT NULL AND a.currency = ${currency} ${onlyMembers(sql`a.member_id`, members)}
      GROUP BY 1`.execute(this.db);
    return rows.rows.map((r) => ({ period: Number(r.period), deposits: Number(r.deposits), depositCount: Number(r.n), active: Number(r.active) }));
  }

  /** Per period: the members whose first deposit ever (to a wallet of this currency) was in it. */
  async firstDepositors(span: ReportSpan, currency: Currency, members?: RawBuilder<unknown>): Promise<Array<{ period: number; count: number }>> {
    const rows = await sql<{ period: number; n: Num }>`
      SELECT ${dayOf(span, sql`f.first_at`)} AS period, count(*) AS n
      FROM (
        SELECT a.member_id, min(t.created_at) AS first_at
        FROM ledger_transactions t
        JOIN ledger_entries e ON e.transaction_id = t.id
        JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.kind = 'deposit' AND t.created_at < ${span.to} AND a.kind = 'wallet' AND a.currency = ${currency} ${onlyMembers(sql`a.member_id`, members)}
        GROUP BY a.member_id
      ) f
      WHERE f.first_at >= ${span.from}
      GROUP BY 1`.execute(this.db);
    return rows.rows.map((r) => ({ period: Number(r.period), count: Number(r.n) }));
  }

  /** The members who deposited most in the span (ties by id), with what was paid out to them. */
  async topDepositors(span: ReportSpan, currency: Currency, limit: number, members?: RawBuilder<unknown>): Promise<DepositorFigure[]> {
    const rows = await sql<{ member_id: string; deposits: Num; n: Num; paid: Num }>`
      SELECT a.member_id,
        coalesce(sum(CASE WHEN t.kind = 'deposit' AND a.kind = 'wallet' THEN e.amount END), 0) AS deposits,
        count(CASE WHEN t.kind = 'deposit' AND a.kind = 'wallet' THEN 1 END) AS n,
        coalesce(sum(CASE WHEN t.kind = 'withdraw_complete' AND a.kind = 'withdrawal' THEN -e.amount END), 0) AS paid
      FROM ledger_transactions t
      JOIN ledger_entries e ON e.transaction_id = t.id
      JOIN ledger_accounts a ON a.id = e.account_id
      WHERE t.kind IN ('deposit', 'withdraw_complete') AND t.created_at >= ${span.from} AND t.created_at < ${span.to}
        AND a.member_id IS NOT NULL AND a.kind IN ('wallet', 'withdrawal') AND a.currency = ${currency} ${onlyMembers(sql`a.member_id`, members)}
      GROUP BY a.member_id
      HAVING count(CASE WHEN t.kind = 'deposit' AND a.kind = 'wallet' THEN 1 END) > 0
      ORDER BY 2 DESC, 1
      LIMIT ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({ memberId: r.member_id, deposits: Number(r.deposits), depositCount: Number(r.n), withdrawalsPaid: Number(r.paid) }));
  }
}
