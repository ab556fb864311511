import { useMutation, useQuery } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { walletEndpoints } from '@mw/contract/wallet';
import { callEndpoint } from '../../shared/api/client';
import { retryMoneyCall } from '../../shared/api/useIdempotencyKey';

/** GET /api/lookup/deposit: the bank accounts members transfer their deposits to. */
export function useDepositAccounts() {
  return useQuery({
    queryKey: ['lookup', 'deposit'],
    queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupDeposit, { signal }),
    staleTime: 5 * 60_000,
  });
}

/** POST /api/wallet/add {amount}: the sandbox's demo top-up (403 SANDBOX_ONLY with real payments). */
export function useDemoTopUp() {
  return useMutation({
    mutationFn: ({ amount, key }: { amount: number; key: string }) =>
      callEndpoint(walletEndpoints.walletAdd, { body: { amount }, idempotencyKey: key }),
    retry: retryMoneyCall,
  });
}
