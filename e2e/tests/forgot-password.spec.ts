/** Forgot password (added to the spec's routes): phone → SMS code → new password → /login. */
import { expect, test } from '@playwright/test';
import { MESSAGES, fill, freshPhone, otpCodeOf, registerViaApi, screen, smsCount } from './support';

const th = MESSAGES.th;

test('a member resets a forgotten password with the SMS code and logs in with it', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const newPassword = 'reset-pass9';

  await page.goto('/login');
  await page.getByTestId('forgot-password-link').click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  const forgot = page.getByTestId('forgot-password-page');
  await expect(forgot).toContainText(th.forgot.title);

  // A short phone is refused before anything is sent.
  const phoneStep = page.getByTestId('forgot-step-phone');
  await phoneStep.locator('input[name=phoneNumber]').fill(member.phone.slice(0, 9));
  await page.getByTestId('forgot-send').click();
  await expect(phoneStep.getByTestId('field-error')).toHaveText(fill(th.rules.PHONE_NUMBER_REQUIRE_10_DIGIT, { phoneLength: 10 }));

  await phoneStep.locator('input[name=phoneNumber]').fill(member.phone);
  await page.getByTestId('forgot-send').click();
  const resetStep = page.getByTestId('forgot-step-reset');
  await expect(resetStep).toBeVisible();
  await expect(resetStep).toContainText(fill(th.forgot.codeSentTo, { phone: member.phone }));
  const ref = await page.getByTestId('otp-ref').getAttribute('data-ref');
  expect(ref).toMatch(/^[A-Z]{4}$/);
  const smsText = page.getByTestId('sandbox-sms-text');
  await expect(smsText).toContainText(ref ?? '');
  await screen(page, 'th-forgot-reset');

  // Confirmation must match before the server is asked.
  await resetStep.locator('input[name=otpCode]').fill(otpCodeOf(await smsText.innerText()));
  await resetStep.locator('input[name=newPassword]').fill(newPassword);
  await resetStep.locator('input[name=confirmPassword]').fill(`${newPassword}!`);
  await page.getByTestId('forgot-submit').click();
  await expect(resetStep.getByTestId('field-error')).toHaveText(th.rules.PASSWORDS_NOT_MATCH);
  await resetStep.locator('input[name=confirmPassword]').fill(newPassword);
  await page.getByTestId('forgot-submit').click();

  // Back on /login with a success toast; the new password works.
  await expect(page).toHaveURL(/\/login$/);
  const toast = page.getByTestId('toast').filter({ hasText: th.forgot.success });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveAttribute('data-tone', 'success');
  const form = page.getByTestId('login-form');
  await form.locator('input[name=username]').fill(member.phone);
  await form.locator('input[name=password]').fill(newPassword);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/user\/home$/);
});

test('an unregistered phone gets the same next step, no SMS, and the reset then fails', async ({ page, request }) => {
  const phone = freshPhone();
  await page.goto('/forgot-password');
  await page.getByTestId('forgot-step-phone').locator('input[name=phoneNumber]').fill(phone);
  await page.getByTestId('forgot-send').click();

  // Same screen as for a member: no hint that the phone is unknown.
  const resetStep = page.getByTestId('forgot-step-reset');
  await expect(resetStep).toBeVisible();
  await expect(resetStep).toContainText(fill(th.forgot.codeSentTo, { phone }));
  await expect(page.getByTestId('otp-ref')).toHaveAttribute('data-ref', /^[A-Z]{4}$/);
  await expect(page.getByTestId('forgot-error')).toHaveCount(0);
  // …but nothing was sent to it.
  await expect(page.getByTestId('sandbox-sms')).toContainText(th.sandbox.waiting);
  expect(await smsCount(request, phone)).toBe(0);

  await resetStep.locator('input[name=otpCode]').fill('123456');
  await resetStep.locator('input[name=newPassword]').fill('whatever12');
  await resetStep.locator('input[name=confirmPassword]').fill('whatever12');
  await page.getByTestId('forgot-submit').click();
  // As for a registered phone: the wrong code, with the tries left.
  await expect(page.getByTestId('forgot-error')).toHaveText(`${th.errors.OTP_CODE_INVALID} ลองได้อีก 4 ครั้ง`);
  await expect(page).toHaveURL(/\/forgot-password$/);
  await screen(page, 'th-forgot-unknown-phone');

  // Typing clears the error; the link leads back to the login page.
  await resetStep.locator('input[name=otpCode]').fill('654321');
  await expect(page.getByTestId('forgot-error')).toHaveCount(0);
  await page.getByTestId('back-to-login').click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-page')).toBeVisible();
});
