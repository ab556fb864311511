import { useMutation } from '@tanstack/react-query';
import { walletEndpoints, type TransferRequest } from '@mw/contract/wallet';
import { callEndpoint } from '../../shared/api/client';
import { retryMoneyCall } from '../../shared/api/useIdempotencyKey';

/** POST /api/wallet/transfer {from, to, amount} with the action's Idempotency-Key. */
export function useTransfer() {
  return useMutation({
    mutationFn: ({ body, key }: { body: TransferRequest; key: string }) =>
      callEndpoint(walletEndpoints.walletTransfer, { body, idempotencyKey: key }),
    retry: retryMoneyCall,
  });
}
