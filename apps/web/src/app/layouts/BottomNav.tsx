import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from '../../shared/router';
import { Icon, type IconName } from '../../shared/ui/Icon';

export function BottomNav({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <nav className="bottom-nav" aria-label={t('nav.mainMenu')} data-testid="bottom-nav">
      {children}
    </nav>
  );
}

interface NavTabProps {
  to: string;
  icon: IconName;
  label: string;
  testId: string;
}

export function NavTab({ to, icon, label, testId }: NavTabProps) {
  return (
    <NavLink to={to} className={({ isActive }) => (isActive ? 'nav-item active' : 'nav-item')} data-testid={testId}>
      <Icon name={icon} size={24} />
      <span className="nav-label">{label}</span>
    </NavLink>
  );
}

/** The big centre Home button of the member menu. */
export function NavHome({ to, label, testId }: Omit<NavTabProps, 'icon'>) {
  return (
    <NavLink to={to} className={({ isActive }) => (isActive ? 'nav-item nav-home active' : 'nav-item nav-home')} data-testid={testId}>
      <span className="nav-home-bubble">
        <Icon name="home" size={28} />
      </span>
      <span className="nav-label">{label}</span>
    </NavLink>
  );
}

export function NavButton({ icon, label, testId, onClick }: Omit<NavTabProps, 'to'> & { onClick: () => void }) {
  return (
    <button type="button" className="nav-item" onClick={onClick} data-testid={testId}>
      <Icon name={icon} size={24} />
      <span className="nav-label">{label}</span>
    </button>
  );
}
