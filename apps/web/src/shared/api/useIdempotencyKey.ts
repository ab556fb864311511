import { useMemo, useRef } from 'react';
import { ApiError } from './ApiError';
import { createIdempotencyKey } from './idempotency';

export interface IdempotencyKeys {
  /** The key for this action: the same one again while the payload is unchanged and unfinished. */
  keyFor: (payload: unknown) => string;
  /** The action finished: the next one gets a fresh key. */
  done: () => void;
  /** After a failure: keeps the key only when the outcome is unknown (see outcomeUnknown). */
  failed: (error: unknown) => void;
}

/**
 * One Idempotency-Key per user action. Sending the same thing again after a failure with an
 * unknown outcome (network, timeout) is a retry of that action, so it keeps the key and the
 * server moves the money at most once; a changed amount or target is a new action.
 */
export function useIdempotencyKey(): IdempotencyKeys {
  const last = useRef<{ fingerprint: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor: (payload) => {
        const fingerprint = JSON.stringify(payload) ?? '';
        if (last.current?.fingerprint === fingerprint) return last.current.key;
        const key = createIdempotencyKey();
        last.current = { fingerprint, key };
        return key;
      },
      done: () => {
        last.current = null;
      },
      failed: (error) => {
        if (!outcomeUnknown(error)) last.current = null;
      },
    }),
    [],
  );
}

/**
 * Whether a failed money call may have happened after all: no answer (network, timeout), still
 * running (REQUEST_IN_PROGRESS), unconfirmed by a provider (TRANSFER_PENDING), or a 5xx without a
 * definite code. Sending it again must then reuse the key; any other answer is final.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (error.kind !== 'server') return true;
  if (error.code === 'REQUEST_IN_PROGRESS' || error.code === 'TRANSFER_PENDING') return true;
  return error.status >= 500 && !FINAL_FAILURES.has(error.code ?? '');
}

const FINAL_FAILURES: ReadonlySet<string> = new Set(['TRANSFER_FAIL', 'GAME_ACTIVATION_FAIL', 'NOT_IMPLEMENTED']);

/** TanStack retry for money calls: once, with the same variables (so the same key), when no answer came. */
export function retryMoneyCall(failureCount: number, error: unknown): boolean {
  return failureCount < 1 && error instanceof ApiError && error.kind === 'network';
}
