import { useQuery } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { callEndpoint } from '../../shared/api/client';
import { useLocale } from '../../shared/format/useLocale';

/** GET /api/lookup/conditions: a list of HTML texts. */
export function useConditions(enabled: boolean) {
  // Keyed by language: the server answers this content in the member's language.
  const locale = useLocale();
  return useQuery({
    queryKey: ['lookup', 'conditions', locale],
    queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupConditions, { signal }),
    enabled,
    staleTime: 10 * 60_000,
  });
}
