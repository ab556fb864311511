import { useQuery } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { callEndpoint } from '../../shared/api/client';

/** GET /api/lookup/conditions: a list of HTML texts. */
export function useConditions(enabled: boolean) {
  return useQuery({
    queryKey: ['lookup', 'conditions'],
    queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupConditions, { signal }),
    enabled,
    staleTime: 10 * 60_000,
  });
}
