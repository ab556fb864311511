import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { memberTagSchema, SUGGESTED_MEMBER_TAGS } from '@mw/contract/operator/backoffice';
import { dateTime } from '../../shared/format';
import { DataTable, type Column } from '../../shared/Table';
import { ErrorText, Page, StatusBadge } from '../../shared/ui';
import { searchMembers, type MemberRow, type MemberSort } from './MemberPicker';

const PAGE_SIZE = 25;
const SORTS: readonly MemberSort[] = ['username', 'name', 'createdAt', '-createdAt'];

/** Members: search by phone, name, bank account or id, filter by status and tag; paged and sorted on the server. */
export function MembersPage() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('');
  const [tag, setTag] = useState('');
  const tagFilter = memberTagSchema.safeParse(tag);
  const [sort, setSort] = useState('-createdAt');
  const [page, setPage] = useState(1);
  const tagValue = tagFilter.success ? tagFilter.data : undefined;
  const list = useQuery({ queryKey: ['members', q, status, tagValue, sort, page], queryFn: () => searchMembers(q.trim(), page, PAGE_SIZE, SORTS.find((s) => s === sort) ?? '-createdAt', status === 'active' || status === 'inactive' ? status : undefined, tagValue) });
  const columns: Array<Column<MemberRow>> = [
    { key: 'username', label: t('members.phone'), sort: 'username', render: (m) => <Link to={`/members/${encodeURIComponent(m.id)}`}>{m.username}</Link> },
    { key: 'name', label: t('members.name'), sort: 'name', render: (m) => m.name },
    { key: 'bank', label: t('members.bank'), render: (m) => `${m.bankCode} ${m.bankAccountNo}` },
    { key: 'currency', label: t('unmatched.currency'), render: (m) => m.currency },
    { key: 'status', label: t('common.status'), render: (m) => <StatusBadge status={m.status} /> },
    { key: 'tags', label: t('members.tags'), render: (m) => (m.tags ?? []).map((x) => <span key={x} className="chip">{x}</span>) },
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
        <label className="field">
          <span>{t('members.tag')}</span>
          <input list="member-tag-suggestions" value={tag} placeholder={t('members.anyTag')} maxLength={24} onChange={(e) => { setTag(e.target.value); setPage(1); }} />
          <datalist id="member-tag-suggestions">
            {SUGGESTED_MEMBER_TAGS.map((x) => <option key={x} value={x} />)}
          </datalist>
        </label>
      </form>
      <ErrorText error={list.error} />
      <DataTable caption={t('members.title')} columns={columns} rows={list.data?.members} rowKey={(m) => m.id} loading={list.isPending} sort={sort} onSort={setSort} page={page} pageSize={PAGE_SIZE} total={list.data?.total} onPage={setPage} />
    </Page>
  );
}
