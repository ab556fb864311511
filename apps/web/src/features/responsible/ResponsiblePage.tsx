import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMIT_PERIODS, REALITY_CHECK_MINUTES, SELF_EXCLUSION_MONTHS, TIME_OUT_DAYS, type LimitPeriod, type ResponsibleState } from '@mw/contract/responsible';
import { errorMessage } from '../../shared/api/errorMessage';
import { formatDateTime } from '../../shared/format/date';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { TextField } from '../../shared/ui/fields';
import { Modal } from '../../shared/ui/Modal';
import { PageSpinner, Spinner } from '../../shared/ui/Spinner';
import { toast } from '../../shared/ui/toast';
import { useLogout } from '../auth/logout/useLogout';
import { LimitBar } from './LimitBar';
import { activeBreak, useCancelPending, useResponsible, useSetLimits, useSetRealityCheck, useTakeBreak } from './responsibleApi';
import './responsible.css';

type BreakChoice = { kind: 'timeOut'; days: (typeof TIME_OUT_DAYS)[number] } | { kind: 'exclusion'; months: (typeof SELF_EXCLUSION_MONTHS)[number] };

const lengthKey = (choice: BreakChoice) => (choice.kind === 'timeOut' ? (`responsible.days${choice.days}` as const) : (`responsible.months${choice.months}` as const));

/** /user/responsible: deposit limits (used and left), pending raises, the reality check, a time-out or self-exclusion. */
export function ResponsiblePage() {
  const { t } = useTranslation();
  const state = useResponsible();
  if (state.isPending) return <PageSpinner />;
  if (state.isError) {
    return (
      <section className="page" data-testid="responsible-page">
        <div className="card form">
          <p className="muted">{errorMessage(state.error)}</p>
          <button type="button" className="btn btn-secondary" onClick={() => void state.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      </section>
    );
  }
  return <ResponsibleContent state={state.data} />;
}

function ResponsibleContent({ state }: { state: ResponsibleState }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const onBreak = activeBreak(state);
  return (
    <section className="page responsible-page" data-testid="responsible-page">
      <h1 className="page-title">{t('responsible.title')}</h1>
      <p className="muted responsible-intro">{t('responsible.intro')}</p>
      {onBreak && (
        <div className="card responsible-break-note" data-testid="responsible-break">
          <strong>{t(onBreak.kind === 'exclusion' ? 'responsible.restrictedExcluded' : 'responsible.restrictedTimeOut')}</strong>
          <span>{t('responsible.restrictedUntil', { until: formatDateTime(onBreak.until) })}</span>
        </div>
      )}
      <LimitsCard state={state} />
      {state.held.length > 0 && (
        <section className="card" aria-labelledby="responsible-held" data-testid="responsible-held">
          <h2 id="responsible-held" className="section-title">
            {t('responsible.heldTitle')}
          </h2>
          <p className="muted">{t('responsible.heldHint')}</p>
          <ul className="responsible-list">
            {state.held.map((h) => (
              <li key={h.id} data-testid="responsible-held-row">
                <span>
                  {formatMoney(h.amount, locale)} · {h.from}
                </span>
                <span className="muted">
                  {t(`responsible.reason${h.reason}`, { defaultValue: h.reason })} · {t(`responsible.status${h.status}`)} · {formatDateTime(h.receivedAt)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <RealityCheckCard minutes={state.realityCheckMinutes} />
      {!onBreak && <BreakCard />}
    </section>
  );
}

function LimitsCard({ state }: { state: ResponsibleState }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const setLimits = useSetLimits();
  const cancel = useCancelPending();
  const initial = (period: LimitPeriod) => (state.limits[period] === null ? '' : String(state.limits[period]));
  const [draft, setDraft] = useState<Record<LimitPeriod, string>>({ day: initial('day'), week: initial('week'), month: initial('month') });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: Partial<Record<LimitPeriod, string | null>> = {};
    for (const period of LIMIT_PERIODS) {
      const value = draft[period].trim();
      const current = state.limits[period] === null ? '' : String(state.limits[period]);
      if (value !== current) body[period] = value === '' ? null : value;
    }
    setLimits.mutate(body, {
      onSuccess: (next) => {
        toast.success(t('responsible.saved'));
        setDraft({ day: next.limits.day === null ? '' : String(next.limits.day), week: next.limits.week === null ? '' : String(next.limits.week), month: next.limits.month === null ? '' : String(next.limits.month) });
      },
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  return (
    <section className="card" aria-labelledby="responsible-limits">
      <h2 id="responsible-limits" className="section-title">
        {t('responsible.limitsTitle')}
      </h2>
      <p className="muted">{t('responsible.limitsHint')}</p>
      <div className="responsible-bars">
        {LIMIT_PERIODS.map((period) => (
          <LimitBar key={period} period={period} limit={state.limits[period]} used={state.used[period]} left={state.left[period]} />
        ))}
      </div>
      {state.pending.length > 0 && (
        <div className="responsible-pending" data-testid="responsible-pending">
          <h3 className="responsible-subtitle">{t('responsible.pendingTitle')}</h3>
          <ul className="responsible-list">
            {state.pending.map((p) => (
              <li key={p.period} data-testid={`pending-${p.period}`}>
                <span>
                  {p.amount === null
                    ? t('responsible.pendingRemove', { period: t(`responsible.${p.period}`), at: formatDateTime(p.effectiveAt) })
                    : t('responsible.pendingRaise', { period: t(`responsible.${p.period}`), amount: formatMoney(p.amount, locale), at: formatDateTime(p.effectiveAt) })}
                </span>
                <button type="button" className="btn btn-ghost" disabled={cancel.isPending} onClick={() => cancel.mutate(p.period, { onError: (error) => toast.error(errorMessage(error)) })} data-testid={`pending-${p.period}-cancel`}>
                  {t('responsible.cancel')}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <form className="form responsible-form" onSubmit={submit} noValidate>
        {LIMIT_PERIODS.map((period) => (
          <TextField
            key={period}
            label={t(`responsible.${period}`)}
            name={`limit-${period}`}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('responsible.noLimit')}
            value={draft[period]}
            onChange={(e) => setDraft((d) => ({ ...d, [period]: e.target.value.replace(/[^0-9.]/g, '') }))}
            data-testid={`limit-input-${period}`}
          />
        ))}
        <button type="submit" className="btn btn-primary btn-block" disabled={setLimits.isPending} data-testid="limits-save">
          {setLimits.isPending && <Spinner />}
          {t('responsible.save')}
        </button>
      </form>
    </section>
  );
}

function RealityCheckCard({ minutes }: { minutes: number }) {
  const { t } = useTranslation();
  const setInterval = useSetRealityCheck();
  return (
    <section className="card" aria-labelledby="responsible-reality">
      <h2 id="responsible-reality" className="section-title">
        {t('responsible.realityTitle')}
      </h2>
      <p className="muted">{t('responsible.realityHint')}</p>
      <div className="responsible-chips" role="radiogroup" aria-labelledby="responsible-reality">
        {REALITY_CHECK_MINUTES.map((m) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={minutes === m}
            className={`chip${minutes === m ? ' is-selected' : ''}`}
            disabled={setInterval.isPending}
            onClick={() => setInterval.mutate(m, { onError: (error) => toast.error(errorMessage(error)) })}
            data-testid={`reality-${m}`}
          >
            {m === 0 ? t('responsible.realityOff') : t('responsible.realityEvery', { minutes: m })}
          </button>
        ))}
      </div>
    </section>
  );
}

function BreakCard() {
  const { t } = useTranslation();
  const [timeOut, setTimeOut] = useState<BreakChoice & { kind: 'timeOut' }>({ kind: 'timeOut', days: 1 });
  const [exclusion, setExclusion] = useState<BreakChoice & { kind: 'exclusion' }>({ kind: 'exclusion', months: 6 });
  const [confirming, setConfirming] = useState<BreakChoice | null>(null);
  return (
    <section className="card" aria-labelledby="responsible-break-title">
      <h2 id="responsible-break-title" className="section-title">
        {t('responsible.breakTitle')}
      </h2>
      <h3 className="responsible-subtitle">{t('responsible.timeOutTitle')}</h3>
      <p className="muted">{t('responsible.timeOutHint')}</p>
      <div className="responsible-chips" role="radiogroup" aria-label={t('responsible.timeOutTitle')}>
        {TIME_OUT_DAYS.map((days) => (
          <button key={days} type="button" role="radio" aria-checked={timeOut.days === days} className={`chip${timeOut.days === days ? ' is-selected' : ''}`} onClick={() => setTimeOut({ kind: 'timeOut', days })} data-testid={`timeout-${days}`}>
            {t(`responsible.days${days}`)}
          </button>
        ))}
      </div>
      <button type="button" className="btn btn-secondary btn-block" onClick={() => setConfirming(timeOut)} data-testid="timeout-start">
        {t('responsible.takeTimeOut')}
      </button>
      <h3 className="responsible-subtitle">{t('responsible.exclusionTitle')}</h3>
      <p className="muted">{t('responsible.exclusionHint')}</p>
      <div className="responsible-chips" role="radiogroup" aria-label={t('responsible.exclusionTitle')}>
        {SELF_EXCLUSION_MONTHS.map((months) => (
          <button key={months} type="button" role="radio" aria-checked={exclusion.months === months} className={`chip${exclusion.months === months ? ' is-selected' : ''}`} onClick={() => setExclusion({ kind: 'exclusion', months })} data-testid={`exclusion-${months}`}>
            {t(`responsible.months${months}`)}
          </button>
        ))}
      </div>
      <button type="button" className="btn btn-secondary btn-block" onClick={() => setConfirming(exclusion)} data-testid="exclusion-start">
        {t('responsible.excludeMe')}
      </button>
      {confirming && <ConfirmBreak choice={confirming} onClose={() => setConfirming(null)} />}
    </section>
  );
}

function ConfirmBreak({ choice, onClose }: { choice: BreakChoice; onClose: () => void }) {
  const { t } = useTranslation();
  const take = useTakeBreak();
  const { logout } = useLogout();
  const start = () =>
    take.mutate(choice, {
      // Every session has ended on the server: this one leaves too.
      onSuccess: () => void logout(),
      onError: (error) => toast.error(errorMessage(error)),
    });
  return (
    <Modal
      open
      title={t('responsible.confirmTitle')}
      onClose={onClose}
      testId="break-confirm"
      focusField={false}
      footer={
        <div className="btn-row">
          <button type="button" className="btn btn-secondary" onClick={onClose} data-testid="break-keep">
            {t('responsible.keep')}
          </button>
          <button type="button" className="btn btn-primary" disabled={take.isPending} onClick={start} data-testid="break-confirm-start">
            {take.isPending && <Spinner />}
            {t('responsible.confirm')}
          </button>
        </div>
      }
    >
      <p>
        <strong>{t(choice.kind === 'timeOut' ? 'responsible.timeOutTitle' : 'responsible.exclusionTitle')}</strong> · {t('responsible.confirmLength', { length: t(lengthKey(choice)) })}
      </p>
      <ul className="responsible-consequences">
        <li>{t('responsible.c1')}</li>
        <li>{t('responsible.c2')}</li>
        <li>{t('responsible.c3')}</li>
        <li>{t('responsible.c4')}</li>
      </ul>
    </Modal>
  );
}
