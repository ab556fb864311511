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
 * Which locale's texts the entry bundles (la with `VITE_LAOS=true`, else th). A plain comparison
 * so the bundler folds it and drops the other build's default locale. Only a bundling choice now:
 * whether the site is the Lao one is the server's (LAOS below).
 */
export const LAOS_BUILD = import.meta.env.VITE_LAOS === 'true';

/** The meta the server writes into the page in Laos mode (apps/server/src/http/app-document.ts). */
export const LAOS_META = 'mw-laos';

/**
 * The Lao site: the server's LAOS_MODE, which it writes into every page it serves as
 * `<meta name="mw-laos" content="true">` (as it writes the site state), or a Laos build. Lao by
 * default, 8–15 digit phones, Lao banks (BCEL) and the currency choice at registration.
 */
export const LAOS: boolean =
  LAOS_BUILD ||
  (typeof document !== 'undefined'
    ? document.querySelector(`meta[name="${LAOS_META}"]`)?.getAttribute('content') === 'true'
    : // Prerendering in Node (scripts/prerender.mjs) renders the Lao site's pages with this set.
      (globalThis as { __MW_PRERENDER_LAOS__?: boolean }).__MW_PRERENDER_LAOS__ === true);

export const config = {
  laos: LAOS,
  launchNewTab: flag(import.meta.env.VITE_LAUNCH_NEW_TAB, true),
  paytimzMin: positiveNumber(import.meta.env.VITE_PAYTIMZ_MIN, QR_MINIMUMS.PAYTIMZ),
  zpayMin: positiveNumber(import.meta.env.VITE_ZPAY_MIN, QR_MINIMUMS.ZPAY),
  /** The minimum age at registration (VITE_MIN_AGE; the server's MIN_AGE must say the same). */
  minAge: positiveNumber(import.meta.env.VITE_MIN_AGE, DEFAULT_MIN_AGE),
  howtoBaseUrl: (import.meta.env.VITE_HOWTO_BASE_URL || `${import.meta.env.BASE_URL}howto`).replace(/\/+$/, ''),
} as const;

/** The year the app was built (and its guest pages prerendered) in. */
export const BUILD_YEAR = Number(import.meta.env.VITE_BUILD_YEAR) || new Date().getFullYear();
