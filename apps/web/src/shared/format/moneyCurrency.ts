import { useSyncExternalStore } from 'react';

/**
 * The currency of the signed-in member's money (BAHT, or LAK for Laos members who chose it),
 * learnt from GET /api/wallet. Every amount on screen carries its sign: ฿ or ₭.
 */
export type MoneyCurrency = 'BAHT' | 'LAK';

let current: MoneyCurrency = 'BAHT';
const listeners = new Set<() => void>();

export function setMoneyCurrency(currency: MoneyCurrency): void {
  if (currency === current) return;
  current = currency;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useMoneyCurrency(): MoneyCurrency {
  return useSyncExternalStore(subscribe, () => current, () => current);
}

export function currencySign(currency: MoneyCurrency): string {
  return currency === 'LAK' ? '\u20AD' : '\u0E3F';
}

/** The current currency outside React (texts built in plain functions). */
export function currentMoneyCurrency(): MoneyCurrency {
  return current;
}

/** The i18n key of the unit word written after an amount in the member's currency (บาท / ບາດ / baht, กีบ / ກີບ / kip). */
export function unitKey(currency: MoneyCurrency): 'wallet.baht' | 'wallet.kip' {
  return currency === 'LAK' ? 'wallet.kip' : 'wallet.baht';
}
