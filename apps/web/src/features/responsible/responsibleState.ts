import { useQuery } from '@tanstack/react-query';
import { request } from '../../shared/api/client';
import { RESPONSIBLE_PATH, responsibleStateParser } from '../../shared/api/contractParsers.generated';

/**
 * GET /api/responsible for the member layout's reality check (on every member screen): checked with
 * the parser generated from the contract (shared/api/contractParsers.generated.ts), so the layout's
 * code holds neither zod nor the contract's schemas. The responsible-play page's changes are in
 * responsibleApi.ts, loaded with that page.
 */
export const responsibleQueryKey = ['responsible'] as const;

/** Limits, pending changes, used and left, breaks, reality check, held deposits, this session. */
export function useResponsible() {
  // Silent: the page shows its own error inline; the reality check simply waits for a good answer.
  return useQuery({ queryKey: responsibleQueryKey, queryFn: ({ signal }) => request(RESPONSIBLE_PATH, responsibleStateParser, { signal, background: true }), staleTime: 30_000, meta: { silent: true } });
}
