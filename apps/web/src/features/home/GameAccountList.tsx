import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Locale } from '@mw/contract/constants';
import type { GameAccount, GameCategory } from '@mw/contract/wallet';
import { formatMoney } from '../../shared/format/money';
import { useLocale } from '../../shared/format/useLocale';
import { Icon } from '../../shared/ui/Icon';
import { MoneyIn } from '../../shared/ui/Money';
import { useNearViewport } from '../../shared/ui/nearViewport';
import { gameCredit } from './walletTotals';

interface CardProps {
  game: GameAccount;
  onOpen: (game: GameAccount) => void;
  /** Read once by the list, not by each card. */
  t: TFunction;
  locale: Locale;
}

/**
 * One game account: logo on its background (loaded near the viewport); balance and credit when
 * active (a seamless game: "plays from your wallet", it has no balance), else an open-account prompt. Memoised: the wallet cache keeps an unchanged account's object (structural sharing), so
 * a new answer re-renders only the cards whose account changed.
 */
const GameAccountCard = memo(function GameAccountCard({ game, onOpen, t, locale }: CardProps) {
  const [artRef, near] = useNearViewport<HTMLSpanElement>();
  return (
    <li>
      <button
        type="button"
        className={game.isActive ? 'game-card' : 'game-card game-card-inactive'}
        onClick={() => onOpen(game)}
        data-testid={`game-card-${game.code}`}
        data-active={game.isActive}
      >
        <span className="game-card-art" ref={artRef}>
          {/* The images load as the card comes near the viewport; their boxes are there before. */}
          <img className="game-card-bg" src={near ? game.background : undefined} alt="" width={320} height={160} decoding="async" />
          <img className="game-card-logo" src={near ? game.logo : undefined} alt="" width={52} height={52} decoding="async" />
        </span>
        <span className="game-card-body">
          <span className="game-card-name">{game.name}</span>
          {game.isActive && game.seamless && game.amount === 0 ? (
            <span className="game-card-credit" data-testid="game-card-seamless">
              {t('home.seamless')}
            </span>
          ) : game.isActive ? (
            <>
              <MoneyIn amount={game.amount} locale={locale} className="game-card-balance" testId="game-card-balance" />
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
});

const titles = { slot: 'home.games.slot', sport: 'home.games.sport', lotto: 'home.games.lotto' } as const;

interface ListProps {
  category: GameCategory;
  games: readonly GameAccount[];
  onOpen: (game: GameAccount) => void;
}

/** One of the three lists; memoised, so a wallet answer that changes nothing re-renders nothing. */
export const GameAccountList = memo(function GameAccountList({ category, games, onOpen }: ListProps) {
  const { t } = useTranslation();
  const locale = useLocale();
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
          <GameAccountCard key={game.code} game={game} onOpen={onOpen} t={t} locale={locale} />
        ))}
      </ul>
    </section>
  );
});
