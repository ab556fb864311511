import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from '../../shared/router';
import { ApiError } from '../../shared/api/ApiError';
import { fetchSiteActive } from '../../shared/api/lookups';
import { PageSpinner } from '../../shared/ui/Spinner';

/** When the site was last confirmed active: later visits render at once and re-check behind. */
let confirmedAt = 0;
const RECHECK_BLOCKING_AFTER_MS = 5 * 60_000;

/** A check already on its way (main.tsx starts one before React boots); reused for 2 s. */
let inFlight: { promise: Promise<boolean>; startedAt: number } | null = null;
const REUSE_MS = 2_000;

/**
 * The server writes the site's state into the page it serves (`<meta name="mw-site-active">`,
 * apps/server/src/http/app-document.ts): for the navigation that loaded the page, that is the
 * answer of the check, and the guard does not wait for a round trip. Later navigations ask the API.
 */
function servedMeta(): string | null {
  return typeof document === 'undefined' ? null : (document.querySelector('meta[name="mw-site-active"]')?.getAttribute('content') ?? null);
}

function restoredPage(): boolean {
  const navigation = typeof performance === 'undefined' ? undefined : performance.getEntriesByType?.('navigation')[0];
  return navigation !== undefined && (navigation as PerformanceNavigationTiming).type === 'back_forward';
}

function servedSiteActive(): boolean | null {
  // A page the browser took from its cache for back/forward may carry an old state: ask instead.
  if (restoredPage()) return null;
  const content = servedMeta();
  return content === 'true' ? true : content === 'false' ? false : null;
}

export function adoptServedSiteActive(): void {
  const served = servedSiteActive();
  if (served === null) {
    // Restored by back/forward from a page that said "active" (the prerendered /login among them):
    // it shows at once, as that page did (the HTML on screen is the form), and the guard asks the
    // API behind it — as on any visit within RECHECK_BLOCKING_AFTER_MS of a confirmation.
    if (restoredPage() && servedMeta() === 'true') confirmedAt = Date.now();
    return;
  }
  inFlight = { promise: Promise.resolve(served), startedAt: Date.now() };
  if (served) confirmedAt = Date.now();
}

/**
 * Prerendering (src/prerender.tsx): /login is rendered as on a site known to be active — the
 * server sends that page only then (apps/server/src/http/app-document.ts), with the meta that
 * makes the browser's first render the same (adoptServedSiteActive).
 */
export function assumeSiteActive(): void {
  confirmedAt = Date.now();
}

export function startSiteActiveCheck(): Promise<boolean> {
  if (inFlight && Date.now() - inFlight.startedAt < REUSE_MS) return inFlight.promise;
  const promise = fetchSiteActive();
  promise.then(
    (active) => {
      if (active) confirmedAt = Date.now();
    },
    () => undefined, // handled by whoever awaits it; never an unhandled rejection
  );
  inFlight = { promise, startedAt: Date.now() };
  return promise;
}

export function resetSiteActiveGuard(): void {
  confirmedAt = 0;
  inFlight = null;
}

/**
 * Every navigation to /login first asks GET /api/lookup/active (for the one that loaded the page,
 * the server's answer is in the page: adoptServedSiteActive); `{active:false}` or a 410 `gone`
 * sends the visitor to /terminated. Network failures let the page through: a shut-down site
 * answers, it does not go silent.
 */
export function SiteActiveGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [ready, setReady] = useState(() => Date.now() - confirmedAt < RECHECK_BLOCKING_AFTER_MS);

  useEffect(() => {
    let cancelled = false;
    startSiteActiveCheck()
      .then((active) => {
        if (cancelled) return;
        if (!active) {
          navigate('/terminated', { replace: true });
          return;
        }
        setReady(true);
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (error instanceof ApiError && error.code === 'gone') {
          navigate('/terminated', { replace: true });
          return;
        }
        setReady(true);
      });
    return () => {
      cancelled = true;
    };
  }, [location.key, navigate]);

  return ready ? children : <PageSpinner />;
}
