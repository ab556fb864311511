import { getToken } from '../shared/auth/token';

/**
 * A member opening the app (main.tsx): the code of the first screen (the member layout, and on
 * the dashboard its page), the dashboard's data and the fonts start loading at once, instead of
 * one after the other as the lazy routes, the dashboard's mount and the first layout would ask for
 * them, and React renders the screen once they are there — in one pass, no spinner in between,
 * while the boot splash stays.
 */

/** Where a member lands on the dashboard: /, /user and /user/home all end there. */
const DASHBOARD_PATHS: ReadonlySet<string> = new Set(['/', '/user', '/user/', '/user/home']);

/** Longest wait for the fonts before the screen renders anyway (font-display: swap then applies). */
const FONT_WAIT_MS = 600;

export interface MemberScreen {
  dashboard: boolean;
}

/** The member screen a page load opens, or null for guests (and a visitor without a token, whom RequireAuth sends to /login). */
export function memberScreen(pathname: string): MemberScreen | null {
  if (!(pathname === '/' || pathname.startsWith('/user')) || !getToken()) return null;
  return { dashboard: DASHBOARD_PATHS.has(pathname) };
}

/** Settles when the screen's code is there (or failed: the lazy routes then report it). */
export function loadScreenCode(screen: MemberScreen): Promise<void> {
  // With React Query's layer, which the lazy screens render in (providers/lazyWithQueries.tsx).
  return Promise.all([
    import('./layouts/MemberLayout'),
    import('./providers/QueryLayer'),
    screen.dashboard ? import('./pages/MemberHomeRoute') : null,
  ]).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Starts the screen's calls (they carry <html lang>: call it once the language is set), in the
 * page's query client (memberData.ts, loaded here with React Query: the guest pages' first
 * download has neither). Settles once they are started.
 */
export function prefetchScreenData(screen: MemberScreen): Promise<void> {
  return import('./memberData').then(
    (m) => m.prefetchScreenData(screen),
    () => undefined,
  );
}

/**
 * (Awaited before the first render of every page load, guest or member: main.tsx.)
 * The regular and semibold faces of the UI font for the scripts on screen (the @font-face rules
 * are split by unicode range; a browser fetches a face when laid-out text first needs it). Loaded
 * before the first render, the screen is laid out once in its fonts instead of again as each face
 * arrives. Settles when they are loaded, or after FONT_WAIT_MS.
 */
export function loadScreenFonts(): Promise<void> {
  if (typeof document.fonts === 'undefined') return Promise.resolve();
  const family = getComputedStyle(document.body).fontFamily;
  const sample = 'ก ກ A1';
  const loads = Promise.all(['400', '600'].map((weight) => document.fonts.load(`${weight} 16px ${family}`, sample))).then(
    () => undefined,
    () => undefined,
  );
  return Promise.race([loads, new Promise<void>((resolve) => setTimeout(resolve, FONT_WAIT_MS))]);
}
