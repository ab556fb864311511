import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../shared/router';
import { Icon, type IconName } from '../../shared/ui/Icon';
import { Spinner } from '../../shared/ui/Spinner';

interface HomeTilesProps {
  spinActive: boolean;
  /** Undefined while the wallet loads (no count shown then). */
  coins: number | undefined;
  refreshing: boolean;
  onDeposit: () => void;
  onWithdraw: () => void;
  onRefreshAll: () => void;
  onInvite: () => void;
  onRefund: () => void;
}

function TileBody({ icon, label, badge }: { icon: ReactNode; label: string; badge?: ReactNode }) {
  return (
    <>
      <span className="home-tile-icon">{icon}</span>
      <span className="home-tile-label">{label}</span>
      {badge}
    </>
  );
}

const icon = (name: IconName) => <Icon name={name} size={26} />;

/** Deposit, withdraw, spin wheel (only while a wheel is active; otherwise refresh-all), invite, bonus conditions, refund. */
export function HomeTiles({ spinActive, coins, refreshing, onDeposit, onWithdraw, onRefreshAll, onInvite, onRefund }: HomeTilesProps) {
  const { t } = useTranslation();
  return (
    <ul className="home-tiles">
      <li>
        <button type="button" className="home-tile" onClick={onDeposit} data-testid="home-tile-deposit">
          <TileBody icon={icon('deposit')} label={t('home.tiles.deposit')} />
        </button>
      </li>
      <li>
        <button type="button" className="home-tile" onClick={onWithdraw} data-testid="home-tile-withdraw">
          <TileBody icon={icon('withdraw')} label={t('home.tiles.withdraw')} />
        </button>
      </li>
      <li>
        {spinActive ? (
          <Link to="/user/spin" className="home-tile" data-testid="home-tile-spin">
            <TileBody
              icon={icon('spin')}
              label={t('home.tiles.spin')}
              badge={
                coins === undefined ? undefined : (
                  <span className="home-tile-badge home-tile-badge-gold" data-testid="spin-coins">
                    {t('home.coinCount', { coins })}
                  </span>
                )
              }
            />
          </Link>
        ) : (
          <button type="button" className="home-tile" onClick={onRefreshAll} disabled={refreshing} data-testid="home-tile-refresh">
            <TileBody icon={refreshing ? <Spinner size={26} /> : icon('refresh')} label={t('home.tiles.refreshAll')} />
          </button>
        )}
      </li>
      <li>
        <button type="button" className="home-tile" onClick={onInvite} data-testid="home-tile-invite">
          <TileBody icon={icon('users')} label={t('home.tiles.invite')} />
        </button>
      </li>
      <li>
        <Link to="/user/bonus" className="home-tile" data-testid="home-tile-bonus">
          <TileBody icon={icon('gift')} label={t('home.tiles.bonus')} />
        </Link>
      </li>
      <li>
        <button type="button" className="home-tile" onClick={onRefund} data-testid="home-tile-refund">
          <TileBody icon={icon('refund')} label={t('home.tiles.refund')} />
        </button>
      </li>
    </ul>
  );
}
