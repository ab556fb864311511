import i18next from 'i18next';
import { useSyncExternalStore } from 'react';

/**
 * The currency of the signed-in member's money (BAHT, or LAK for Laos members who chose it),
 * learnt from GET /api/wallet. Every amount on screen carries its sign: ฿ or ₭.
 */
export type MoneyCurrency = 'BAHT' | 'LAK';

let current: MoneyCurrency = 'BAHT';
const listeners = new Set<() => void>();

/**
 * The variables every text may quote an amount with: `{{sign}}` (฿ or ₭) and `{{moneyUnit}}`, which
 * a text nests as `$t(translation:wallet.{{moneyUnit}})` for the unit word in its own language
 * (บาท / ບາດ / baht, กีบ / ກີບ / kip). Set at start and whenever the member's currency is learnt.
 */
export function applyMoneyVariables(currency: MoneyCurrency = current): void {
  const interpolation = i18next.options.interpolation;
  const variables = { sign: currencySign(currency), moneyUnit: currency === 'LAK' ? 'kip' : 'baht' };
  if (interpolation) interpolation.defaultVariables = { ...interpolation.defaultVariables, ...variables };
}

export function setMoneyCurrency(currency: MoneyCurrency): void {
  if (currency === current) return;
  current = currency;
  applyMoneyVariables(currency);
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
