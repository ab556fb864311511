import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon, type IconName } from '../../shared/ui/Icon';
import './home.css';

interface Tile {
  key: 'deposit' | 'withdraw' | 'spin' | 'invite' | 'bonus' | 'refund';
  icon: IconName;
  to?: string;
}

const TILES: readonly Tile[] = [
  { key: 'deposit', icon: 'deposit' },
  { key: 'withdraw', icon: 'withdraw' },
  { key: 'spin', icon: 'spin', to: '/user/spin' },
  { key: 'invite', icon: 'users' },
  { key: 'bonus', icon: 'gift', to: '/user/bonus' },
  { key: 'refund', icon: 'refund' },
];

/** Member home. The wallet dashboard arrives with the wallet issue; the tiles already show the way. */
export function HomePage() {
  const { t } = useTranslation();
  return (
    <section className="page home-page" data-testid="home-page">
      <div className="wallet-hero">
        <p className="wallet-hero-welcome">{t('home.welcome')}</p>
        <p className="wallet-hero-label">
          <Icon name="wallet" size={18} />
          {t('home.walletTitle')}
        </p>
        <p className="wallet-hero-amount" aria-label={t('common.comingSoon')}>
          ฿ <span>— . —</span>
        </p>
        <p className="wallet-hero-note">{t('home.walletSoon')}</p>
      </div>
      <ul className="home-tiles">
        {TILES.map((tile) => (
          <li key={tile.key}>
            {tile.to ? (
              <Link to={tile.to} className="home-tile" data-testid={`home-tile-${tile.key}`}>
                <span className="home-tile-icon">
                  <Icon name={tile.icon} size={26} />
                </span>
                <span className="home-tile-label">{t(`home.tiles.${tile.key}`)}</span>
              </Link>
            ) : (
              <span className="home-tile home-tile-soon" aria-disabled="true" data-testid={`home-tile-${tile.key}`}>
                <span className="home-tile-icon">
                  <Icon name={tile.icon} size={26} />
                </span>
                <span className="home-tile-label">{t(`home.tiles.${tile.key}`)}</span>
                <span className="home-tile-badge">{t('common.comingSoon')}</span>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
