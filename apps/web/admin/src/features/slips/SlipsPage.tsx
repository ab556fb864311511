import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { slipReasonCodes } from '@mw/contract/errors';
import { useOperator } from '../../app/useOperator';
import { api } from '../../shared/api';
import { age, dateTime, money } from '../../shared/format';
import { can } from '../../shared/roles';
import { Card, ErrorText, Notice, Page, StatusBadge } from '../../shared/ui';
import { useMutation } from '../../shared/mutation';

interface Slip {
  id: string;
  memberId: string;
  username: string;
  reference: string;
  amount: number;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  note: string | null;
  transferKey: string | null;
  createdAt: string;
  checkedAt: string | null;
  link: string;
}

type Status = 'PENDING' | 'SUCCESS' | 'FAILED';

/** Slips: the image beside what the bank said; slips in progress approved (credited) or refused with a reason. */
export function SlipsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: operator } = useOperator();
  const decide = can(operator?.role, 'slips.decide');
  const [status, setStatus] = useState<Status>('PENDING');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<string>('INVALID_SLIP');
  const [done, setDone] = useState<string | null>(null);
  const list = useQuery({ queryKey: ['slips', status, page], queryFn: () => api<{ slips: Slip[] }>('GET', '/api/operator/slips', { query: { status, page } }), refetchInterval: 10_000 });
  const slip = list.data?.slips.find((s) => s.id === selected) ?? list.data?.slips[0] ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['slips'] });
  const approve = useMutation({
    mutationFn: (s: Slip) => api('POST', `/api/operator/slips/${encodeURIComponent(s.id)}/approve`, { body: amount.trim() ? { amount: Number(amount) } : {} }),
    onSuccess: () => {
      setDone(t('slips.approved'));
      setAmount('');
      void refresh();
    },
  });
  const reject = useMutation({
    mutationFn: (s: Slip) => api('POST', `/api/operator/slips/${encodeURIComponent(s.id)}/reject`, { body: { reason } }),
    onSuccess: () => {
      setDone(t('slips.rejected'));
      void refresh();
    },
  });
  return (
    <Page title={t('slips.title')}>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span>{t('common.status')}</span>
          <select value={status} onChange={(e) => { setStatus(e.target.value as Status); setPage(1); setSelected(null); }}>
            <option value="PENDING">{t('common.statuses.PENDING')}</option>
            <option value="SUCCESS">{t('common.statuses.SUCCESS')}</option>
            <option value="FAILED">{t('common.statuses.FAILED')}</option>
          </select>
        </label>
      </form>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorText error={list.error ?? approve.error ?? reject.error} />
      <div className="split">
        <ul className="list master" aria-label={t('slips.title')}>
          {list.data?.slips.length === 0 ? <li>{t('common.none')}</li> : null}
          {list.data?.slips.map((s) => (
            <li key={s.id}>
              <button type="button" className={`item${slip?.id === s.id ? ' selected' : ''}`} aria-pressed={slip?.id === s.id} onClick={() => setSelected(s.id)}>
                <strong>{s.username}</strong> {money(s.amount)} <StatusBadge status={s.status} />
                <span className="muted">{age(s.createdAt)}</span>
              </button>
            </li>
          ))}
          <li className="row">
            <button type="button" className="btn" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('common.prev')}
            </button>
            <button type="button" className="btn" disabled={(list.data?.slips.length ?? 0) < 50} onClick={() => setPage(page + 1)}>
              {t('common.next')}
            </button>
          </li>
        </ul>
        {slip ? (
          <Card className="detail">
            <h2>
              <Link to={`/members/${encodeURIComponent(slip.memberId)}`}>{slip.username}</Link> · {money(slip.amount)}
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
                <dd>{slip.note ?? (slip.status === 'PENDING' ? t('slips.bankUnknown') : '—')}</dd>
                <dt>{t('common.status')}</dt>
                <dd>
                  <StatusBadge status={slip.status} />
                </dd>
              </dl>
            </div>
            {decide && slip.status === 'PENDING' ? (
              <div className="actions">
                <label className="field">
                  <span>{t('slips.amountOverride')}</span>
                  <input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value.replace(/[^\d.]/g, ''))} />
                </label>
                <button type="button" className="btn btn-primary" onClick={() => approve.mutate(slip)} disabled={approve.isPending}>
                  {t('slips.approve')}
                </button>
                <label className="field">
                  <span>{t('slips.reason')}</span>
                  <select value={reason} onChange={(e) => setReason(e.target.value)}>
                    {slipReasonCodes.map((code) => (
                      <option key={code} value={code}>
                        {code}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" className="btn btn-danger" onClick={() => reject.mutate(slip)} disabled={reject.isPending}>
                  {t('slips.reject')}
                </button>
              </div>
            ) : null}
          </Card>
        ) : null}
      </div>
    </Page>
  );
}
