import { sql, type Kysely, type RawBuilder } from 'kysely';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { dayOf, type ReportSpan } from '../../lib/report-span';
import type { SessionService } from './session-service';
import type { AccountDb } from './tables';

/** A member as the back office lists them. */
export interface MemberRow {
  id: string;
  username: string;
  name: string;
  bankCode: string;
  bankAccountNo: string;
  bankAccountName: string;
  currency: string;
  status: string;
  inviterId: string | null;
  createdAt: string;
  /** The operators' labels (vip, watch, …), sorted. */
  tags: string[];
}

export interface MemberNote {
  id: string;
  text: string;
  author: string;
  at: string;
}

export type MemberSort = 'createdAt' | '-createdAt' | 'username' | 'name';

/**
 * The members for operators (search, lock, notes): the account module's own tables. A search
 * matches the id, the phone (username), the name or the bank account number, each as a part;
 * results are paged on the server.
 */
export class MemberDirectory {
  constructor(
    private readonly db: Kysely<AccountDb>,
    private readonly sessions: SessionService,
  ) {}

  async search(input: { q: string; status?: 'active' | 'inactive'; tag?: string; page: number; pageSize: number; sort: MemberSort }): Promise<{ total: number; members: MemberRow[] }> {
    const q = input.q.trim();
    let query = this.db.selectFrom('members');
    if (q) {
      // LIKE's own characters in the text are matched as themselves.
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const digits = q.replace(/\D/g, '');
      query = query.where((eb) =>
        eb.or([
          eb('id', '=', q),
          eb('username', 'like', like),
          eb(sql<string>`lower(name)`, 'like', like.toLowerCase()),
          ...(digits.length >= 3 ? [eb('bank_account_no', 'like', `%${digits}%`)] : []),
        ]),
      );
    }
    if (input.status) query = query.where('status', '=', input.status);
    const tag = input.tag;
    if (tag) query = query.where((eb) => eb.exists(eb.selectFrom('member_tags').select('member_tags.tag').whereRef('member_tags.member_id', '=', 'members.id').where('member_tags.tag', '=', tag)));
    const count = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
    const column = input.sort.replace('-', '') === 'createdAt' ? 'created_at' : (input.sort as 'username' | 'name');
    const rows = await query
      .selectAll()
      .orderBy(column, input.sort.startsWith('-') ? 'desc' : 'asc')
      .orderBy('id')
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute();
    const tags = await this.tagsOf(rows.map((r) => r.id));
    return { total: Number(count?.n ?? 0), members: rows.map((r) => rowOf(r, tags.get(r.id))) };
  }

  async get(id: string): Promise<MemberRow> {
    const row = await this.db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'NO_USER');
    return rowOf(row, (await this.tagsOf([id])).get(id));
  }

  /** The tags of each of these members (sorted). */
  async tagsOf(ids: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    if (ids.length === 0) return found;
    const rows = await this.db.selectFrom('member_tags').select(['member_id', 'tag']).where('member_id', 'in', [...ids]).orderBy('tag').execute();
    for (const row of rows) found.set(row.member_id, [...(found.get(row.member_id) ?? []), row.tag]);
    return found;
  }

  /** Sets a member's tags (the whole list). Answers the tags before and after. */
  async setTags(id: string, tags: readonly string[], author: string): Promise<{ before: string[]; after: string[] }> {
    const before = (await this.get(id)).tags;
    const wanted = [...new Set(tags)].sort();
    await this.db.transaction().execute(async (trx) => {
      const gone = before.filter((t) => !wanted.includes(t));
      if (gone.length > 0) await trx.deleteFrom('member_tags').where('member_id', '=', id).where('tag', 'in', gone).execute();
      const added = wanted.filter((t) => !before.includes(t));
      if (added.length > 0) await trx.insertInto('member_tags').values(added.map((tag) => ({ member_id: id, tag, author }))).onConflict((oc) => oc.doNothing()).execute();
    });
    return { before, after: wanted };
  }

  /** The members a member invited (one level), newest first. */
  async invited(id: string, limit = 100): Promise<MemberRow[]> {
    const rows = await this.db.selectFrom('members').selectAll().where('inviter_id', '=', id).orderBy('created_at', 'desc').limit(limit).execute();
    return rows.map((r) => rowOf(r));
  }

  /** Locks (inactive: no login, every session ends at once) or unlocks a member. Answers the row before and after. */
  async setLocked(id: string, locked: boolean): Promise<{ before: MemberRow; after: MemberRow }> {
    const before = await this.get(id);
    await this.db.updateTable('members').set({ status: locked ? 'inactive' : 'active', updated_at: new Date() }).where('id', '=', id).execute();
    if (locked) await this.sessions.revokeAll(id);
    return { before, after: await this.get(id) };
  }

  async notes(id: string): Promise<MemberNote[]> {
    const rows = await this.db.selectFrom('member_notes').selectAll().where('member_id', '=', id).orderBy('created_at', 'desc').limit(200).execute();
    return rows.map((r) => ({ id: r.id, text: r.text, author: r.author, at: r.created_at.toISOString() }));
  }

  /** Reports: members registered in a span per period, of one currency (THB counts the members who hold baht, written BAHT or THB). */
  async registrations(span: ReportSpan, currency: 'THB' | 'LAK', tag: string | null = null): Promise<Array<{ period: number; count: number }>> {
    const rows = await sql<{ period: number; n: string | number }>`
      SELECT ${dayOf(span, sql`created_at`)} AS period, count(*) AS n FROM members
      WHERE created_at >= ${span.from} AND created_at < ${span.to} AND (currency = 'LAK') = ${currency === 'LAK'}
        ${tag === null ? sql`` : sql`AND id IN (${this.idsWithTag(tag)})`}
      GROUP BY 1`.execute(this.db);
    return rows.rows.map((r) => ({ period: Number(r.period), count: Number(r.n) }));
  }

  /** Reports: a subquery of the ids of the members who hold a currency (rounds carry no currency of their own). */
  idsOfCurrency(currency: 'THB' | 'LAK', tag: string | null = null): RawBuilder<string> {
    return sql<string>`SELECT id FROM members WHERE (currency = 'LAK') = ${currency === 'LAK'}${tag === null ? sql`` : sql` AND id IN (${this.idsWithTag(tag)})`}`;
  }

  /** Reports: a subquery of the ids of the members with this tag. */
  idsWithTag(tag: string): RawBuilder<string> {
    return sql<string>`SELECT member_id FROM member_tags WHERE tag = ${tag}`;
  }

  /** Usernames and names of these members. */
  async names(ids: readonly string[]): Promise<Map<string, { username: string; name: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('members').select(['id', 'username', 'name']).where('id', 'in', [...ids]).execute();
    return new Map(rows.map((r) => [r.id, { username: r.username, name: r.name }]));
  }

  async addNote(id: string, text: string, author: string): Promise<MemberNote> {
    await this.get(id);
    const row = await this.db.insertInto('member_notes').values({ id: newId(), member_id: id, text, author }).returningAll().executeTakeFirstOrThrow();
    return { id: row.id, text: row.text, author: row.author, at: row.created_at.toISOString() };
  }
}

function rowOf(r: { id: string; username: string; name: string; bank_code: string; bank_account_no: string; bank_account_name: string; currency: string; status: string; inviter_id: string | null; created_at: Date }, tags: string[] = []): MemberRow {
  return {
    id: r.id,
    username: r.username,
    name: r.name,
    bankCode: r.bank_code,
    bankAccountNo: r.bank_account_no,
    bankAccountName: r.bank_account_name,
    currency: r.currency,
    status: r.status,
    inviterId: r.inviter_id,
    createdAt: r.created_at.toISOString(),
    tags,
  };
}
