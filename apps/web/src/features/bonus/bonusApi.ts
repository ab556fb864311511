import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bonusEndpoints } from '@mw/contract/bonus';
import { lookupEndpoints } from '@mw/contract/lookups';
import { callEndpoint } from '../../shared/api/client';
import { reloadWallet } from '../../shared/api/wallet';

export function useBonuses() {
  return useQuery({ queryKey: ['bonus', 'list'], queryFn: ({ signal }) => callEndpoint(bonusEndpoints.bonusList, { signal }) });
}

export function useActiveBonus() {
  return useQuery({ queryKey: ['bonus', 'active'], queryFn: ({ signal }) => callEndpoint(bonusEndpoints.bonusCheckActive, { signal }) });
}

/** The open condition's turnover progress: zod-free, the dashboard uses it too (bonusProgress.ts). */
export { useBonusProgress } from './bonusProgress';

export function useNotice() {
  return useQuery({ queryKey: ['lookup', 'notice'], queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupNotice, { signal }), staleTime: 5 * 60_000 });
}

function useBonusChange<T>(call: () => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['bonus'] });
      void reloadWallet(queryClient);
    },
  });
}

export function useActivateBonus(code: string) {
  return useBonusChange(() => callEndpoint(bonusEndpoints.bonusActivate, { params: { code } }));
}

/** GET /api/bonus/check/minimum: what a cancel would take back (read when the cancel dialog opens). */
export function useCancelFigures(enabled: boolean) {
  return useQuery({
    queryKey: ['bonus', 'minimum'],
    queryFn: ({ signal }) => callEndpoint(bonusEndpoints.bonusCheckMinimum, { signal }),
    enabled,
    staleTime: 0,
    meta: { silent: true },
  });
}

export function useClearBonus() {
  return useBonusChange(() => callEndpoint(bonusEndpoints.bonusClear));
}

export function useFindPromotion() {
  return useMutation({ mutationFn: (code: string) => callEndpoint(bonusEndpoints.promotionFind, { params: { code } }) });
}

export function useActivatePromotion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => callEndpoint(bonusEndpoints.promotionActivate, { params: { code } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['bonus'] });
      void reloadWallet(queryClient);
    },
  });
}
