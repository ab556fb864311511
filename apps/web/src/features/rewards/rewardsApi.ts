import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { inviteEndpoints } from '@mw/contract/invite';
import { refundEndpoints } from '@mw/contract/refund';
import { callEndpoint } from '../../shared/api/client';
import { retryMoneyCall } from '../../shared/api/useIdempotencyKey';

/** Invite and refund tables: 10 rows a page, from page 1 (spec section 9). */
export const REWARD_PAGE_SIZE = 10;

// Load errors of these lists hide quietly (spec section 8): the table stays empty.
const quiet = { meta: { silent: true }, retry: false } as const;

export function useBanners(kind: 'invite' | 'refund') {
  return useQuery({
    queryKey: [kind, 'banners'],
    queryFn: ({ signal }) => callEndpoint(kind === 'invite' ? inviteEndpoints.inviteBanners : refundEndpoints.refundBanners, { signal }),
    staleTime: 5 * 60_000,
    ...quiet,
  });
}

export function useInviteRows(page: number) {
  return useQuery({
    queryKey: ['invite', 'list', page],
    queryFn: ({ signal }) => callEndpoint(inviteEndpoints.inviteList, { signal, body: { page, limit: REWARD_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    ...quiet,
  });
}

export function useRefundRows(page: number) {
  return useQuery({
    queryKey: ['refund', 'list', page],
    queryFn: ({ signal }) => callEndpoint(refundEndpoints.refundList, { signal, body: { page, limit: REWARD_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    ...quiet,
  });
}

export function useRefundCheck() {
  return useQuery({ queryKey: ['refund', 'check'], queryFn: ({ signal }) => callEndpoint(refundEndpoints.refundCheck, { signal }), ...quiet });
}

/** Receive, then add to the wallet: after either attempt the check and the log load again (spec section 4). */
function useRefundAction<T>(call: (key: string) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    retry: retryMoneyCall,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['refund'] }),
  });
}

export function useReceiveRefund() {
  return useRefundAction((key) => callEndpoint(refundEndpoints.refundReceive, { idempotencyKey: key }));
}

export function useAddRefundToWallet() {
  return useRefundAction((key) => callEndpoint(refundEndpoints.refundAddWallet, { idempotencyKey: key }));
}
