import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { launch, launchRoute, type LaunchTarget } from '../src/features/game-account/launch';
import { th } from '../src/i18n/th';
import { mockApi, ok, renderApp } from './helpers';
import { game, homeRoutes, loginMember, walletAnswer } from './walletFixtures';

const login = { username: 'pg0001', password: 'p@ss/word' };
const event = { action: '/sandbox/games/UFABET/login', method: 'POST' as const, fields: { username: 'ufa01', password: 'secret' } };

function fakeTarget() {
  return { go: vi.fn<(url: string) => void>(), post: vi.fn<LaunchTarget['post']>(), abandon: vi.fn<() => void>() };
}

describe('launch routing per provider (spec "Game launchers")', () => {
  it('uses the auto-login call, with the password only where its path has one', () => {
    expect(launchRoute(game('PG'), login)).toEqual({ kind: 'autologin', code: 'PG', params: { username: 'pg0001' } });
    expect(launchRoute(game('JOKER2'), login)).toEqual({ kind: 'autologin', code: 'JOKER2', params: { username: 'pg0001' } });
    expect(launchRoute(game('HUAYHD'), login)).toMatchObject({ params: { username: 'pg0001' } });
    for (const code of ['ASKMEBET', 'IMI', 'USUN', 'CIRCUS', 'SLOTRACHA', 'PGSLOT']) {
      expect(launchRoute(game(code), login)).toEqual({ kind: 'autologin', code, params: { username: 'pg0001', password: 'p@ss/word' } });
    }
    for (const code of ['BETFLIX', 'AREASLOT']) expect(launchRoute(game(code), login)).toMatchObject({ kind: 'autologin', params: { username: 'pg0001' } });
  });

  it('submits the event form for the provider whose login carries one, and opens the web URL for the others', () => {
    expect(launchRoute(game('UFABET'), { ...login, event })).toEqual({ kind: 'event', event });
    expect(launchRoute(game('JOKER', { web: 'https://joker.example/lobby' }), login)).toEqual({ kind: 'web', url: 'https://joker.example/lobby' });
    expect(launchRoute(game('SEXYGAME', { web: null }), login)).toEqual({ kind: 'none' });
  });

  it('calls GET /api/autoLogin/{provider}/{username}[/{password}] and goes to the link', async () => {
    localStorage.setItem('token', 'member');
    const api = mockApi({
      'GET /api/autoLogin/pg/pg0001': ok({ link: '/sandbox/games/PG/play?t=abc' }),
      'GET /api/autoLogin/askmebet/pg0001/p%40ss%2Fword': ok({ link: 'https://askmebet.example/go' }),
    });
    const pg = fakeTarget();
    await expect(launch(launchRoute(game('PG'), login), pg)).resolves.toBe(true);
    expect(pg.go).toHaveBeenCalledWith('/sandbox/games/PG/play?t=abc');
    const ask = fakeTarget();
    await launch(launchRoute(game('ASKMEBET'), login), ask);
    expect(ask.go).toHaveBeenCalledWith('https://askmebet.example/go');
    expect(api.calls.map((c) => c.path)).toEqual(['/api/autoLogin/pg/pg0001', '/api/autoLogin/askmebet/pg0001/p%40ss%2Fword']);

    const web = fakeTarget();
    await launch(launchRoute(game('JOKER'), login), web);
    expect(web.go).toHaveBeenCalledWith('/sandbox/games/JOKER/lobby');
    const form = fakeTarget();
    await launch({ kind: 'event', event }, form);
    expect(form.post).toHaveBeenCalledWith(event);
    const none = fakeTarget();
    await expect(launch({ kind: 'none' }, none)).resolves.toBe(false);
    expect(none.abandon).toHaveBeenCalled();
    expect(api.calls).toHaveLength(2);
  });
});

/** A tab as window.open answers it: an about:blank document the opener may script. */
function stubWindowOpen() {
  const tab = { opener: window as unknown, location: { href: 'about:blank' }, document: document.implementation.createHTMLDocument(''), close: vi.fn() };
  const open = vi.fn(() => tab);
  vi.stubGlobal('open', open);
  return { tab, open };
}

describe('slot account modal', () => {
  it('Play: opens the tab at the click, moves the wallet in with a key, then launches through auto-login', async () => {
    loginMember();
    const { tab, open } = stubWindowOpen();
    const api = mockApi({
      ...homeRoutes(),
      'GET /api/wallet/account/PG': ok(login),
      'POST /api/wallet/transferAll': ok({ ok: true, wallet: { amount: 0 }, game: { code: 'PG', amount: 600.1 }, amount: 400, reference: 'op-1' }),
      'GET /api/autoLogin/pg/pg0001': ok({ link: '/sandbox/games/PG/play?t=abc' }),
    });
    renderApp('/user/home');
    await screen.findByTestId('total-balance');
    fireEvent.click(screen.getByTestId('game-card-PG'));
    const modal = await screen.findByTestId('slot-account-modal');
    expect((await within(modal).findByTestId('slot-username')).textContent).toBe('pg0001');
    expect(within(modal).getByTestId('slot-password').textContent).not.toContain('p@ss');
    expect(within(modal).getByTestId('slot-balance').textContent).toBe('฿200.10');

    fireEvent.click(within(modal).getByTestId('slot-play'));
    // Nothing moves before the member has seen what moves where.
    const sheet = within(modal).getByTestId('play-confirm');
    expect(sheet.textContent).toContain('฿400.00');
    expect(open).not.toHaveBeenCalled();
    expect(api.callsTo('POST', '/api/wallet/transferAll')).toHaveLength(0);
    fireEvent.click(within(sheet).getByTestId('play-dont-ask'));
    fireEvent.click(within(sheet).getByTestId('play-confirm-go'));
    // Synchronously in the click, before any answer: pop-up blockers allow it.
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    await waitFor(() => expect(tab.location.href).toBe('/sandbox/games/PG/play?t=abc'));
    expect(tab.opener).toBeNull();
    const transfer = api.callsTo('POST', '/api/wallet/transferAll')[0];
    expect(transfer?.body).toEqual({ to: 'PG' });
    expect(transfer?.headers['idempotency-key']).toBeTruthy();
    const order = api.calls.map((c) => c.path).filter((p) => p === '/api/wallet/transferAll' || p.startsWith('/api/autoLogin'));
    expect(order).toEqual(['/api/wallet/transferAll', '/api/autoLogin/pg/pg0001']);
    await waitFor(() => expect(screen.queryByTestId('slot-account-modal')).toBeNull());
    // A toast says what moved; "don't ask again" is remembered.
    expect((await screen.findByText(th.gameAccount.playMoved.replace('{{amount}}', '฿400.00').replace('{{name}}', 'PG Games'))).textContent).toBeTruthy();
    expect(window.localStorage.getItem('play-no-ask')).toBe('true');
  });

  it('a seamless game shows no balance and no transfer: Play launches at once and moves nothing (its bets take the wallet)', async () => {
    loginMember();
    const { tab, open } = stubWindowOpen();
    const wallet = walletAnswer();
    const api = mockApi({
      ...homeRoutes({ ...wallet, slots: [...wallet.slots, game('CIRCUS', { isActive: true, seamless: true })] }),
      'GET /api/wallet/account/CIRCUS': ok({ username: 'circus01', password: 'secret-pass' }),
      'GET /api/autoLogin/circus/circus01/secret-pass': ok({ link: '/sandbox/games/CIRCUS/play?t=s1' }),
    });
    renderApp('/user/home');
    await screen.findByTestId('total-balance');
    const card = screen.getByTestId('game-card-CIRCUS');
    expect(within(card).getByTestId('game-card-seamless').textContent).toBe(th.home.seamless);
    expect(within(card).queryByTestId('game-card-balance')).toBeNull();
    fireEvent.click(card);
    const modal = await screen.findByTestId('slot-account-modal');
    expect((await within(modal).findByTestId('slot-username')).textContent).toBe('circus01');
    expect(within(modal).queryByTestId('slot-balance')).toBeNull();
    expect(within(modal).queryByTestId('slot-transfer')).toBeNull();
    expect(within(modal).getByTestId('slot-seamless-hint').textContent).toBe(th.gameAccount.seamlessHint);
    // With ฿400 in the wallet: no question, no transfer, the game opens.
    fireEvent.click(within(modal).getByTestId('slot-play'));
    expect(within(modal).queryByTestId('play-confirm')).toBeNull();
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    await waitFor(() => expect(tab.location.href).toBe('/sandbox/games/CIRCUS/play?t=s1'));
    expect(api.callsTo('POST', '/api/wallet/transferAll')).toHaveLength(0);
  });

  it('Play still launches when the server finds the wallet empty after all; a real failure closes the tab', async () => {
    loginMember();
    // The member chose not to be asked before Play moves the wallet.
    window.localStorage.setItem('play-no-ask', 'true');
    const { tab } = stubWindowOpen();
    let transferAnswer = { status: 400, body: { message: 'MONEY_NOT_ENOUGH' } };
    mockApi({
      ...homeRoutes(),
      'GET /api/wallet/account/PG': ok(login),
      'POST /api/wallet/transferAll': () => transferAnswer,
      'GET /api/autoLogin/pg/pg0001': ok({ link: '/sandbox/games/PG/play?t=xyz' }),
    });
    renderApp('/user/home');
    await screen.findByTestId('total-balance');
    fireEvent.click(screen.getByTestId('game-card-PG'));
    let modal = await screen.findByTestId('slot-account-modal');
    await within(modal).findByTestId('slot-username');
    fireEvent.click(within(modal).getByTestId('slot-play'));
    await waitFor(() => expect(tab.location.href).toBe('/sandbox/games/PG/play?t=xyz'));

    transferAnswer = { status: 502, body: { message: 'TRANSFER_FAIL' } };
    tab.location.href = 'about:blank';
    await waitFor(() => expect(screen.queryByTestId('slot-account-modal')).toBeNull());
    fireEvent.click(screen.getByTestId('game-card-PG'));
    modal = await screen.findByTestId('slot-account-modal');
    await within(modal).findByTestId('slot-username');
    fireEvent.click(within(modal).getByTestId('slot-play'));
    expect((await screen.findByTestId('alert-message')).textContent).toBe(th.errors.TRANSFER_FAIL);
    expect(tab.close).toHaveBeenCalledTimes(1);
    expect(tab.location.href).toBe('about:blank');
    fireEvent.click(screen.getByTestId('alert-ok'));
  });

  it('Play with an empty wallet skips the transfer; Transfer is disabled; the event provider gets its form', async () => {
    loginMember();
    const { tab, open } = stubWindowOpen();
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    const api = mockApi({
      ...homeRoutes(walletAnswer({ wallet: { amount: 0 } })),
      'GET /api/wallet/account/UFABET': ok({ username: 'ufa01', password: 'secret', event }),
    });
    renderApp('/user/home');
    await screen.findByTestId('total-balance');
    fireEvent.click(screen.getByTestId('game-card-UFABET'));
    const modal = await screen.findByTestId('slot-account-modal');
    await within(modal).findByTestId('slot-username');
    expect((within(modal).getByTestId('slot-transfer') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(modal).getByTestId('slot-play'));
    expect(open).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    const form = tab.document.querySelector('form');
    expect(form?.getAttribute('action')).toBe('/sandbox/games/UFABET/login');
    expect(form?.method).toBe('post');
    expect(Object.fromEntries(new FormData(form as HTMLFormElement))).toEqual({ username: 'ufa01', password: 'secret' });
    expect(api.callsTo('POST', '/api/wallet/transferAll')).toHaveLength(0);
  });

  it('activates an inactive account, then shows its login with copy controls', async () => {
    loginMember();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const api = mockApi({
      ...homeRoutes(),
      'GET /api/wallet/activate/SLOTXO': ok(game('SLOTXO', { isActive: true })),
      'GET /api/wallet/account/SLOTXO': ok({ username: 'xo0001', password: 'pw1234' }),
    });
    renderApp('/user/home');
    await screen.findByTestId('total-balance');
    fireEvent.click(screen.getByTestId('game-card-SLOTXO'));
    const modal = await screen.findByTestId('slot-account-modal');
    expect(within(modal).queryByTestId('slot-play')).toBeNull();
    fireEvent.click(within(modal).getByTestId('slot-activate'));
    expect((await within(modal).findByTestId('slot-username')).textContent).toBe('xo0001');
    expect(api.callsTo('GET', '/api/wallet/activate/SLOTXO')).toHaveLength(1);
    expect(screen.getAllByTestId('toast').map((t) => t.textContent)).toContain('เปิดบัญชี SLOTXO Games เรียบร้อยแล้ว');
    // The home card behind the modal is active now too.
    expect(screen.getByTestId('game-card-SLOTXO').dataset.active).toBe('true');

    fireEvent.click(within(modal).getByTestId('copy-slot-password'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('pw1234'));
    expect((await screen.findAllByTestId('toast')).some((t) => t.textContent === 'คัดลอกแล้ว: pw1234')).toBe(true);
  });
});
