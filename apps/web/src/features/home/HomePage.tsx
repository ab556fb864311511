import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GameAccount } from '@mw/contract/wallet';
import { refusalMessage } from '../../shared/api/refusalMessage';
import { useIdempotencyKey } from '../../shared/api/useIdempotencyKey';
import { reloadWallet, walletQuery } from '../../shared/api/wallet';
import { toast } from '../../shared/ui/toast';
import { GameAccountList } from './GameAccountList';
import { HomeTiles } from './HomeTiles';
import { lastSyncTime, useReceiveInviteBonus, useRefreshGames, useSpinActive } from './homeApi';
import { endFirstEntry, entryMountOptions } from './homeQueries';
import { WalletHeader } from './WalletHeader';

/**
 * The open bonus condition's progress loads after the dashboard, with the bonus texts: it shows
 * only when a condition is open, once its own call has answered (not part of the first download).
 */
// The invite bonus's dialog loads when it opens.
const InviteBonusDialog = lazy(() => import('./InviteBonusDialog').then((m) => ({ default: m.InviteBonusDialog })));
const HomeBonusProgress = lazy(() => import('../bonus/HomeBonusProgress').then((m) => ({ default: m.HomeBonusProgress })));
import { GAME_CATEGORIES, gamesOf } from './walletTotals';
import './home.css';

/**
 * The dashboard's wallet: loaded on entry; afterwards the server pushes every change of it (the
 * member's socket, features/balance-push), the app re-reads it when it comes back to the front and
 * after a reconnect, and "check balance" re-reads it — no polling.
 */
function useHomeWallet() {
  return useQuery({ ...walletQuery({ background: true }), ...entryMountOptions() });
}

export interface HomeActions {
  onDeposit: () => void;
  onWithdraw: () => void;
  onTransfer: () => void;
  onOpenGame: (game: GameAccount) => void;
  onInvite: () => void;
  onRefund: () => void;
}

/**
 * The member's dashboard (spec section 2, "Home dashboard"). On entry it loads the wallet,
 * refreshes every game balance and asks whether the spin wheel is active. The modals it opens
 * are composed by the app (src/app/pages/MemberHomeRoute.tsx).
 */
export function HomePage({ onDeposit, onWithdraw, onTransfer, onOpenGame, onInvite, onRefund }: HomeActions) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const wallet = useHomeWallet();
  const refresh = useRefreshGames();
  const spinActive = useSpinActive();
  const receiveInvite = useReceiveInviteBonus();
  const inviteKeys = useIdempotencyKey();
  const [inviteOpen, setInviteOpen] = useState(false);
  useEffect(() => endFirstEntry, []);

  const [checking, setChecking] = useState(false);
  const refreshing = refresh.isFetching || checking;
  // "Check balance" and the refresh-all tile: game balances from the providers first, then the
  // wallet (and its coins) as the server now has it — a bank-feed deposit shows without a reload.
  const refreshAll = async () => {
    setChecking(true);
    try {
      await refresh.refetch();
      await reloadWallet(queryClient);
    } finally {
      setChecking(false);
    }
  };

  const receive = () => {
    receiveInvite.mutate(inviteKeys.keyFor('invite-bonus'), {
      onSuccess: (answer) => {
        inviteKeys.done();
        setInviteOpen(false);
        toast.success(t('errors.INVITE_BONUS_SUCCESS'));
        if (answer.amount > 0) void reloadWallet(queryClient);
      },
      onError: (error) => {
        inviteKeys.failed(error);
        setInviteOpen(false);
        toast.error(refusalMessage(error));
      },
    });
  };

  const data = wallet.data;
  const slots = data?.slots;
  // The cache keeps `slots` while no balance changes, so the lists are not rebuilt for nothing.
  const lists = useMemo(() => slots && GAME_CATEGORIES.map((category) => ({ category, games: gamesOf(slots, category) })), [slots]);
  return (
    <section className="page home-page" data-testid="home-page">
      <WalletHeader
        wallet={data}
        refreshing={refreshing}
        lastSync={refresh.data?.updatedAt ?? lastSyncTime()}
        receiving={receiveInvite.isPending}
        onCheckBalance={() => void refreshAll()}
        onTransfer={onTransfer}
        onReceiveInvite={() => setInviteOpen(true)}
      />
      <Suspense fallback={null}>
        <HomeBonusProgress />
      </Suspense>
      <HomeTiles
        spinActive={spinActive.data === true}
        coins={data?.profile.coin}
        refreshing={refreshing}
        onDeposit={onDeposit}
        onWithdraw={onWithdraw}
        onRefreshAll={() => void refreshAll()}
        onInvite={onInvite}
        onRefund={onRefund}
      />
      {wallet.isError && !data && (
        <div className="card home-error" role="alert">
          <p className="muted">{refusalMessage(wallet.error)}</p>
          <button type="button" className="btn btn-secondary" onClick={() => void wallet.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {lists ? (
        lists.map(({ category, games }) => <GameAccountList key={category} category={category} games={games} onOpen={onOpenGame} />)
      ) : (
        wallet.isPending && <div className="game-grid-skeleton" aria-hidden="true" />
      )}
      {inviteOpen && data && (
        <Suspense fallback={null}>
          <InviteBonusDialog invite={data.invite} pending={receiveInvite.isPending} onConfirm={receive} onClose={() => setInviteOpen(false)} />
        </Suspense>
      )}
    </section>
  );
}
