import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, newIdempotencyKey } from '../../shared/api';
import { downloadCsv, toCsv } from '../../shared/csv';
import { age, dateTime, money } from '../../shared/format';
import { DataTable, type Column } from '../../shared/Table';
import { Card, ErrorText, Notice, Page } from '../../shared/ui';
import { MemberPicker, type MemberRow } from '../members/MemberPicker';
import { useMutation } from '../../shared/mutation';

interface Unmatched {
  id: string;
  channel: string;
  reason: string;
  amount: number;
  currency: string;
  fromBankCode: string | null;
  fromAccountNo: string | null;
  fromName: string | null;
  toAccountNo: string | null;
  receivedAt: string;
  reference: string;
}

/** Money that arrived with no member to credit: assign it to a member found by search; and the manual credit. */
export function UnmatchedPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['unmatched'], queryFn: () => api<{ deposits: Unmatched[] }>('GET', '/api/operator/deposits/unmatched'), refetchInterval: 15_000 });
  const [assigning, setAssigning] = useState<Unmatched | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const assign = useMutation({
    mutationFn: ({ deposit, member }: { deposit: Unmatched; member: MemberRow }) => api('POST', `/api/operator/deposits/${encodeURIComponent(deposit.id)}/assign`, { body: { memberId: member.id } }),
    onSuccess: () => {
      setDone(t('unmatched.assigned'));
      setAssigning(null);
      void queryClient.invalidateQueries({ queryKey: ['unmatched'] });
    },
  });
  const columns: Array<Column<Unmatched>> = [
    { key: 'receivedAt', label: t('common.time'), render: (d) => dateTime(d.receivedAt) },
    { key: 'age', label: t('common.age'), render: (d) => age(d.receivedAt) },
    { key: 'from', label: t('unmatched.from'), render: (d) => [d.fromName, d.fromBankCode, d.fromAccountNo].filter(Boolean).join(' · ') || '—' },
    { key: 'channel', label: t('unmatched.channel'), render: (d) => `${d.channel} ${d.toAccountNo ?? ''}` },
    { key: 'reason', label: t('unmatched.reason'), render: (d) => d.reason },
    { key: 'amount', label: t('common.amount'), numeric: true, render: (d) => money(d.amount, d.currency) },
    {
      key: 'actions',
      label: t('common.actions'),
      render: (d) => (
        <button type="button" className="btn btn-primary" onClick={() => setAssigning(d)}>
          {t('unmatched.assign')}
        </button>
      ),
    },
  ];
  return (
    <Page
      title={t('unmatched.title')}
      actions={
        <button type="button" className="btn" onClick={() => downloadCsv('unmatched-deposits.csv', toCsv((list.data?.deposits ?? []) as unknown as Array<Record<string, unknown>>, ['id', 'receivedAt', 'channel', 'reason', 'amount', 'currency', 'fromBankCode', 'fromAccountNo', 'fromName', 'toAccountNo', 'reference']))}>
          {t('common.exportCsv')}
        </button>
      }
    >
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={list.error ?? assign.error} />
      <DataTable caption={t('unmatched.title')} columns={columns} rows={list.data?.deposits} rowKey={(d) => d.id} loading={list.isPending} />
      {assigning ? (
        <Card title={`${t('unmatched.assign')}: ${money(assigning.amount, assigning.currency)}`}>
          <MemberPicker label={t('unmatched.findMember')} onPick={(member) => assign.mutate({ deposit: assigning, member })} />
          <button type="button" className="btn" onClick={() => setAssigning(null)}>
            {t('common.cancel')}
          </button>
        </Card>
      ) : null}
      <ManualCredit />
    </Page>
  );
}

function ManualCredit() {
  const { t } = useTranslation();
  const [member, setMember] = useState<MemberRow | null>(null);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  // One key per credit the operator means: kept while they retry, new after a success.
  const [key, setKey] = useState(newIdempotencyKey);
  const credit = useMutation({
    mutationFn: () => api('POST', '/api/operator/deposits', { idempotencyKey: key, body: { memberId: member?.id, amount: Number(amount), currency: member?.currency === 'LAK' ? 'LAK' : 'THB', note: note.trim() } }),
    onSuccess: () => {
      setKey(newIdempotencyKey());
      setAmount('');
      setNote('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    credit.mutate();
  };
  return (
    <Card title={t('unmatched.manualTitle')}>
      <p className="muted">{t('unmatched.manualHint')}</p>
      {member ? (
        <form className="form inline" onSubmit={submit}>
          <p>
            {member.name} · {member.username}{' '}
            <button type="button" className="btn" onClick={() => setMember(null)}>
              {t('common.cancel')}
            </button>
          </p>
          <label className="field">
            <span>{t('common.amount')}</span>
            <input inputMode="decimal" required pattern="\d+(\.\d{1,2})?" value={amount} onChange={(e) => setAmount(e.target.value)} />
          </label>
          <label className="field">
            <span>{t('common.note')}</span>
            <input required maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} />
          </label>
          <button className="btn btn-primary" type="submit" disabled={credit.isPending}>
            {t('unmatched.credit')}
          </button>
          {credit.isSuccess ? <Notice>{t('unmatched.credited')}</Notice> : null}
          <ErrorText error={credit.error} />
        </form>
      ) : (
        <MemberPicker label={t('unmatched.findMember')} onPick={setMember} />
      )}
    </Card>
  );
}
