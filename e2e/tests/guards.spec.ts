/** Route guards, the 404 page, the login form's inline error and where the token is kept (spec section 2). */
import { expect, test } from '@playwright/test';
import { MESSAGES, loginViaApi, registerViaApi, screen, seedToken, skipAgreement, storedTokens } from './support';

const th = MESSAGES.th;
const MEMBER_PAGES = ['/user', '/user/home', '/user/profile', '/user/bonus', '/user/statement', '/user/contact', '/user/spin'];
const GUEST_PAGES = ['/login', '/register', '/howto', '/contact'];

test('member pages need a login; / leads to /user/home once logged in', async ({ page, request }) => {
  for (const path of ['/', ...MEMBER_PAGES]) {
    await page.goto(path);
    await expect(page, `${path} without a token`).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-page')).toBeVisible();
  }

  const member = await registerViaApi(request);
  await skipAgreement(page);
  await seedToken(page, await loginViaApi(request, member.phone, member.password));
  await page.goto('/');
  await expect(page).toHaveURL(/\/user\/home$/);
  await expect(page.getByTestId('member-layout')).toBeVisible();
  await page.goto('/user');
  await expect(page).toHaveURL(/\/user\/home$/);
  await page.goto('/user/profile');
  await expect(page.getByTestId('profile-name')).toHaveText(member.name);
  await page.goto('/user/contact');
  await expect(page.getByTestId('top-bar')).toBeVisible();
  await expect(page.getByTestId('contact-page')).toBeVisible();
});

test('a stored token is cleared when a guest page loads', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  for (const path of GUEST_PAGES) {
    await seedToken(page, token, path === '/register' ? 'session' : 'local');
    expect(await storedTokens(page)).not.toEqual({ local: null, session: null });
    await page.goto(path);
    await expect(page.getByTestId('guest-layout')).toBeVisible();
    await expect.poll(() => storedTokens(page), { message: `token after ${path}` }).toEqual({ local: null, session: null });
    // And with it the member area is closed again.
    await page.goto('/user/home');
    await expect(page).toHaveURL(/\/login$/);
  }
  // Dropping it locally does not end the session on the server.
  const profile = await request.get('/api/account/profile', { headers: { Authorization: `Bearer ${token}` } });
  expect(profile.status()).toBe(200);
});

test('a token the server no longer accepts sends the member to /login and is dropped', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  const logout = await request.post('/api/logout', { headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' } });
  expect(logout.ok()).toBe(true);
  await seedToken(page, token);
  await page.goto('/user/profile');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-page')).toBeVisible();
  expect(await storedTokens(page)).toEqual({ local: null, session: null });
});

test('unknown paths show the 404 page, for guests and members', async ({ page, request }) => {
  await page.goto('/no-such-page');
  const notFound = page.getByTestId('not-found-page');
  await expect(notFound).toBeVisible();
  await expect(notFound).toContainText('404');
  await expect(notFound).toContainText(th.notFound.title);
  await expect(page.getByTestId('guest-layout')).toHaveCount(0);
  await screen(page, 'th-not-found');

  const member = await registerViaApi(request);
  await skipAgreement(page);
  await seedToken(page, await loginViaApi(request, member.phone, member.password));
  await page.goto('/user/no-such-page');
  await expect(notFound).toBeVisible();
  await expect(page).toHaveURL(/\/user\/no-such-page$/);
  // Its link leads home: for a member that is the dashboard.
  await notFound.getByRole('link').click();
  await expect(page).toHaveURL(/\/user\/home$/);
  await expect(page.getByTestId('home-page')).toBeVisible();
});

test('login: inline errors clear while typing; remember-me decides where the token lives', async ({ page, context, request }) => {
  const member = await registerViaApi(request);
  await skipAgreement(page);
  await page.goto('/login');
  const form = page.getByTestId('login-form');
  const username = form.locator('input[name=username]');
  const password = form.locator('input[name=password]');

  // Empty fields are refused on the page.
  await page.getByTestId('login-submit').click();
  await expect(form.getByTestId('field-error')).toHaveText([th.rules.REQUIRED, th.rules.REQUIRED]);
  await username.fill(member.phone);
  await expect(form.getByTestId('field-error')).toHaveCount(1);

  // A wrong password: the server's answer inline, gone as soon as the member types.
  await password.fill(`${member.password}-wrong`);
  await page.getByTestId('login-submit').click();
  const error = page.getByTestId('login-error');
  await expect(error).toHaveText(th.errors.WRONG_CREDENTIAL);
  await screen(page, 'th-login-error');
  await password.press('End');
  await password.press('Backspace');
  await expect(error).toHaveCount(0);
  await page.getByTestId('login-submit').click();
  await expect(error).toBeVisible();
  await username.press('End');
  await username.press('Backspace');
  await expect(error).toHaveCount(0);
  await username.fill(member.phone);

  // Not remembered: sessionStorage only, so another tab is not logged in.
  await password.fill(member.password);
  await expect(page.getByTestId('remember-me')).not.toBeChecked();
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/user\/home$/);
  const sessionOnly = await storedTokens(page);
  expect(sessionOnly.local).toBeNull();
  expect(sessionOnly.session).toBeTruthy();
  const otherTab = await context.newPage();
  await otherTab.goto('/user/home');
  await expect(otherTab).toHaveURL(/\/login$/);
  await otherTab.close();

  // Remembered: localStorage only, and another tab is logged in too.
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/login$/);
  await username.fill(member.phone);
  await password.fill(member.password);
  await page.getByTestId('remember-me').check();
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/user\/home$/);
  const remembered = await storedTokens(page);
  expect(remembered.session).toBeNull();
  expect(remembered.local).toBeTruthy();
  const secondTab = await context.newPage();
  await secondTab.goto('/user/profile');
  await expect(secondTab.getByTestId('profile-name')).toHaveText(member.name);
  await secondTab.close();
});
