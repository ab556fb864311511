import { useTranslation } from 'react-i18next';
import type { LimitPeriod } from '@mw/contract/responsible';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';

/** One period's limit: used and left as a bar (no bar without a limit). */
export function LimitBar({ period, limit, used, left }: { period: LimitPeriod; limit: number | null; used: number; left: number | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const share = limit === null || limit === 0 ? (limit === 0 ? 1 : 0) : Math.min(1, used / limit);
  return (
    <div className="limit-bar" data-testid={`limit-${period}`}>
      <div className="limit-bar-head">
        <span>{t(`responsible.${period}`)}</span>
        <strong data-testid={`limit-${period}-value`}>{limit === null ? t('responsible.noLimit') : formatMoney(limit, locale)}</strong>
      </div>
      {limit !== null && (
        <>
          <div className="limit-bar-track" role="progressbar" aria-valuemin={0} aria-valuemax={limit} aria-valuenow={Math.min(used, limit)} aria-label={t(`responsible.${period}`)}>
            <div className={`limit-bar-fill${share >= 1 ? ' is-full' : ''}`} style={{ width: `${Math.round(share * 100)}%` }} />
          </div>
          <div className="limit-bar-foot muted">
            <span>{t('responsible.used', { used: formatMoney(used, locale), limit: formatMoney(limit, locale) })}</span>
            <span data-testid={`limit-${period}-left`}>{t('responsible.left', { left: formatMoney(left ?? 0, locale) })}</span>
          </div>
        </>
      )}
    </div>
  );
}
