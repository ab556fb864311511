import { useQuery } from '@tanstack/react-query';
import { request, type ResponseParser } from '../../shared/api/client';

export interface BreakState {
  timeOutUntil: string | null;
  selfExcludedUntil: string | null;
}

/** A zod-free reading of GET /api/responsible's break fields, so the home page's first download does not carry the contract's schemas. */
const breakParser: ResponseParser<BreakState> = {
  safeParse(value: unknown) {
    if (typeof value !== 'object' || value === null) return { success: false };
    const v = value as Record<string, unknown>;
    const date = (x: unknown) => (typeof x === 'string' ? x : null);
    if (!('timeOutUntil' in v) || !('selfExcludedUntil' in v)) return { success: false };
    return { success: true, data: { timeOutUntil: date(v.timeOutUntil), selfExcludedUntil: date(v.selfExcludedUntil) } };
  },
};

/** The member's break in force (time-out or self-exclusion), for the restricted view. */
export function useBreakState() {
  // Quiet: a failed read shows the ordinary home (the server refuses what a break closes anyway).
  const query = useQuery({
    queryKey: ['responsible', 'break'],
    queryFn: () => request('/api/responsible', breakParser, { background: true }).catch((): BreakState => ({ timeOutUntil: null, selfExcludedUntil: null })),
    staleTime: 60_000,
  });
  const state = query.data;
  const onBreak = state?.selfExcludedUntil
    ? { kind: 'exclusion' as const, until: state.selfExcludedUntil }
    : state?.timeOutUntil
      ? { kind: 'timeOut' as const, until: state.timeOutUntil }
      : null;
  return { onBreak, pending: query.isPending };
}
