import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@mw/contract/constants';
import { inviteEndpoints } from '@mw/contract/invite';
import { spinEndpoints } from '@mw/contract/spin';
import { walletEndpoints, type WalletResponse } from '@mw/contract/wallet';
import { callEndpoint } from '../../shared/api/client';
import { retryMoneyCall } from '../../shared/api/useIdempotencyKey';
import { walletQueryKey } from '../../shared/api/wallet';
import { readStorage, writeStorage } from '../../shared/storage';

/**
 * GET /api/wallet/refresh/slot: every game balance read again from its provider. Runs on each
 * entry to the home page and on "check balance"; the fresh balances go into the shared wallet
 * cache and the time into localStorage `last_sync`.
 */
export function useRefreshGames() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['wallet-refresh'],
    queryFn: async ({ signal }) => {
      const fresh = await callEndpoint(walletEndpoints.walletRefreshSlot, { signal });
      writeStorage('local', STORAGE_KEYS.lastSync, fresh.updatedAt);
      const wallet = queryClient.getQueryState<WalletResponse>(walletQueryKey);
      if (wallet?.data && wallet.fetchStatus === 'idle') {
        queryClient.setQueryData<WalletResponse>(walletQueryKey, (current) => current && { ...current, slots: fresh.slots });
      } else {
        // The wallet is still loading and may have read the balances before this refresh booked them.
        void queryClient.invalidateQueries({ queryKey: walletQueryKey, exact: true });
      }
      return fresh;
    },
    refetchOnMount: 'always',
    staleTime: 0,
  });
}

export function lastSyncTime(): string | null {
  return readStorage('local', STORAGE_KEYS.lastSync);
}

/** GET /api/spinwheel/active. Any failure (the spin domain answers 501 for now) reads as inactive. */
export function useSpinActive() {
  return useQuery({
    queryKey: ['spin', 'active'],
    queryFn: ({ signal }) => callEndpoint(spinEndpoints.spinActive, { signal, background: true }),
    refetchOnMount: 'always',
    retry: false,
    meta: { silent: true },
    select: (answer) => answer.active,
  });
}

/** GET /api/invite/bonus: receives the invite bonus into the wallet (it moves money: one key per action). */
export function useReceiveInviteBonus() {
  return useMutation({
    mutationFn: (key: string) => callEndpoint(inviteEndpoints.inviteBonus, { idempotencyKey: key }),
    retry: retryMoneyCall,
  });
}
