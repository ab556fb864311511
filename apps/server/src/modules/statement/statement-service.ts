import type { Kysely, Selectable } from 'kysely';
import { toBaht } from '@mw/contract/money';
import type { StatementItem } from '@mw/contract/statement';
import type { Slip } from '@mw/contract/wallet';
import type { DB } from '../../db/schema';
import { notFound } from '../../lib/errors';

/** Statement and slip history, newest first, paged (page from 1). */
export class StatementService {
  constructor(private readonly db: Kysely<DB>) {}

  /** One page of a member's rows of `table`, newest first, and how many there are in all. */
  private async page<T extends 'operations' | 'slips'>(table: T, memberId: string, page: number, limit: number) {
    const [count, rows] = await Promise.all([
      this.db.selectFrom(table as 'operations').select((eb) => eb.fn.countAll<string>().as('n')).where('member_id', '=', memberId).executeTakeFirstOrThrow(),
      this.db
        .selectFrom(table as 'operations')
        .selectAll()
        .where('member_id', '=', memberId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
    ]);
    return { total: Number(count.n), rows: rows as unknown as Array<Selectable<DB[T]>> };
  }

  async statements(memberId: string, page: number, limit: number): Promise<{ total: number; statements: StatementItem[] }> {
    const { total, rows } = await this.page('operations', memberId, page, limit);
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
      })),
    };
  }

  async slips(memberId: string, page: number, limit: number): Promise<{ total: number; slips: Slip[] }> {
    const { total, rows } = await this.page('slips', memberId, page, limit);
    return {
      total,
      slips: rows.map((r) => ({
        _id: r.id,
        createdAt: r.created_at.toISOString(),
        amount: toBaht(Number(r.amount)),
        status: r.status,
        note: r.note,
        link: r.image_path ? `/api/statement/slip/reference/${encodeURIComponent(r.reference)}` : '',
        reference: r.reference,
      })),
    };
  }

  /** The image of the member's own slip; another member's reference is answered as not found. */
  async slipUrl(memberId: string, reference: string): Promise<{ url: string }> {
    const row = await this.db.selectFrom('slips').select(['image_path']).where('member_id', '=', memberId).where('reference', '=', reference).executeTakeFirst();
    if (!row?.image_path) throw notFound('NO_DATA');
    return { url: row.image_path };
  }
}
