import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PRERENDERED_ROUTES, type Locale } from '@mw/contract/constants';
import { App } from '../src/app/App';
import { prerenderedPage } from '../src/app/prerendered';
import { adoptServedSiteActive, resetSiteActiveGuard } from '../src/app/guards/SiteActiveGuard';
import { changeLocale } from '../src/i18n/i18n';
import { siteInfo } from '../src/shared/api/lookups';
import { chatWidgetFlag } from '../src/features/chat/ChatWidgetSlot';
import { mockApi, ok } from './helpers';

/**
 * The guest pages as the build prerenders them (scripts/prerender.mjs, in a process of its own as
 * in the build: React's server renderer and the browser's do not share one JavaScript realm),
 * taken over by the app as main.tsx does it (hydrateRoot on the same route and locale): no
 * mismatch, no error, and the page then works.
 */
let pages: Record<string, string> = {};
// hydrateRoot is called here directly (not through Testing Library's render): React's act() environment.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(async () => {
  // The lazy screens' code, transformed once here, is there at once when a page hydrates.
  await Promise.all([
    import('../src/features/auth/register/RegisterPage'),
    import('../src/features/howto/HowtoPage'),
    import('../src/features/contact/ContactPage'),
    import('../src/app/providers/QueryLayer'),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'mw-prerender-test-'));
  try {
    const file = join(dir, 'pages.json');
    execFileSync(process.execPath, [join(__dirname, '..', 'scripts', 'prerender.mjs'), '--json', file], { stdio: 'pipe' });
    pages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

async function hydrate(route: string, locale: Locale, options: { restored?: boolean } = {}) {
  const html = pages[`${locale} ${route}`];
  if (!html) throw new Error(`no prerendered ${locale} ${route}`);
  resetSiteActiveGuard();
  siteInfo.reset();
  chatWidgetFlag.reset();
  document.head.innerHTML = '<meta name="mw-site-active" content="true" />';
  document.body.innerHTML = `<div id="root" data-prerendered="${route}" data-locale="${locale}">${html}</div>`;
  window.history.replaceState(null, '', route);
  delete document.documentElement.dataset.screenReady;
  const navigation = options.restored
    ? vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ type: 'back_forward' } as unknown as PerformanceEntry])
    : null;
  adoptServedSiteActive();
  navigation?.mockRestore();
  const root = document.getElementById('root');
  if (!root) throw new Error('no root');
  expect(prerenderedPage(root, route)).toEqual({ route, locale });
  const recoverable: unknown[] = [];
  const consoleError = vi.spyOn(console, 'error');
  let unmount: () => void = () => undefined;
  await act(async () => {
    const app = hydrateRoot(
      root,
      <StrictMode>
        <App />
      </StrictMode>,
      { onRecoverableError: (error) => recoverable.push(error) },
    );
    unmount = () => app.unmount();
  });
  return { html, recoverable, consoleError, unmount };
}

describe('prerendered guest pages hydrate', () => {
  for (const locale of ['th', 'en', 'la'] as const) {
    it(`in ${locale}: every guest page, without a mismatch or an error`, async () => {
      mockApi({ 'GET /api/lookup/enableChatWidget': ok({ enableChatWidget: false }) });
      await changeLocale(locale);
      for (const route of PRERENDERED_ROUTES) {
        const { recoverable, consoleError, unmount } = await hydrate(route, locale);
        // A lazy screen hydrates once its code is there; then it marks the document (screenReady.ts).
        await waitFor(() => expect(document.documentElement.dataset.screenReady, route).toBe('true'));
        expect(document.querySelector('[data-testid$="-page"]'), route).not.toBeNull();
        await act(async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
        });
        expect(recoverable, route).toEqual([]);
        expect(consoleError.mock.calls.map((call) => String(call[0])), route).toEqual([]);
        consoleError.mockRestore();
        act(() => unmount());
      }
      await changeLocale('th');
    });
  }

  it('hydrates /login restored by back/forward too (the form at once, the site state asked behind it)', async () => {
    const api = mockApi({});
    const { recoverable, consoleError, unmount } = await hydrate('/login', 'th', { restored: true });
    await waitFor(() => expect(document.documentElement.dataset.screenReady).toBe('true'));
    expect(recoverable).toEqual([]);
    expect(consoleError.mock.calls.map((call) => String(call[0]))).toEqual([]);
    consoleError.mockRestore();
    await waitFor(() => expect(api.callsTo('GET', '/api/lookup/active')).toHaveLength(1));
    expect(screen.getByTestId('login-page')).toBeTruthy();
    act(() => unmount());
  });

  it('has the login form in the HTML, read-only until the app has taken it over, then usable', async () => {
    mockApi({});
    for (const locale of ['th', 'la', 'en']) {
      const html = pages[`${locale} /login`] ?? '';
      expect(html, locale).toContain('data-testid="login-form"');
      const inputs = [...html.matchAll(/<input [^>]*>/g)].map((m) => m[0]);
      expect(inputs.find((tag) => tag.includes('name="username"')), locale).toContain('readOnly=""');
      expect(inputs.find((tag) => tag.includes('name="password"')), locale).toContain('type="password"');
      expect(/<button [^>]*data-testid="login-submit"[^>]*>/.exec(html)?.[0], locale).toContain('disabled=""');
    }
    // The register page's phone field too (every field of a prerendered page: fields.tsx).
    expect([...(pages['th /register'] ?? '').matchAll(/<input [^>]*>/g)].map((m) => m[0]).find((tag) => tag.includes('type="tel"') || tag.includes('inputMode="tel"'))).toContain('readOnly=""');
    const { unmount } = await hydrate('/login', 'th');
    await waitFor(() => expect((screen.getByTestId('login-submit') as HTMLButtonElement).disabled).toBe(false));
    expect((document.querySelector('input[name="username"]') as HTMLInputElement).readOnly).toBe(false);
    act(() => unmount());
  });
});
