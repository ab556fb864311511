import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { fill, loginInBrowser, MESSAGES, registerViaApi, sandboxBankTransfer, skipAgreement, startInLocale } from './support';

/**
 * The installable app (apps/web/pwa/): the manifest, the service worker, the offline page and the
 * "new version" prompt; and balances pushed over the member's socket. Every wait is on an event
 * (the worker ready, controlling, the prompt shown), never a fixed delay.
 */

// The installable app's tests are the only ones that let the service worker run (see playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const DIST = fileURLToPath(new URL('../../apps/web/dist/', import.meta.url));
/** What the update test adds to the served worker (whatever a test run left behind is taken off again). */
const MARKER = /\n\/\/ e2e build \d+\n/g;

/** Waits until a service worker controls the page (the first one claims it once active). */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
  });
}

/** Width and height of a PNG (its IHDR chunk). */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

test.describe('installable app', () => {
  // The update test changes the served worker: one test of this file at a time.
  test.describe.configure({ mode: 'serial' });
  test('the manifest is valid, its icons load, and the service worker controls the page after a reload', async ({ page, request }) => {
    await skipAgreement(page);
    await page.goto('/login');
    await expect(page.getByTestId('login-form')).toBeVisible();
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.th.webmanifest');
    // The installed app's name is the site's name from its settings (issue 33), in every language.
    const site = (await (await request.get('/api/lookup/info')).json()) as { name: string };
    expect(site.name.trim()).not.toBe('');
    for (const locale of ['th', 'la', 'en'] as const) {
      const response = await request.get(`/manifest.${locale}.webmanifest`);
      expect(response.ok()).toBe(true);
      expect(response.headers()['content-type']).toContain('application/manifest+json');
      const manifest = (await response.json()) as Record<string, unknown> & { icons: Array<{ src: string; sizes: string; type: string; purpose: string }> };
      expect(manifest).toMatchObject({
        id: '/user/home',
        name: site.name.trim(),
        short_name: site.name.trim(),
        description: MESSAGES[locale].app.tagline,
        start_url: '/user/home',
        scope: '/',
        display: 'standalone',
        theme_color: '#0c0a24',
        background_color: '#0c0a24',
      });
      expect(manifest.icons.map((i) => `${i.sizes}:${i.purpose}`)).toEqual(['192x192:any', '512x512:any', '512x512:maskable']);
      for (const icon of manifest.icons) {
        const image = await request.get(icon.src);
        expect(image.ok()).toBe(true);
        expect(image.headers()['content-type']).toBe('image/png');
        expect(pngSize(await image.body())).toBe(icon.sizes);
      }
    }
    // Chromium's own reading of the manifest: no errors.
    const cdp = await page.context().newCDPSession(page);
    const read = (await cdp.send('Page.getAppManifest')) as { url: string; errors: Array<{ message: string }> };
    expect(read.url).toContain('/manifest.th.webmanifest');
    expect(read.errors).toEqual([]);

    // The worker is served fresh on every check (never cached as immutable), and installs.
    const sw = await request.get('/sw.js');
    expect(sw.headers()['cache-control']).toBe('no-cache');
    expect(sw.headers()['content-type']).toContain('javascript');
    expect(sw.headers()['service-worker-allowed']).toBe('/');
    await controlled(page);
    await page.reload();
    await expect(page.getByTestId('login-form')).toBeVisible();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
    // Installable, as Chromium judges it (an incognito-like test profile is the one reason allowed).
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
    expect(installability.installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    // The language menu switches the manifest too (the install dialog speaks the member's language).
    await page.evaluate(() => window.localStorage.setItem('locale', 'en'));
    await page.reload();
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.en.webmanifest');
  });

  test('offline, a page opens as the offline page in the member\'s language; back online, the app', async ({ page, context }) => {
    await skipAgreement(page);
    await startInLocale(page, 'la');
    await page.goto('/login');
    await expect(page.getByTestId('login-form')).toBeVisible();
    await controlled(page);
    await context.setOffline(true);
    await page.goto('/user/home');
    await expect(page.getByTestId('offline-page')).toBeVisible();
    await expect(page.getByTestId('offline-title')).toHaveText(MESSAGES.la.pwa.offlineTitle);
    await expect(page.getByTestId('offline-retry')).toHaveText(MESSAGES.la.pwa.retry);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('lo-LA');
    // Calls to the API are never answered from a cache: offline they fail.
    expect(await page.evaluate(() => fetch('/api/lookup/active').then(() => 'answered', () => 'failed'))).toBe('failed');
    // Retry while still offline: the offline page again.
    const retried = page.waitForEvent('load');
    await page.getByTestId('offline-retry').click();
    await retried;
    await expect(page.getByTestId('offline-title')).toHaveText(MESSAGES.la.pwa.offlineTitle);
    // Back online, pages are the app's again. The offline page reloads itself on the browser's
    // `online` event, which Chromium's network emulation fires only sometimes: the test opens the
    // page itself, again if that reload interrupted it.
    await context.setOffline(false);
    await expect(async () => {
      await page.goto('/login');
      await expect(page.getByTestId('login-form')).toBeVisible();
    }).toPass();
  });

  test('a new build\'s worker shows "new version — reload"; reload brings the page under it', async ({ page }) => {
    await skipAgreement(page);
    await startInLocale(page, 'en');
    await page.goto('/login');
    await expect(page.getByTestId('login-form')).toBeVisible();
    await controlled(page);
    const before = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
    expect(before).not.toBeNull();
    // "Deploy" another build: the served worker changes (a marker line added), and is restored after.
    const original = readFileSync(`${DIST}sw.js`, 'utf8').replace(MARKER, '');
    const serve = (text: string) => {
      writeFileSync(`${DIST}sw.js`, text);
      writeFileSync(`${DIST}sw.js.br`, brotliCompressSync(text));
      writeFileSync(`${DIST}sw.js.gz`, gzipSync(text));
    };
    try {
      serve(`${original}\n// e2e build ${Date.now()}\n`);
      // The app checks for a new build when it becomes visible again; here it is asked directly.
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        await registration.update();
      });
      const prompt = page.getByTestId('update-prompt');
      await expect(prompt).toBeVisible();
      await expect(prompt).toContainText(MESSAGES.en.pwa.updateReady);
      await expect(prompt.getByTestId('update-reload')).toHaveText(MESSAGES.en.pwa.reload);
    } finally {
      serve(original);
    }
    const reloaded = page.waitForEvent('load');
    await page.getByTestId('update-reload').click();
    await reloaded;
    await expect(page.getByTestId('login-form')).toBeVisible();
    await expect(page.getByTestId('update-prompt')).toHaveCount(0);
  });
});

test.describe('balances pushed', () => {
  test('a bank-feed deposit appears on an open home page within 1 s, with a toast, without a reload', async ({ page, request }) => {
    const member = await registerViaApi(request);
    await skipAgreement(page);
    await loginInBrowser(page, member.phone, member.password);
    await expect(page.getByTestId('wallet-balance')).toHaveText('฿0.00');
    await expect(page.getByTestId('balance-push')).toHaveAttribute('data-state', 'live');
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    const wallets: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/wallet') wallets.push(r.url());
    });
    // Into the demo's AUTO KBANK account, from the member's registered account.
    await sandboxBankTransfer(request, { fromBankCode: member.bankCode, fromAccountNo: member.bankAccountNo, toBankCode: 'KBANK', toAccountNo: '0451234567', amount: 500 });
    await expect(page.getByTestId('wallet-balance')).toHaveText('฿500.00', { timeout: 1_000 });
    await expect(page.getByTestId('toast').filter({ hasText: fill(MESSAGES.th.balancePush.deposit, { amount: '฿500.00' }) })).toBeVisible();
    expect(navigations).toBe(0);
    // The figure came with the push, not from reading the wallet again.
    expect(wallets).toEqual([]);
  });
});
