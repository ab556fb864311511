import { useTranslation } from 'react-i18next';
import { Link } from '../../shared/router';
import { useWallet } from '../../shared/api/wallet';
import { formatDateTime } from '../../shared/format/date';
import { Money } from '../../shared/ui/Money';
import './responsible.css';

/**
 * The member's home during a time-out or self-exclusion: the balance, the statement, withdrawing
 * the money and the end date — no games, deposits, bonuses or banners.
 */
export function RestrictedView({ kind, until, onWithdraw }: { kind: 'exclusion' | 'timeOut'; until: string; onWithdraw: () => void }) {
  const { t } = useTranslation();
  const wallet = useWallet();
  return (
    <section className="page restricted-view" data-testid="restricted-view">
      <div className="card restricted-view">
        <h1 className="page-title">{t(kind === 'exclusion' ? 'responsible.restrictedExcluded' : 'responsible.restrictedTimeOut')}</h1>
        <p data-testid="restricted-until">
          <strong>{t('responsible.restrictedUntil', { until: formatDateTime(until) })}</strong>
        </p>
        <p className="muted">{t('responsible.restrictedHint')}</p>
      </div>
      <div className="card restricted-view">
        <span className="muted">{t('responsible.balance')}</span>
        <span className="restricted-balance" data-testid="restricted-balance">
          {wallet.data ? <Money amount={wallet.data.wallet.amount} /> : '…'}
        </span>
        <button type="button" className="btn btn-primary btn-block" onClick={onWithdraw} data-testid="restricted-withdraw">
          {t('responsible.withdraw')}
        </button>
        <Link to="/user/statement" className="btn btn-secondary btn-block" data-testid="restricted-statement">
          {t('responsible.statement')}
        </Link>
        <Link to="/user/responsible" className="btn btn-ghost btn-block">
          {t('responsible.link')}
        </Link>
      </div>
    </section>
  );
}
