import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { dateTime } from '../../shared/format';
import { DataTable, type Column } from '../../shared/Table';
import { ErrorText, Page, StatusBadge } from '../../shared/ui';
import { searchMembers, type MemberRow, type MemberSort } from './MemberPicker';

const PAGE_SIZE = 25;
const SORTS: readonly MemberSort[] = ['username', 'name', 'createdAt', '-createdAt'];

/** Members: search by phone, name, bank account or id; paged and sorted on the server. */
export function MembersPage() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('');
  const [sort, setSort] = useState('-createdAt');
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: ['members', q, status, sort, page], queryFn: () => searchMembers(q.trim(), page, PAGE_SIZE, SORTS.find((s) => s === sort) ?? '-createdAt', status === 'active' || status === 'inactive' ? status : undefined) });
  const columns: Array<Column<MemberRow>> = [
    { key: 'username', label: t('members.phone'), sort: 'username', render: (m) => <Link to={`/members/${encodeURIComponent(m.id)}`}>{m.username}</Link> },
    { key: 'name', label: t('members.name'), sort: 'name', render: (m) => m.name },
    { key: 'bank', label: t('members.bank'), render: (m) => `${m.bankCode} ${m.bankAccountNo}` },
    { key: 'currency', label: t('unmatched.currency'), render: (m) => m.currency },
    { key: 'status', label: t('common.status'), render: (m) => <StatusBadge status={m.status} /> },
    { key: 'createdAt', label: t('members.joined'), sort: 'createdAt', render: (m) => dateTime(m.createdAt) },
    { key: 'id', label: t('common.id'), render: (m) => <span className="mono">{m.id}</span> },
  ];
  return (
    <Page title={t('members.title')}>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label className="field grow">
          <span>{t('members.searchLabel')}</span>
          <input type="search" value={q} onChange={(e) => { setQ(e.target.value); setPage(1); }} />
        </label>
        <label className="field">
          <span>{t('common.status')}</span>
          <select value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }}>
            <option value="">{t('common.all')}</option>
            <option value="active">{t('common.statuses.active')}</option>
            <option value="inactive">{t('common.statuses.inactive')}</option>
          </select>
        </label>
      </form>
      <ErrorText error={list.error} />
      <DataTable caption={t('members.title')} columns={columns} rows={list.data?.members} rowKey={(m) => m.id} loading={list.isPending} sort={sort} onSort={setSort} page={page} pageSize={PAGE_SIZE} total={list.data?.total} onPage={setPage} />
    </Page>
  );
}
