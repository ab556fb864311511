import { useQuery } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { callEndpoint } from '../../shared/api/client';
import { useLocale } from '../../shared/format/useLocale';

/** GET /api/lookup/contact {contactText (HTML), lineLink, lineName, lineQR}. */
export function useContact() {
  // Keyed by language: the server answers this content in the member's language.
  const locale = useLocale();
  return useQuery({
    queryKey: ['lookup', 'contact', locale],
    queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupContact, { signal }),
    staleTime: 10 * 60_000,
  });
}
