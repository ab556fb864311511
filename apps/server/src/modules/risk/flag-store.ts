import { sql, type Kysely, type Selectable } from 'kysely';
import type { RiskFlagKind } from '@mw/contract/operator/risk';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { RiskFlagsTable, RiskTables } from './tables';

/** A member a flag names, as the back office shows them side by side. */
export interface RiskMember {
  id: string;
  username: string;
  name: string;
  bankCode: string;
  bankAccountNo: string;
  bankAccountName: string;
  status: string;
  createdAt: string;
}

export interface RiskFlagView {
  id: string;
  kind: RiskFlagKind;
  memberIds: string[];
  evidence: Record<string, unknown>;
  createdAt: string;
  status: 'open' | 'resolved' | 'dismissed';
  note: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  members: RiskMember[];
}

export interface FlagQuery {
  status: 'open' | 'resolved' | 'dismissed' | 'all';
  kind?: RiskFlagKind;
  memberId?: string;
  page: number;
  limit: number;
}

function json(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

/** A member named in a flag: `member_ids @> ARRAY[id]` (the GIN index). */
const names = (memberId: string) => sql<boolean>`member_ids @> ARRAY[${memberId}]::text[]`;

/** The flags: raised once per occurrence (its dedupe key), listed newest first, closed once by a person with a note. */
export class FlagStore {
  constructor(
    private readonly db: Kysely<RiskTables>,
    private readonly memberOf: (id: string) => Promise<RiskMember | null>,
  ) {}

  /** Raises a flag unless this occurrence raised one already (then nothing). Answers whether it is new. */
  async raise(kind: RiskFlagKind, dedupeKey: string, memberIds: readonly string[], evidence: Record<string, unknown>): Promise<boolean> {
    const ids = [...new Set(memberIds)].slice(0, 50);
    const inserted = await this.db
      .insertInto('risk_flags')
      .values({ id: newId(), kind, member_ids: ids, evidence: JSON.stringify(evidence), dedupe_key: dedupeKey, status: 'open', note: null, decided_by: null, decided_at: null })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async hasOpen(memberId: string): Promise<boolean> {
    const row = await this.db.selectFrom('risk_flags').select('id').where('status', '=', 'open').where(names(memberId)).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async list(query: FlagQuery): Promise<{ flags: RiskFlagView[]; total: number }> {
    let base = this.db.selectFrom('risk_flags');
    if (query.status === 'resolved') base = base.where('status', 'in', ['resolved', 'dismissed']);
    else if (query.status !== 'all') base = base.where('status', '=', query.status);
    if (query.kind) base = base.where('kind', '=', query.kind);
    if (query.memberId) base = base.where(names(query.memberId));
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).offset((query.page - 1) * query.limit).execute(),
    ]);
    const members = new Map<string, RiskMember | null>();
    for (const id of new Set(rows.flatMap((r) => r.member_ids))) members.set(id, await this.memberOf(id));
    return { total: Number(count.n), flags: rows.map((row) => this.view(row, members)) };
  }

  async get(id: string): Promise<RiskFlagView> {
    const row = await this.db.selectFrom('risk_flags').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'NO_RISK_FLAG');
    const members = new Map<string, RiskMember | null>();
    for (const memberId of row.member_ids) members.set(memberId, await this.memberOf(memberId));
    return this.view(row, members);
  }

  /** A person closes an open flag with their note: once (a closed one answers 409 RISK_FLAG_CLOSED). */
  async decide(id: string, status: 'resolved' | 'dismissed', note: string | null | undefined, who: string): Promise<{ before: RiskFlagView; after: RiskFlagView }> {
    const text = (note ?? '').trim();
    if (text === '') throw new AppError(400, 'NOTE_REQUIRED', { fields: [{ path: 'note', code: 'required' }] });
    const before = await this.get(id);
    const decided = await this.db
      .updateTable('risk_flags')
      .set({ status, note: text.slice(0, 1000), decided_by: who, decided_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .returning('id')
      .executeTakeFirst();
    if (!decided) throw new AppError(409, 'RISK_FLAG_CLOSED', { status: before.status });
    return { before, after: await this.get(id) };
  }

  private view(row: Selectable<RiskFlagsTable>, members: Map<string, RiskMember | null>): RiskFlagView {
    return {
      id: row.id,
      kind: row.kind as RiskFlagKind,
      memberIds: row.member_ids,
      evidence: json(row.evidence),
      createdAt: row.created_at.toISOString(),
      status: row.status,
      note: row.note,
      decidedBy: row.decided_by,
      decidedAt: row.decided_at?.toISOString() ?? null,
      members: row.member_ids.map((id) => members.get(id)).filter((m): m is RiskMember => m !== null && m !== undefined),
    };
  }
}
