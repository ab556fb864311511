import { useSyncExternalStore } from 'react';

const noUpdates = () => () => undefined;

/**
 * False while React takes over a prerendered page (hydration: the HTML's own state), true after
 * and in every client render. A form sent prerendered stays read-only until then: what is typed
 * or sent goes through the app, never as a native form submission.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noUpdates,
    () => true,
    () => false,
  );
}
