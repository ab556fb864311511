import { useMutation, useQueryClient } from '@tanstack/react-query';
import { responsibleEndpoints, type LimitPeriod, type ResponsibleState } from '@mw/contract/responsible';
import { callEndpoint } from '../../shared/api/client';
import { responsibleQueryKey } from './responsibleState';

export { responsibleQueryKey, useResponsible } from './responsibleState';

function useStateMutation<V>(run: (value: V) => Promise<ResponsibleState>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: (state) => queryClient.setQueryData(responsibleQueryKey, state) });
}

/** PUT /api/responsible/limits: amounts in baht (or kip), null for none; a period left out stays as it is. */
export function useSetLimits() {
  return useStateMutation((body: Partial<Record<LimitPeriod, string | null>>) => callEndpoint(responsibleEndpoints.responsibleLimitsPut, { body }));
}

/** DELETE /api/responsible/limits/pending/:period. */
export function useCancelPending() {
  return useStateMutation((period: LimitPeriod) => callEndpoint(responsibleEndpoints.responsiblePendingCancel, { params: { period } }));
}

/** PUT /api/responsible/reality-check {minutes}. */
export function useSetRealityCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (minutes: 0 | 15 | 30 | 60) => callEndpoint(responsibleEndpoints.responsibleRealityCheck, { body: { minutes } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: responsibleQueryKey }),
  });
}

/** POST /api/responsible/time-out {days} or /self-exclusion {months}: every session ends (the caller logs out). */
export function useTakeBreak() {
  return useMutation({
    mutationFn: (choice: { kind: 'timeOut'; days: 1 | 7 | 30 | 42 } | { kind: 'exclusion'; months: 6 | 12 | 60 }) =>
      choice.kind === 'timeOut'
        ? callEndpoint(responsibleEndpoints.responsibleTimeOut, { body: { days: choice.days } })
        : callEndpoint(responsibleEndpoints.responsibleSelfExclusion, { body: { months: choice.months } }),
  });
}

/** The break in force, if any (self-exclusion first). */
export function activeBreak(state: ResponsibleState | undefined): { kind: 'exclusion' | 'timeOut'; until: string } | null {
  if (state?.selfExcludedUntil) return { kind: 'exclusion', until: state.selfExcludedUntil };
  if (state?.timeOutUntil) return { kind: 'timeOut', until: state.timeOutUntil };
  return null;
}
