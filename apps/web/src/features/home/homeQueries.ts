import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@mw/contract/constants';
import { request } from '../../shared/api/client';
import { applyGameBalances, walletQuery } from '../../shared/api/wallet';
import { refreshSlotsParser, SPIN_ACTIVE_PATH, spinActiveParser, WALLET_REFRESH_SLOT_PATH } from '../../shared/api/contractParsers.generated';
import { writeStorage } from '../../shared/storage';

/**
 * The three loads of the home dashboard's entry (spec section 2): the wallet, every game balance
 * refreshed, the spin wheel check. Small and zod-free, so the app's entry can start them before
 * React renders (see startMemberScreen), in parallel with the dashboard's code.
 */

/**
 * GET /api/wallet/refresh/slot: every game balance read again from its provider. The fresh
 * balances go into the shared wallet cache and the time into localStorage `last_sync`.
 */
export function refreshGamesQuery(queryClient: QueryClient) {
  return queryOptions({
    queryKey: ['wallet-refresh'],
    queryFn: async ({ signal }) => {
      const fresh = await request(WALLET_REFRESH_SLOT_PATH, refreshSlotsParser, { signal });
      writeStorage('local', STORAGE_KEYS.lastSync, fresh.updatedAt);
      applyGameBalances(queryClient, fresh.slots);
      return fresh;
    },
    staleTime: 0,
  });
}

/** GET /api/spinwheel/active. Any failure (the spin domain answers 501 for now) reads as inactive. */
export function spinActiveQuery() {
  return queryOptions({
    queryKey: ['spin', 'active'],
    queryFn: ({ signal }) => request(SPIN_ACTIVE_PATH, spinActiveParser, { signal, background: true }),
    retry: false,
    meta: { silent: true },
  });
}

/** Whether the entry's loads were started at boot for the first dashboard of this page load. */
let startedAtBoot = false;
let firstEntryOver = false;

/** Starts the entry's loads before the dashboard mounts (the first screen of a page load only). */
export function prefetchHomeEntry(queryClient: QueryClient): void {
  startedAtBoot = true;
  // Failures are the dashboard's to show: a query left without data is loaded again on mount.
  const ignore = () => undefined;
  queryClient.fetchQuery(walletQuery()).catch(ignore);
  queryClient.fetchQuery(refreshGamesQuery(queryClient)).catch(ignore);
  // Each call costs the main thread a little: the spin check follows in the next task.
  setTimeout(() => {
    queryClient.fetchQuery(spinActiveQuery()).catch(ignore);
  }, 0);
}

/**
 * How the entry's loads behave when the dashboard mounts: every entry loads them again
 * (refetchOnMount 'always', a failed one too) — except the first entry of a page load when boot
 * already started them: those are this entry's loads, answered or failed, not to be asked twice.
 */
export function entryMountOptions(): { refetchOnMount: false | 'always'; retryOnMount: boolean } {
  const startedForThisEntry = startedAtBoot && !firstEntryOver;
  return { refetchOnMount: startedForThisEntry ? false : 'always', retryOnMount: !startedForThisEntry };
}

/** Called when the dashboard unmounts: any later entry loads its data itself. */
export function endFirstEntry(): void {
  firstEntryOver = true;
}
