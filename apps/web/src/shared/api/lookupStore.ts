import { useEffect, useSyncExternalStore } from 'react';
import { request, type ResponseParser } from './client';

/**
 * A lookup every page may show (the site's name, the chat switch), kept without React Query so
 * that the guest pages' first download does not carry it: one answer per page load, asked again
 * when older than `staleMs` and a screen that shows it mounts. Failures are silent (the screen
 * shows its fallback). During hydration the value is "not loaded", as in the prerendered HTML.
 */
export interface Lookup<T> {
  /** Starts the call unless a fresh answer or a call is there; settles with the answer (undefined on failure). */
  load(): Promise<T | undefined>;
  /** The answer when there is one (undefined while loading or after a failure); loads it on mount. */
  use(): T | undefined;
  /** Forgets the answer (tests, and a new page load). */
  reset(): void;
}

export function createLookup<T>(path: string, parser: ResponseParser<T>, staleMs: number): Lookup<T> {
  let value: T | undefined;
  let at = 0;
  let inFlight: Promise<T | undefined> | null = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const load = (): Promise<T | undefined> => {
    if (inFlight) return inFlight;
    if (value !== undefined && Date.now() - at < staleMs) return Promise.resolve(value);
    inFlight = request(path, parser, { background: true }).then(
      (answer) => {
        value = answer;
        at = Date.now();
        inFlight = null;
        notify();
        return answer;
      },
      () => {
        inFlight = null;
        return value;
      },
    );
    return inFlight;
  };
  return {
    load,
    use() {
      useEffect(() => {
        void load();
      }, []);
      return useSyncExternalStore(
        subscribe,
        () => value,
        () => undefined,
      );
    },
    reset() {
      value = undefined;
      at = 0;
      inFlight = null;
    },
  };
}
