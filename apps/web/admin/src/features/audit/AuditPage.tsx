import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api';
import { downloadCsv, toCsv } from '../../shared/csv';
import { dateTime } from '../../shared/format';
import { DataTable, type Column } from '../../shared/Table';
import { ErrorText, Page } from '../../shared/ui';

interface AuditRow {
  id: string;
  at: string;
  operator: string;
  role: string | null;
  action: string;
  entity: string | null;
  target: string | null;
  before: unknown;
  after: unknown;
  address: string | null;
  onBehalfOf: string | null;
}

const PAGE_SIZE = 50;

/** The audit log (owner): who did what to what, before and after, filtered and paged on the server. */
export function AuditPage() {
  const { t } = useTranslation();
  const [who, setWho] = useState('');
  const [action, setAction] = useState('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['audit', who, action, page],
    queryFn: () => api<{ total: number; rows: AuditRow[] }>('GET', '/api/operator/audit', { query: { operator: who.trim(), action: action.trim(), page, limit: PAGE_SIZE } }),
  });
  const rows = list.data?.rows ?? [];
  const columns: Array<Column<AuditRow>> = [
    { key: 'at', label: t('common.time'), render: (r) => dateTime(r.at) },
    { key: 'who', label: t('audit.who'), render: (r) => `${r.operator}${r.role ? ` (${r.role})` : ''}${r.onBehalfOf ? ` · ${r.onBehalfOf}` : ''}` },
    { key: 'action', label: t('audit.action'), render: (r) => (r.entity ? `${r.action} · ${r.entity}` : r.action) },
    { key: 'target', label: t('audit.target'), render: (r) => r.target ?? '' },
    { key: 'before', label: t('audit.before'), render: (r) => <code className="json">{JSON.stringify(r.before)}</code> },
    { key: 'after', label: t('audit.after'), render: (r) => <code className="json">{JSON.stringify(r.after)}</code> },
    { key: 'ip', label: t('audit.address'), render: (r) => r.address ?? '' },
  ];
  return (
    <Page title={t('audit.title')} actions={<button type="button" className="btn" onClick={() => downloadCsv('audit.csv', toCsv(rows as unknown as Array<Record<string, unknown>>, ['at', 'operator', 'role', 'action', 'entity', 'target', 'before', 'after', 'address', 'onBehalfOf']))}>{t('common.exportCsv')}</button>}>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>{t('audit.who')}</span>
          <input value={who} onChange={(e) => { setWho(e.target.value); setPage(1); }} />
        </label>
        <label className="field">
          <span>{t('audit.action')}</span>
          <input value={action} onChange={(e) => { setAction(e.target.value); setPage(1); }} />
        </label>
      </form>
      <ErrorText error={list.error} />
      <DataTable caption={t('audit.title')} columns={columns} rows={rows} rowKey={(r) => r.id} loading={list.isPending} page={page} pageSize={PAGE_SIZE} total={list.data?.total} onPage={setPage} />
    </Page>
  );
}
