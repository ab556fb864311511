/**
 * What a session's end clears besides the token: React Query's cache (its client registers here
 * when it is made, app/providers/queryClient.ts). The session redirect (SessionRedirects) runs it,
 * without importing React Query itself, which is not in the guest pages' first download.
 */
const cleanups = new Set<() => void>();

export function onSessionEnd(cleanup: () => void): void {
  cleanups.add(cleanup);
}

export function runSessionEndCleanups(): void {
  for (const cleanup of cleanups) cleanup();
}
