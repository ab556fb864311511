import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from '../../shared/router';
import { useLogout } from '../../features/auth/logout/useLogout';
import { useSiteInfo, useSiteTitle } from '../../shared/api/lookups';
import { Icon } from '../../shared/ui/Icon';
import { LanguageSelect } from '../../shared/ui/LanguageSelect';
import { Logo } from '../../shared/ui/Logo';
import { PageSpinner } from '../../shared/ui/Spinner';
import { BottomNav, NavButton, NavHome, NavTab } from './BottomNav';
import { ChatWidgetSlot, useChatWidgetEnabled } from '../../features/chat/ChatWidgetSlot';
// The default locale's member texts, before any member screen renders.
import '../../i18n/memberMessages';
// The wallet is read again when the app comes back to the front (focus or visibility).
import { refetchWalletOnFocus } from '../watchFocus';

// Balances pushed by the server (and socket.io with them) load after the layout's first render.
const BalancePush = lazy(() => import('../../features/balance-push/BalancePush'));
// The conditions (and the HTML sanitiser they need) load when the member first opens them.
// The reality check (and the contract's schemas it reads with) loads after the layout.
const RealityCheck = lazy(() => import('../../features/responsible/RealityCheck').then((m) => ({ default: m.RealityCheck })));
const ConditionsModal = lazy(() => import('../../features/conditions/ConditionsModal').then((m) => ({ default: m.ConditionsModal })));

/** Member pages: top bar (name, language, logout) and the five-item bottom menu. */
export function MemberLayout() {
  const { t } = useTranslation();
  const info = useSiteInfo();
  useSiteTitle();
  const { logout, pending } = useLogout();
  const [conditionsOpen, setConditionsOpen] = useState(false);
  const chatEnabled = useChatWidgetEnabled();
  const queryClient = useQueryClient();
  useState(() => refetchWalletOnFocus(queryClient));

  return (
    <div className="app-column member-layout" data-testid="member-layout">
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      <header className="top-bar" data-testid="top-bar">
        {/* Its name starts with the visible site name (axe label-content-name-mismatch), then says where it goes. */}
        <Link to="/user/home" className="top-bar-home" aria-label={`${info.data?.name || t('app.name')} · ${t('nav.home')}`}>
          <Logo name={info.data?.name || t('app.name')} size={34} />
        </Link>
        <LanguageSelect compact />
        {/* The chat bubble is docked here on member pages instead of floating over their content. */}
        {chatEnabled && (
          <span className="chat-dock">
            <ChatWidgetSlot />
          </span>
        )}
        <button
          type="button"
          className="icon-button"
          onClick={() => void logout()}
          disabled={pending}
          aria-label={t('nav.logout')}
          title={t('nav.logout')}
          data-testid="logout-button"
        >
          <Icon name="logout" />
        </button>
      </header>
      <main id="main" className="app-main">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
        <footer className="muted responsible-footer" data-testid="responsible-footer">
          <Link to="/user/responsible" data-testid="responsible-footer-link">
            {t('responsible.link')}
          </Link>
        </footer>
      </main>
      <Suspense fallback={null}>
        <RealityCheck />
      </Suspense>
      <Suspense fallback={null}>
        <BalancePush />
      </Suspense>
      <BottomNav>
        <NavTab to="/user/profile" icon="user" label={t('nav.profile')} testId="nav-profile" />
        <NavButton icon="conditions" label={t('nav.conditions')} testId="nav-conditions" onClick={() => setConditionsOpen(true)} />
        <NavHome to="/user/home" label={t('nav.home')} testId="nav-home" />
        <NavTab to="/user/statement" icon="statement" label={t('nav.statement')} testId="nav-statement" />
        <NavTab to="/user/contact" icon="contact" label={t('nav.contact')} testId="nav-contact" />
      </BottomNav>
      {conditionsOpen && (
        <Suspense fallback={null}>
          <ConditionsModal open onClose={() => setConditionsOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
