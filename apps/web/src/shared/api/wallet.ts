import { useQuery, type QueryClient } from '@tanstack/react-query';
import { walletEndpoints, type GameAccount, type WalletResponse } from '@mw/contract/wallet';
import { callEndpoint } from './client';

/**
 * GET /api/wallet: the member's wallet, profile summary and game accounts. Shared because the
 * home dashboard and the transfer, withdraw and game account modals all read it; a modal that
 * moves money invalidates it, so every reader shows the new balances.
 */
export const walletQueryKey = ['wallet'] as const;

export function useWallet(options: { refetchOnMount?: boolean | 'always' } = {}) {
  return useQuery({
    queryKey: walletQueryKey,
    queryFn: ({ signal }) => callEndpoint(walletEndpoints.wallet, { signal }),
    refetchOnMount: options.refetchOnMount ?? true,
  });
}

export function reloadWallet(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: walletQueryKey, exact: true });
}

/** Replaces one game account in the cached wallet (after activation or a transfer answer). */
export function patchGameAccount(queryClient: QueryClient, code: string, patch: Partial<GameAccount>): void {
  queryClient.setQueryData<WalletResponse>(walletQueryKey, (wallet) =>
    wallet ? { ...wallet, slots: wallet.slots.map((game) => (game.code === code ? { ...game, ...patch } : game)) } : wallet,
  );
}
