/**
 * Responsible play end to end (issue 22), at the 390×844 phone: a member sets a day limit on the
 * "Play responsibly" page (reached from the profile), a QR over what is left is refused with the
 * limit's text, then the member takes a time-out: logged out, and a new login shows only the
 * restricted view (balance, statement, withdraw, the end date).
 */
import { expect, test, type Page } from '@playwright/test';
import { MESSAGES, fill, loginInBrowser, registerViaApi, screen, skipAgreement, startInLocale } from './support';

const th = MESSAGES.th;

async function openResponsible(page: Page): Promise<void> {
  await page.getByTestId('nav-profile').click();
  await page.getByTestId('profile-responsible-link').click();
  await expect(page).toHaveURL(/\/user\/responsible$/);
  await expect(page.getByTestId('responsible-page')).toBeVisible();
}

test.describe('responsible play', () => {
  test('th: set a day limit, a QR over it is refused, then a time-out closes everything but the restricted view', async ({ page, request }) => {
    await startInLocale(page, 'th');
    await skipAgreement(page);
    const member = await registerViaApi(request);
    await loginInBrowser(page, member.phone, member.password);
    await expect(page.getByTestId('responsible-footer-link')).toHaveText(th.responsible.link);

    await openResponsible(page);
    await page.getByTestId('limit-input-day').fill('500');
    await page.getByTestId('limits-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: th.responsible.saved })).toBeVisible();
    await expect(page.getByTestId('limit-day-left')).toHaveText(fill(th.responsible.left, { left: '500.00' }));
    await screen(page, 'th-responsible-limits', { fullPage: true });

    // A raise waits 24 hours: shown as pending, cancellable.
    await page.getByTestId('limit-input-day').fill('800');
    await page.getByTestId('limits-save').click();
    await expect(page.getByTestId('pending-day')).toBeVisible();
    await expect(page.getByTestId('limit-day-value')).toHaveText('500.00');
    await page.getByTestId('pending-day-cancel').click();
    await expect(page.getByTestId('pending-day')).toHaveCount(0);

    // A QR over the limit: refused before any QR exists, with what is left.
    await page.getByTestId('nav-home').click();
    await page.getByTestId('home-tile-deposit').click();
    const modal = page.getByTestId('deposit-modal');
    await modal.getByTestId('deposit-tab-qr').click();
    await modal.getByTestId('qr-provider-KBANK').click();
    await modal.locator('input[name=qrAmount]').fill('600');
    await modal.getByTestId('qr-create').click();
    await expect(page.getByText(fill(th.errors.DEPOSIT_LIMIT, { left: 500 })).first()).toBeVisible();
    await screen(page, 'th-responsible-qr-refused');
    await page.keyboard.press('Escape');

    // A time-out of 24 hours, after a plain confirmation of what happens.
    await openResponsible(page);
    await page.getByTestId('timeout-1').click();
    await page.getByTestId('timeout-start').click();
    const confirm = page.getByTestId('break-confirm');
    await expect(confirm).toContainText(th.responsible.c1);
    await expect(confirm).toContainText(th.responsible.c4);
    await screen(page, 'th-responsible-confirm');
    await confirm.getByTestId('break-confirm-start').click();
    await expect(page).toHaveURL(/\/login$/);

    // Logging in again shows the restricted view only.
    await page.goto('/login');
    const form = page.getByTestId('login-form');
    await form.locator('input[name=username]').fill(member.phone);
    await form.locator('input[name=password]').fill(member.password);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('restricted-view')).toBeVisible();
    await expect(page.getByTestId('restricted-until')).toBeVisible();
    await expect(page.getByTestId('home-tile-deposit')).toHaveCount(0);
    await expect(page.getByTestId('restricted-withdraw')).toBeVisible();
    await screen(page, 'th-responsible-restricted');
    await page.getByTestId('restricted-withdraw').click();
    await expect(page.getByTestId('withdraw-modal')).toBeVisible();
  });
});
