import type { AuditRow, AuditSubject } from '@mw/contract/admin';
import { toBaht } from '@mw/contract/money';

/** What the audit screen's sentences need from the domains, each read through its own service. */
export interface SubjectSources {
  /** A withdrawal (the wallet module's payouts): its member, amount in major units and currency. */
  withdrawal(id: string): Promise<{ memberId: string; amount: number; currency: string } | null>;
  /** A four-eyes approval (the approval module): the action asked for, its member, amount (major units), currency. */
  approval(id: string): Promise<{ action: string; memberId: string | null; amount: number; currency: string } | null>;
  /** An unmatched deposit (the deposit module), assigned or not: amount in major units and currency. */
  unmatchedDeposit(id: string): Promise<{ amount: number; currency: string } | null>;
  /** Members' phones (the account module), by id. */
  phones(memberIds: readonly string[]): Promise<Map<string, string>>;
}

type Subject = Omit<AuditSubject, 'phone'>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const number = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const currencyOf = (value: unknown): 'THB' | 'LAK' | null => (value === 'LAK' ? 'LAK' : value === 'THB' || value === 'BAHT' ? 'THB' : null);
/** `id=abc` (a generic row's path parameters) → abc. */
const param = (target: string | null, name: string): string | null => target?.split(' ').find((p) => p.startsWith(`${name}=`))?.slice(name.length + 1) ?? null;

const MEMBER_ENTITIES = new Set(['member', 'member-note', 'member-tags']);

/** What an entry is about, from the entry alone or the owning domain's service (null: nothing to name). */
async function subjectOf(row: AuditRow, sources: SubjectSources): Promise<Subject | null> {
  const after = isRecord(row.after) ? row.after : {};
  const before = isRecord(row.before) ? row.before : {};
  if (row.entity === 'withdrawal' && row.target) {
    const w = await sources.withdrawal(row.target).catch(() => null);
    if (w) return { memberId: w.memberId, amount: w.amount, currency: currencyOf(w.currency), request: null };
  }
  if (row.entity === 'approval' && row.target) {
    const a = await sources.approval(row.target).catch(() => null);
    if (a) return { memberId: a.memberId, amount: a.memberId || a.amount > 0 ? a.amount : null, currency: currencyOf(a.currency), request: a.action };
  }
  if (row.action === 'POST /api/operator/deposits') {
    // A manual credit's row keeps the call's body as the contract read it: member, amount in minor units, currency.
    const minor = number(after.amount);
    return { memberId: text(after.memberId), amount: minor === null ? null : toBaht(minor), currency: currencyOf(after.currency) ?? 'THB', request: null };
  }
  if (row.action === 'POST /api/operator/deposits/:id/assign') {
    const id = param(row.target, 'id');
    const d = id ? await sources.unmatchedDeposit(id).catch(() => null) : null;
    return { memberId: text(after.memberId), amount: d?.amount ?? null, currency: currencyOf(d?.currency), request: null };
  }
  if (row.entity === 'held-deposit') return { memberId: text(after.memberId), amount: number(after.amount), currency: currencyOf(after.currency), request: null };
  if (row.entity && MEMBER_ENTITIES.has(row.entity) && row.target) return { memberId: row.target, amount: null, currency: null, request: null };
  const memberId = text(after.memberId) ?? text(before.memberId);
  return memberId ? { memberId, amount: number(after.amount), currency: currencyOf(after.currency), request: null } : null;
}

/**
 * The audit rows with what their sentence names: the member's phone, the amount in major units
 * and its currency, and for a four-eyes approval the action asked for. Read when the log is read
 * (rows written before these fields existed read the same), each domain through its service.
 */
export async function withSubjects(rows: AuditRow[], sources: SubjectSources): Promise<AuditRow[]> {
  const subjects: Array<Subject | null> = [];
  for (const row of rows) subjects.push(await subjectOf(row, sources));
  const ids = [...new Set(subjects.map((s) => s?.memberId).filter((id): id is string => Boolean(id)))];
  const phones = await sources.phones(ids);
  return rows.map((row, i) => {
    const s = subjects[i];
    return s ? { ...row, subject: { ...s, phone: s.memberId ? (phones.get(s.memberId) ?? null) : null } } : row;
  });
}
