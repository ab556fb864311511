import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ResponsibleState } from '@mw/contract/responsible';
import { call } from '../../shared/client';
import { dateTime, money } from '../../shared/format';
import { ErrorText } from '../../shared/ui';

const PERIODS = ['day', 'week', 'month'] as const;

/**
 * A member's responsible-play state as support and finance need it: deposit limits with what was
 * used and what is left (in the member's currency), raises waiting their 24 h, a running time-out
 * or self-exclusion (nobody can lift one), deposits held by them. Read only: limits are the
 * player's own to set.
 */
export function MemberResponsible({ memberId }: { memberId: string }) {
  const { t } = useTranslation();
  const state = useQuery({ queryKey: ['member', memberId, 'responsible'], queryFn: (): Promise<ResponsibleState> => call('memberResponsible', { params: { id: memberId } }) });
  if (state.error) return <ErrorText error={state.error} />;
  const s = state.data;
  if (!s) return <p aria-busy="true">{t('common.loading')}</p>;
  const amount = (value: number | null) => (value === null ? t('responsible.none') : money(value, s.currency));
  const held = s.held.filter((h) => h.status === 'HELD');
  return (
    <div data-testid="member-responsible">
      {s.selfExcludedUntil ? <p className="badge badge-failed">{t('responsible.selfExcludedUntil', { until: dateTime(s.selfExcludedUntil) })}</p> : null}
      {s.timeOutUntil ? <p className="badge badge-pending">{t('responsible.timeOutUntil', { until: dateTime(s.timeOutUntil) })}</p> : null}
      {!s.selfExcludedUntil && !s.timeOutUntil ? <p>{t('responsible.noBreak')}</p> : null}
      <table className="table">
        <caption>{t('responsible.limits')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('responsible.period')}</th>
            <th scope="col" className="num">{t('responsible.limit')}</th>
            <th scope="col" className="num">{t('responsible.used')}</th>
            <th scope="col" className="num">{t('responsible.left')}</th>
          </tr>
        </thead>
        <tbody>
          {PERIODS.map((period) => (
            <tr key={period}>
              <th scope="row">{t(`responsible.periods.${period}`)}</th>
              <td className="num">{amount(s.limits[period])}</td>
              <td className="num">{money(s.used[period], s.currency)}</td>
              <td className="num">{amount(s.left[period])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {s.pending.length > 0 ? (
        <ul className="list">
          {s.pending.map((p) => (
            <li key={p.period}>{t('responsible.pending', { period: t(`responsible.periods.${p.period}`), amount: amount(p.amount), at: dateTime(p.effectiveAt) })}</li>
          ))}
        </ul>
      ) : null}
      <p>{t('responsible.realityCheck', { minutes: s.realityCheckMinutes })}</p>
      <p>{held.length === 0 ? t('responsible.noHeld') : t('responsible.held', { count: held.length, amount: money(held.reduce((n, h) => n + h.amount, 0), s.currency) })}</p>
    </div>
  );
}
