import { useTranslation } from 'react-i18next';
import { useOperator } from '../app/useOperator';
import { useClaim } from './live';

/** "somchai is working on this": another operator holds the item (their confirmation is open). */
export function ClaimBadge({ kind, id }: { kind: string; id: string }) {
  const { t } = useTranslation();
  const { data: operator } = useOperator();
  const claim = useClaim(kind, id, operator?.username);
  if (!claim) return null;
  return (
    <span className="claim-badge" role="status" data-testid={`claim-${kind}-${id}`}>
      {t('app.taken', { operator: claim.operator })}
    </span>
  );
}
