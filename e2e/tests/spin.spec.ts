/**
 * The prize wheel end to end at the 390×844 phone: coins from a deposit, a spin decided by the
 * server and shown by the wheel, the prize's coupon claimed into the wallet once, and the
 * provable-fairness panel revealing the seed.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { spinLocales } from '../../apps/web/src/features/spin/locales';
import { fill, loginInBrowser, loginViaApi, registerViaApi, screen, skipAgreement } from './support';

const text = spinLocales.th;
const LABELS = ['฿1', '฿2', '฿5', '฿10', '฿20', '฿50', '฿100', '฿500'];

test('prize wheel in th: a deposit earns coins, a spin wins a coupon, the coupon is claimed once, the seed is revealed', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  // The demo top-up is a deposit: 300 baht earn 3 coins.
  const topUp = await request.post('/api/wallet/add', { data: { amount: 300 }, headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' } });
  expect(topUp.ok()).toBe(true);
  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);
  await page.getByTestId('home-tile-spin').click();
  await expect(page).toHaveURL(/\/user\/spin$/);
  const button = page.getByTestId('spin-button');
  await expect(page.getByTestId('spin-coins')).toHaveText('3');
  await expect(page.getByTestId('coupons-empty')).toHaveText(text.couponsEmpty);
  await page.getByTestId('fairness').locator('summary').click();
  const hashBefore = await page.getByTestId('fairness-hash').innerText();
  await screen(page, 'th-spin-ready', { fullPage: true });

  await button.click();
  await expect(button).toBeDisabled();
  const prize = page.getByTestId('prize-modal');
  await expect(prize).toBeVisible({ timeout: 15_000 });
  const label = await prize.getByTestId('prize-label').innerText();
  expect(LABELS).toContain(label);
  await screen(page, 'th-spin-won');
  await prize.getByTestId('prize-close').click();
  await expect(page.getByTestId('spin-coins')).toHaveText('2');
  const row = page.getByTestId('coupon-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(label);

  await row.getByTestId('coupon-claim').click();
  const confirm = page.getByTestId('claim-modal');
  await expect(confirm).toBeVisible();
  // A double tap claims once.
  await confirm.getByTestId('claim-confirm').dblclick();
  await expect(page.getByTestId('toast').filter({ hasText: fill(text.claimed, { label }) })).toBeVisible();
  await expect(page.getByTestId('coupons-empty')).toBeVisible();
  const amount = Number(label.replace('฿', ''));
  const wallet = await request.get('/api/wallet', { headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' } });
  expect(((await wallet.json()) as { wallet: { amount: number } }).wallet.amount).toBe(300 + amount);

  // The seed used for the spin is revealed and matches the fingerprint shown before.
  await page.getByTestId('fairness-rotate').click();
  const revealed = page.getByTestId('fairness-revealed');
  await expect(revealed).toContainText(fill(text.revealed, { spins: 1 }));
  const seed = (await revealed.locator('.mono').innerText()).trim();
  expect(createHash('sha256').update(seed).digest('hex')).toBe(hashBefore);
  await expect(page.getByTestId('fairness-hash')).not.toHaveText(hashBefore);
});
