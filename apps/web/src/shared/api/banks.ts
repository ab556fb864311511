import { queryOptions, useQuery } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { callEndpoint } from './client';

/** GET /api/lookup/banks [{code, nameTH, nameEN, nameLA, country}]: registration's choice, and bank names on other screens. */
export const banksQuery = queryOptions({
  queryKey: ['lookup', 'banks'],
  queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupBanks, { signal, background: true }),
  staleTime: 10 * 60_000,
});

export function useBanks() {
  return useQuery(banksQuery);
}
