/**
 * Money in the back office at 1366×800 (issue 32 items 2, 3 and 5), signed in as the demo finance
 * operator:
 * - a withdrawal's Reject opens a dialog naming the member and the amount with its currency;
 *   dismissing it moves nothing; confirming (with a reason) gives the money back once;
 * - a deposit held by the member's limit is on the held-deposits screen; Return (with the
 *   outgoing transfer's reference) marks it returned; Release credits another once; both in the
 *   member's statement and the audit.
 * - an unmatched deposit: a search result only selects; assign confirmed, once;
 * - a manual credit of ฿60,000 needs a reason and reads as waiting for a second approver.
 * Screenshots of the held-deposits dialog in Thai and English: test-results/screens/bo-money-*.png.
 */
import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_TEXT as T, adminLogin } from './admin-support';
import { th as TH } from '../../apps/web/admin/src/i18n/th';
import { OPERATOR_TOKEN, SCREENS_DIR, fill, loginViaApi, registerViaApi, sandboxBankTransfer } from './support';

test.use({ viewport: { width: 1366, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 });

const automation = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const KBANK_AUTO = '0451234567';
const HOUR = 3_600_000;

async function post(request: APIRequestContext, path: string, token: string, data: unknown): Promise<unknown> {
  const answer = await request.post(path, { headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() }, data });
  expect(answer.ok(), `${path}: ${answer.status()} ${await answer.text()}`).toBe(true);
  return answer.json();
}
async function wallet(request: APIRequestContext, token: string): Promise<number> {
  const answer = await request.get('/api/wallet', { headers: { authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { wallet: { amount: number } }).wallet.amount;
}
async function statement(request: APIRequestContext, token: string) {
  const answer = await request.post('/api/statement', { headers: { authorization: `Bearer ${token}` }, data: { page: 1, limit: 20 } });
  return ((await answer.json()) as { statements: Array<{ _id: string; statementType: string; amount: number; status: string; note?: string }> }).statements;
}
async function held(request: APIRequestContext, phone: string, status: 'HELD' | 'RETURNED') {
  const answer = await request.get(`/api/operator/deposits/held?status=${status}`, { headers: automation });
  return ((await answer.json()) as { deposits: Array<{ id: string; username: string; amount: number; status: string }> }).deposits.filter((d) => d.username === phone);
}
async function audit(request: APIRequestContext, target: string) {
  const answer = await request.get(`/api/operator/audit?target=${encodeURIComponent(target)}`, { headers: automation });
  expect(answer.ok()).toBe(true);
  return JSON.stringify(await answer.json());
}
async function shot(page: Page, name: string) {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path: `${SCREENS_DIR}${name}.png`, animations: 'disabled' });
}

test('a withdrawal’s rejection names the member and ฿ amount; dismissing moves nothing; confirming gives the money back once', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  await post(request, '/api/wallet/add', token, { amount: 500 });
  await post(request, '/api/wallet/withdraw', token, { amount: 321 });
  expect(await wallet(request, token)).toBe(179);

  await adminLogin(page, 'finance');
  await page.getByRole('navigation', { name: T.app.menu }).getByRole('link', { name: T.nav.withdrawals }).click();
  await page.getByRole('searchbox', { name: T.common.search }).fill(member.phone);
  const reject = page.getByRole('button', { name: new RegExp(`^${T.withdrawals.reject} ${member.phone}`) });
  await reject.click();
  const dialog = page.getByRole('dialog', { name: T.money.rejectTitle });
  await expect(dialog.getByTestId('confirm-member')).toContainText(member.name);
  await expect(dialog.getByTestId('confirm-member')).toContainText(member.phone);
  await expect(dialog.getByTestId('confirm-member')).toContainText(member.bankAccountNo);
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('฿321.00');
  // A reason is required before anything can be sent.
  await expect(dialog.getByRole('button', { name: T.withdrawals.reject })).toBeDisabled();
  // Dismissed: nothing moved.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await wallet(request, token)).toBe(179);
  await reject.click();
  await dialog.getByRole('button', { name: T.common.cancel }).click();
  await expect(dialog).toHaveCount(0);
  expect(await wallet(request, token)).toBe(179);

  // Confirmed with a reason: once, and the page says what happened.
  await reject.click();
  await dialog.getByLabel(new RegExp(T.kit.reason)).fill('account closed, asked by phone');
  await shot(page, 'bo-money-withdrawal-reject-en');
  await dialog.getByRole('button', { name: T.withdrawals.reject }).click();
  await expect(page.getByRole('status').filter({ hasText: fill(T.money.rejectedBack, { amount: '฿321.00' }) })).toBeVisible();
  expect(await wallet(request, token)).toBe(500);
  await expect(reject).toHaveCount(0);
  // The list in Thai, every status: the refused withdrawal with its amount in baht.
  await page.evaluate(() => window.localStorage.setItem('admin-locale', 'th'));
  await page.reload();
  await page.getByRole('combobox', { name: TH.common.status }).selectOption('ALL');
  await expect(page.getByRole('row').filter({ hasText: '฿321.00' }).first()).toBeVisible();
  await shot(page, 'bo-money-withdrawals-th');
});

test('held deposits: the screen lists one held by the limit; return marks it returned, release credits another once; statement and audit', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  const limits = await request.put('/api/responsible/limits', { headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' }, data: { day: 100 } });
  expect(limits.ok()).toBe(true);
  await sandboxBankTransfer(request, { fromBankCode: member.bankCode, fromAccountNo: member.bankAccountNo, toBankCode: 'KBANK', toAccountNo: KBANK_AUTO, amount: 600 });
  await sandboxBankTransfer(request, { fromBankCode: member.bankCode, fromAccountNo: member.bankAccountNo, toBankCode: 'KBANK', toAccountNo: KBANK_AUTO, amount: 700 });
  await expect.poll(async () => (await held(request, member.phone, 'HELD')).length).toBe(2);
  const [first, second] = await held(request, member.phone, 'HELD');
  expect(await wallet(request, token)).toBe(0);

  await adminLogin(page, 'finance');
  await page.getByRole('navigation', { name: T.app.menu }).getByRole('link', { name: T.nav.held }).click();
  await expect(page.getByRole('heading', { name: T.held.title })).toBeVisible();
  const rows = page.getByRole('row').filter({ hasText: member.phone });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: '฿600.00' })).toContainText(T.held.reasons.DEPOSIT_LIMIT);

  // Return the ฿600 one: the dialog names the member and amount; dismissing moves nothing.
  const returnButton = page.getByRole('button', { name: `${T.held.return} ${member.phone}` }).first();
  await returnButton.click();
  const dialog = page.getByRole('dialog', { name: T.held.returnTitle });
  await expect(dialog.getByTestId('confirm-member')).toContainText(member.name);
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('฿600.00');
  await dialog.getByRole('button', { name: T.common.cancel }).click();
  await expect(dialog).toHaveCount(0);
  expect(await held(request, member.phone, 'HELD')).toHaveLength(2);

  await returnButton.click();
  await dialog.getByLabel(T.held.returnReference).fill('KB2611280042');
  await dialog.getByLabel(new RegExp(T.kit.reason)).fill('over the member’s limit, sent back');
  await shot(page, 'bo-money-held-return-en');
  await dialog.getByRole('button', { name: T.held.return }).click();
  await expect(page.getByRole('status').filter({ hasText: fill(T.held.returned, { amount: '฿600.00', reference: 'KB2611280042' }) })).toBeVisible();
  expect((await held(request, member.phone, 'RETURNED')).map((d) => d.id)).toEqual([first?.id]);
  expect(await audit(request, first?.id ?? '')).toContain('KB2611280042');

  // Release the ฿700 one once the member's raised limit applies (the sandbox clock a day on).
  expect((await request.put('/api/responsible/limits', { headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' }, data: { day: 5000 } })).ok()).toBe(true);
  expect((await request.put('/api/operator/sandbox/clock', { headers: automation, data: { offsetMs: 25 * HOUR } })).ok()).toBe(true);
  try {
    await page.evaluate(() => window.localStorage.setItem('admin-locale', 'th'));
    await page.reload();
    const releaseTh = page.getByRole('button', { name: `${TH.held.release} ${member.phone}` });
    await releaseTh.click();
    const dialogTh = page.getByRole('dialog', { name: TH.held.releaseTitle });
    await expect(dialogTh.getByTestId('confirm-amount')).toContainText('700');
    await shot(page, 'bo-money-held-release-th');
    await dialogTh.getByRole('button', { name: TH.held.release }).click();
    await expect(page.getByRole('status')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: member.phone })).toHaveCount(0);
  } finally {
    await request.put('/api/operator/sandbox/clock', { headers: automation, data: { offsetMs: 0 } });
  }
  expect(await wallet(request, token)).toBe(700);
  expect(await audit(request, second?.id ?? '')).toContain('RELEASED');
  const lines = await statement(request, token);
  expect(lines.find((l) => l._id === first?.id)).toMatchObject({ status: 'FAILED', note: 'DEPOSIT_RETURNED', amount: 600 });
  expect(lines.find((l) => l._id === second?.id)).toMatchObject({ status: 'SUCCESS', amount: 700 });
});

test('an unmatched deposit: a search result only selects; Assign confirms with the member and ฿1,500.00; dismissing moves nothing; confirming credits once', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  const stranger = `9${String(Date.now()).slice(-9)}`;
  await sandboxBankTransfer(request, { fromBankCode: 'SCB', fromAccountNo: stranger, toBankCode: 'KBANK', toAccountNo: KBANK_AUTO, amount: 1500 });
  const unmatched = async () => {
    const answer = await request.get('/api/operator/deposits/unmatched', { headers: automation });
    return ((await answer.json()) as { deposits: Array<{ id: string; fromAccountNo: string | null }> }).deposits.filter((d) => d.fromAccountNo === stranger);
  };
  await expect.poll(async () => (await unmatched()).length).toBe(1);

  await adminLogin(page, 'finance');
  await page.getByRole('navigation', { name: T.app.menu }).getByRole('link', { name: T.nav.unmatched }).click();
  await page.getByRole('row').filter({ hasText: stranger }).getByRole('button', { name: T.unmatched.assign }).click();
  const card = page.locator('section.card').filter({ hasText: `${T.unmatched.assign}: ฿1,500.00` });
  await card.getByRole('searchbox', { name: T.unmatched.findMember }).fill(member.phone);
  await card.getByRole('button', { name: new RegExp(member.phone) }).click();
  // The click selected; nothing was assigned.
  await expect(card.getByTestId('picked-member')).toContainText(member.name);
  expect(await unmatched()).toHaveLength(1);
  expect(await wallet(request, token)).toBe(0);

  await card.getByRole('button', { name: T.unmatched.assign }).click();
  const dialog = page.getByRole('dialog', { name: T.money.assignTitle });
  await expect(dialog.getByTestId('confirm-member')).toContainText(`${member.name} · ${member.phone}`);
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('฿1,500.00');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await wallet(request, token)).toBe(0);

  await card.getByRole('button', { name: T.unmatched.assign }).click();
  await shot(page, 'bo-money-assign-en');
  await dialog.getByRole('button', { name: T.unmatched.assign }).click();
  await expect(page.getByRole('status').filter({ hasText: fill(T.money.credited, { amount: '฿1,500.00', name: member.name }) })).toBeVisible();
  expect(await wallet(request, token)).toBe(1500);
  await expect(page.getByRole('row').filter({ hasText: stranger })).toHaveCount(0);
});

test('a manual credit of ฿60,000 asks for a reason and then reads as waiting for a second approver, not credited', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  await adminLogin(page, 'finance');
  await page.getByRole('navigation', { name: T.app.menu }).getByRole('link', { name: T.nav.unmatched }).click();
  const card = page.locator('section.card').filter({ hasText: T.unmatched.manualTitle });
  await card.getByRole('searchbox', { name: T.unmatched.findMember }).fill(member.phone);
  await card.getByRole('button', { name: new RegExp(member.phone) }).click();
  await card.getByLabel(`${T.common.amount} (THB)`).fill('60,000');
  await card.getByRole('button', { name: T.unmatched.credit }).click();
  const dialog = page.getByRole('dialog', { name: T.money.manualTitle });
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('฿60,000.00');
  await expect(dialog.getByTestId('confirm-member')).toContainText(member.bankAccountNo);
  await expect(dialog.getByRole('button', { name: T.unmatched.credit })).toBeDisabled();
  await dialog.getByLabel(new RegExp(T.kit.reason)).fill('transfer seen on the statement, no feed');
  await dialog.getByRole('button', { name: T.unmatched.credit }).click();
  await expect(page.getByRole('status').filter({ hasText: fill(T.money.awaitingCredit, { amount: '฿60,000.00' }) })).toBeVisible();
  expect(await wallet(request, token)).toBe(0);
});

test('two operators on one queue: the withdrawal one of them is confirming shows as taken, by name, on the other’s screen, and is free again when the dialog closes', async ({ page, browser, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  await post(request, '/api/wallet/add', token, { amount: 500 });
  await post(request, '/api/wallet/withdraw', token, { amount: 123 });

  const other = await browser.newContext({ viewport: { width: 1366, height: 800 }, baseURL: test.info().project.use.baseURL });
  const owner = await other.newPage();
  try {
    await adminLogin(page, 'finance');
    await adminLogin(owner, 'owner');
    for (const p of [page, owner]) {
      await p.getByRole('navigation', { name: T.app.menu }).getByRole('link', { name: T.nav.withdrawals }).click();
      await p.getByRole('searchbox', { name: T.common.search }).fill(member.phone);
    }
    const row = owner.getByRole('row').filter({ hasText: member.phone });
    await expect(row.getByRole('button', { name: new RegExp(`^${T.withdrawals.reject} ${member.phone}`) })).toBeVisible();
    await expect(row.getByRole('status')).toHaveCount(0);
    // Finance opens the confirmation: the owner's row says finance is on it.
    await page.getByRole('button', { name: new RegExp(`^${T.withdrawals.reject} ${member.phone}`) }).click();
    await expect(page.getByRole('dialog', { name: T.money.rejectTitle })).toBeVisible();
    await expect(row.getByRole('status')).toHaveText(fill(T.app.taken, { operator: 'finance' }));
    // Dismissed: the claim is let go at once.
    await page.keyboard.press('Escape');
    await expect(row.getByRole('status')).toHaveCount(0);
    expect(await wallet(request, token)).toBe(377);
  } finally {
    await other.close();
  }
});
