import { useQuery } from '@tanstack/react-query';
import { lookupEndpoints } from '@mw/contract/lookups';
import { callEndpoint } from '../../shared/api/client';

/** GET /api/lookup/contact {contactText (HTML), lineLink, lineName, lineQR}. */
export function useContact() {
  return useQuery({
    queryKey: ['lookup', 'contact'],
    queryFn: ({ signal }) => callEndpoint(lookupEndpoints.lookupContact, { signal }),
    staleTime: 10 * 60_000,
  });
}
