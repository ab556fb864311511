import { useQuery } from '@tanstack/react-query';
import { accountEndpoints } from '@mw/contract/account';
import { callEndpoint } from './client';

/**
 * GET /api/account/profile. Shared: the profile page shows it and the deposit modal reads the
 * member's currency from it (LAK members deposit to LAK channels only).
 */
export const profileQueryKey = ['account', 'profile'] as const;

export function useProfile() {
  return useQuery({
    queryKey: profileQueryKey,
    queryFn: ({ signal }) => callEndpoint(accountEndpoints.profileGet, { signal }),
  });
}
