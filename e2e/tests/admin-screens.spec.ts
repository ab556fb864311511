/**
 * Every back-office page at 1366×900, in English and Thai: axe-core finds no serious or critical
 * violation, and a screenshot of each is kept (test-results/screens/admin-*.png).
 */
import { expect, test } from '@playwright/test';
import { th as TH } from '../../apps/web/admin/src/i18n/th';
import { ADMIN_TEXT as T, DESKTOP, adminLogin, axeFindings } from './admin-support';
import { registerViaApi, screen } from './support';

test.use({ viewport: DESKTOP, isMobile: false, hasTouch: false, deviceScaleFactor: 1, bypassCSP: true });

const PAGES: ReadonlyArray<{ path: string; heading: string }> = [
  { path: '/admin', heading: T.dashboard.title },
  { path: '/admin/withdrawals', heading: T.withdrawals.title },
  { path: '/admin/slips', heading: T.slips.title },
  { path: '/admin/deposits', heading: T.unmatched.title },
  { path: '/admin/held', heading: T.held.title },
  { path: '/admin/members', heading: T.members.title },
  { path: '/admin/risk', heading: T.risk.title },
  { path: '/admin/chat', heading: T.chat.title },
  { path: '/admin/promotions', heading: T.promotions.title },
  { path: '/admin/settings', heading: T.settings.title },
  { path: '/admin/operators', heading: T.operators.title },
  { path: '/admin/audit', heading: T.audit.title },
  { path: '/admin/reconciliation', heading: T.recon.title },
  { path: '/admin/sandbox', heading: T.sandbox.title },
];

test('the sign-in page is accessible', async ({ page }) => {
  await page.addInitScript(() => {
    if (!window.localStorage.getItem('admin-locale')) window.localStorage.setItem('admin-locale', 'en');
  });
  await page.goto('/admin/login');
  await expect(page.getByRole('heading', { name: T.login.title })).toBeVisible();
  expect(await axeFindings(page)).toEqual([]);
  await screen(page, 'admin-login');
});

test('every page as the owner: no serious or critical axe finding, in English and Thai', async ({ page, request }) => {
  test.setTimeout(180_000);
  const member = await registerViaApi(request);
  await adminLogin(page, 'owner');
  for (const { path, heading } of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByText(T.common.loading)).toHaveCount(0);
    expect(await axeFindings(page), path).toEqual([]);
    await screen(page, `admin-en${path.replace(/\//g, '-')}`);
  }
  // A member's page, and Thai.
  await page.goto('/admin/members');
  await page.getByRole('searchbox', { name: T.members.searchLabel }).fill(member.phone);
  await page.getByRole('link', { name: member.phone }).click();
  await expect(page.getByTestId('member-wallet')).toBeVisible();
  expect(await axeFindings(page), 'member page').toEqual([]);
  await screen(page, 'admin-en-member');
  await page.getByRole('combobox', { name: T.app.language }).selectOption('th');
  for (const { path } of PAGES) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('lang', 'th-TH');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await axeFindings(page), `th ${path}`).toEqual([]);
  }
  await page.goto('/admin');
  await screen(page, 'admin-th-dashboard');
});

test('the promotions page, every tab, as marketing: forms with no textarea, no serious or critical axe finding, in English and Thai', async ({ page }) => {
  test.setTimeout(180_000);
  await adminLogin(page, 'marketing');
  const tabs = ['bonuses', 'codes', 'wheel', 'banners', 'rules'] as const;
  for (const [locale, texts] of [['en', T], ['th', TH]] as const) {
    if (locale === 'th') await page.getByRole('combobox', { name: T.app.language }).selectOption('th');
    await page.goto('/admin/promotions');
    await expect(page.getByRole('heading', { level: 1, name: texts.promotions.title })).toBeVisible();
    for (const name of tabs) {
      await page.getByRole('tab', { name: texts.promotions[name] }).click();
      const panel = page.getByRole('tabpanel');
      // Each tab's content has come: the bonus list, the codes' table, or its forms.
      await expect(panel.locator(name === 'bonuses' ? 'ul.list li' : name === 'codes' ? 'table tbody tr' : 'form').first()).toBeVisible();
      await expect(page.locator('textarea'), `${locale} ${name}`).toHaveCount(0);
      expect(await axeFindings(page), `${locale} promotions ${name}`).toEqual([]);
      await screen(page, `admin-${locale}-promotions-${name}`);
    }
  }
});
