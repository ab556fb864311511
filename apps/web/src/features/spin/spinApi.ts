import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { spinEndpoints } from '@mw/contract/spin';
import { callEndpoint } from '../../shared/api/client';
import { reloadWallet } from '../../shared/api/wallet';

const SETUP = ['spin', 'setup'] as const;
const COUPONS = ['spin', 'coupons'] as const;
const FAIRNESS = ['spin', 'fairness'] as const;

export function useSpinSetup() {
  return useQuery({ queryKey: SETUP, queryFn: ({ signal }) => callEndpoint(spinEndpoints.spinSetup, { signal }) });
}

export function useCoupons() {
  return useQuery({ queryKey: COUPONS, queryFn: ({ signal }) => callEndpoint(spinEndpoints.spinCoupons, { signal }) });
}

export function useFairness() {
  return useQuery({ queryKey: FAIRNESS, queryFn: ({ signal }) => callEndpoint(spinEndpoints.spinFairness, { signal }) });
}

/** POST /api/spinwheel/spin: decided on the server; the page animates to the answer. */
export function useSpin() {
  return useMutation({ mutationFn: () => callEndpoint(spinEndpoints.spin, { background: true }) });
}

/** After a spin has been shown (the prize modal closed): the coins, coupons and fairness counter read again. */
export function useReloadSpin() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['spin'] });
    void queryClient.invalidateQueries({ queryKey: ['wallet'], exact: true });
  };
}

export function useClaimCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (coupon: string) => callEndpoint(spinEndpoints.spinCouponClaim, { body: { coupon } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['spin'] });
      void reloadWallet(queryClient);
    },
  });
}

export function useRotateSeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(spinEndpoints.spinRotateSeed, { body: {} }),
    onSuccess: (answer) => queryClient.setQueryData(FAIRNESS, answer.next),
  });
}
