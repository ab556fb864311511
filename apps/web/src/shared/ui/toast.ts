import { useSyncExternalStore } from 'react';
import { TOAST_MS } from '@mw/contract/constants';

export type ToastTone = 'error' | 'success' | 'info';
export interface Toast {
  id: number;
  tone: ToastTone;
  text: string;
}

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function set(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  set(toasts.filter((t) => t.id !== id));
}

/** Shows a toast for TOAST_MS (4 s, spec section 8). */
export function showToast(text: string, tone: ToastTone = 'info'): void {
  const id = nextId++;
  set([...toasts.filter((t) => t.text !== text), { id, tone, text }].slice(-3));
  setTimeout(() => dismissToast(id), TOAST_MS);
}

export const toast = {
  error: (text: string) => showToast(text, 'error'),
  success: (text: string) => showToast(text, 'success'),
  info: (text: string) => showToast(text, 'info'),
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const NONE: readonly Toast[] = [];

export function useToasts(): readonly Toast[] {
  // None in prerendered HTML, so none while the browser takes it over (hydration); then the current ones.
  return useSyncExternalStore(subscribe, () => toasts, () => NONE);
}
