/** The operator's session: the token and who they are, kept for this browser tab only. */
export type Role = 'owner' | 'finance' | 'support' | 'marketing';

export interface Operator {
  username: string;
  name: string;
  role: Role;
}

const KEY = 'mw-admin-session';
const listeners = new Set<() => void>();

export function getToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  } catch {
    // storage refused: the session lasts while the page is open
  }
  for (const listener of listeners) listener();
}

/** Called when the session starts or ends (another call answered 401). */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
