import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOperator } from '../../app/useOperator';
import { ClaimBadge } from '../../shared/ClaimBadge';
import { call, type CallAnswer } from '../../shared/client';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { downloadCsv, toCsv } from '../../shared/csv';
import { age, dateTime, money } from '../../shared/format';
import { currencyOf, Money } from '../../shared/money';
import { useMutation } from '../../shared/mutation';
import { can } from '../../shared/roles';
import { DataTable, type Column } from '../../shared/Table';
import { ErrorText, Notice, Page } from '../../shared/ui';

type Held = CallAnswer<'heldDeposits'>['deposits'][number];
type Status = 'HELD' | 'RETURNED' | 'ALL';
type Action = { kind: 'release' | 'return'; deposit: Held };

const REFERENCE = /^[A-Za-z0-9-]{4,40}$/;

/** Why a deposit is held, in words (the rule's code never shows). */
function useReason() {
  const { t } = useTranslation();
  return (code: string) => {
    if (code === 'DEPOSIT_LIMIT' || code === 'TIME_OUT' || code === 'SELF_EXCLUDED' || code === 'DEPOSIT_RETURNED') return t(`held.reasons.${code}`);
    return t('held.reasons.other');
  };
}

/** The held deposits table's columns; with the `held` permission, release and return buttons on held rows. */
function useHeldColumns(decide: boolean, setAction: (action: Action) => void): Array<Column<Held>> {
  const { t } = useTranslation();
  const reasonOf = useReason();
  const columns: Array<Column<Held>> = [
    { key: 'receivedAt', label: t('held.when'), render: (d) => dateTime(d.receivedAt) },
    { key: 'age', label: t('common.age'), render: (d) => (d.status === 'HELD' ? age(d.receivedAt) : '—') },
    {
      key: 'member',
      label: t('common.member'),
      render: (d) => (
        <Link to={`/members/${encodeURIComponent(d.memberId)}`}>
          {d.name || '—'} · {d.username}
        </Link>
      ),
    },
    { key: 'amount', label: t('common.amount'), numeric: true, render: (d) => <Money amount={d.amount} currency={d.currency} /> },
    { key: 'channel', label: t('held.channel'), render: (d) => (typeof d.from === 'string' ? d.from : '—') },
    { key: 'reference', label: t('held.reference'), render: (d) => <span className="mono">{d.reference}</span> },
    { key: 'reason', label: t('held.reason'), render: (d) => reasonOf(d.reason) },
    { key: 'status', label: t('common.status'), render: (d) => t(`held.statuses.${d.status === 'HELD' ? 'HELD' : 'RETURNED'}`) },
  ];
  if (decide) {
    columns.push({
      key: 'actions',
      label: t('common.actions'),
      render: (d) =>
        d.status === 'HELD' ? (
          <div className="row">
            <ClaimBadge kind="held" id={d.id} />
            <button type="button" className="btn btn-primary" onClick={() => setAction({ kind: 'release', deposit: d })} aria-label={`${t('held.release')} ${d.username}`}>
              {t('held.release')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => setAction({ kind: 'return', deposit: d })} aria-label={`${t('held.return')} ${d.username}`}>
              {t('held.return')}
            </button>
          </div>
        ) : null,
    });
  }
  return columns;
}

/**
 * Deposits the member's responsible-play rules held (money that arrived over a limit or during a
 * break): who, how much in the member's currency, by which channel and outside reference, which
 * rule held it and when. Release credits it once (when the rule allows it now); return marks it
 * sent back to the sender by hand with that transfer's reference. Both confirmed, both audited, both
 * in the member's statement.
 */
export function HeldPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: operator } = useOperator();
  const decide = can(operator?.role, 'held');
  const [status, setStatus] = useState<Status>('HELD');
  const [action, setAction] = useState<Action | null>(null);
  const [reference, setReference] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const referenceId = useId();
  const list = useQuery({ queryKey: ['held', status], queryFn: () => call('heldDeposits', { query: { status } }), refetchInterval: 15_000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['held'] });

  const release = useMutation({
    mutationFn: (deposit: Held) => call('heldRelease', { params: { id: deposit.id }, body: {} }),
    onSuccess: (answer, deposit) => {
      setDone(t('held.released', { amount: money(answer.amount, answer.currency), name: deposit.name || deposit.username }));
      setAction(null);
      void refresh();
    },
  });
  const giveBack = useMutation({
    mutationFn: ({ deposit, reason, ref }: { deposit: Held; reason: string; ref: string }) => call('heldReturn', { params: { id: deposit.id }, body: { reason, reference: ref } }),
    onSuccess: (answer, { deposit }) => {
      setDone(t('held.returned', { amount: money(deposit.amount, deposit.currency), reference: answer.reference ?? '' }));
      setAction(null);
      setReference('');
      void refresh();
    },
  });

  const columns = useHeldColumns(decide, setAction);

  const exportCsv = () => {
    const rows = (list.data?.deposits ?? []).map((d) => ({ ...d, currency: currencyOf(d.currency) }));
    downloadCsv(`held-deposits-${status.toLowerCase()}.csv`, toCsv(rows, ['id', 'receivedAt', 'memberId', 'username', 'name', 'amount', 'currency', 'from', 'reference', 'reason', 'status']));
  };

  const open = action?.deposit;
  return (
    <Page
      title={t('held.title')}
      actions={
        <button type="button" className="btn" onClick={exportCsv}>
          {t('common.exportCsv')}
        </button>
      }
    >
      <p className="muted">{t('held.hint')}</p>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>{t('common.status')}</span>
          <select value={status} onChange={(e) => setStatus(e.target.value as Status)}>
            <option value="HELD">{t('held.statuses.HELD')}</option>
            <option value="RETURNED">{t('held.statuses.RETURNED')}</option>
            <option value="ALL">{t('common.all')}</option>
          </select>
        </label>
      </form>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={list.error ?? release.error ?? giveBack.error} />
      <DataTable caption={t('held.title')} columns={columns} rows={list.data?.deposits} rowKey={(d) => d.id} loading={list.isPending} />
      {action && open ? (
        <ConfirmDialog
          claim={{ kind: 'held', id: open.id }}
          title={action.kind === 'release' ? t('held.releaseTitle') : t('held.returnTitle')}
          member={{ name: open.name, phone: open.username, bank: open.bankCode, account: open.bankAccountNo }}
          amount={{ value: open.amount, currency: open.currency }}
          effect={
            action.kind === 'release'
              ? t('held.releaseEffect', { amount: money(open.amount, open.currency) })
              : t('held.returnEffect', { amount: money(open.amount, open.currency), reference: open.reference })
          }
          reason={action.kind === 'return' ? 'required' : undefined}
          confirmLabel={action.kind === 'release' ? t('held.release') : t('held.return')}
          danger={action.kind === 'return'}
          busy={release.isPending || giveBack.isPending}
          ready={action.kind === 'release' || REFERENCE.test(reference.trim())}
          onCancel={() => {
            setAction(null);
            setReference('');
          }}
          onConfirm={(reason) => {
            if (action.kind === 'release') release.mutate(open);
            else giveBack.mutate({ deposit: open, reason, ref: reference.trim() });
          }}
        >
          {action.kind === 'return' ? (
            <div className="field">
              <label htmlFor={referenceId}>{t('held.returnReference')}</label>
              <input id={referenceId} className="mono" maxLength={40} value={reference} onChange={(e) => setReference(e.target.value)} aria-describedby={`${referenceId}-hint`} />
              <p id={`${referenceId}-hint`} className="muted">
                {t('held.returnReferenceHint')}
              </p>
            </div>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
