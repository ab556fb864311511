import { useSyncExternalStore } from 'react';

// One clock for every countdown on screen: it ticks each second while something listens.
const listeners = new Set<() => void>();
let ticker: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  ticker ??= setInterval(() => {
    for (const notify of listeners) notify();
  }, 1_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && ticker !== null) {
      clearInterval(ticker);
      ticker = null;
    }
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1_000);

/** Whole seconds until `deadlineMs` (epoch milliseconds), 0 once it has passed; re-renders each second. */
export function useSecondsLeft(deadlineMs: number): number {
  const now = useSyncExternalStore(subscribe, nowSeconds, nowSeconds);
  return Math.max(0, Math.floor(deadlineMs / 1_000) - now);
}

/** `mm:ss` (spec section 4): 600 → "10:00", 59 → "00:59". */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(whole / 60))}:${pad(whole % 60)}`;
}
