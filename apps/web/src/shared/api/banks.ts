import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from './client';
import { LOOKUP_BANKS_PATH, lookupBanksParser } from './contractParsers.generated';

/**
 * GET /api/lookup/banks [{code, nameTH, nameEN, nameLA, country}]: registration's choice, and bank
 * names on other screens (the member layout's balance toast among them: checked with the generated
 * parser, so no member page loads zod for it).
 */
export const banksQuery = queryOptions({
  queryKey: ['lookup', 'banks'],
  queryFn: ({ signal }) => request(LOOKUP_BANKS_PATH, lookupBanksParser, { signal, background: true }),
  staleTime: 10 * 60_000,
});

export function useBanks() {
  return useQuery(banksQuery);
}
