import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { startSiteActiveCheck } from './app/guards/SiteActiveGuard';
import { startMemberBoot } from './app/memberBoot';
import { createQueryClient } from './app/providers/queryClient';
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

// A member's first screen: its code starts loading now (see memberBoot.ts).
const memberBoot = startMemberBoot(pathname);

/** The rest of the current task is left to the browser (a slow phone then has shorter tasks). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}

async function start(): Promise<void> {
  // On a member's screen the start waits for the screen's code anyway; begin it in a task of its
  // own rather than at the end of the long evaluation of the entry's modules.
  if (memberBoot) await nextTask();
  setupI18n();
  const locale = storedLocale();
  if (locale !== defaultLocale) {
    // A remembered non-default language loads before the first paint, so nothing flips.
    await changeLocale(locale).catch(() => undefined);
  }
  const queryClient = createQueryClient();
  // The boot splash (index.html) stays until a member's screen can render at once.
  if (memberBoot) await memberBoot.ready(queryClient);
  const root = document.getElementById('root');
  if (!root) throw new Error('Missing #root element');
  // As a transition the first render yields to the browser between components instead of
  // blocking the main thread in one long task (slow phones: less total blocking time).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    );
  });
}

void start();
