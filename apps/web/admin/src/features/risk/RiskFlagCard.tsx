import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call, type CallAnswer } from '../../shared/client';
import { dateTime } from '../../shared/format';
import { useMutation } from '../../shared/mutation';
import { ErrorText, StatusBadge } from '../../shared/ui';
import { evidenceLines, KIND_KEYS } from './riskText';

export type RiskFlag = CallAnswer<'riskFlagsList'>['flags'][number];

/**
 * One flag: the signal, when, its evidence, the linked members side by side (each with their
 * bank account and status, a link to their page), and — open, for who may decide — a note and
 * Resolve / Dismiss (the note is required: the buttons wait for it).
 */
export function RiskFlagCard({ flag, canDecide, onDecided }: { flag: RiskFlag; canDecide: boolean; onDecided: (text: string) => void }) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const decide = useMutation({
    mutationFn: ({ action }: { action: 'resolve' | 'dismiss' }) =>
      call(action === 'resolve' ? 'riskFlagResolve' : 'riskFlagDismiss', { params: { id: flag.id }, body: { note: note.trim() } }),
    onSuccess: (_flag, { action }) => {
      setNote('');
      onDecided(action === 'resolve' ? t('risk.resolvedDone') : t('risk.dismissedDone'));
    },
  });
  const submit = (action: 'resolve' | 'dismiss') => (event?: FormEvent) => {
    event?.preventDefault();
    if (note.trim()) decide.mutate({ action });
  };
  return (
    <article className="card risk-flag" data-testid="risk-flag" data-kind={flag.kind} data-status={flag.status} aria-labelledby={`flag-${flag.id}`}>
      <header className="row">
        <h2 id={`flag-${flag.id}`}>{t(`risk.kinds.${KIND_KEYS[flag.kind]}`)}</h2>
        <span className={`badge badge-${flag.status === 'open' ? 'pending' : 'success'}`}>{t(`risk.statuses.${flag.status}`)}</span>
        <span className="muted">{t('risk.raised', { at: dateTime(flag.createdAt) })}</span>
      </header>
      <h3>{t('risk.members')}</h3>
      <ul className="grid risk-members">
        {flag.members.map((m) => (
          <li key={m.id} className="card">
            <Link to={`/members/${encodeURIComponent(m.id)}`}>{m.name} · {m.username}</Link>
            <dl className="facts">
              <dt>{t('members.bank')}</dt>
              <dd>{m.bankCode} {m.bankAccountNo} · {m.bankAccountName}</dd>
              <dt>{t('common.status')}</dt>
              <dd><StatusBadge status={m.status} /></dd>
              <dt>{t('members.joined')}</dt>
              <dd>{dateTime(m.createdAt)}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <h3>{t('risk.evidence')}</h3>
      <dl className="facts">
        {evidenceLines(flag.evidence).map(([key, value]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd className="mono">{value}</dd>
          </div>
        ))}
      </dl>
      {flag.status !== 'open' ? (
        <p>
          {t('risk.decided', { status: t(`risk.statuses.${flag.status}`), who: flag.decidedBy ?? '—', at: flag.decidedAt ? dateTime(flag.decidedAt) : '—' })}: {flag.note}
        </p>
      ) : canDecide ? (
        <form className="form" onSubmit={submit('resolve')}>
          <label className="field">
            <span>{t('risk.note')}</span>
            <textarea required maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
          </label>
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={decide.isPending || !note.trim()}>{t('risk.resolve')}</button>
            <button type="button" className="btn" disabled={decide.isPending || !note.trim()} onClick={() => submit('dismiss')()}>{t('risk.dismiss')}</button>
          </div>
          <ErrorText error={decide.error} />
        </form>
      ) : null}
    </article>
  );
}
