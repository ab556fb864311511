/**
 * What the API client tells the app when an answer ends the session or the whole service:
 * `expired` (invalid-token, EXPIRED_AUTH_TOKEN, "cannot verify identity") or `gone`.
 * The app layer subscribes and navigates; shared code never imports the router's state.
 */
export type SessionEvent = 'expired' | 'gone';

const listeners = new Set<(event: SessionEvent) => void>();

export function onSessionEvent(listener: (event: SessionEvent) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function emitSessionEvent(event: SessionEvent): void {
  for (const listener of listeners) listener(event);
}
