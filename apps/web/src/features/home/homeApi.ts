import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@mw/contract/constants';
import { callEndpoint } from '../../shared/api/client';
import { retryMoneyCall } from '../../shared/api/useIdempotencyKey';
import { readStorage } from '../../shared/storage';
import { entryMountOptions, refreshGamesQuery, spinActiveQuery } from './homeQueries';

/** The dashboard's game balances refresh (homeQueries.ts); "check balance" refetches it. */
export function useRefreshGames() {
  const queryClient = useQueryClient();
  return useQuery({ ...refreshGamesQuery(queryClient), ...entryMountOptions() });
}

export function lastSyncTime(): string | null {
  return readStorage('local', STORAGE_KEYS.lastSync);
}

/** Whether the spin wheel is active (homeQueries.ts); any failure reads as inactive. */
export function useSpinActive() {
  return useQuery({ ...spinActiveQuery(), ...entryMountOptions(), select: (answer) => answer.active });
}

/**
 * GET /api/invite/bonus: receives the invite bonus into the wallet (it moves money: one key per
 * action). Its contract (and zod with it) loads on the first receive, not with the dashboard.
 */
export function useReceiveInviteBonus() {
  return useMutation({
    mutationFn: async (key: string) => {
      const { inviteEndpoints } = await import('@mw/contract/invite');
      return callEndpoint(inviteEndpoints.inviteBonus, { idempotencyKey: key });
    },
    retry: retryMoneyCall,
  });
}
