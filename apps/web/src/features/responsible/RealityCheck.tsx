import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readStorage, writeStorage } from '../../shared/storage';
import { Money } from '../../shared/ui/Money';
import { Modal } from '../../shared/ui/Modal';
import { useLogout } from '../auth/logout/useLogout';
import { responsibleQueryKey, useResponsible } from './responsibleState';
import './responsible.css';

const KEY = 'reality-check';

/** When the next reminder of this login is due (kept across reloads, per login). */
function readNext(session: string): number | null {
  try {
    const stored = JSON.parse(readStorage('local', KEY) ?? 'null') as { session?: unknown; next?: unknown } | null;
    return stored && stored.session === session && typeof stored.next === 'number' ? stored.next : null;
  } catch {
    return null;
  }
}

/**
 * The reality check: every N minutes of a login (the member's choice; off by default) a dialog
 * says how long the member has been logged in and the session's net result (deposits,
 * withdrawals, game results), with "continue" and "log out". The next due time is kept in local
 * storage per login, so a reload neither skips nor repeats it.
 */
export function RealityCheck() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const state = useResponsible();
  const { logout } = useLogout();
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  const minutes = state.data?.realityCheckMinutes ?? 0;
  const session = state.data?.session.startedAt ?? '';

  useEffect(() => {
    if (!minutes || !session || openedAt !== null) return undefined;
    const next = readNext(session) ?? new Date(session).getTime() + minutes * 60_000;
    const timer = window.setTimeout(
      () => {
        void queryClient.invalidateQueries({ queryKey: responsibleQueryKey });
        setOpenedAt(Date.now());
      },
      Math.max(0, next - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [minutes, session, queryClient, openedAt]);

  if (openedAt === null || !state.data) return null;
  const s = state.data.session;
  const elapsed = Math.max(0, openedAt - new Date(s.startedAt).getTime());
  const hours = Math.floor(elapsed / 3_600_000);
  const mins = Math.floor((elapsed % 3_600_000) / 60_000);
  const net = s.gameResult;
  const keepPlaying = () => {
    writeStorage('local', KEY, JSON.stringify({ session, next: Date.now() + minutes * 60_000 }));
    setOpenedAt(null);
  };
  return (
    <Modal
      open
      title={t('responsible.realityDialogTitle')}
      testId="reality-check"
      focusField={false}
      footer={
        <div className="btn-row">
          <button type="button" className="btn btn-secondary" onClick={() => void logout()} data-testid="reality-logout">
            {t('responsible.logout')}
          </button>
          <button type="button" className="btn btn-primary" onClick={keepPlaying} data-testid="reality-continue">
            {t('responsible.keepPlaying')}
          </button>
        </div>
      }
    >
      <p data-testid="reality-duration">{t('responsible.realityLoggedIn', { duration: t('responsible.duration', { hours, minutes: mins }) })}</p>
      <dl className="reality-figures">
        <dt>{t('responsible.deposits')}</dt>
        <dd>
          <Money amount={s.deposits} />
        </dd>
        <dt>{t('responsible.withdrawals')}</dt>
        <dd>
          <Money amount={s.withdrawals} />
        </dd>
        <dt>{t('responsible.games')}</dt>
        <dd data-testid="reality-net">
          <Money amount={net} sign={net > 0 ? '+' : null} />
        </dd>
      </dl>
    </Modal>
  );
}
