/**
 * The Lao site from one switch: the `laos` project's server runs with LAOS_MODE=true on the same
 * build as every other server (no VITE_LAOS). A newcomer, with nothing chosen, gets Lao; registers
 * in the browser with an 8-digit Lao phone, BCEL and LAK; the login page then carries the phone.
 */
import { randomInt } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { HTML_LANG, LAO_SCRIPT, MESSAGES, otpCodeOf, screen } from './support';

const la = MESSAGES.la;

/** An 8-digit Lao mobile number (20 + 6 digits) no other test uses. */
function laoPhone(): string {
  return `20${String(Date.now() % 1_000_000).padStart(6, '0').slice(0, 3)}${String(randomInt(0, 1000)).padStart(3, '0')}`;
}

test('a newcomer registers in the browser on the Lao site: Lao by default, 8-digit phone, BCEL, LAK', async ({ page }) => {
  const phone = laoPhone();
  const password = 'lao-pass-1';
  await page.goto('/register');
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG.la);
  await expect(page.getByTestId('register-progress')).toContainText(LAO_SCRIPT);

  // Step 1: an 8-digit phone is taken (the Thai site wants 10).
  const phoneStep = page.getByTestId('register-step-phone');
  await expect(phoneStep).toContainText(la.register.phoneHintLaos);
  await phoneStep.locator('input[name=username]').fill(phone);
  await screen(page, 'la-laos-register-phone');
  await page.getByTestId('register-next').click();

  // Step 2: the code from the page's sandbox notice.
  const otpStep = page.getByTestId('register-step-otp');
  await expect(otpStep).toBeVisible();
  const ref = await page.getByTestId('otp-ref').getAttribute('data-ref');
  const smsText = page.getByTestId('sandbox-sms-text');
  await expect(smsText).toContainText(ref ?? '');
  await otpStep.locator('input[name=otpCode]').fill(otpCodeOf(await smsText.innerText()));
  await page.getByTestId('otp-verify').click();

  // Step 3: profile.
  const profileStep = page.getByTestId('register-step-profile');
  await expect(profileStep).toBeVisible();
  await profileStep.locator('input[name=name]').fill(`ສົມພອນ ${phone.slice(-4)}`);
  await profileStep.locator('input[name=password]').fill(password);
  await profileStep.locator('input[name=confirmPassword]').fill(password);
  // The age gate (play responsibly): the birth date of someone over 20.
  await profileStep.locator('input[name=birthDate]').fill('1990-01-15');
  await profileStep.locator('select[name=sourceCode]').selectOption({ index: 1 });
  await page.getByTestId('register-next').click();

  // Step 4: the currency first (LAK by default), then a Lao bank.
  const bankStep = page.getByTestId('register-step-bank');
  await expect(bankStep).toBeVisible();
  await expect(bankStep.locator('select[name=currency]')).toHaveValue('LAK');
  await bankStep.locator('select[name=bankCode]').selectOption('BCEL');
  await bankStep.locator('input[name=firstName]').fill('somphone');
  await bankStep.locator('input[name=lastName]').fill('tester');
  await bankStep.locator('input[name=bankAccountNo]').fill(`0101${phone}`);
  await screen(page, 'la-laos-register-bank');
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('register-success')).toContainText(la.register.successTitle);

  // The login page carries the phone; the member logs in to a kip wallet.
  await expect(page).toHaveURL(/\/login$/, { timeout: 6_000 });
  const loginForm = page.getByTestId('login-form');
  await expect(loginForm.locator('input[name=username]')).toHaveValue(phone);
  await loginForm.locator('input[name=password]').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/user\/home$/);
  await expect(page.getByTestId('wallet-balance')).toHaveText(/^\u20AD/);
  await expect(page.getByTestId('home-page')).toContainText(LAO_SCRIPT);
  await screen(page, 'la-laos-home');
});
