import { Suspense, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from '../../shared/router';
import { useSiteInfo, useSiteTitle } from '../../shared/api/lookups';
import { clearToken } from '../../shared/auth/token';
import { BUILD_YEAR } from '../../shared/config';
import { PageSpinner } from '../../shared/ui/Spinner';
import { BottomNav, NavTab } from './BottomNav';
import { ChatWidgetSlot } from '../../features/chat/ChatWidgetSlot';

const noUpdates = () => () => undefined;

/**
 * This year; while the browser takes over a prerendered page (hydration), the year it was
 * prerendered in (the build's), then this year if that differs: no mismatch with the HTML.
 */
function useYear(): number {
  return useSyncExternalStore(
    noUpdates,
    () => new Date().getFullYear(),
    () => BUILD_YEAR,
  );
}

/** Guest pages: no top bar; bottom menu Home (/login), Register, How to use, Contact; credit line. */
export function GuestLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const info = useSiteInfo();
  useSiteTitle();
  const year = useYear();

  // Spec section 2: a stored token is cleared when a guest page loads.
  useEffect(() => {
    clearToken();
  }, [pathname]);

  const website = info.data?.website || info.data?.name || t('app.name');
  return (
    <div className="app-column guest-layout" data-testid="guest-layout">
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      <main id="main" className="app-main">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <p className="credit-line" data-testid="credit-line">
        {t('layout.credit', { year, website })}
      </p>
      {/* The chat bubble sits in the page's empty top-left corner and scrolls with it: it covers no field or link. */}
      <div className="chat-dock chat-dock-guest">
        <ChatWidgetSlot />
      </div>
      <BottomNav>
        <NavTab to="/login" icon="home" label={t('nav.home')} testId="nav-login" />
        <NavTab to="/register" icon="userPlus" label={t('nav.register')} testId="nav-register" />
        <NavTab to="/howto" icon="play" label={t('nav.howto')} testId="nav-howto" />
        <NavTab to="/contact" icon="contact" label={t('nav.contact')} testId="nav-contact" />
      </BottomNav>
    </div>
  );
}
