import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { AuditRow } from '@mw/contract/admin';
import { call } from '../../shared/client';
import { downloadCsv, toCsv } from '../../shared/csv';
import { dateTime, money } from '../../shared/format';
import { DataTable, type Column } from '../../shared/Table';
import { ErrorText, Page } from '../../shared/ui';
import { actionKey, dayStart, fieldChanges, isRole, requestOf, sayOf } from './auditText';

const PAGE_SIZE = 50;
/** Fields of a money entry that its sentence already says (amounts) or that only the server reads. */
const HIDDEN_WHEN_SAID = new Set(['payload', 'amount', 'idem', 'body']);

/** The changed fields of one entry, field by field: before → after. */
function Changes({ row }: { row: AuditRow }) {
  const { t } = useTranslation();
  // A money entry's sentence says the member and the amount in its currency: its stored request
  // (the approval's payload, the raw amount in minor units, the idempotency record) is not repeated here.
  const said = sayOf(row) !== null;
  const changes = fieldChanges(row).filter((c) => !(said && HIDDEN_WHEN_SAID.has(c.field)));
  if (changes.length === 0) return <span className="muted">{t('audit.noChange')}</span>;
  return (
    <ul className="list audit-changes">
      {changes.map((c) => (
        <li key={c.field}>
          {c.field ? <strong>{c.field}: </strong> : null}
          <span>{c.before}</span> → <span>{c.after}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The audit log (owner): a sentence per entry (who did what to what) and its changes field by
 * field, filtered on the server by operator, member, action and Bangkok day.
 */
export function AuditPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const [who, setWho] = useState('');
  const [member, setMember] = useState(search.get('member') ?? '');
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const query = {
    operator: who.trim() || undefined,
    member: member.trim() || undefined,
    action: action.trim() || undefined,
    from: dayStart(from),
    to: dayStart(to, 1),
    page,
    limit: PAGE_SIZE,
  };
  const list = useQuery({ queryKey: ['audit', query], queryFn: () => call('operatorAudit', { query }) });
  const rows = list.data?.rows ?? [];
  const sentence = (r: AuditRow) => {
    // Who: the username, with the role when it says more than the name (finance is finance).
    const who = `${r.operator}${r.role && r.role !== r.operator ? ` (${isRole(r.role) ? t(`roles.${r.role}`) : r.role})` : ''}`;
    const say = sayOf(r);
    if (say) {
      const request = requestOf(r, say.request);
      const subject = r.subject;
      return t(`auditSay.${say.key}`, {
        who,
        amount: subject && subject.amount !== null ? money(subject.amount, subject.currency ?? 'THB') : '',
        phone: subject?.phone ?? subject?.memberId ?? t('auditSay.nobody'),
        request: request ? t(`auditSay.requests.${request}`) : '',
      }).replace(/\s{2,}/g, ' ');
    }
    return t('audit.sentence', { who, what: t(`audit.actions.${actionKey(r.action)}`), target: r.subject?.phone ?? r.target ?? '' });
  };
  const columns: Array<Column<AuditRow>> = [
    { key: 'at', label: t('common.time'), render: (r) => dateTime(r.at) },
    { key: 'sentence', label: t('audit.action'), render: (r) => <span data-testid="audit-sentence">{sentence(r)}{r.onBehalfOf ? ` · ${r.onBehalfOf}` : ''}</span> },
    { key: 'changes', label: t('audit.changes'), render: (r) => <Changes row={r} /> },
    { key: 'ip', label: t('audit.address'), render: (r) => r.address ?? '' },
  ];
  const reset = () => setPage(1);
  return (
    <Page title={t('audit.title')} actions={<button type="button" className="btn" onClick={() => downloadCsv('audit.csv', toCsv(rows as unknown as Array<Record<string, unknown>>, ['at', 'operator', 'role', 'action', 'entity', 'target', 'before', 'after', 'address', 'onBehalfOf']))}>{t('common.exportCsv')}</button>}>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>{t('audit.who')}</span>
          <input value={who} onChange={(e) => { setWho(e.target.value); reset(); }} />
        </label>
        <label className="field">
          <span>{t('audit.member')}</span>
          <input value={member} onChange={(e) => { setMember(e.target.value); reset(); }} />
        </label>
        <label className="field">
          <span>{t('audit.action')}</span>
          <input value={action} onChange={(e) => { setAction(e.target.value); reset(); }} />
        </label>
        <label className="field">
          <span>{t('audit.from')}</span>
          <input type="date" value={from} onChange={(e) => { setFrom(e.target.value); reset(); }} />
        </label>
        <label className="field">
          <span>{t('audit.to')}</span>
          <input type="date" value={to} onChange={(e) => { setTo(e.target.value); reset(); }} />
        </label>
      </form>
      <ErrorText error={list.error} />
      <DataTable caption={t('audit.title')} columns={columns} rows={rows} rowKey={(r) => r.id} loading={list.isPending} page={page} pageSize={PAGE_SIZE} total={list.data?.total} onPage={setPage} />
    </Page>
  );
}
