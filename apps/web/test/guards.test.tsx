import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adoptServedSiteActive } from '../src/app/guards/SiteActiveGuard';
import { fail, mockApi, ok, renderApp } from './helpers';

const location = () => screen.getByTestId('location').textContent;

describe('route guards and redirects (spec section 2)', () => {
  it('sends a member route without a stored token to /login', async () => {
    const api = mockApi({});
    renderApp('/user/profile');
    expect(await screen.findByTestId('login-page')).toBeTruthy();
    expect(location()).toBe('/login');
    expect(api.callsTo('GET', '/api/account/profile')).toHaveLength(0);
  });

  it('redirects / to /user and, without a token, on to /login', async () => {
    mockApi({});
    renderApp('/');
    await screen.findByTestId('login-page');
    expect(location()).toBe('/login');
  });

  it('lets a member with a token through /user to /user/home', async () => {
    localStorage.setItem('token', 'member-token');
    mockApi({});
    renderApp('/user');
    expect(await screen.findByTestId('home-page')).toBeTruthy();
    expect(location()).toBe('/user/home');
    expect(screen.getByTestId('top-bar')).toBeTruthy();
  });

  it('accepts a session-only token (sessionStorage) as logged in', async () => {
    sessionStorage.setItem('token', 'session-token');
    mockApi({});
    renderApp('/user/home');
    expect(await screen.findByTestId('home-page')).toBeTruthy();
  });

  it.each(['/login', '/register', '/howto', '/contact'])('clears a stored token when the guest page %s loads', async (path) => {
    localStorage.setItem('token', 'old-token');
    sessionStorage.setItem('token', 'old-session-token');
    mockApi({ 'GET /api/lookup/contact': ok({ contactText: '', lineLink: '', lineName: '', lineQR: '' }) });
    renderApp(path);
    await screen.findByTestId('guest-layout');
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('checks GET /api/lookup/active before showing /login', async () => {
    const api = mockApi({});
    renderApp('/login');
    await screen.findByTestId('login-page');
    expect(api.callsTo('GET', '/api/lookup/active')).toHaveLength(1);
  });

  it('sends /login to /terminated when the site answers {active:false}', async () => {
    mockApi({ 'GET /api/lookup/active': ok({ active: false }) });
    renderApp('/login');
    expect(await screen.findByTestId('terminated-page')).toBeTruthy();
    expect(location()).toBe('/terminated');
    expect(screen.queryByTestId('login-page')).toBeNull();
  });

  describe('with the state the server wrote into the page (meta mw-site-active)', () => {
    function serve(content: string): void {
      const meta = document.createElement('meta');
      meta.name = 'mw-site-active';
      meta.content = content;
      document.head.append(meta);
      adoptServedSiteActive();
    }
    afterEach(() => document.head.querySelector('meta[name="mw-site-active"]')?.remove());

    it('shows /login at once, without a call, when the page says the site is active', async () => {
      const api = mockApi({ 'GET /api/lookup/active': ok({ active: false }) });
      serve('true');
      renderApp('/login');
      expect(screen.getByTestId('login-page')).toBeTruthy();
      expect(api.callsTo('GET', '/api/lookup/active')).toHaveLength(0);
    });

    it('sends /login to /terminated, without a call, when the page says the site is shut down', async () => {
      const api = mockApi({ 'GET /api/lookup/active': ok({ active: true }) });
      serve('false');
      renderApp('/login');
      expect(await screen.findByTestId('terminated-page')).toBeTruthy();
      expect(location()).toBe('/terminated');
      expect(api.callsTo('GET', '/api/lookup/active')).toHaveLength(0);
    });

    it('asks the API on a page taken from the cache for back/forward (its state may be old)', async () => {
      const api = mockApi({ 'GET /api/lookup/active': ok({ active: false }) });
      const spy = vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ type: 'back_forward' } as unknown as PerformanceEntry]);
      try {
        serve('true');
      } finally {
        spy.mockRestore();
      }
      renderApp('/login');
      expect(await screen.findByTestId('terminated-page')).toBeTruthy();
      expect(api.callsTo('GET', '/api/lookup/active')).toHaveLength(1);
    });

    it('asks the API when the meta says anything else', async () => {
      const api = mockApi({ 'GET /api/lookup/active': ok({ active: false }) });
      serve('maybe');
      renderApp('/login');
      expect(await screen.findByTestId('terminated-page')).toBeTruthy();
      expect(api.callsTo('GET', '/api/lookup/active')).toHaveLength(1);
    });
  });

  it('sends /login to /terminated when the site answers 410 gone', async () => {
    mockApi({ 'GET /api/lookup/active': fail(410, 'gone') });
    renderApp('/login');
    expect(await screen.findByTestId('terminated-page')).toBeTruthy();
    expect(location()).toBe('/terminated');
  });

  it('shows the 404 page for any other path', async () => {
    mockApi({});
    renderApp('/no/such/page');
    expect(await screen.findByTestId('not-found-page')).toBeTruthy();
    renderApp('/user/nothing-here');
    expect((await screen.findAllByTestId('not-found-page')).length).toBeGreaterThan(0);
  });

  it('stores the inviter code of /register?code= in localStorage', async () => {
    mockApi({});
    renderApp('/register?code=PR123');
    await screen.findByTestId('register-page');
    await waitFor(() => expect(localStorage.getItem('code')).toBe('PR123'));
  });
});
