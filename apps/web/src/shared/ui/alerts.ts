import { useSyncExternalStore } from 'react';

/** A modal message the member acknowledges (error or saved alerts of spec section 8). */
export interface Alert {
  id: number;
  tone: 'error' | 'success';
  title: string;
  message?: string;
}

let queue: readonly Alert[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const resolvers = new Map<number, () => void>();

function set(next: readonly Alert[]): void {
  queue = next;
  for (const listener of listeners) listener();
}

export function showAlert(alert: Omit<Alert, 'id'>): Promise<void> {
  const id = nextId++;
  set([...queue, { ...alert, id }]);
  return new Promise((resolve) => resolvers.set(id, resolve));
}

export function closeAlert(id: number): void {
  set(queue.filter((a) => a.id !== id));
  resolvers.get(id)?.();
  resolvers.delete(id);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const NONE: readonly Alert[] = [];

export function useAlerts(): readonly Alert[] {
  // None in prerendered HTML, so none while the browser takes it over (hydration); then the current ones.
  return useSyncExternalStore(subscribe, () => queue, () => NONE);
}
