/**
 * Key screens in th, la and en at the 390×844 phone viewport, saved to test-results/screens/ for a
 * human look. Each screen is also checked for what a picture cannot prove alone: the page
 * does not scroll sideways and no message key or placeholder leaks into the visible text.
 */
import { expect, test, type Page } from '@playwright/test';
import { LAO_SCRIPT, MESSAGES, freshPhone, registerViaApi, screen, startInLocale, type Locale, KBANK_NAMES } from './support';

const NAMESPACES =
  'app|common|language|nav|layout|login|register|sandbox|forgot|profile|changePassword|bankName|howto|contact|agreement|conditions|home|placeholder|terminated|notFound|failure|errors|rules|slipReasons';
const RAW_KEY = new RegExp(`\\b(?:${NAMESPACES})\\.[A-Za-z_]+`);

async function capture(page: Page, locale: Locale, name: string): Promise<void> {
  await expect(page.getByTestId('global-loader')).toHaveCount(0);
  const layout = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    text: document.body.innerText,
  }));
  expect.soft(layout.scrollWidth, `${locale}-${name}: page wider than the phone`).toBeLessThanOrEqual(layout.width);
  expect.soft(layout.text, `${locale}-${name}: raw message key`).not.toMatch(RAW_KEY);
  expect.soft(layout.text, `${locale}-${name}: unfilled placeholder`).not.toContain('{{');
  await screen(page, `${locale}-${name}`);
}

for (const locale of ['th', 'la', 'en'] as const) {
  const m = MESSAGES[locale];

  test(`key screens in ${locale}`, async ({ page, request }) => {
    await startInLocale(page, locale);

    await page.goto('/login');
    await expect(page.getByTestId('login-page').locator('h1')).toHaveText(m.login.title);
    if (locale === 'la') await expect(page.getByTestId('login-page').locator('h1')).toHaveText(LAO_SCRIPT);
    await capture(page, locale, 'screen-login');

    await page.getByTestId('nav-register').click();
    const phone = freshPhone();
    await page.getByTestId('register-step-phone').locator('input[name=username]').fill(phone);
    await page.getByTestId('register-next').click();
    await expect(page.getByTestId('sandbox-sms-text')).toBeVisible();
    await capture(page, locale, 'screen-register-otp');

    await page.goto('/forgot-password');
    await expect(page.getByTestId('forgot-password-page')).toContainText(m.forgot.title);
    await capture(page, locale, 'screen-forgot');

    await page.getByTestId('back-to-login').click();
    await page.getByTestId('nav-howto').click();
    await expect(page.getByTestId('howto-page')).toContainText(m.howto.title);
    await capture(page, locale, 'screen-howto');
    await page.getByTestId('howto-video-receiveBonus').click();
    await expect(page.getByTestId('howto-modal')).toContainText(m.howto.videos.receiveBonus);
    await capture(page, locale, 'screen-howto-modal');
    await page.getByTestId('modal-close').click();

    await page.getByTestId('nav-contact').click();
    await expect(page.getByTestId('contact-page')).toContainText(m.contact.title);
    await expect(page.getByTestId('contact-text')).toBeVisible();
    await capture(page, locale, 'screen-contact');

    await page.goto('/nothing-here');
    await expect(page.getByTestId('not-found-page')).toContainText(m.notFound.title);
    await capture(page, locale, 'screen-not-found');

    // Member side: agreement, home, conditions, profile and its modal.
    const member = await registerViaApi(request);
    await page.goto('/login');
    await page.getByTestId('login-form').locator('input[name=username]').fill(member.phone);
    await page.getByTestId('login-form').locator('input[name=password]').fill(member.password);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('agreement-modal')).toContainText(m.agreement.title);
    await capture(page, locale, 'screen-agreement');
    await page.getByTestId('agreement-confirm').click();
    await expect(page.getByTestId('home-page')).toBeVisible();
    await capture(page, locale, 'screen-home');

    await page.getByTestId('nav-conditions').click();
    await expect(page.getByTestId('condition-item').first()).toBeVisible();
    await capture(page, locale, 'screen-conditions');
    await page.getByTestId('modal-close').click();

    await page.getByTestId('nav-profile').click();
    await expect(page.getByTestId('profile-bank-name')).toHaveText(KBANK_NAMES[locale]);
    await capture(page, locale, 'screen-profile');
    await page.getByTestId('change-password-button').click();
    await expect(page.getByTestId('change-password-modal')).toContainText(m.changePassword.title);
    await capture(page, locale, 'screen-change-password');
  });
}
