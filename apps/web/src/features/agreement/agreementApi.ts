import { useQuery } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { callEndpoint } from '../../shared/api/client';

/** GET /api/lookup/agreements: a list of HTML paragraphs. */
export function useAgreements(enabled: boolean) {
  return useQuery({
    queryKey: ['lookup', 'agreements'],
    queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupAgreements, { signal, background: true }),
    enabled,
    staleTime: 10 * 60_000,
    meta: { silent: true },
  });
}
