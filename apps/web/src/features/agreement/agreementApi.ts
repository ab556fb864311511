import { useQuery } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { callEndpoint } from '../../shared/api/client';
import { useLocale } from '../../shared/format/useLocale';

/** GET /api/lookup/agreements: a list of HTML paragraphs. */
export function useAgreements(enabled: boolean) {
  // Keyed by language: the server answers this content in the member's language.
  const locale = useLocale();
  return useQuery({
    queryKey: ['lookup', 'agreements', locale],
    queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupAgreements, { signal, background: true }),
    enabled,
    staleTime: 10 * 60_000,
    meta: { silent: true },
  });
}
