import { DEFAULT_MIN_AGE } from '@mw/contract/age';
import { QR_MINIMUMS } from '@mw/contract/constants';

/**
 * Build settings of the web app (Vite env, fixed at build time). The one place that reads
 * import.meta.env, so a reader finds every switch here.
 */
function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return value === 'true' || value === '1';
}

function positiveNumber(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/**
 * Laos build: default locale la, no 10-digit phone rule, currency choice at registration.
 * A plain comparison so the bundler folds it and drops the other build's default locale.
 */
export const LAOS_BUILD = import.meta.env.VITE_LAOS === 'true';

export const config = {
  laos: LAOS_BUILD,
  launchNewTab: flag(import.meta.env.VITE_LAUNCH_NEW_TAB, true),
  paytimzMin: positiveNumber(import.meta.env.VITE_PAYTIMZ_MIN, QR_MINIMUMS.PAYTIMZ),
  zpayMin: positiveNumber(import.meta.env.VITE_ZPAY_MIN, QR_MINIMUMS.ZPAY),
  /** The minimum age at registration (VITE_MIN_AGE; the server's MIN_AGE must say the same). */
  minAge: positiveNumber(import.meta.env.VITE_MIN_AGE, DEFAULT_MIN_AGE),
  howtoBaseUrl: (import.meta.env.VITE_HOWTO_BASE_URL || `${import.meta.env.BASE_URL}howto`).replace(/\/+$/, ''),
} as const;
