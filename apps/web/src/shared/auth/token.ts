import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@mw/contract/constants';
import { readStorage, removeStorage, writeStorage } from '../storage';

/**
 * The member's bearer token: in localStorage when "remember me" was ticked, otherwise in
 * sessionStorage (gone when the tab closes). The one piece of global client state besides locale.
 */
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  return readStorage('local', STORAGE_KEYS.token) ?? readStorage('session', STORAGE_KEYS.token);
}

export function setToken(token: string, remember: boolean): void {
  removeStorage('local', STORAGE_KEYS.token);
  removeStorage('session', STORAGE_KEYS.token);
  writeStorage(remember ? 'local' : 'session', STORAGE_KEYS.token, token);
  notify();
}

export function clearToken(): void {
  if (getToken() === null) return;
  removeStorage('local', STORAGE_KEYS.token);
  removeStorage('session', STORAGE_KEYS.token);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab logging out clears localStorage; follow it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.token) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useToken(): string | null {
  return useSyncExternalStore(subscribe, getToken, () => null);
}
