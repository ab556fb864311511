import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { GameAccount, WalletResponse } from '@mw/contract/wallet';
import { request } from './client';
import { setMoneyCurrency } from '../format/moneyCurrency';
import { WALLET_PATH, walletResponseParser } from './contractParsers.generated';

/**
 * GET /api/wallet: the member's wallet, profile summary and game accounts. Shared because the
 * home dashboard and the transfer, withdraw and game account modals all read it; a modal that
 * moves money invalidates it, so every reader shows the new balances.
 */
export const walletQueryKey = ['wallet'] as const;

/** The game balances of the latest refresh answer (GET /api/wallet/refresh/slot). */
let latestGameBalances: { slots: GameAccount[] } | null = null;

/**
 * Hands the wallet a refresh answer's game balances. A loaded wallet takes them at once; a wallet
 * answer still on its way may have read the balances before the refresh booked them, so it takes
 * them when it arrives (fetchWallet) — no second GET /api/wallet, no second render.
 */
export function applyGameBalances(queryClient: QueryClient, slots: GameAccount[]): void {
  latestGameBalances = { slots };
  const wallet = queryClient.getQueryState<WalletResponse>(walletQueryKey);
  if (wallet?.data && wallet.fetchStatus === 'idle') {
    queryClient.setQueryData<WalletResponse>(walletQueryKey, (current) => current && { ...current, slots });
  }
}

async function fetchWallet(signal: AbortSignal, background: boolean): Promise<WalletResponse> {
  const before = latestGameBalances;
  const wallet = await request(WALLET_PATH, walletResponseParser, { signal, background });
  const during = latestGameBalances;
  setMoneyCurrency(wallet.profile.currency ?? 'BAHT');
  // A refresh answered while this call was under way: its game balances are at least as new.
  return during && during !== before ? { ...wallet, slots: during.slots } : wallet;
}

/** `background`: without the global loading indicator (polling). */
export function walletQuery(options: { background?: boolean } = {}) {
  const background = options.background ?? false;
  return queryOptions({ queryKey: walletQueryKey, queryFn: ({ signal }) => fetchWallet(signal, background) });
}

export function useWallet(options: { refetchOnMount?: boolean | 'always'; retryOnMount?: boolean } = {}) {
  return useQuery({ ...walletQuery(), refetchOnMount: options.refetchOnMount ?? true, retryOnMount: options.retryOnMount ?? true });
}

export function reloadWallet(queryClient: QueryClient): Promise<void> {
  // Money that moved may have opened or ended a turnover condition (a payout, a bust): its card reads again too.
  void queryClient.invalidateQueries({ queryKey: ['bonus', 'progress'], exact: true });
  return queryClient.invalidateQueries({ queryKey: walletQueryKey, exact: true });
}

/** Replaces one game account in the cached wallet (after activation or a transfer answer). */
export function patchGameAccount(queryClient: QueryClient, code: string, patch: Partial<GameAccount>): void {
  queryClient.setQueryData<WalletResponse>(walletQueryKey, (wallet) =>
    wallet ? { ...wallet, slots: wallet.slots.map((game) => (game.code === code ? { ...game, ...patch } : game)) } : wallet,
  );
}
