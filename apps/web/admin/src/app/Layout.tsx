import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { changeLocale, currentLocale, type AdminLocale } from '../i18n/i18n';
import { call } from '../shared/client';
import { useLiveQueues } from '../shared/live';
import { can, type Capability } from '../shared/roles';
import { setToken } from '../shared/session';
import { useOperator, useToken } from './useOperator';

type QueueKey = 'withdrawals' | 'slips' | 'unmatched' | 'chats';
type NavKey = 'dashboard' | 'approvals' | 'withdrawals' | 'slips' | 'unmatched' | 'held' | 'members' | 'risk' | 'chat' | 'promotions' | 'settings' | 'operators' | 'audit' | 'sandbox' | 'reports';
/** An item whose words live outside `nav.*` (in its feature's own text file) names them in `label`. */
type NavItem = { to: string; key: NavKey; capability: Capability; queue?: QueueKey } | { to: string; key: 'reconciliation'; label: 'recon.nav'; capability: Capability; queue?: QueueKey };
const NAV: readonly NavItem[] = [
  { to: '/', key: 'dashboard', capability: 'dashboard' },
  { to: '/approvals', key: 'approvals', capability: 'approvals' },
  { to: '/withdrawals', key: 'withdrawals', capability: 'withdrawals', queue: 'withdrawals' },
  { to: '/slips', key: 'slips', capability: 'slips.read', queue: 'slips' },
  { to: '/deposits', key: 'unmatched', capability: 'deposits', queue: 'unmatched' },
  { to: '/held', key: 'held', capability: 'held' },
  { to: '/members', key: 'members', capability: 'members.read' },
  { to: '/reports', key: 'reports', capability: 'reports' },
  { to: '/reconciliation', key: 'reconciliation', label: 'recon.nav', capability: 'reconciliation' },
  { to: '/risk', key: 'risk', capability: 'risk' },
  { to: '/chat', key: 'chat', capability: 'chat', queue: 'chats' },
  { to: '/promotions', key: 'promotions', capability: 'promotions' },
  { to: '/settings', key: 'settings', capability: 'settings' },
  { to: '/operators', key: 'operators', capability: 'operators' },
  { to: '/audit', key: 'audit', capability: 'audit' },
  { to: '/sandbox', key: 'sandbox', capability: 'sandbox' },
];

/** The signed-in frame: the menu of what the role may use, who is signed in, language, sign-out. */
export function Layout() {
  const { t } = useTranslation();
  const token = useToken();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { data: operator, error } = useOperator();
  useLiveQueues(token);
  // The nav's counts: the dashboard's queues, refetched when the live connection says a queue changed (and every minute).
  const queues = useQuery({ queryKey: ['dashboard'], queryFn: () => call('dashboard'), enabled: Boolean(token && operator), refetchInterval: 60_000 });
  // The approvals waiting (the same query as the Approvals screen: live updates refetch both).
  const approvals = useQuery({ queryKey: ['approvals'], queryFn: () => call('approvalsList', { query: { status: 'pending' } }), enabled: Boolean(token && operator && can(operator.role, 'approvals')), refetchInterval: 60_000 });
  const approvalsCount = approvals.data?.approvals.length ?? 0;
  if (!token || error) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  const logout = async () => {
    await call('adminLogout').catch(() => undefined);
    setToken(null);
    queryClient.clear();
  };
  return (
    <div className="shell">
      <a className="skip" href="#main">
        {t('app.skip')}
      </a>
      <header className="topbar">
        <span className="brand">{t('app.name')}</span>
        <div className="topbar-right">
          {operator ? (
            <span className="who">
              {operator.name} · {t('app.role', { role: t(`roles.${operator.role}`) })}
            </span>
          ) : null}
          <label className="lang">
            <span className="sr-only">{t('app.language')}</span>
            <select value={currentLocale()} onChange={(event) => void changeLocale(event.target.value as AdminLocale)}>
              <option value="th" lang="th">ไทย</option>
              <option value="en" lang="en">English</option>
            </select>
          </label>
          <button type="button" className="btn" onClick={() => void logout()}>
            {t('app.logout')}
          </button>
        </div>
      </header>
      <nav className="sidenav" aria-label={t('app.menu')}>
        <ul>
          {NAV.filter((item) => can(operator?.role, item.capability)).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === '/'}>
                {'label' in item ? t(item.label) : t(`nav.${item.key}`)}
                {item.key === 'approvals' && approvalsCount > 0 ? (
                  <span className="nav-count" data-testid="nav-count-approvals" aria-label={t('app.waiting', { count: approvalsCount })}>
                    {approvalsCount}
                  </span>
                ) : null}
                {item.queue && queues.data && queues.data.queues[item.queue].count > 0 ? (
                  <span className="nav-count" data-testid={`nav-count-${item.queue}`} aria-label={t('app.waiting', { count: queues.data.queues[item.queue].count })}>
                    {queues.data.queues[item.queue].count}
                  </span>
                ) : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="main" tabIndex={-1}>
        {operator ? <Outlet /> : <p>{t('common.loading')}</p>}
      </main>
    </div>
  );
}
