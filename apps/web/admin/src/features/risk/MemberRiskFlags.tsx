import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../shared/client';
import { dateTime } from '../../shared/format';
import { ErrorText } from '../../shared/ui';
import { KIND_KEYS } from './riskText';

/** A member's flags on their page (newest first), each linking to the queue filtered to the member. */
export function MemberRiskFlags({ memberId }: { memberId: string }) {
  const { t } = useTranslation();
  const flags = useQuery({ queryKey: ['risk-flags', 'member', memberId], queryFn: () => call('riskFlagsList', { query: { memberId, status: 'all', limit: 50 } }) });
  return (
    <div data-testid="member-risk-flags">
      <ErrorText error={flags.error} />
      <ul className="list">
        {flags.data?.flags.length === 0 ? <li>{t('common.none')}</li> : null}
        {flags.data?.flags.map((f) => (
          <li key={f.id}>
            <span className={`badge badge-${f.status === 'open' ? 'pending' : 'success'}`}>{t(`risk.statuses.${f.status}`)}</span>{' '}
            {t(`risk.kinds.${KIND_KEYS[f.kind]}`)} <span className="muted">{dateTime(f.createdAt)}</span>
            {f.note ? ` · ${f.note}` : ''}
          </li>
        ))}
      </ul>
      <Link to={`/risk?status=all&memberId=${encodeURIComponent(memberId)}`}>{t('risk.queue')}</Link>
    </div>
  );
}

/** The members with an open flag (for the withdrawals queue's rows): one call, refreshed with the queue. */
export function useOpenFlagMembers(enabled: boolean): ReadonlySet<string> {
  const open = useQuery({ queryKey: ['risk-flags', 'open-members'], queryFn: () => call('riskFlagsList', { query: { status: 'open', limit: 200 } }), enabled, refetchInterval: 30_000 });
  return new Set(open.data?.flags.flatMap((f) => f.memberIds) ?? []);
}
