import { useSyncExternalStore } from 'react';

/** Number of requests in flight that the global loading indicator waits for. */
let pending = 0;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function beginLoading(): () => void {
  pending += 1;
  notify();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    pending -= 1;
    notify();
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function usePendingRequests(): number {
  return useSyncExternalStore(subscribe, () => pending, () => 0);
}
