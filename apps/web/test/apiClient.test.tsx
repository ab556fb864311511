import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { accountEndpoints } from '@mw/contract/account';
import { REQUEST_TIMEOUT_MS } from '@mw/contract/constants';
import { th } from '../src/i18n/th';
import { ApiError } from '../src/shared/api/ApiError';
import { callEndpoint, request } from '../src/shared/api/client';
import { errorMessage } from '../src/shared/api/errorMessage';
import { createIdempotencyKey } from '../src/shared/api/idempotency';
import { onSessionEvent, type SessionEvent } from '../src/shared/api/sessionEvents';
import { fail, input, mockApi, ok, renderApp } from './helpers';

const location = () => screen.getByTestId('location').textContent;
const anything = z.unknown();

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('API client', () => {
  it('sends X-Requested-With on every call and the bearer token when one is stored', async () => {
    const api = mockApi({ 'GET /api/x': ok({}) });
    await request('/api/x', anything);
    localStorage.setItem('token', 'abc');
    await request('/api/x', anything);
    expect(api.calls[0]?.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(api.calls[0]?.headers.authorization).toBeUndefined();
    expect(api.calls[1]?.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(api.calls[1]?.headers.authorization).toBe('Bearer abc');
  });

  it('sends X-Device-Id on every call: a random id kept in localStorage under device-id', async () => {
    const api = mockApi({ 'GET /api/x': ok({}), 'POST /api/login': ok({ token: 't-1' }) });
    await request('/api/x', anything);
    const first = api.calls[0]?.headers['x-device-id'];
    expect(first).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(localStorage.getItem('device-id')).toBe(first);
    await callEndpoint(accountEndpoints.login, { body: { username: '0812345678', password: 'secret1' } });
    localStorage.setItem('token', 'abc');
    await request('/api/x', anything);
    expect(api.calls.map((c) => c.headers['x-device-id'])).toEqual([first, first, first]);
    // A stored value the server would not take is replaced by a good one.
    localStorage.setItem('device-id', 'bad id');
    await request('/api/x', anything);
    const second = api.calls[3]?.headers['x-device-id'];
    expect(second).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(localStorage.getItem('device-id')).toBe(second);
  });

  it('parses answers with the contract schema and rejects answers that do not match', async () => {
    mockApi({ 'POST /api/login': ok({ token: 't-1' }) });
    await expect(callEndpoint(accountEndpoints.login, { body: { username: '0812345678', password: 'secret1' } })).resolves.toEqual({
      token: 't-1',
    });
    mockApi({ 'POST /api/login': ok({ wrong: true }) });
    const error = await caught(callEndpoint(accountEndpoints.login, { body: { username: 'u', password: 'p' } }));
    expect(error.kind).toBe('invalidResponse');
    expect(errorMessage(error)).toBe(th.failure.invalidResponse);
  });

  it('sends an Idempotency-Key when given one', async () => {
    const api = mockApi({ 'POST /api/x': ok({}) });
    const key = createIdempotencyKey();
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await request('/api/x', anything, { method: 'POST', body: { amount: 1 }, idempotencyKey: key });
    expect(api.calls[0]?.headers['idempotency-key']).toBe(key);
    expect(createIdempotencyKey()).not.toBe(key);
  });

  it('gives up after 60 s with a timeout error', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_: RequestInfo | URL, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const pending = caught(request('/api/slow', anything));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error.kind).toBe('timeout');
    expect(errorMessage(error)).toBe(th.failure.timeout);
  });
});

describe('error mapping (spec section 8)', () => {
  it('translates a known code, passes other server text through and names network failures', async () => {
    mockApi({ 'POST /api/login': fail(401, 'WRONG_CREDENTIAL') });
    const known = await caught(callEndpoint(accountEndpoints.login, { body: { username: 'u', password: 'p' } }));
    expect(known.code).toBe('WRONG_CREDENTIAL');
    expect(errorMessage(known)).toBe(th.errors.WRONG_CREDENTIAL);

    mockApi({ 'GET /api/x': fail(400, 'Something the server says') });
    expect(errorMessage(await caught(request('/api/x', anything)))).toBe('Something the server says');

    mockApi({ 'GET /api/x': fail(400, 'PASSWORDS_NOT_MATCH') });
    expect(errorMessage(await caught(request('/api/x', anything)))).toBe(th.rules.PASSWORDS_NOT_MATCH);

    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    expect(errorMessage(await caught(request('/api/x', anything)))).toBe(th.failure.network);
  });

  it.each(['invalid-token', 'EXPIRED_AUTH_TOKEN', 'cannot verify identity'])('%s clears the token and signals an expired session', async (message) => {
    const events: SessionEvent[] = [];
    const stop = onSessionEvent((event) => events.push(event));
    localStorage.setItem('token', 'stale');
    mockApi({ 'GET /api/account/profile': fail(401, message) });
    await caught(callEndpoint(accountEndpoints.profileGet));
    stop();
    expect(events).toEqual(['expired']);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('invalid-token on a member page sends the member to /login', async () => {
    localStorage.setItem('token', 'stale');
    mockApi({ 'GET /api/account/profile': fail(401, 'invalid-token') });
    renderApp('/user/profile');
    expect(await screen.findByTestId('login-page')).toBeTruthy();
    expect(location()).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('gone on any call sends the visitor to /terminated', async () => {
    localStorage.setItem('token', 'member');
    mockApi({ 'GET /api/account/profile': fail(410, 'gone') });
    renderApp('/user/profile');
    expect(await screen.findByTestId('terminated-page')).toBeTruthy();
    expect(location()).toBe('/terminated');
  });

  it('a known code failing a screen query shows the translated text in a toast', async () => {
    localStorage.setItem('token', 'member');
    mockApi({ 'GET /api/account/profile': fail(403, 'INACTIVE_USER') });
    renderApp('/user/profile');
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain(th.errors.INACTIVE_USER);
  });
});

describe('login page', () => {
  it('shows the translated error inline, clears it on typing, and keeps a remembered token in localStorage', async () => {
    let attempts = 0;
    const api = mockApi({
      'POST /api/login': () => (++attempts === 1 ? fail(401, 'WRONG_CREDENTIAL') : ok({ token: 'tok-1' })),
    });
    renderApp('/login');
    await screen.findByTestId('login-page');
    fireEvent.change(input('username'), { target: { value: '0812345678' } });
    fireEvent.change(input('password'), { target: { value: 'wrong-pass' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    expect((await screen.findByTestId('login-error')).textContent).toBe(th.errors.WRONG_CREDENTIAL);

    fireEvent.change(input('password'), { target: { value: 'right-pass' } });
    expect(screen.queryByTestId('login-error')).toBeNull();

    fireEvent.click(screen.getByTestId('remember-me'));
    fireEvent.click(screen.getByTestId('login-submit'));
    await screen.findByTestId('home-page');
    expect(location()).toBe('/user/home');
    expect(localStorage.getItem('token')).toBe('tok-1');
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(api.callsTo('POST', '/api/login')[1]?.body).toEqual({ username: '0812345678', password: 'right-pass' });
  });

  it('keeps the token only for the session without remember-me', async () => {
    mockApi({ 'POST /api/login': ok({ token: 'tok-2' }) });
    renderApp('/login');
    await screen.findByTestId('login-page');
    fireEvent.change(input('username'), { target: { value: '0812345678' } });
    fireEvent.change(input('password'), { target: { value: 'secret1' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    await screen.findByTestId('home-page');
    expect(sessionStorage.getItem('token')).toBe('tok-2');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('logout calls POST /api/logout, forgets the token and returns to /login', async () => {
    localStorage.setItem('token', 'member');
    const api = mockApi({ 'POST /api/logout': ok({ ok: true }) });
    renderApp('/user/home');
    fireEvent.click(await screen.findByTestId('logout-button'));
    await screen.findByTestId('login-page');
    expect(api.callsTo('POST', '/api/logout')[0]?.headers.authorization).toBe('Bearer member');
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(location()).toBe('/login'));
  });
});
