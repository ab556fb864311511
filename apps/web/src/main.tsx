import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadGuestScreens } from './app/AppRoutes';
import { adoptServedSiteActive, startSiteActiveCheck } from './app/guards/SiteActiveGuard';
import { loadScreenCode, loadScreenFonts, memberScreen, prefetchScreenData } from './app/memberBoot';
import { prerenderedPage } from './app/prerendered';
import { bundledLocale, changeLocale, chosenLocale, loadLaterMessages, rememberLocaleCookie, setupI18n, storedLocale } from './i18n/i18n';
import './shared/ui/fonts';
import './shared/ui/theme.css';
import './shared/ui/components.css';
import { getToken } from './shared/auth/token';

// A guest opening the app lands on /login, whose guard asks GET /api/lookup/active first. The
// page the server sent already carries the answer (meta mw-site-active); without it (a static
// host), start that call now, in parallel with React's start-up, instead of after the first render.
const { pathname } = window.location;
// A guest's screens (the guest layout, the login page) load at once, beside the entry.
// Loaded here, they render at once when React takes the prerendered page over (AppRoutes.tsx `preloadable`).
const guestScreens = memberScreen(pathname) ? null : preloadGuestScreens().catch(() => undefined);
adoptServedSiteActive();
if (pathname === '/login' || ((pathname === '/' || pathname.startsWith('/user')) && !getToken())) {
  void startSiteActiveCheck().catch(() => undefined);
}

/** The rest of the current task is left to the browser (a slow phone then has shorter tasks). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('Missing #root element');
  const locale = storedLocale();
  // The server picks the prerendered page by this cookie; a language chosen before it existed is told now.
  const chosen = chosenLocale();
  if (chosen) rememberLocaleCookie(chosen);
  // A guest page the server sent prerendered (scripts/prerender.mjs) in the member's language:
  // React takes over the HTML on screen (hydration) instead of rendering it again.
  const prerendered = prerenderedPage(root, pathname);
  if (prerendered) {
    setupI18n();
    if (locale !== bundledLocale) await changeLocale(locale).catch(() => undefined);
    await guestScreens;
    if (prerendered.locale === locale) {
      // As a transition, hydration yields to the browser between components (shorter tasks).
      startTransition(() => {
        hydrateRoot(
          root,
          <StrictMode>
            <App />
          </StrictMode>,
        );
      });
      return;
    }
    // Prerendered in another language (a choice made before the cookie was): rendered afresh in
    // the member's language below, replacing the page in one commit.
  }
  // A member's screen loads its code, data and fonts before React renders (memberBoot.ts), each
  // step in a task of its own: the evaluation of the entry's modules is a long task already.
  const screen = memberScreen(pathname);
  let screenCode: Promise<void> | null = null;
  let screenData: Promise<void> | null = null;
  if (screen) {
    await nextTask();
    screenCode = loadScreenCode(screen);
    // Calls carry <html lang>, which already names the bundled language.
    if (locale === bundledLocale) screenData = prefetchScreenData(screen);
    await nextTask();
  }
  setupI18n();
  if (locale !== bundledLocale) {
    // A remembered language, or the Lao site's default, that the entry does not bundle loads
    // before the first paint, so nothing flips.
    await changeLocale(locale).catch(() => undefined);
    if (screen) screenData = prefetchScreenData(screen);
  }
  // The boot splash (index.html) stays until the screen can render at once: a member's code and
  // first calls, and for everyone the UI font's faces (at most 600 ms): the first layout is then
  // done in them, not in a fallback first (on Linux that layout, with its system-font fallback
  // search for Thai, took twice as long) and again as each face arrives.
  await Promise.all([screenCode, screenData, guestScreens, prerendered ? null : loadScreenFonts()]);
  // As a transition the first render yields to the browser between components instead of
  // blocking the main thread in one long task (slow phones: less total blocking time).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

// The texts after the first screen (error messages, the other guest pages…) once it is up.
// A guest page takes the guest texts only; the member's come with a member screen.
void start().then(() => {
  setTimeout(() => void loadLaterMessages({ member: memberScreen(pathname) !== null }).catch(() => undefined), 0);
});

// The installable app (service worker, manifest language, update prompt) once the page has loaded.
if (import.meta.env.PROD) {
  const pwa = () =>
    void Promise.all([import('./app/pwa/serviceWorker'), loadLaterMessages({ member: false })]).then(
      ([m]) => m.registerServiceWorker(),
      () => undefined,
    );
  if (document.readyState === 'complete') pwa();
  else window.addEventListener('load', pwa, { once: true });
}
