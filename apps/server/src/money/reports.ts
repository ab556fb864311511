import { sql, type Kysely } from 'kysely';
import type { MoneyDb } from './tables';
import { LedgerReports } from './ledger-reports';

/** One currency's money of a period, in minor units (the back office's dashboard). */
export interface PeriodTotals {
  currency: string;
  /** Credited to members' wallets by deposits (every channel, manual included). */
  deposits: number;
  /** Paid out: withdrawals completed (the held money left the system). */
  withdrawals: number;
  /** Paid from the promotion accounts (bonuses, codes, refunds, invites, wheel prizes), less what cancels took back. */
  bonuses: number;
  /** deposits − withdrawals − bonuses. */
  net: number;
}

/** An operation queue: how many wait and since when (the oldest). */
export interface Queue {
  count: number;
  oldestAt: string | null;
}

/**
 * Read-only figures from the ledger for operators: totals of a period per currency, members who
 * moved money, and the queue of operations in a state. Nothing here writes.
 */
export class MoneyReports {
  /** The back office's reports' figures per period (ledger-reports.ts). */
  readonly periods: LedgerReports;

  constructor(private readonly db: Kysely<MoneyDb>) {
    this.periods = new LedgerReports(db);
  }

  async totals(from: Date, to: Date): Promise<PeriodTotals[]> {
    const rows = await sql<{ currency: string; deposits: string; withdrawals: string; bonuses: string }>`
      SELECT a.currency,
        coalesce(sum(CASE WHEN t.kind = 'deposit' AND a.kind = 'wallet' THEN e.amount END), 0) AS deposits,
        coalesce(sum(CASE WHEN t.kind = 'withdraw_complete' AND a.kind = 'withdrawal' THEN -e.amount END), 0) AS withdrawals,
        coalesce(sum(CASE WHEN a.kind = 'system' AND (a.id = 'sys:bonus' OR a.id LIKE 'sys:bonus:%') THEN -e.amount END), 0) AS bonuses
      FROM ledger_entries e
      JOIN ledger_transactions t ON t.id = e.transaction_id
      JOIN ledger_accounts a ON a.id = e.account_id
      WHERE t.created_at >= ${from} AND t.created_at < ${to} AND a.currency <> 'COIN'
      GROUP BY a.currency
      ORDER BY a.currency`.execute(this.db);
    return rows.rows.map((r) => {
      const deposits = Number(r.deposits);
      const withdrawals = Number(r.withdrawals);
      const bonuses = Number(r.bonuses);
      return { currency: r.currency, deposits, withdrawals, bonuses, net: deposits - withdrawals - bonuses };
    });
  }

  /** Members whose wallet or game accounts moved in the period. */
  async activeMembers(from: Date, to: Date): Promise<number> {
    const row = await sql<{ n: string }>`
      SELECT count(DISTINCT a.member_id) AS n
      FROM ledger_entries e
      JOIN ledger_transactions t ON t.id = e.transaction_id
      JOIN ledger_accounts a ON a.id = e.account_id
      WHERE t.created_at >= ${from} AND t.created_at < ${to} AND a.member_id IS NOT NULL AND a.currency <> 'COIN'`.execute(this.db);
    return Number(row.rows[0]?.n ?? 0);
  }

  /** Operations of a type waiting in a status (PENDING withdrawals: the payout queue). */
  async queue(type: 'withdraw' | 'transfer', status: 'PENDING'): Promise<Queue> {
    const row = await this.db
      .selectFrom('operations')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('type', '=', type)
      .where('status', '=', status)
      .executeTakeFirst();
    const oldest = row?.oldest as Date | null | undefined;
    return { count: Number(row?.n ?? 0), oldestAt: oldest ? new Date(oldest).toISOString() : null };
  }
}
