import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from '../src/shared/router';
import { vi } from 'vitest';
import { AppRoutes } from '../src/app/AppRoutes';
import { AppProviders } from '../src/app/providers/AppProviders';

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

type Answer = { status?: number; body?: unknown };
type Route = Answer | ((call: RecordedCall) => Answer);

/** Answers with 200 and this body. */
export const ok = (body: unknown): Answer => ({ status: 200, body });
export const fail = (status: number, message: string): Answer => ({ status, body: { message } });

/** Lookups every screen may ask for; tests override what they care about. */
export const baseRoutes: Record<string, Route> = {
  'GET /api/lookup/active': ok({ active: true }),
  'GET /api/lookup/info': ok({ name: 'Golden Test', website: 'golden.test' }),
  'GET /api/lookup/agreements': ok([]),
  'GET /api/lookup/conditions': ok(['<p>Condition</p>']),
};

/**
 * Replaces fetch with a table of `METHOD /path` answers (unknown calls answer 404 NOT_FOUND)
 * and records every call.
 */
export function mockApi(routes: Record<string, Route>) {
  const calls: RecordedCall[] = [];
  const table = { ...baseRoutes, ...routes };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call: RecordedCall = { method, path: url.pathname, query: url.searchParams, headers, body };
    calls.push(call);
    const route = table[`${method} ${url.pathname}`];
    const answer = route === undefined ? fail(404, 'NOT_FOUND') : typeof route === 'function' ? route(call) : route;
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location">
      {location.pathname}
      {location.search}
    </output>
  );
}

export function renderWithRouter(ui: ReactNode, path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders>
        {ui}
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}

/** The whole app's routes at a path, with a probe showing the current location. */
export function renderApp(path: string) {
  return renderWithRouter(<AppRoutes />, path);
}

export function input(name: string): HTMLInputElement | HTMLSelectElement {
  const element = document.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
  if (!element) throw new Error(`No field named ${name}`);
  return element;
}
