import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startSiteActiveCheck } from './app/guards/SiteActiveGuard';
import { changeLocale, defaultLocale, setupI18n, storedLocale } from './i18n/i18n';
import './shared/ui/fonts';
import './shared/ui/theme.css';
import './shared/ui/components.css';
import { getToken } from './shared/auth/token';

// A guest opening the app lands on /login, whose guard asks GET /api/lookup/active first:
// start that call now, in parallel with React's start-up, instead of after the first render.
const { pathname } = window.location;
if (pathname === '/login' || ((pathname === '/' || pathname.startsWith('/user')) && !getToken())) {
  void startSiteActiveCheck().catch(() => undefined);
}

async function start(): Promise<void> {
  setupI18n();
  const locale = storedLocale();
  if (locale !== defaultLocale) {
    // A remembered non-default language loads before the first paint, so nothing flips.
    await changeLocale(locale).catch(() => undefined);
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('Missing #root element');
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

void start();
