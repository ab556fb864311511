/**
 * Invite a friend, refund of losses, and a bonus played through to a withdrawal, end to end at the
 * 390×844 phone: banners first, the modals, their tables and confirmations, and the money that
 * arrives under its condition.
 */
import { expect, test, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import { rewardsLocales } from '../../apps/web/src/features/rewards/locales';
import { bonusLocales } from '../../apps/web/src/features/bonus/locales';
import { MESSAGES, OPERATOR_TOKEN, fill, loginInBrowser, loginViaApi, registerViaApi, screen, skipAgreement, startInLocale } from './support';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

function headers(token: string) {
  return { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' };
}

async function memberId(request: APIRequestContext, token: string): Promise<string> {
  const wallet = await request.get('/api/wallet', { headers: headers(token) });
  return ((await wallet.json()) as { profile: { _id: string } }).profile._id;
}

async function ok(response: Promise<APIResponse>): Promise<unknown> {
  const answer = await response;
  const body: unknown = await answer.json().catch(() => null);
  expect(answer.ok(), `${answer.url()} answered ${answer.status()} ${JSON.stringify(body)}`).toBe(true);
  return body;
}

/** Opens the member's PG account over the API and answers its username at the provider. */
async function openPg(request: APIRequestContext, token: string): Promise<string> {
  await ok(request.get('/api/wallet/activate/PG', { headers: headers(token) }));
  const account = (await ok(request.get('/api/wallet/account/PG', { headers: headers(token) }))) as { username: string };
  return account.username;
}

async function homeAmount(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).innerText()).trim();
}

test('invite in en: banners, the link with copy, a friend registers from it and deposits, the inviter receives under its condition', async ({ page, request, browser, baseURL }) => {
  const text = rewardsLocales.en;
  const m = MESSAGES.en;
  const inviter = await registerViaApi(request, { bankAccountName: 'ANAN INVITER' });
  const token = await loginViaApi(request, inviter.phone, inviter.password);
  const id = await memberId(request, token);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await skipAgreement(page);
  await startInLocale(page, 'en');
  await loginInBrowser(page, inviter.phone, inviter.password);

  // Banners first: a carousel of two; Continue (or closing it) opens the invite modal.
  await page.getByTestId('home-tile-invite').click();
  const banners = page.getByTestId('banner-modal');
  await expect(banners).toBeVisible();
  await expect(banners.getByTestId('banner-slide')).toHaveCount(2);
  await expect(banners.getByTestId('banner-slide').first()).toContainText('Invite friends, earn 1% of every deposit');
  await screen(page, 'en-invite-banners');
  await banners.getByTestId('banner-next').click();
  await expect(banners.getByTestId('banner-next')).toBeDisabled();
  await banners.getByTestId('banner-continue').click();
  const modal = page.getByTestId('invite-modal');
  await expect(modal).toBeVisible();
  // A short code (6 characters without look-alikes), in the link and to copy on its own; LINE share beside.
  // The code shows once the member's invite code has arrived ("…" until then).
  await expect(modal.getByTestId('invite-code')).toHaveText(/^\s*[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}\s*$/);
  const code = (await modal.getByTestId('invite-code').innerText()).trim();
  const link = `${baseURL ?? ''}/register?code=${code}`;
  await expect(modal.getByTestId('invite-link')).toHaveText(link);
  await expect(modal.getByTestId('invite-share-line')).toHaveAttribute('href', new RegExp(`^https://line\\.me/R/share\\?text=.*${code}`));
  await expect(modal).toContainText(text.inviteEmpty);
  await modal.getByTestId('invite-link-copy').click();
  await expect(page.getByTestId('toast').filter({ hasText: fill(m.common.copied, { text: link }) })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await screen(page, 'en-invite-modal');
  await modal.getByTestId('modal-close').click();

  // The friend follows the link: the register page keeps the code; they register with it and deposit.
  const friendContext = await browser.newContext();
  const friendPage = await friendContext.newPage();
  await friendPage.goto(link);
  await expect(friendPage.getByTestId('register-step-phone')).toBeVisible();
  await expect.poll(() => friendPage.evaluate(() => window.localStorage.getItem('code'))).toBe(code);
  const storedCode = (await friendPage.evaluate(() => window.localStorage.getItem('code'))) ?? '';
  await friendContext.close();
  const friend = await registerViaApi(request, { name: 'Bunma Friend', bankAccountName: 'BUNMA FRIEND' }, { inviteCode: storedCode });
  const friendToken = await loginViaApi(request, friend.phone, friend.password);
  // A link shared before the short codes (PR + the member's id) still names the inviter.
  await registerViaApi(request, { name: 'Old Link Friend', bankAccountName: 'OLD LINK' }, { inviteCode: `PR${id}` });
  await ok(request.post('/api/wallet/add', { data: { amount: 1000 }, headers: headers(friendToken) }));

  // The inviter's header shows 1 % of it; receiving asks first, with the condition's percentages.
  await page.reload();
  await expect(page.getByTestId('invite-bonus-amount')).toHaveText('฿10.00');
  await page.getByTestId('invite-bonus-receive').click();
  const confirm = page.getByTestId('invite-bonus-dialog');
  await expect(confirm).toContainText('100%');
  await expect(confirm).toContainText(fill(m.home.inviteConfirm.condition, { success: 100, fail: 0 }));
  await screen(page, 'en-invite-confirm');
  await confirm.getByTestId('invite-bonus-confirm').click();
  await expect(page.getByTestId('toast').filter({ hasText: m.errors.INVITE_BONUS_SUCCESS })).toBeVisible();
  await expect(page.getByTestId('invite-bonus-amount')).toHaveText('฿0.00');
  await expect(page.getByTestId('wallet-balance')).toHaveText('฿10.00');
  // Under its condition: the home page shows its turnover.
  // Named in words (not the raw code INVITE).
  await expect(page.getByTestId('home-bonus-progress')).toContainText(bonusLocales.en.originInvite);

  // The table lists what the friend brought.
  await page.getByTestId('home-tile-invite').click();
  await page.getByTestId('banner-continue').click();
  const rows = page.getByTestId('invite-table').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Bunma Friend');
  await expect(rows.first()).toContainText('฿10.00');
  await screen(page, 'en-invite-table');
});

test('refund in th after a losing week: the check, receive, add to the wallet after its confirmation, the log', async ({ page, request }) => {
  const text = rewardsLocales.th;
  const m = MESSAGES.th;
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  await ok(request.post('/api/wallet/add', { data: { amount: 1000 }, headers: headers(token) }));
  const username = await openPg(request, token);
  await ok(request.post('/api/wallet/transfer', { data: { from: 'WALLET', to: 'PG', amount: 1000 }, headers: headers(token) }));
  // Last week (7 days ago is always in the previous Monday–Sunday week): six lost rounds of ฿100.
  const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString();
  await ok(request.post('/api/operator/sandbox/games/PG/rounds', { data: { username, stake: 10_000, multiplier: 0, rounds: 6, at: lastWeek }, headers: operator }));
  await ok(request.post('/api/wallet/transferAll', { data: { to: 'WALLET' }, headers: headers(token) }));

  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);
  await expect(page.getByTestId('wallet-balance')).toHaveText('฿400.00');
  await page.getByTestId('home-tile-refund').click();
  await expect(page.getByTestId('banner-modal')).toContainText('คืนยอดเสีย 5% ทุกสัปดาห์');
  await screen(page, 'th-refund-banners');
  // Closing the carousel opens the refund modal.
  await page.getByTestId('banner-modal').getByTestId('modal-close').click();
  const modal = page.getByTestId('refund-modal');
  await expect(modal).toBeVisible();
  await expect(modal.getByTestId('refund-info')).toContainText('5%');
  const available = modal.getByTestId('refund-available');
  await expect(available).toContainText('฿30.00');
  await expect(modal).toContainText(text.refundEmpty);
  await screen(page, 'th-refund-available');
  await available.getByTestId('refund-receive').click();
  await expect(page.getByTestId('toast').filter({ hasText: m.errors.REFUND_SUCCESS })).toBeVisible();
  // The check reloads: nothing more to receive; what was received waits for the wallet.
  await expect(modal.getByTestId('refund-none')).toHaveText(text.refundNone);
  const received = modal.getByTestId('refund-received');
  await expect(received).toContainText('฿30.00');
  await expect(modal.getByTestId('refund-table').locator('tbody tr')).toHaveCount(1);
  // Received: adding it to the wallet asks at once (no extra tap on "add to wallet").
  const confirm = page.getByTestId('refund-add-confirm');
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText(fill(text.addWalletText, { success: 100, fail: 0 }));
  await screen(page, 'th-refund-confirm');
  await confirm.getByTestId('refund-add-confirm-button').click();
  await expect(page.getByTestId('toast').filter({ hasText: text.added })).toBeVisible();
  // The modal closed with "changed": the home reloads the wallet.
  await expect(modal).toBeHidden();
  await expect(page.getByTestId('wallet-balance')).toHaveText('฿430.00');
  await expect(page.getByTestId('home-bonus-progress')).toContainText(bonusLocales.th.originRefund);
  expect(await homeAmount(page, 'total-balance')).toBe('฿430.00');
});

test('bonus in en: deposit, take a bonus, play the demo game until the turnover is met, then withdraw', async ({ page, request }) => {
  const text = bonusLocales.en;
  const m = MESSAGES.en;
  // A bonus whose turnover a few spins meet: 10 % of the deposit, target (deposit + bonus) × 0.2.
  const code = `E2E${Date.now().toString(36).toUpperCase().slice(-5)}`;
  await ok(request.put(`/api/operator/bonuses/${code}`, {
    headers: operator,
    data: { type: 'limit', maxReceived: 1, percentFail: 0, percent: 10, maxBonus: 100_000, minDeposit: 10_000, turnoverMultiple: 0.2, categories: ['slot'], banners: [{ image: '', html: `<h3>${code}</h3>` }], sort: 0 },
  }));
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  await ok(request.post('/api/wallet/add', { data: { amount: 1000 }, headers: headers(token) }));
  await skipAgreement(page);
  await startInLocale(page, 'en');
  await loginInBrowser(page, member.phone, member.password);

  await page.goto('/user/bonus');
  const card = page.locator(`[data-testid=bonus-card][data-code=${code}]`);
  await expect(card).toContainText(text.maxReceivedOnce);
  await card.click();
  await page.getByTestId('bonus-modal').getByTestId('bonus-receive').click();
  // Target: (1,000 + 100) × 0.2 = 220.
  await expect(page.getByTestId('alert-message')).toHaveText(fill(text.received_amount, { amount: '฿100.00', target: '฿220.00' }));
  await page.getByTestId('alert-ok').click();
  const active = page.getByTestId('bonus-active');
  await expect(active.getByTestId('bonus-progress')).toContainText(fill(text.turnoverOf, { done: '฿0.00', target: '฿220.00' }));

  // Play: the wallet goes into PG and the demo game opens; three spins of 100 meet the turnover.
  await page.goto('/user/home');
  const pgCard = page.getByTestId('game-card-PG');
  await pgCard.click();
  const slot = page.getByTestId('slot-account-modal');
  await slot.getByTestId('slot-activate').click();
  await expect(slot.getByTestId('slot-status')).toHaveText(m.gameAccount.active);
  // Play asks first: the whole wallet moves into PG.
  await slot.getByTestId('slot-play').click();
  await expect(slot.getByTestId('play-confirm-text')).toHaveText(fill(m.gameAccount.playConfirmText, { amount: '฿1,100.00', name: 'PG Soft' }));
  const tabOpened = page.waitForEvent('popup');
  await slot.getByTestId('play-confirm-go').click();
  const game = await tabOpened;
  // The provider's own page, on the sandbox service.
  await game.waitForURL(/\/games\/PG\/play\?t=/);
  await expect(game.getByTestId('game-balance')).toHaveText('1,100.00');
  await game.getByRole('button', { name: 'Bet 100' }).click();
  for (let spin = 0; spin < 3; spin += 1) {
    await game.getByTestId('spin').click();
    await expect(game.getByTestId('spin')).toBeEnabled();
    await expect(game.getByTestId('game-result')).toHaveText(/WIN|No win/);
  }
  await game.close();

  // The condition ends as met; the money comes back from the game and a withdrawal goes through.
  await page.goto('/user/bonus');
  await expect(page.getByTestId('bonus-active')).toBeHidden();
  await page.goto('/user/home');
  await expect(page.getByTestId('home-bonus-progress')).toHaveCount(0);
  await ok(request.post('/api/wallet/transferAll', { data: { to: 'WALLET' }, headers: headers(token) }));
  const withdrawn = (await ok(request.post('/api/wallet/withdraw', { data: { amount: 100 }, headers: headers(token) }))) as Record<string, unknown>;
  expect(withdrawn).toBeTruthy();
  const statement = await request.post('/api/statement', { data: { page: 1, limit: 10 }, headers: headers(token) });
  const rows = ((await statement.json()) as { statements: Array<{ statementType: string; status: string; from: string }> }).statements;
  expect(rows.find((r) => r.statementType === 'finish_bonus')).toMatchObject({ status: 'SUCCESS', from: code });
  expect(rows.find((r) => r.statementType === 'withdraw')).toBeTruthy();
});
