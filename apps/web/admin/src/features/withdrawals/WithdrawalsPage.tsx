import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOperator } from '../../app/useOperator';
import { errorText } from '../../i18n/errors';
import { newIdempotencyKey } from '../../shared/api';
import { ClaimBadge } from '../../shared/ClaimBadge';
import { call, type CallAnswer } from '../../shared/client';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { allPages, downloadCsv, toCsv } from '../../shared/csv';
import { age, dateTime, money } from '../../shared/format';
import { currencyOf, Money } from '../../shared/money';
import { useMutation } from '../../shared/mutation';
import { can } from '../../shared/roles';
import { DataTable, type Column } from '../../shared/Table';
import { ErrorText, Notice, Page, StatusBadge } from '../../shared/ui';
import { useOpenFlagMembers } from '../risk/MemberRiskFlags';

export type Withdrawal = CallAnswer<'withdrawalsList'>['withdrawals'][number];

type Status = 'PENDING' | 'SUCCESS' | 'FAILED' | 'ALL';
type Kind = 'approve' | 'complete' | 'reject';
const PAGE_SIZE = 25;

function fetchWithdrawals(status: Status, q: string, sort: string, page: number, pageSize: number) {
  return call('withdrawalsList', { query: { status, q: q.trim() || undefined, sort: sort as 'createdAt', page, pageSize } });
}

/**
 * The withdrawals queue. Approve and pay, mark paid and reject each open a confirmation naming the
 * member (name, phone, bank and account) and the amount in the member's currency; nothing is sent
 * before the operator confirms, a rejection needs a reason. Afterwards the page says what the server
 * did: paid (with the bank's reference), with the bank, waiting for a second approver, refused by
 * the bank and why, or the money back in the wallet.
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
  const [asking, setAsking] = useState<{ kind: Kind; w: Withdrawal; key: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const list = useQuery({ queryKey: ['withdrawals', status, q, sort, page], queryFn: () => fetchWithdrawals(status, q, sort, page, PAGE_SIZE), refetchInterval: 10_000 });
  // Members with an open risk flag: their withdrawals need a second approver whatever the amount.
  const flagged = useOpenFlagMembers(can(operator?.role, 'risk'));
  // Marking paid by hand: how payouts leave without a payout provider; with one, the owner's override only.
  const byHand = list.data?.payoutProvider === 'manual' || operator?.role === 'owner';
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['withdrawals'] });
    void queryClient.invalidateQueries({ queryKey: ['approvals'] });
  };
  const amountOf = (w: Withdrawal) => money(w.amount, currencyOf(w.currency));

  const act = useMutation({
    mutationFn: async ({ kind, w, key, note }: { kind: Kind; w: Withdrawal; key: string; note: string }): Promise<string> => {
      const amount = amountOf(w);
      if (kind === 'reject') {
        await call('withdrawalReject', { params: { id: w.id }, body: { note }, idempotencyKey: key });
        return t('money.rejectedBack', { amount });
      }
      if (kind === 'complete') {
        const answer = await call('withdrawalComplete', { params: { id: w.id }, idempotencyKey: key });
        return answer.status === 'awaiting-approval' ? t('money.awaiting', { amount }) : t('money.paidNoRef', { amount });
      }
      const answer = await call('withdrawalApprove', { params: { id: w.id }, idempotencyKey: key });
      if (answer.status === 'awaiting-approval') return t('money.awaiting', { amount });
      if (answer.payout === 'paid') return answer.bankRef ? t('money.paid', { amount, reference: answer.bankRef }) : t('money.paidNoRef', { amount });
      if (answer.status === 'FAILED' || answer.payout === 'returned') {
        const reason = (answer.failure && (errorText(`PAYOUT_${answer.failure}`) ?? errorText(answer.failure))) || t('common.errorUnknown');
        return t('money.bankFailed', { reason });
      }
      return t('money.processing', { amount });
    },
    onSuccess: (text) => {
      setDone(text);
      setAsking(null);
      refresh();
    },
    onError: () => setAsking(null),
  });

  const open = (kind: Kind, w: Withdrawal) => {
    setDone(null);
    act.reset();
    setAsking({ kind, w, key: newIdempotencyKey() });
  };

  const columns: Array<Column<Withdrawal>> = [
    { key: 'createdAt', label: t('common.time'), sort: 'createdAt', render: (w) => dateTime(w.createdAt) },
    { key: 'age', label: t('common.age'), render: (w) => (w.status === 'PENDING' ? age(w.createdAt) : '—') },
    {
      key: 'member',
      label: t('common.member'),
      render: (w) => (
        <>
          <Link to={`/members/${encodeURIComponent(w.memberId)}`}>
            {w.name || '—'} · {w.username}
          </Link>
          {flagged.has(w.memberId) ? (
            <>
              {' '}
              <Link to={`/risk?status=open&memberId=${encodeURIComponent(w.memberId)}`} className="badge badge-pending" title={t('risk.openFlagHint')} data-testid="withdrawal-risk-flag">
                {t('risk.openFlag')}
              </Link>
            </>
          ) : null}
        </>
      ),
    },
    { key: 'to', label: t('withdrawals.to'), render: (w) => `${w.bankCode} ${w.bankAccountNo}` },
    { key: 'amount', label: t('common.amount'), sort: 'amount', numeric: true, render: (w) => <Money amount={w.amount} currency={w.currency} /> },
    { key: 'status', label: t('common.status'), render: (w) => <StatusBadge status={w.status} /> },
    { key: 'note', label: t('common.note'), render: (w) => w.note ?? '' },
  ];
  if (decide) {
    columns.push({
      key: 'actions',
      label: t('common.actions'),
      render: (w) =>
        w.status === 'PENDING' && w.payout === 'pending' ? (
          <div className="row">
            <ClaimBadge kind="withdrawal" id={w.id} />
            <button type="button" className="btn btn-primary" onClick={() => open('approve', w)} aria-label={`${t('withdrawals.approve')} ${w.username} ${amountOf(w)}`}>
              {t('withdrawals.approve')}
            </button>
            {byHand ? (
              <button type="button" className="btn" onClick={() => open('complete', w)} aria-label={`${t('withdrawals.complete')} ${w.username} ${amountOf(w)}`}>
                {t('withdrawals.complete')}
              </button>
            ) : null}
            <button type="button" className="btn btn-danger" onClick={() => open('reject', w)} aria-label={`${t('withdrawals.reject')} ${w.username} ${amountOf(w)}`}>
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
    downloadCsv(
      `withdrawals-${status.toLowerCase()}.csv`,
      toCsv(
        rows.map((w) => ({ ...w, currency: currencyOf(w.currency) })),
        ['id', 'createdAt', 'memberId', 'username', 'name', 'bankCode', 'bankAccountNo', 'amount', 'currency', 'status', 'note'],
      ),
    );
  };

  const w = asking?.w;
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
      <ErrorText error={list.error ?? act.error} />
      <DataTable caption={t('withdrawals.title')} columns={columns} rows={list.data?.withdrawals} rowKey={(row) => row.id} loading={list.isPending} sort={sort} onSort={setSort} page={page} pageSize={PAGE_SIZE} total={list.data?.total} onPage={setPage} />
      {asking && w ? (
        <ConfirmDialog
          claim={{ kind: 'withdrawal', id: w.id }}
          title={asking.kind === 'approve' ? t('money.approveTitle') : asking.kind === 'complete' ? t('money.completeTitle') : t('money.rejectTitle')}
          member={{ name: w.name, phone: w.username, bank: w.bankCode, account: w.bankAccountNo }}
          amount={{ value: w.amount, currency: w.currency }}
          effect={
            asking.kind === 'approve'
              ? t('money.approveEffect', { amount: amountOf(w), bank: w.bankCode, account: w.bankAccountNo })
              : asking.kind === 'complete'
                ? t('money.completeEffect', { amount: amountOf(w) })
                : t('money.rejectEffect', { amount: amountOf(w) })
          }
          reason={asking.kind === 'reject' ? 'required' : undefined}
          confirmLabel={asking.kind === 'approve' ? t('withdrawals.approve') : asking.kind === 'complete' ? t('withdrawals.complete') : t('withdrawals.reject')}
          danger={asking.kind === 'reject'}
          busy={act.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={(note) => act.mutate({ kind: asking.kind, w, key: asking.key, note })}
        />
      ) : null}
    </Page>
  );
}
