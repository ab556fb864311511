import type { QueryClient } from '@tanstack/react-query';
import { prefetchHomeEntry } from '../features/home/homeQueries';
import { siteInfoQuery } from '../shared/api/lookups';
import { getToken } from '../shared/auth/token';

/** Where a member lands on the dashboard: /, /user and /user/home all end there. */
const DASHBOARD_PATHS: ReadonlySet<string> = new Set(['/', '/user', '/user/', '/user/home']);

/** Longest wait for the fonts before the screen renders anyway (font-display: swap then applies). */
const FONT_WAIT_MS = 600;

export interface MemberBoot {
  /**
   * Starts the first screen's data and fonts (after the locale is set: requests and fonts follow
   * it); settles when the screen's code is there (or failed: the lazy routes then report it) and
   * its fonts are loaded (or took too long).
   */
  ready: (queryClient: QueryClient) => Promise<void>;
}

/**
 * The regular and semibold faces of the UI font for the scripts on screen (the @font-face rules
 * are split by unicode range; a browser fetches a face when laid-out text first needs it). Loaded
 * with the code, the screen is laid out once in its fonts instead of again as each face arrives.
 */
function loadFonts(): Promise<unknown> {
  if (typeof document.fonts === 'undefined') return Promise.resolve();
  const family = getComputedStyle(document.body).fontFamily;
  const sample = 'ก ກ A1';
  return Promise.all(['400', '600'].map((weight) => document.fonts.load(`${weight} 16px ${family}`, sample))).catch(() => undefined);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}

/**
 * A member opening the app: the code of the first screen (the member layout, and on the
 * dashboard its page), the dashboard's data and the fonts start loading at once, instead of one
 * after the other as the lazy routes, the dashboard's mount and the first layout would ask for
 * them, and React renders the screen once they are there — in one pass, no spinner in between.
 * Null for guests (and for a visitor without a token, whom RequireAuth sends to /login).
 */
export function startMemberBoot(pathname: string): MemberBoot | null {
  if (!getToken() || !(pathname === '/' || pathname.startsWith('/user'))) return null;
  const dashboard = DASHBOARD_PATHS.has(pathname);
  const code = Promise.all([import('./layouts/MemberLayout'), dashboard ? import('./pages/MemberHomeRoute') : null]).then(
    () => undefined,
    () => undefined,
  );
  return {
    ready: async (queryClient) => {
      queryClient.fetchQuery(siteInfoQuery()).catch(() => undefined);
      if (dashboard) prefetchHomeEntry(queryClient);
      await Promise.all([code, Promise.race([loadFonts(), delay(FONT_WAIT_MS)])]);
    },
  };
}
