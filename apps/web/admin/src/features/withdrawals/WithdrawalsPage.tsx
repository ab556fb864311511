import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOperator } from '../../app/useOperator';
import { api, ApiError, newIdempotencyKey } from '../../shared/api';
import { allPages, downloadCsv, toCsv } from '../../shared/csv';
import { age, dateTime, money } from '../../shared/format';
import { can } from '../../shared/roles';
import { DataTable, type Column } from '../../shared/Table';
import { ErrorText, Notice, Page, StatusBadge } from '../../shared/ui';
import { useMutation } from '../../shared/mutation';

export interface Withdrawal {
  id: string;
  memberId: string;
  username: string;
  amount: number;
  to: string;
  createdAt: string;
  status: string;
  note: string | null;
}

type Status = 'PENDING' | 'SUCCESS' | 'FAILED' | 'ALL';
const PAGE_SIZE = 25;

function fetchWithdrawals(status: Status, q: string, sort: string, page: number, pageSize: number) {
  return api<{ total: number; withdrawals: Withdrawal[] }>('GET', '/api/operator/withdrawals', { query: { status, q, sort, page, pageSize } });
}

/**
 * The withdrawals queue: approve sends the payout through the bank (four eyes above the limit:
 * the answer is 202 awaiting-approval and a second finance operator decides), reject returns
 * the money with a note. Only roles with withdrawals see the buttons.
 */
export function WithdrawalsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: operator } = useOperator();
  const decide = can(operator?.role, 'withdrawals');
  const [status, setStatus] = useState<Status>('PENDING');
  const [q, setQ] = useState('');
  const [sort, setSort] = useState('createdAt');
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<Withdrawal | null>(null);
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const list = useQuery({ queryKey: ['withdrawals', status, q, sort, page], queryFn: () => fetchWithdrawals(status, q, sort, page, PAGE_SIZE), refetchInterval: 10_000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['withdrawals'] });

  const approve = useMutation({
    mutationFn: async (w: Withdrawal) => {
      try {
        return await api<{ status?: string }>('POST', `/api/operator/withdrawals/${encodeURIComponent(w.id)}/approve`, { idempotencyKey: newIdempotencyKey(), body: {} });
      } catch (error) {
        // Before payouts through the bank exist on this server: the manual completion.
        if (error instanceof ApiError && error.status === 404 && error.code === 'NOT_FOUND') return api<{ status?: string }>('POST', `/api/operator/withdrawals/${encodeURIComponent(w.id)}/complete`);
        throw error;
      }
    },
    onSuccess: (answer) => {
      setDone(answer.status === 'awaiting-approval' ? t('withdrawals.awaiting') : t('withdrawals.approved'));
      void refresh();
      void queryClient.invalidateQueries({ queryKey: ['approvals'] });
    },
  });
  const reject = useMutation({
    mutationFn: (w: Withdrawal) => api('POST', `/api/operator/withdrawals/${encodeURIComponent(w.id)}/reject`, { body: { note: note.trim() } }),
    onSuccess: () => {
      setDone(t('withdrawals.rejected'));
      setRejecting(null);
      setNote('');
      void refresh();
    },
  });

  const columns: Array<Column<Withdrawal>> = [
    { key: 'createdAt', label: t('common.time'), sort: 'createdAt', render: (w) => dateTime(w.createdAt) },
    { key: 'age', label: t('common.age'), render: (w) => (w.status === 'PENDING' ? age(w.createdAt) : '—') },
    { key: 'member', label: t('common.member'), render: (w) => <Link to={`/members/${encodeURIComponent(w.memberId)}`}>{w.username}</Link> },
    { key: 'to', label: t('withdrawals.to'), render: (w) => w.to },
    { key: 'amount', label: t('common.amount'), sort: 'amount', numeric: true, render: (w) => money(w.amount) },
    { key: 'status', label: t('common.status'), render: (w) => <StatusBadge status={w.status} /> },
    { key: 'note', label: t('common.note'), render: (w) => w.note ?? '' },
  ];
  if (decide) {
    columns.push({
      key: 'actions',
      label: t('common.actions'),
      render: (w) =>
        w.status === 'PENDING' ? (
          <div className="row">
            <button type="button" className="btn btn-primary" disabled={approve.isPending} onClick={() => approve.mutate(w)} aria-label={`${t('withdrawals.approve')} ${w.username} ${money(w.amount)}`}>
              {t('withdrawals.approve')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => setRejecting(w)} aria-label={`${t('withdrawals.reject')} ${w.username} ${money(w.amount)}`}>
              {t('withdrawals.reject')}
            </button>
          </div>
        ) : null,
    });
  }

  const exportCsv = async () => {
    const rows = await allPages(async (p, size) => {
      const answer = await fetchWithdrawals(status, q, sort, p, size);
      return { total: answer.total, rows: answer.withdrawals };
    });
    downloadCsv(`withdrawals-${status.toLowerCase()}.csv`, toCsv(rows as unknown as Array<Record<string, unknown>>, ['id', 'createdAt', 'memberId', 'username', 'to', 'amount', 'status', 'note']));
  };

  return (
    <Page
      title={t('withdrawals.title')}
      actions={
        <button type="button" className="btn" onClick={() => void exportCsv()}>
          {t('common.exportCsv')}
        </button>
      }
    >
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>{t('common.status')}</span>
          <select value={status} onChange={(e) => { setStatus(e.target.value as Status); setPage(1); }}>
            <option value="PENDING">{t('common.statuses.PENDING')}</option>
            <option value="SUCCESS">{t('common.statuses.SUCCESS')}</option>
            <option value="FAILED">{t('common.statuses.FAILED')}</option>
            <option value="ALL">{t('common.all')}</option>
          </select>
        </label>
        <label className="field">
          <span>{t('common.search')}</span>
          <input type="search" value={q} placeholder={t('members.phone')} onChange={(e) => { setQ(e.target.value); setPage(1); }} />
        </label>
      </form>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={list.error ?? approve.error ?? reject.error} />
      <DataTable caption={t('withdrawals.title')} columns={columns} rows={list.data?.withdrawals} rowKey={(w) => w.id} loading={list.isPending} sort={sort} onSort={setSort} page={page} pageSize={PAGE_SIZE} total={list.data?.total} onPage={setPage} />
      {rejecting ? (
        <div className="dialog-backdrop">
          <form
            className="dialog card"
            role="dialog"
            aria-modal="true"
            aria-labelledby="reject-title"
            onSubmit={(e) => {
              e.preventDefault();
              reject.mutate(rejecting);
            }}
          >
            <h2 id="reject-title">{t('withdrawals.rejectTitle', { id: rejecting.id })}</h2>
            <p>{t('withdrawals.rejectHint')}</p>
            <label className="field">
              <span>{t('common.note')}</span>
              <textarea required maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} autoFocus />
            </label>
            <div className="row">
              <button type="button" className="btn" onClick={() => setRejecting(null)}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="btn btn-danger" disabled={reject.isPending || note.trim() === ''}>
                {t('withdrawals.reject')}
              </button>
            </div>
          </form>
        </div>
      ) : null}
    </Page>
  );
}
