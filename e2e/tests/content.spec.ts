/** Contact page and the conditions modal (spec section 2); the how-to videos are in howto.spec.ts. */
import { expect, test } from '@playwright/test';
import { MESSAGES, fill, loginInBrowser, registerViaApi, screen, skipAgreement } from './support';

const th = MESSAGES.th;

test('the contact page shows the contact text and version 1.1.14, with a top bar only for members', async ({ page, request }) => {
  // With the chat widget off, the LINE contact block (the demo has the widget on: below).
  await page.route('**/api/lookup/enableChatWidget', (route) => route.fulfill({ json: { enableChatWidget: false } }));
  await page.goto('/contact');
  const contact = page.getByTestId('contact-page');
  await expect(contact).toContainText(th.contact.title);
  await expect(page.getByTestId('contact-text')).toContainText('ติดต่อทีมงานได้ตลอด 24 ชั่วโมง');
  await expect(page.getByTestId('contact-version')).toHaveText(fill(th.common.version, { version: '1.1.14' }));
  await expect(page.getByTestId('contact-line-name')).toHaveText('@goldenwallet');
  await expect(page.getByTestId('contact-line-link')).toHaveAttribute('href', 'https://line.me/R/ti/p/@goldenwallet');
  await expect(page.getByTestId('contact-line-qr')).toBeVisible();
  await expect(page.getByTestId('top-bar')).toHaveCount(0);
  await expect(page.getByTestId('credit-line')).toContainText('goldenwallet.example');
  await screen(page, 'th-contact');
  await expect(page.getByTestId('contact-chat')).toHaveCount(0);
  await page.unroute('**/api/lookup/enableChatWidget');

  const member = await registerViaApi(request);
  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);
  await page.getByTestId('nav-contact').click();
  await expect(page).toHaveURL(/\/user\/contact$/);
  await expect(page.getByTestId('top-bar')).toBeVisible();
  await expect(page.getByTestId('contact-version')).toHaveText(fill(th.common.version, { version: '1.1.14' }));
  // The widget is on: the chat takes the LINE block's place.
  await expect(page.getByTestId('contact-chat')).toBeVisible();
  await expect(page.getByTestId('contact-line-link')).toHaveCount(0);
});

test('the conditions item of the member menu lists the conditions', async ({ page, request }) => {
  const member = await registerViaApi(request);
  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);

  await page.getByTestId('nav-conditions').click();
  const modal = page.getByTestId('conditions-modal');
  await expect(modal).toBeVisible();
  await expect(modal).toContainText(th.conditions.title);
  const items = modal.getByTestId('condition-item');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('โบนัสแบบจำกัดครั้ง');
  // The texts are HTML: the bold heading is rendered, not shown as markup.
  await expect(items.nth(0).locator('b')).toHaveText('โบนัสแบบจำกัดครั้ง');
  await expect(items.nth(0)).not.toContainText('<b>');
  await screen(page, 'th-conditions');
  await page.getByTestId('modal-close').click();
  await expect(modal).toHaveCount(0);
  // Still on the page it was opened from.
  await expect(page).toHaveURL(/\/user\/home$/);
});
