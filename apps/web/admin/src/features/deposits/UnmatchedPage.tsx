import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../shared/api';
import { ClaimBadge } from '../../shared/ClaimBadge';
import { useTakeClaim } from '../../shared/live';
import { call, type CallAnswer } from '../../shared/client';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { downloadCsv, toCsv } from '../../shared/csv';
import { age, dateTime, money } from '../../shared/format';
import { currencyOf, Money, MoneyInput, parseMajor } from '../../shared/money';
import { useMutation } from '../../shared/mutation';
import { DataTable, type Column } from '../../shared/Table';
import { Card, ErrorText, Notice, Page } from '../../shared/ui';
import { MemberPicker, type MemberRow } from '../members/MemberPicker';

type Unmatched = CallAnswer<'depositsUnmatched'>['deposits'][number];

/** The member a confirmation names. */
function named(member: MemberRow) {
  return { name: member.name, phone: member.username, bank: member.bankCode, account: member.bankAccountNo };
}

/** The member picked, in a line, with a way to pick another (a search result only selects). */
function Picked({ member, onChange }: { member: MemberRow; onChange: () => void }) {
  const { t } = useTranslation();
  return (
    <p data-testid="picked-member">
      {t('money.selected', { name: member.name, phone: member.username, bank: member.bankCode, account: member.bankAccountNo })}{' '}
      <button type="button" className="btn" onClick={onChange}>
        {t('money.change')}
      </button>
    </p>
  );
}

/**
 * Money that arrived with no member to credit: pick a member (search only selects), then assign
 * through a confirmation naming the member and the amount; and the manual credit, confirmed the same
 * way with its reason. Afterwards the page says what the server did: credited, held by the member's
 * deposit limit, or waiting for a second approver.
 */
export function UnmatchedPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['unmatched'], queryFn: () => call('depositsUnmatched'), refetchInterval: 15_000 });
  const [assigning, setAssigning] = useState<Unmatched | null>(null);
  // Others see the deposit as taken from the moment this operator starts assigning it.
  useTakeClaim('deposit', assigning?.id, assigning !== null);
  const [member, setMember] = useState<MemberRow | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const assign = useMutation({
    mutationFn: async ({ deposit, to }: { deposit: Unmatched; to: MemberRow }) => {
      const answer = await call('depositAssign', { params: { id: deposit.id }, body: { memberId: to.id } });
      const amount = money(deposit.amount, currencyOf(deposit.currency));
      if ('approvalId' in answer) return t('money.awaitingCredit', { amount });
      if (answer.held) return t('money.heldByLimit', { amount, name: to.name || to.username });
      return t('money.credited', { amount, name: to.name || to.username });
    },
    onSuccess: (text) => {
      setDone(text);
      setAssigning(null);
      setMember(null);
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: ['unmatched'] });
      void queryClient.invalidateQueries({ queryKey: ['held'] });
    },
    onError: () => setConfirming(false),
  });
  const columns: Array<Column<Unmatched>> = [
    { key: 'receivedAt', label: t('common.time'), render: (d) => dateTime(d.receivedAt) },
    { key: 'age', label: t('common.age'), render: (d) => age(d.receivedAt) },
    { key: 'from', label: t('unmatched.from'), render: (d) => [d.fromName, d.fromBankCode, d.fromAccountNo].filter(Boolean).join(' · ') || '—' },
    { key: 'channel', label: t('unmatched.channel'), render: (d) => `${d.channel} ${d.toAccountNo ?? ''}` },
    { key: 'reference', label: t('held.reference'), render: (d) => <span className="mono">{d.reference}</span> },
    { key: 'amount', label: t('common.amount'), numeric: true, render: (d) => <Money amount={d.amount} currency={d.currency} /> },
    {
      key: 'actions',
      label: t('common.actions'),
      render: (d) => (
        <div className="row">
          <ClaimBadge kind="deposit" id={d.id} />
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setDone(null);
              assign.reset();
              setMember(null);
              setAssigning(d);
            }}
          >
            {t('unmatched.assign')}
          </button>
        </div>
      ),
    },
  ];
  const from = (d: Unmatched) => [d.fromName, d.fromBankCode, d.fromAccountNo].filter(Boolean).join(' ') || d.channel;
  return (
    <Page
      title={t('unmatched.title')}
      actions={
        <button type="button" className="btn" onClick={() => downloadCsv('unmatched-deposits.csv', toCsv((list.data?.deposits ?? []).map((d) => ({ ...d, currency: currencyOf(d.currency) })), ['id', 'receivedAt', 'channel', 'reason', 'amount', 'currency', 'fromBankCode', 'fromAccountNo', 'fromName', 'toAccountNo', 'reference']))}>
          {t('common.exportCsv')}
        </button>
      }
    >
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={list.error ?? assign.error} />
      <DataTable caption={t('unmatched.title')} columns={columns} rows={list.data?.deposits} rowKey={(d) => d.id} loading={list.isPending} />
      {assigning ? (
        <Card title={`${t('unmatched.assign')}: ${money(assigning.amount, currencyOf(assigning.currency))}`}>
          {member ? <Picked member={member} onChange={() => setMember(null)} /> : <MemberPicker label={t('unmatched.findMember')} onPick={setMember} />}
          <div className="row">
            <button type="button" className="btn btn-primary" disabled={!member} onClick={() => setConfirming(true)}>
              {t('unmatched.assign')}
            </button>
            <button type="button" className="btn" onClick={() => { setAssigning(null); setMember(null); }}>
              {t('common.cancel')}
            </button>
          </div>
        </Card>
      ) : null}
      {assigning && member && confirming ? (
        <ConfirmDialog
          title={t('money.assignTitle')}
          member={named(member)}
          amount={{ value: assigning.amount, currency: assigning.currency }}
          effect={t('money.assignEffect', { amount: money(assigning.amount, currencyOf(assigning.currency)), from: from(assigning) })}
          confirmLabel={t('unmatched.assign')}
          busy={assign.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => assign.mutate({ deposit: assigning, to: member })}
        />
      ) : null}
      <ManualCredit />
    </Page>
  );
}

/** A credit by hand: the member picked, the amount typed in their currency's major units, confirmed with its reason. */
function ManualCredit() {
  const { t } = useTranslation();
  const [member, setMember] = useState<MemberRow | null>(null);
  const [amount, setAmount] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  // One key per credit the operator means: kept while they retry, new after a success.
  const [key, setKey] = useState(newIdempotencyKey);
  const currency = currencyOf(member?.currency);
  const value = parseMajor(amount, currency);
  const credit = useMutation({
    mutationFn: async ({ to, major, note }: { to: MemberRow; major: number; note: string }) => {
      const answer = await call('depositManual', { body: { memberId: to.id, amount: major, currency: currencyOf(to.currency), note }, idempotencyKey: key });
      const text = money(major, currencyOf(to.currency));
      return 'approvalId' in answer ? t('money.awaitingCredit', { amount: text }) : t('money.credited', { amount: text, name: to.name || to.username });
    },
    onSuccess: (text) => {
      setDone(text);
      setKey(newIdempotencyKey());
      setAmount('');
      setConfirming(false);
    },
    onError: () => setConfirming(false),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value !== null && value > 0) {
      setDone(null);
      credit.reset();
      setConfirming(true);
    }
  };
  return (
    <Card title={t('unmatched.manualTitle')}>
      <p className="muted">{t('unmatched.manualHint')}</p>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={credit.error} />
      {member ? (
        <form className="form inline" onSubmit={submit}>
          <Picked member={member} onChange={() => setMember(null)} />
          <MoneyInput label={t('common.amount')} currency={currency} value={amount} onChange={setAmount} required min={0.01} />
          <button className="btn btn-primary" type="submit" disabled={value === null || value <= 0}>
            {t('unmatched.credit')}
          </button>
        </form>
      ) : (
        <MemberPicker label={t('unmatched.findMember')} onPick={setMember} />
      )}
      {member && confirming && value !== null ? (
        <ConfirmDialog
          title={t('money.manualTitle')}
          member={named(member)}
          amount={{ value, currency }}
          effect={t('money.manualEffect', { amount: money(value, currency) })}
          reason="required"
          confirmLabel={t('unmatched.credit')}
          busy={credit.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={(note) => credit.mutate({ to: member, major: value, note })}
        />
      ) : null}
    </Card>
  );
}
