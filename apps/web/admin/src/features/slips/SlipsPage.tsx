import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { slipReasonCodes, type SlipReasonCode } from '@mw/contract/errors';
import { useOperator } from '../../app/useOperator';
import { ClaimBadge } from '../../shared/ClaimBadge';
import { call, type CallAnswer } from '../../shared/client';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { age, dateTime, money } from '../../shared/format';
import { currencyOf, Money, MoneyInput, parseMajor } from '../../shared/money';
import { useMutation } from '../../shared/mutation';
import { can } from '../../shared/roles';
import { Card, ErrorText, Notice, Page, StatusBadge } from '../../shared/ui';

type Slip = CallAnswer<'slipsList'>['slips'][number];
type Status = 'PENDING' | 'SUCCESS' | 'FAILED';

/** A slip's amount: the figure once the bank told it, else "not known yet" (never ฿0.00). */
function SlipAmount({ slip }: { slip: Slip }) {
  const { t } = useTranslation();
  return slip.amount === null ? <span className="muted">{t('money.unknown')}</span> : <Money amount={slip.amount} currency={slip.currency} />;
}

/** Which slips the list shows: in progress, credited or refused. */
function StatusFilter({ status, onChange }: { status: Status; onChange: (status: Status) => void }) {
  const { t } = useTranslation();
  return (
    <form className="filters" onSubmit={(e) => e.preventDefault()}>
      <label className="field">
        <span>{t('common.status')}</span>
        <select value={status} onChange={(e) => onChange(e.target.value as Status)}>
          <option value="PENDING">{t('common.statuses.PENDING')}</option>
          <option value="SUCCESS">{t('common.statuses.SUCCESS')}</option>
          <option value="FAILED">{t('common.statuses.FAILED')}</option>
        </select>
      </label>
    </form>
  );
}

interface ReasonProps {
  id: string;
  reason: SlipReasonCode;
  onChange: (reason: SlipReasonCode) => void;
  reasonText: (code: string | null) => string;
}

/** Why a slip is refused, picked from the contract's reasons. */
function RejectReasonField({ id, reason, onChange, reasonText }: ReasonProps) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor={id}>{t('slips.reason')}</label>
      <select id={id} value={reason} onChange={(e) => onChange(e.target.value as SlipReasonCode)}>
        {slipReasonCodes.map((code) => (
          <option key={code} value={code}>
            {reasonText(code)}
          </option>
        ))}
      </select>
    </div>
  );
}

interface SlipListProps {
  slips: Slip[] | undefined;
  selectedId: string | null;
  page: number;
  onSelect: (id: string) => void;
  onPage: (page: number) => void;
}

/** The slips of the page, newest first, each a button that opens it; the pager below. */
function SlipList({ slips, selectedId, page, onSelect, onPage }: SlipListProps) {
  const { t } = useTranslation();
  return (
    <ul className="list master" aria-label={t('slips.title')}>
      {slips?.length === 0 ? <li>{t('common.none')}</li> : null}
      {slips?.map((s) => (
        <li key={s.id}>
          <button type="button" className={`item${selectedId === s.id ? ' selected' : ''}`} aria-pressed={selectedId === s.id} onClick={() => onSelect(s.id)}>
            <strong>{s.name || s.username}</strong> <SlipAmount slip={s} /> <StatusBadge status={s.status} />
            <span className="muted">{age(s.createdAt)}</span>
          </button>
          <ClaimBadge kind="slip" id={s.id} />
        </li>
      ))}
      <li className="row">
        <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('common.prev')}
        </button>
        <button type="button" className="btn" disabled={(slips?.length ?? 0) < 50} onClick={() => onPage(page + 1)}>
          {t('common.next')}
        </button>
      </li>
    </ul>
  );
}

/** The open slip: the member and amount, the image beside the bank's answer. */
function SlipSummary({ slip, reasonText }: { slip: Slip; reasonText: (code: string | null) => string }) {
  const { t } = useTranslation();
  return (
    <>
    <h2>
      <Link to={`/members/${encodeURIComponent(slip.memberId)}`}>
        {slip.name || '—'} · {slip.username}
      </Link>{' '}
      · <SlipAmount slip={slip} />
    </h2>
    <div className="slip">
      <img src={slip.link} alt={t('slips.image', { member: slip.username })} loading="lazy" />
      <dl className="facts">
        <dt>{t('slips.reference')}</dt>
        <dd className="mono">{slip.reference}</dd>
        <dt>{t('common.time')}</dt>
        <dd>{dateTime(slip.createdAt)}</dd>
        <dt>{t('slips.transfer')}</dt>
        <dd className="mono">{slip.transferKey ?? '—'}</dd>
        <dt>{t('slips.bankAnswer')}</dt>
        <dd>{slip.note ? reasonText(slip.note) : slip.status === 'PENDING' ? t('slips.bankUnknown') : '—'}</dd>
        <dt>{t('common.status')}</dt>
        <dd>
          <StatusBadge status={slip.status} />
        </dd>
      </dl>
    </div>
    </>
  );
}

/**
 * Slips: the image beside what the bank said; a slip in progress credited or refused through a
 * confirmation naming the member and the amount (the bank's, or the one typed when the bank does
 * not know the transfer); afterwards what the server did, in words.
 */
export function SlipsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: operator } = useOperator();
  const decide = can(operator?.role, 'slips.decide');
  const reasonId = useId();
  const [status, setStatus] = useState<Status>('PENDING');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [bankRef, setBankRef] = useState('');
  const [reason, setReason] = useState<SlipReasonCode>('INVALID_SLIP');
  const [asking, setAsking] = useState<'approve' | 'reject' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const list = useQuery({ queryKey: ['slips', status, page], queryFn: () => call('slipsList', { query: { status, page } }), refetchInterval: 10_000 });
  const slip = list.data?.slips.find((s) => s.id === selected) ?? list.data?.slips[0] ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['slips'] });
  const reasonText = (code: string | null) => (code && (slipReasonCodes as readonly string[]).includes(code) ? t(`money.slipReasons.${code as SlipReasonCode}`) : (code ?? ''));
  const typed = slip ? parseMajor(amount, currencyOf(slip.currency)) : null;
  const approve = useMutation({
    // The bank does not know the slip's reference: the amount and the bank's own reference, as its statement shows them.
    mutationFn: (s: Slip) => call('slipApprove', { params: { id: s.id }, body: typed !== null ? { amount: typed, bankRef: bankRef.trim() } : {} }),
    onSuccess: (answer, s) => {
      // A typed amount above the manual threshold waits for a second person: nothing is credited yet.
      if ('approvalId' in answer) setDone(t('money.awaitingCredit', { amount: money(typed ?? 0, currencyOf(s.currency)) }));
      else {
        const credited = typeof answer.amount === 'number' ? answer.amount : (typed ?? s.amount ?? 0);
        setDone(answer.status === 'SUCCESS' ? t('money.credited', { amount: money(credited, currencyOf(s.currency)), name: s.name || s.username }) : t('slips.rejected'));
      }
      setAmount('');
      setBankRef('');
      setAsking(null);
      void refresh();
    },
    onError: () => setAsking(null),
  });
  const reject = useMutation({
    mutationFn: (s: Slip) => call('slipReject', { params: { id: s.id }, body: { reason } }),
    onSuccess: () => {
      setDone(t('slips.rejected'));
      setAsking(null);
      void refresh();
    },
    onError: () => setAsking(null),
  });
  const open = (kind: 'approve' | 'reject') => {
    setDone(null);
    approve.reset();
    reject.reset();
    setAsking(kind);
  };
  return (
    <Page title={t('slips.title')}>
      <StatusFilter
        status={status}
        onChange={(next) => {
          setStatus(next);
          setPage(1);
          setSelected(null);
        }}
      />
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={list.error ?? approve.error ?? reject.error} />
      <div className="split">
        <SlipList
          slips={list.data?.slips}
          selectedId={slip?.id ?? null}
          page={page}
          onSelect={(id) => {
            setSelected(id);
            setAmount('');
          }}
          onPage={setPage}
        />
        {slip ? (
          <Card className="detail">
            <SlipSummary slip={slip} reasonText={reasonText} />
            {decide && slip.status === 'PENDING' ? (
              <div className="actions">
                {slip.amount === null ? <MoneyInput label={t('slips.amountOverride')} currency={currencyOf(slip.currency)} value={amount} onChange={setAmount} /> : null}
                {slip.amount === null ? (
                  <label className="field">
                    <span>{t('slips.bankRef')}</span>
                    <input className="input mono" value={bankRef} maxLength={40} onChange={(e) => setBankRef(e.target.value.replace(/[^A-Za-z0-9-]/g, ''))} aria-describedby={`${reasonId}-ref`} />
                    <small id={`${reasonId}-ref`} className="muted">{t('slips.bankRefHint')}</small>
                  </label>
                ) : null}
                <button type="button" className="btn btn-primary" onClick={() => open('approve')} disabled={slip.amount === null && (typed === null || typed <= 0 || bankRef.trim().length < 4)}>
                  {t('slips.approve')}
                </button>
                <button type="button" className="btn btn-danger" onClick={() => open('reject')}>
                  {t('slips.reject')}
                </button>
              </div>
            ) : null}
          </Card>
        ) : null}
      </div>
      {slip && asking ? (
        <ConfirmDialog
          claim={{ kind: 'slip', id: slip.id }}
          title={asking === 'approve' ? t('money.slipTitle') : t('money.slipRejectTitle')}
          member={{ name: slip.name, phone: slip.username, bank: slip.bankCode, account: slip.bankAccountNo }}
          amount={slip.amount !== null ? { value: slip.amount, currency: slip.currency } : typed !== null ? { value: typed, currency: slip.currency } : null}
          effect={asking === 'approve' ? t('money.slipEffect') : t('money.slipRejectEffect')}
          confirmLabel={asking === 'approve' ? t('slips.approve') : t('slips.reject')}
          danger={asking === 'reject'}
          busy={approve.isPending || reject.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() => (asking === 'approve' ? approve.mutate(slip) : reject.mutate(slip))}
        >
          {asking === 'reject' ? (
            <RejectReasonField id={reasonId} reason={reason} onChange={setReason} reasonText={reasonText} />
          ) : null}
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
