import { useTranslation } from 'react-i18next';
import type { WalletResponse } from '@mw/contract/wallet';
import { formatDateTime } from '../../shared/format/date';
import { Icon } from '../../shared/ui/Icon';
import { Money } from '../../shared/ui/Money';
import { Spinner } from '../../shared/ui/Spinner';
import { gamesBalance, totalBalance } from './walletTotals';

interface WalletHeaderProps {
  wallet: WalletResponse | undefined;
  refreshing: boolean;
  lastSync: string | null;
  receiving: boolean;
  onCheckBalance: () => void;
  onTransfer: () => void;
  onReceiveInvite: () => void;
}

/** Profile name, total balance (wallet plus game accounts), last update, coins and the invite bonus. */
export function WalletHeader({ wallet, refreshing, lastSync, receiving, onCheckBalance, onTransfer, onReceiveInvite }: WalletHeaderProps) {
  const { t } = useTranslation();
  const name = wallet?.profile.name ?? '';
  return (
    <div className="wallet-hero" data-testid="wallet-header">
      <div className="wallet-hero-top">
        <span className="wallet-avatar" aria-hidden="true">
          {name.trim().charAt(0).toUpperCase() || <Icon name="user" size={20} />}
        </span>
        <div className="wallet-hero-who">
          <p className="wallet-hero-welcome">{t('home.welcome')}</p>
          <p className="wallet-hero-name" data-testid="home-profile-name">
            {name || '\u00a0'}
          </p>
        </div>
        <span className="badge badge-gold wallet-coins" title={t('home.coins')}>
          <Icon name="coin" size={16} />
          <span className="visually-hidden">{t('home.coins')}</span>
          <span data-testid="coin-count">{wallet?.profile.coin ?? 0}</span>
        </span>
      </div>

      <div className="wallet-hero-balance">
        <p className="wallet-hero-label">
          <Icon name="wallet" size={18} />
          {t('home.totalBalance')}
        </p>
        {wallet ? (
          <Money amount={totalBalance(wallet)} className="wallet-hero-amount" testId="total-balance" />
        ) : (
          <span className="wallet-hero-amount wallet-hero-amount-loading" aria-label={t('common.loading')}>
            ฿ — . —
          </span>
        )}
        <dl className="wallet-hero-split">
          <div>
            <dt>{t('home.walletBalance')}</dt>
            <dd>{wallet ? <Money amount={wallet.wallet.amount} testId="wallet-balance" /> : '—'}</dd>
          </div>
          <div>
            <dt>{t('home.gamesBalance')}</dt>
            <dd>{wallet ? <Money amount={gamesBalance(wallet)} testId="games-balance" /> : '—'}</dd>
          </div>
        </dl>
      </div>

      <div className="wallet-hero-sync">
        <button
          type="button"
          className="wallet-check"
          onClick={onCheckBalance}
          disabled={refreshing}
          aria-busy={refreshing}
          data-testid="check-balance"
        >
          {refreshing ? <Spinner size={16} /> : <Icon name="refresh" size={16} />}
          {t('home.checkBalance')}
        </button>
        <span className="wallet-sync-time" data-testid="last-sync">
          {lastSync ? t('home.lastUpdate', { time: formatDateTime(lastSync) }) : t('home.neverUpdated')}
        </span>
      </div>

      <div className="wallet-hero-actions">
        <button type="button" className="btn btn-primary wallet-transfer" onClick={onTransfer} disabled={!wallet} data-testid="transfer-button">
          <Icon name="transfer" size={20} />
          {t('home.transfer')}
        </button>
        <div className="wallet-invite" data-testid="invite-bonus">
          <span className="wallet-invite-label">{t('home.inviteBonus')}</span>
          <Money amount={wallet?.invite.amount ?? 0} className="wallet-invite-amount" testId="invite-bonus-amount" />
          <button
            type="button"
            className="btn btn-secondary wallet-invite-receive"
            onClick={onReceiveInvite}
            disabled={!wallet || receiving}
            data-testid="invite-bonus-receive"
          >
            {receiving && <Spinner size={16} />}
            {t('home.receive')}
          </button>
        </div>
      </div>
    </div>
  );
}
