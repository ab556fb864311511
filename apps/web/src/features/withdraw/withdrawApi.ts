import { useMutation, useQuery } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { walletEndpoints } from '@mw/contract/wallet';
import { callEndpoint } from '../../shared/api/client';
import { retryMoneyCall } from '../../shared/api/useIdempotencyKey';

/** GET /api/lookup/withdraw: withdrawMin and withdrawMax. */
export function useWithdrawLimits() {
  return useQuery({
    queryKey: ['lookup', 'withdraw'],
    queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupWithdraw, { signal }),
    staleTime: 5 * 60_000,
  });
}

/** POST /api/wallet/withdrawAll {amount}: game balances come home first, then the amount is withdrawn. */
export function useWithdraw() {
  return useMutation({
    mutationFn: ({ amount, key }: { amount: number; key: string }) =>
      callEndpoint(walletEndpoints.walletWithdrawAll, { body: { amount }, idempotencyKey: key }),
    retry: retryMoneyCall,
  });
}
