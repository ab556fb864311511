/**
 * What the API client tells the app when an answer ends the session or the whole service:
 * `expired` (invalid-token, EXPIRED_AUTH_TOKEN, "cannot verify identity") or `gone`.
 * The app layer subscribes and navigates; shared code never imports the router's state.
 */
export type SessionEvent = 'expired' | 'gone';

const listeners = new Set<(event: SessionEvent) => void>();

/**
 * An event of a call the app started before anyone subscribed (a member's first loads start
 * before React renders, see memberBoot.ts): the first subscriber gets it.
 */
let unheard: SessionEvent | null = null;
let subscribedOnce = false;

export function onSessionEvent(listener: (event: SessionEvent) => void): () => void {
  listeners.add(listener);
  subscribedOnce = true;
  if (unheard !== null) {
    const event = unheard;
    unheard = null;
    listener(event);
  }
  return () => {
    listeners.delete(listener);
  };
}

export function emitSessionEvent(event: SessionEvent): void {
  if (!subscribedOnce) {
    unheard = event;
    return;
  }
  for (const listener of listeners) listener(event);
}
