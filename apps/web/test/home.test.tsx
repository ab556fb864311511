import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { totalBalance } from '../src/features/home/walletTotals';
import { th } from '../src/i18n/th';
import { fail, mockApi, ok, renderApp } from './helpers';
import { game, homeRoutes, loginMember, walletAnswer } from './walletFixtures';

describe('home dashboard', () => {
  it('sums the wallet and the active game accounts only, in satang', () => {
    const wallet = walletAnswer({
      wallet: { amount: 0.1 },
      slots: [game('PG', { isActive: true, amount: 0.2 }), game('JOKER', { isActive: false, amount: 999 }), game('IMI', { isActive: true, amount: 1234.56 })],
    });
    // 0.1 + 0.2 + 1234.56 in floats is 1234.8600000000001.
    expect(totalBalance(wallet)).toBe(1234.86);
    expect(totalBalance(walletAnswer({ slots: [] }))).toBe(400);
  });

  it('writes a LAK member\'s money with the kip sign, and a baht member\'s with the baht sign again', async () => {
    loginMember();
    const lak = walletAnswer();
    mockApi(homeRoutes({ ...lak, profile: { ...lak.profile, currency: 'LAK' } }));
    const view = renderApp('/user/home');
    await waitFor(() => expect(screen.getByTestId('total-balance').textContent).toBe('\u20AD650.30'));
    expect(screen.getByTestId('invite-bonus-amount').textContent).toBe('\u20AD12.50');
    view.unmount();
    mockApi(homeRoutes());
    renderApp('/user/home');
    await waitFor(() => expect(screen.getByTestId('total-balance').textContent).toBe('฿650.30'));
  });

  it('loads the wallet, refreshes every game, shows the total, coins, last update and the three lists', async () => {
    loginMember();
    const api = mockApi(homeRoutes());
    renderApp('/user/home');
    // 400 + 200.10 + 0.20 + 50 (SLOTXO and HUAYHD are not open).
    expect((await screen.findByTestId('total-balance')).textContent).toBe('฿650.30');
    expect(screen.getByTestId('home-profile-name').textContent).toBe('Somchai');
    expect(screen.getByTestId('coin-count').textContent).toBe('7');
    expect(screen.getByTestId('invite-bonus-amount').textContent).toBe('฿12.50');
    await waitFor(() => expect(api.callsTo('GET', '/api/wallet/refresh/slot')).toHaveLength(1));
    await waitFor(() => expect(localStorage.getItem('last_sync')).toBe('2026-01-02T03:04:05.000Z'));
    expect(screen.getByTestId('last-sync').textContent).toMatch(/02\/01\/2026 \d{2}:04:05/);

    const slots = screen.getByTestId('games-slot');
    expect(within(slots).getAllByRole('button').map((b) => b.dataset.testid)).toEqual(['game-card-PG', 'game-card-JOKER2', 'game-card-SLOTXO']);
    expect(within(screen.getByTestId('games-sport')).getByTestId('game-card-UFABET')).toBeTruthy();
    expect(within(screen.getByTestId('games-lotto')).getByTestId('game-card-HUAYHD')).toBeTruthy();
    // Active: balance and balance × ftWalletSlot; inactive: the open-account prompt.
    const joker2 = screen.getByTestId('game-card-JOKER2');
    expect(within(joker2).getByTestId('game-card-balance').textContent).toBe('฿0.20');
    expect(within(joker2).getByTestId('game-card-credit').textContent).toBe('เครดิต 2.00 (×10)');
    expect(within(screen.getByTestId('game-card-SLOTXO')).getByTestId('game-card-open').textContent).toBe(th.home.openAccount);
  });

  it('"check balance" reads the wallet and its coins again, not only the game balances (a bank-feed deposit shows)', async () => {
    loginMember();
    let wallet = walletAnswer();
    const api = mockApi({ ...homeRoutes(), 'GET /api/wallet': () => ({ status: 200, body: wallet }) });
    renderApp('/user/home');
    expect((await screen.findByTestId('wallet-balance')).textContent).toBe('฿400.00');
    const before = api.callsTo('GET', '/api/wallet').length;
    // Money arrived meanwhile (the bank feed), and a coin.
    wallet = walletAnswer({ wallet: { amount: 900 }, profile: { ...wallet.profile, coin: 8 } });
    fireEvent.click(screen.getByTestId('check-balance'));
    await waitFor(() => expect(screen.getByTestId('wallet-balance').textContent).toBe('฿900.00'));
    expect(screen.getByTestId('coin-count').textContent).toBe('8');
    expect(api.callsTo('GET', '/api/wallet').length).toBeGreaterThan(before);
    expect(api.callsTo('GET', '/api/wallet/refresh/slot').length).toBeGreaterThanOrEqual(2);
  });

  it('shows the refresh-all tile while the spin wheel is not active (501), the spin tile when it is', async () => {
    loginMember();
    const api = mockApi(homeRoutes());
    const { unmount } = renderApp('/user/home');
    const tile = await screen.findByTestId('home-tile-refresh');
    await waitFor(() => expect((tile as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(tile);
    await waitFor(() => expect(api.callsTo('GET', '/api/wallet/refresh/slot')).toHaveLength(2));
    await waitFor(() => expect(api.callsTo('GET', '/api/wallet')).toHaveLength(2));
    expect(screen.queryByTestId('home-tile-spin')).toBeNull();
    // The failed spin check stays silent.
    expect(screen.queryByTestId('toast')).toBeNull();
    unmount();

    mockApi({ ...homeRoutes(), 'GET /api/spinwheel/active': ok({ active: true }) });
    renderApp('/user/home');
    expect((await screen.findByTestId('home-tile-spin')).getAttribute('href')).toBe('/user/spin');
    expect(screen.getByTestId('spin-coins').textContent).toBe('7 เหรียญ');
    expect(screen.queryByTestId('home-tile-refresh')).toBeNull();
  });

  it('asks before receiving the invite bonus and shows the server refusal as an error toast', async () => {
    loginMember();
    const api = mockApi({ ...homeRoutes(), 'GET /api/invite/bonus': fail(501, 'NOT_IMPLEMENTED') });
    renderApp('/user/home');
    await screen.findByTestId('total-balance');
    fireEvent.click(screen.getByTestId('invite-bonus-receive'));
    const dialog = await screen.findByTestId('invite-bonus-dialog');
    expect(dialog.textContent).toContain('10%');
    expect(dialog.textContent).toContain('5%');
    expect(api.callsTo('GET', '/api/invite/bonus')).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('invite-bonus-confirm'));
    const toast = await screen.findByTestId('toast');
    expect(toast.dataset.tone).toBe('error');
    expect(toast.textContent).toBe(th.errors.NOT_IMPLEMENTED);
    expect(screen.queryByTestId('invite-bonus-dialog')).toBeNull();
  });
});
