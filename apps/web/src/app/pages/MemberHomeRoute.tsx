import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState, type ComponentType } from 'react';
import type { GameAccount } from '@mw/contract/wallet';
import { agreementAccepted } from '../../features/agreement/agreementStorage';
import { loadLaterMessages } from '../../i18n/i18n';
import { HomePage } from '../../features/home/HomePage';
import { reloadWallet } from '../../shared/api/wallet';
import { useBreakState } from '../../features/responsible/breakState';

/**
 * Modals load on first use: they are not part of the home page's first download. With them come
 * the texts after the first screen (i18n.ts loadLaterMessages: the deposit shows the currencies'
 * names the registration has).
 */
function modal<P, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(async () => {
    const [module] = await Promise.all([load(), loadLaterMessages()]);
    return { default: module[name] };
  });
}

const DepositModal = modal(() => import('../../features/deposit/DepositModal'), 'DepositModal');
const TransferModal = modal(() => import('../../features/transfer/TransferModal'), 'TransferModal');
const WithdrawModal = modal(() => import('../../features/withdraw/WithdrawModal'), 'WithdrawModal');
// The agreement (and the HTML sanitiser it needs) loads only for a member who has not accepted it yet.
const AgreementModal = modal(() => import('../../features/agreement/AgreementModal'), 'AgreementModal');
const SlotAccountModal = modal(() => import('../../features/game-account/SlotAccountModal'), 'SlotAccountModal');
// The view of a member on a break loads only for one.
const RestrictedView = lazy(() => import('../../features/responsible/RestrictedView').then((m) => ({ default: m.RestrictedView })));
const RewardFlow = modal(() => import('../../features/rewards/RewardFlow'), 'RewardFlow');

type OpenModal =
  | { kind: 'deposit' }
  | { kind: 'transfer' }
  | { kind: 'withdraw' }
  | { kind: 'game'; game: GameAccount }
  | { kind: 'invite' }
  | { kind: 'refund' }
  | null;

/**
 * /user/home: the dashboard, the modals it opens and the agreement modal (features stay unaware of
 * each other). A modal that moved money closes with `true` and the wallet reloads (spec section 4).
 */
export function MemberHomeRoute() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<OpenModal>(null);
  const [agreementDue] = useState(() => !agreementAccepted());

  // Stable, so the memoised game lists do not re-render when a modal opens or closes.
  const openGame = useCallback((game: GameAccount) => setOpen({ kind: 'game', game }), []);

  const close = (changed: boolean) => {
    setOpen(null);
    if (changed) void reloadWallet(queryClient);
  };
  // During a time-out or self-exclusion: the restricted view (balance, statement, withdraw, the end date), no marketing.
  const { onBreak } = useBreakState();

  if (onBreak) {
    return (
      <>
        <Suspense fallback={null}>
          <RestrictedView kind={onBreak.kind} until={onBreak.until} onWithdraw={() => setOpen({ kind: 'withdraw' })} />
          {open?.kind === 'withdraw' && <WithdrawModal onClose={close} />}
        </Suspense>
      </>
    );
  }

  return (
    <>
      <HomePage
        onDeposit={() => setOpen({ kind: 'deposit' })}
        onTransfer={() => setOpen({ kind: 'transfer' })}
        onWithdraw={() => setOpen({ kind: 'withdraw' })}
        onOpenGame={openGame}
        onInvite={() => setOpen({ kind: 'invite' })}
        onRefund={() => setOpen({ kind: 'refund' })}
      />
      <Suspense fallback={null}>
        {open?.kind === 'deposit' && <DepositModal onClose={close} />}
        {open?.kind === 'transfer' && <TransferModal onClose={close} />}
        {open?.kind === 'withdraw' && <WithdrawModal onClose={close} />}
        {open?.kind === 'game' && <SlotAccountModal key={open.game.code} game={open.game} onClose={close} />}
        {(open?.kind === 'invite' || open?.kind === 'refund') && <RewardFlow key={open.kind} kind={open.kind} onClose={close} />}
      </Suspense>
      {agreementDue && (
        <Suspense fallback={null}>
          <AgreementModal waiting={open !== null} />
        </Suspense>
      )}
    </>
  );
}
