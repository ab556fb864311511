import type { Kysely, Selectable } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { StatementItem } from '@mw/contract/statement';
import type { MoneyReads } from '../../money';

/** The member's statement (operations), newest first, paged (page from 1). Slip history is the deposit module's (SlipHistory). */
export class StatementService {
  constructor(private readonly db: Kysely<MoneyReads>) {}

  /** One page of a member's rows of `table`, newest first, and how many there are in all. */
  private async page(memberId: string, page: number, limit: number) {
    const [count, rows] = await Promise.all([
      this.db.selectFrom('operation_view').select((eb) => eb.fn.countAll<string>().as('n')).where('member_id', '=', memberId).executeTakeFirstOrThrow(),
      this.db
        .selectFrom('operation_view')
        .selectAll()
        .where('member_id', '=', memberId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
    ]);
    return { total: Number(count.n), rows: rows as Array<Selectable<MoneyReads['operation_view']>> };
  }

  async statements(memberId: string, page: number, limit: number): Promise<{ total: number; statements: StatementItem[] }> {
    const { total, rows } = await this.page(memberId, page, limit);
    return {
      total,
      statements: rows.map((r) => ({
        _id: r.id,
        statementType: r.type,
        status: r.status === 'PENDING' ? 'PENDING' : r.status,
        from: r.source,
        to: r.target,
        amount: toBaht(Number(r.amount)),
        createdAt: r.created_at.toISOString(),
        ...(r.note ? { note: r.note } : {}),
        // A condition's end moved money only when it took some back (it then has a ledger transaction).
        ...(r.type === 'finish_bonus' ? { takenBack: r.start_tx !== null } : {}),
      })),
    };
  }

  /** The member's latest credited deposit (any channel, manual included), or null: amount in minor units. */
  async lastDeposit(memberId: string): Promise<{ id: string; amount: number; at: Date } | null> {
    const row = await this.db
      .selectFrom('operation_view')
      .select(['id', 'amount', 'created_at'])
      .where('member_id', '=', memberId)
      .where('type', '=', 'deposit')
      .where('status', '=', 'SUCCESS')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { id: row.id, amount: Number(row.amount), at: row.created_at } : null;
  }
}
