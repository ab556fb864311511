import { useMutation as useQueryMutation, type DefaultError, type UseMutationOptions, type UseMutationResult } from '@tanstack/react-query';
import { useRef } from 'react';

/** A stable name for each file or blob a call sends (JSON would write every one as `{}`). */
const blobIds = new WeakMap<Blob, number>();
let nextBlobId = 0;

/** What makes two calls the same call: their variables, as JSON (a file by its identity). */
function callKey(variables: unknown): string {
  try {
    return JSON.stringify(variables ?? null, (_key, value: unknown) => {
      if (!(value instanceof Blob)) return value;
      let id = blobIds.get(value);
      if (id === undefined) {
        nextBlobId += 1;
        id = nextBlobId;
        blobIds.set(value, id);
      }
      return `blob#${id}`;
    });
  } catch {
    // Not JSON (a cycle): never the same as another call.
    nextBlobId += 1;
    return `call#${nextBlobId}`;
  }
}

/**
 * The back office's mutations: TanStack Query's `useMutation`, except that `mutate` drops a call
 * while the same call (the same variables) is still in flight. A double click on Approve, Reject,
 * Assign or Send reached the server twice before the button's `disabled={isPending}` had
 * re-rendered: money calls were safe on the server (claims and keys), but a chat reply was sent to
 * the member twice and the slip screen showed "refused" beside the second call's
 * SLIP_NOT_PENDING. Other calls (another row's Approve) go on at once.
 */
export function useMutation<TData = unknown, TError = DefaultError, TVariables = void, TOnMutateResult = unknown>(
  options: UseMutationOptions<TData, TError, TVariables, TOnMutateResult>,
): UseMutationResult<TData, TError, TVariables, TOnMutateResult> {
  const inFlight = useRef(new Set<string>());
  const result = useQueryMutation<TData, TError, TVariables, TOnMutateResult>({
    ...options,
    onSettled: (data, error, variables, onMutateResult, context) => {
      inFlight.current.delete(callKey(variables));
      return options.onSettled?.(data, error, variables, onMutateResult, context);
    },
  });
  const mutate: typeof result.mutate = (...args) => {
    const key = callKey(args[0]);
    if (inFlight.current.has(key)) return;
    inFlight.current.add(key);
    result.mutate(...args);
  };
  return { ...result, mutate };
}
