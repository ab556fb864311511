import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { qrEndpoints, type QrState } from '@mw/contract/qr';
import { walletEndpoints } from '@mw/contract/wallet';
import { callEndpoint } from '../../shared/api/client';
import { retryMoneyCall } from '../../shared/api/useIdempotencyKey';

/** GET /api/lookup/deposit: the channels members deposit through (banks, QR providers, e-wallets). */
export function useDepositChannels() {
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

const QR_ROOT = 'qrcode';
export const qrQueryKey = (code: string) => [QR_ROOT, code] as const;

/** The state with no QR open (what the views show after a cancel or at 00:00). */
export const NO_QR: QrState = { hasQrcode: false, qrcodeId: null, qrcode: null, amount: null, expireIn: null, payload: null };

/**
 * GET /api/qrcode/:bankCode: the member's open QR at this provider, if any. Cached like any answer
 * (30 s); what changes it — a create elsewhere, a cancel, 00:00, a payment — marks it to refresh.
 */
export function useQrState(code: string) {
  return useQuery({
    queryKey: qrQueryKey(code),
    queryFn: ({ signal }) => callEndpoint(qrEndpoints.qrGet, { params: { bankCode: code }, signal }),
    // Back from the banking app: the countdown is set again from the server's time left.
    refetchOnWindowFocus: 'always',
  });
}

/** Forgets a provider's QR at once (cancelled, expired, paid) and asks the server again. */
export function dropQr(queryClient: QueryClient, code: string): void {
  queryClient.setQueryData(qrQueryKey(code), NO_QR);
  void queryClient.invalidateQueries({ queryKey: qrQueryKey(code) });
}

/**
 * POST /api/qrcode/:bankCode {amount}. A new QR is shown at once, and every other provider's QR
 * view is marked to refresh (spec section 4): the server may have changed what they hold.
 */
export function useCreateQr(code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (amount: number) => callEndpoint(qrEndpoints.qrCreate, { params: { bankCode: code }, body: { amount } }),
    onSuccess: (state) => {
      if (state.hasQrcode) queryClient.setQueryData(qrQueryKey(code), state);
      void queryClient.invalidateQueries({ queryKey: [QR_ROOT], predicate: (query) => query.queryKey[1] !== code });
    },
  });
}

/** DELETE /api/qrcode/:qrcodeId; whatever the answer, the provider's QR view reads its state again. */
export function useCancelQr(code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (qrcodeId: string) => callEndpoint(qrEndpoints.qrDelete, { params: { qrcodeId } }),
    onSettled: () => dropQr(queryClient, code),
  });
}

/** POST /api/wallet/truelink {link}: `sealed` is the encrypted link, `::`, the account name (giftLinkSeal.ts). */
export function useSendGiftLink() {
  return useMutation({
    mutationFn: ({ sealed, key }: { sealed: string; key: string }) => callEndpoint(walletEndpoints.walletTruelink, { body: { link: sealed }, idempotencyKey: key }),
    retry: retryMoneyCall,
  });
}
