import { useTranslation } from 'react-i18next';
import type { WalletResponse } from '@mw/contract/wallet';
import { formatDateTime } from '../../shared/format/date';
import { Icon } from '../../shared/ui/Icon';
import { MaybeMoney, MoneySkeleton } from '../../shared/ui/Money';
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
  // Until the wallet arrives, every figure is a skeleton and every money button is disabled.
  const loading = t('common.loading');
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
          {wallet ? <span data-testid="coin-count">{wallet.profile.coin}</span> : <MoneySkeleton className="coin-skeleton" testId="coin-count-loading" label={loading} />}
        </span>
      </div>

      <div className="wallet-hero-balance">
        <p className="wallet-hero-label">
          <Icon name="wallet" size={18} />
          {t('home.totalBalance')}
        </p>
        <MaybeMoney amount={wallet ? totalBalance(wallet) : undefined} className="wallet-hero-amount" testId="total-balance" label={loading} />
        <dl className="wallet-hero-split">
          <div>
            <dt>{t('home.walletBalance')}</dt>
            <dd>
              <MaybeMoney amount={wallet?.wallet.amount} testId="wallet-balance" label={loading} />
            </dd>
          </div>
          <div>
            <dt>{t('home.gamesBalance')}</dt>
            <dd>
              <MaybeMoney amount={wallet ? gamesBalance(wallet) : undefined} testId="games-balance" label={loading} />
            </dd>
          </div>
        </dl>
      </div>

      <div className="wallet-hero-sync">
        <button
          type="button"
          className="wallet-check"
          onClick={onCheckBalance}
          disabled={refreshing || !wallet}
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
          <MaybeMoney amount={wallet?.invite.amount} className="wallet-invite-amount" testId="invite-bonus-amount" label={loading} />
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
