import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../shared/client';
import { dateTime } from '../../shared/format';
import { ErrorText } from '../../shared/ui';
import { actionKey, fieldChanges } from './auditText';

/** The audit entries that touch one member (the member page; owner), newest first, with a link to all of them. */
export function MemberAudit({ memberId }: { memberId: string }) {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ['member', memberId, 'audit'], queryFn: () => call('operatorAudit', { query: { member: memberId, page: 1, limit: 10 } }) });
  const rows = list.data?.rows ?? [];
  return (
    <>
      <ErrorText error={list.error} />
      {list.data && rows.length === 0 ? <p>{t('common.none')}</p> : null}
      <ul className="list">
        {rows.map((r) => (
          <li key={r.id} data-testid="member-audit-entry">
            <span className="muted">{dateTime(r.at)}</span> {t('audit.sentence', { who: r.operator, what: t(`audit.actions.${actionKey(r.action)}`), target: '' })}
            {fieldChanges(r).map((c) => (
              <span key={c.field} className="muted"> · {c.field ? `${c.field}: ` : ''}{c.before} → {c.after}</span>
            ))}
          </li>
        ))}
      </ul>
      <Link to={`/audit?member=${encodeURIComponent(memberId)}`}>{t('audit.title')}</Link>
    </>
  );
}
