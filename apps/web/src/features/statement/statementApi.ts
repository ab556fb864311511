import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE } from '@mw/contract/constants';
import { statementEndpoints } from '@mw/contract/statement';
import { callEndpoint } from '../../shared/api/client';

/** POST /api/statement {page, limit: 10}. */
export function useStatements(page: number) {
  return useQuery({
    queryKey: ['statement', page],
    queryFn: ({ signal }) => callEndpoint(statementEndpoints.statementList, { body: { page, limit: PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
    // Spec section 8: a failed list load only hides the loader; the page offers a retry.
    meta: { silent: true },
  });
}

/** POST /api/statement/slip {page, limit: 10}. */
export function useSlips(page: number) {
  return useQuery({
    queryKey: ['statement-slips', page],
    queryFn: ({ signal }) => callEndpoint(statementEndpoints.statementSlips, { body: { page, limit: PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
    meta: { silent: true },
  });
}

/** GET /api/statement/slip/reference/{reference} → the URL of the slip image. */
export async function fetchSlipUrl(reference: string): Promise<string> {
  return (await callEndpoint(statementEndpoints.statementSlipReference, { params: { reference } })).url;
}
