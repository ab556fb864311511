/** UI languages th, la, en: switching, <html lang>, persistence, and what stays Thai (spec sections 1, 2). */
import { expect, test, type Page } from '@playwright/test';
import {
  HTML_LANG,
  LAO_SCRIPT,
  MESSAGES,
  THAI_SCRIPT,
  chooseLocale,
  fill,
  formatAccountNo,
  loginInBrowser,
  registerViaApi,
  screen,
  skipAgreement,
  type Locale,
  KBANK_NAMES,
} from './support';

async function expectLocale(page: Page, locale: Locale): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[locale]);
  await expect(page.getByTestId('language-select')).toHaveValue(locale);
  // The current language is the disabled option.
  await expect(page.getByTestId('language-select').locator('option[disabled]')).toHaveAttribute('value', locale);
  expect(await page.evaluate(() => window.localStorage.getItem('locale'))).toBe(locale);
}

test('the login page switches to Lao and English and remembers the choice', async ({ page }) => {
  await page.goto('/login');
  const loginPage = page.getByTestId('login-page');
  const select = page.getByTestId('language-select');
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG.th);
  await expect(loginPage.locator('h1')).toHaveText(MESSAGES.th.login.title);
  await expect(page.getByTestId('login-submit')).toHaveText(MESSAGES.th.login.submit);
  await screen(page, 'th-login');

  // Lao: Lao script everywhere on the page's own texts.
  await chooseLocale(select, 'la');
  await expect(loginPage.locator('h1')).toHaveText(MESSAGES.la.login.title);
  await expectLocale(page, 'la');
  for (const text of [
    await loginPage.locator('h1').innerText(),
    await page.getByTestId('login-submit').innerText(),
    await page.getByTestId('nav-register').innerText(),
    await page.getByTestId('forgot-password-link').innerText(),
  ]) {
    expect(text).toMatch(LAO_SCRIPT);
    expect(text).not.toMatch(THAI_SCRIPT);
  }
  await expect(page.getByTestId('nav-howto')).toHaveText(MESSAGES.la.nav.howto);
  // Messages of the page follow the language too.
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('field-error').first()).toHaveText(MESSAGES.la.rules.REQUIRED);
  await screen(page, 'la-login');
  await page.reload();
  await expect(loginPage.locator('h1')).toHaveText(MESSAGES.la.login.title);
  await expectLocale(page, 'la');

  // English, also after a reload and on other guest pages.
  await chooseLocale(select, 'en');
  await expect(loginPage.locator('h1')).toHaveText('Log in');
  await expect(page.getByTestId('login-submit')).toHaveText('Log in');
  await expect(page.getByTestId('remember-me').locator('..')).toHaveText(MESSAGES.en.login.rememberMe);
  await expectLocale(page, 'en');
  await screen(page, 'en-login');
  await page.reload();
  await expectLocale(page, 'en');
  await expect(page.getByTestId('nav-register')).toHaveText('Register');
  await page.getByTestId('nav-register').click();
  await expect(page.getByTestId('register-progress')).toHaveText('Step 1 of 4');
  await screen(page, 'en-register-phone');

  // And back to Thai.
  await page.goto('/login');
  await chooseLocale(page.getByTestId('language-select'), 'th');
  await expect(loginPage.locator('h1')).toHaveText(MESSAGES.th.login.title);
  await expectLocale(page, 'th');
});

test('the member top bar switches the language; the bank name follows it (Thai only in th)', async ({ page, request }) => {
  const member = await registerViaApi(request);
  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password, { remember: true });
  const topBar = page.getByTestId('top-bar');
  const select = topBar.getByTestId('language-select');
  await expect(page.getByTestId('nav-profile')).toHaveText(MESSAGES.th.nav.profile);

  await page.getByTestId('nav-profile').click();
  await expect(page.getByTestId('profile-bank-name')).toHaveText('ธนาคารกสิกรไทย');
  const title = page.getByTestId('profile-page').locator('h1');
  await expect(title).toHaveText(MESSAGES.th.profile.title);

  for (const locale of ['la', 'en'] as const) {
    await chooseLocale(select, locale);
    await expect(title).toHaveText(MESSAGES[locale].profile.title);
    await expectLocale(page, locale);
    await expect(page.getByTestId('nav-profile')).toHaveText(MESSAGES[locale].nav.profile);
    await expect(page.getByTestId('nav-statement')).toHaveText(MESSAGES[locale].nav.statement);
    await expect(page.getByTestId('logout-button')).toHaveAttribute('aria-label', MESSAGES[locale].nav.logout);
    // One language per screen: the spec's "bank name (Thai name)" is Thai in th and follows the locale elsewhere.
    await expect(page.getByTestId('profile-bank-name')).toHaveText(KBANK_NAMES[locale]);
    await expect(page.getByTestId('profile-bank-account-no')).toHaveText(formatAccountNo(member.bankAccountNo));
    const label = page.getByTestId('profile-page').locator('dt', { hasText: MESSAGES[locale].profile.bankName });
    await expect(label).toBeVisible();
    await screen(page, `${locale}-profile`);
    await page.reload();
    await expect(title).toHaveText(MESSAGES[locale].profile.title);
    await expectLocale(page, locale);
  }
  await chooseLocale(select, 'la');
  await expect(title).toHaveText(LAO_SCRIPT);

  // The change-password modal speaks the chosen language too.
  await page.getByTestId('change-password-button').click();
  await expect(page.getByTestId('change-password-modal')).toContainText(MESSAGES.la.changePassword.title);
  await screen(page, 'la-change-password');
  await page.getByTestId('modal-close').click();
  await expect(page.getByTestId('change-password-modal')).toHaveCount(0);

  // The language choice survives logout: the login page is in Lao.
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-page').locator('h1')).toHaveText(MESSAGES.la.login.title);
  await expect(page.getByTestId('credit-line')).toHaveText(
    fill(MESSAGES.la.layout.credit, { year: new Date().getFullYear(), website: 'goldenwallet.example' }),
  );
});

// The server writes its content (contact text, conditions, agreements) per language and answers
// in the language the app asks for, which is the member's choice, not the browser's.
test('server content follows the chosen language', async ({ page }) => {
  await page.goto('/login');
  await chooseLocale(page.getByTestId('language-select'), 'en');
  await page.getByTestId('nav-contact').click();
  await expect(page.getByTestId('contact-page').locator('h1')).toHaveText(MESSAGES.en.contact.title);
  await expect(page.getByTestId('contact-text')).toHaveText('Our team is available 24 hours a day on LINE.', { timeout: 3_000 });
  // The guest contact page has no top bar: the language is chosen on the login page.
  await page.getByTestId('nav-login').click();
  await chooseLocale(page.getByTestId('language-select'), 'la');
  await page.getByTestId('nav-contact').click();
  await expect(page.getByTestId('contact-text')).toHaveText('ຕິດຕໍ່ທີມງານໄດ້ຕະຫຼອດ 24 ຊົ່ວໂມງ ຜ່ານ LINE', { timeout: 3_000 });
});
