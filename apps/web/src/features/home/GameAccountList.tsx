import { useTranslation } from 'react-i18next';
import type { GameAccount, GameCategory } from '@mw/contract/wallet';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { Icon } from '../../shared/ui/Icon';
import { Money } from '../../shared/ui/Money';
import { gameCredit } from './walletTotals';

/** One game account: logo on its background; balance and credit when active, else an open-account prompt. */
function GameAccountCard({ game, onOpen }: { game: GameAccount; onOpen: (game: GameAccount) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li>
      <button
        type="button"
        className={game.isActive ? 'game-card' : 'game-card game-card-inactive'}
        onClick={() => onOpen(game)}
        data-testid={`game-card-${game.code}`}
        data-active={game.isActive}
      >
        <span className="game-card-art" style={{ backgroundImage: `url("${game.background}")` }}>
          <img className="game-card-logo" src={game.logo} alt="" width={52} height={52} loading="lazy" decoding="async" />
        </span>
        <span className="game-card-body">
          <span className="game-card-name">{game.name}</span>
          {game.isActive ? (
            <>
              <Money amount={game.amount} className="game-card-balance" testId="game-card-balance" />
              <span className="game-card-credit" data-testid="game-card-credit">
                {t('home.credit', { credit: formatMoney(gameCredit(game), locale), factor: game.ftWalletSlot })}
              </span>
            </>
          ) : (
            <span className="game-card-open" data-testid="game-card-open">
              <Icon name="plus" size={16} />
              {t('home.openAccount')}
            </span>
          )}
        </span>
      </button>
    </li>
  );
}

const titles = { slot: 'home.games.slot', sport: 'home.games.sport', lotto: 'home.games.lotto' } as const;

export function GameAccountList({ category, games, onOpen }: { category: GameCategory; games: GameAccount[]; onOpen: (game: GameAccount) => void }) {
  const { t } = useTranslation();
  if (games.length === 0) return null;
  const headingId = `games-${category}`;
  return (
    <section className="game-section" aria-labelledby={headingId} data-testid={`games-${category}`}>
      <h2 id={headingId} className="game-section-title">
        <Icon name="gamepad" size={20} />
        {t(titles[category])}
        <span className="game-section-count">{games.length}</span>
      </h2>
      <ul className="game-grid">
        {games.map((game) => (
          <GameAccountCard key={game.code} game={game} onOpen={onOpen} />
        ))}
      </ul>
    </section>
  );
}
