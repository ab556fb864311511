/**
 * A shut-down site (spec sections 2, 4, 8). Runs in the "terminated" project against a server of
 * its own, because terminating is global; the site is switched back on at the end whatever happens.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { MESSAGES, OPERATOR_TOKEN, SCREENS_DIR, loginInBrowser, registerViaApi, skipAgreement, type Locale } from './support';

test.describe.configure({ mode: 'serial' });

async function setSiteActive(request: APIRequestContext, value: boolean): Promise<void> {
  const response = await request.put('/api/operator/settings/siteActive', {
    data: { value },
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
  });
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ key: 'siteActive', value });
}

test.afterAll(async ({ request }) => {
  await setSiteActive(request, true);
});

test('a terminated site sends guests and members to /terminated, and comes back when reactivated', async ({ browser, page, request }) => {
  // It shares the machine's two cores with the main project's workers: time for a slow CI run.
  test.setTimeout(150_000);
  const member = await registerViaApi(request);
  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);

  // Only the operator may switch the site.
  const refused = await request.put('/api/operator/settings/siteActive', {
    data: { value: false },
    headers: { Authorization: 'Bearer not-the-operator-token-000' },
  });
  expect(refused.status()).toBe(401);
  expect((await request.get('/api/lookup/active')).status()).toBe(200);

  await setSiteActive(request, false);
  try {
    // Every API call now answers 410 gone.
    for (const path of ['/api/lookup/info', '/api/lookup/active', '/api/account/profile']) {
      const gone = await request.get(path);
      expect(gone.status(), path).toBe(410);
      expect(await gone.json(), path).toMatchObject({ message: 'gone' });
    }
    const login = await request.post('/api/login', { data: { username: member.phone, password: member.password } });
    expect(login.status()).toBe(410);

    // A logged-in member whose next call is answered `gone` lands on /terminated. That call may be
    // the page's own background refresh (balance, chat) before the tap: the navigation bar is then
    // already gone, and the tap is not needed (waiting for it hung a loaded CI run for 2.5 minutes).
    try {
      await page.getByTestId('nav-profile').click({ timeout: 10_000 });
    } catch (error) {
      if (!/\/terminated$/.test(page.url())) throw error;
    }
    await expect(page).toHaveURL(/\/terminated$/);
    const terminated = page.getByTestId('terminated-page');
    await expect(terminated).toContainText(MESSAGES.th.terminated.title);
    await expect(terminated).toContainText(MESSAGES.th.terminated.message);

    // A guest opening /login (or / without a token) is sent there too.
    mkdirSync(SCREENS_DIR, { recursive: true });
    const guest = await browser.newContext();
    const guestPage = await guest.newPage();
    // The SPA decides at DOMContentLoaded; waiting for the full load event has hung on a loaded CI run.
    await guestPage.goto('/login', { waitUntil: 'domcontentloaded' });
    await expect(guestPage).toHaveURL(/\/terminated$/);
    await expect(guestPage.getByTestId('terminated-page')).toBeVisible();
    await expect(guestPage.getByTestId('login-page')).toHaveCount(0);
    await guestPage.goto('/', { waitUntil: 'domcontentloaded' });
    await expect(guestPage).toHaveURL(/\/terminated$/);
    for (const locale of ['th', 'la', 'en'] as const satisfies readonly Locale[]) {
      await guestPage.evaluate((value) => window.localStorage.setItem('locale', value), locale);
      await guestPage.reload({ waitUntil: 'domcontentloaded' });
      await expect(guestPage.getByTestId('terminated-page')).toContainText(MESSAGES[locale].terminated.title);
      await guestPage.screenshot({ path: `${SCREENS_DIR}${locale}-terminated.png`, timeout: 15_000 });
    }
    await guest.close();
  } finally {
    await setSiteActive(request, true);
  }

  // Back on: /login works again, and so does logging in.
  expect((await request.get('/api/lookup/active')).status()).toBe(200);
  await page.goto('/login', { waitUntil: 'domcontentloaded' });
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-page')).toBeVisible();
  await loginInBrowser(page, member.phone, member.password);
});
