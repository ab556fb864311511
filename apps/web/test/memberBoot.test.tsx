import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, mockApi, ok } from './helpers';
import { homeRoutes, loginMember } from './walletFixtures';

/**
 * main.tsx starts a member's dashboard loads before React renders (memberBoot.ts). Module state
 * (which loads boot started, session events nobody heard yet) is per page load: each test loads
 * the app's modules afresh.
 */
async function bootDashboard() {
  const { createQueryClient } = await import('../src/app/providers/queryClient');
  const { prefetchHomeEntry } = await import('../src/features/home/homeQueries');
  const { AppProviders } = await import('../src/app/providers/AppProviders');
  const { AppRoutes } = await import('../src/app/AppRoutes');
  // The app's router, loaded afresh with the app's modules (its contexts are module state).
  const { MemoryRouter } = await import('../src/shared/router');
  const queryClient = createQueryClient();
  prefetchHomeEntry(queryClient);
  // Boot's loads may even settle before React renders.
  await new Promise((resolve) => setTimeout(resolve, 20));
  render(
    <MemoryRouter initialEntries={['/user/home']}>
      <AppProviders queryClient={queryClient}>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

describe('member boot', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it('the first dashboard shows the loads boot started, without asking again; a later entry loads again', async () => {
    loginMember();
    const api = mockApi({ ...homeRoutes(), 'GET /api/account/profile': fail(501, 'NOT_IMPLEMENTED') });
    await bootDashboard();
    expect((await screen.findByTestId('total-balance')).textContent).toBe('฿650.30');
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const path of ['/api/wallet', '/api/wallet/refresh/slot', '/api/spinwheel/active']) expect(api.callsTo('GET', path), path).toHaveLength(1);

    fireEvent.click(screen.getByTestId('nav-profile'));
    await waitFor(() => expect(screen.queryByTestId('home-page')).toBeNull());
    fireEvent.click(screen.getByTestId('nav-home'));
    await screen.findByTestId('total-balance');
    for (const path of ['/api/wallet', '/api/wallet/refresh/slot', '/api/spinwheel/active']) {
      await waitFor(() => expect(api.callsTo('GET', path), path).toHaveLength(2));
    }
  });

  it('a failed boot load shows as the dashboard’s own failure, not asked twice', async () => {
    loginMember();
    const api = mockApi({ ...homeRoutes(), 'GET /api/wallet': fail(400, 'NO_USER') });
    await bootDashboard();
    expect(await screen.findByText('ลองใหม่')).toBeTruthy();
    expect(api.callsTo('GET', '/api/wallet')).toHaveLength(1);
  });

  it('a session-ending answer that came before the app subscribed still ends the session', async () => {
    loginMember();
    mockApi({ ...homeRoutes(), 'GET /api/wallet': fail(410, 'gone'), 'GET /api/wallet/refresh/slot': fail(410, 'gone') });
    await bootDashboard();
    expect(await screen.findByTestId('terminated-page')).toBeTruthy();
  });

  it('an active spin wheel found by boot shows the spin tile', async () => {
    loginMember();
    const api = mockApi({ ...homeRoutes(), 'GET /api/spinwheel/active': ok({ active: true, extra: 1 }) });
    await bootDashboard();
    expect((await screen.findByTestId('home-tile-spin')).getAttribute('href')).toBe('/user/spin');
    expect(api.callsTo('GET', '/api/spinwheel/active')).toHaveLength(1);
  });
});
