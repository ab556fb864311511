/**
 * Player experience II (trust around money), at the 390×844 phone, one test per defect:
 * - a bank-feed deposit shows after "check balance" (and when the app comes back to the front),
 *   without a reload;
 * - the slip of an already-credited transfer says it was credited, how much and when; a photo with
 *   no QR says to upload the slip image from the bank app;
 * - Play says what moves where before moving the wallet, and a toast says what moved;
 * - bonus taken → Play (its money in a slot game) → cancel ends with the bonus cancelled, the game
 *   money brought home and no error; the dialog shows what it takes back;
 * - refusals carry their reason and figures (a withdrawal under a bonus names the turnover left).
 * (The chat bubble covering no control, on guest and member pages at two sizes: chat-bubble.spec.ts.)
 * (The login page carrying the phone after registration: accounts.spec.ts and laos.spec.ts.)
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { bonusLocales } from '../../apps/web/src/features/bonus/locales';
import { depositLocales } from '../../apps/web/src/features/deposit/locales';
import { MESSAGES, fill, loginInBrowser, loginViaApi, registerViaApi, sandboxBankTransfer, screen, skipAgreement, startInLocale, type Locale } from './support';

/** The demo seed's automatic KBANK account: a transfer into it is credited by the bank feed. */
const KBANK_AUTO = '0451234567';

function headers(token: string, key?: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest', ...(key ? { 'idempotency-key': key } : {}) };
}

async function walletAmount(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.get('/api/wallet', { headers: headers(token) });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { wallet: { amount: number } }).wallet.amount;
}

/** Waits until the server has credited the member (the bank feed's webhook is asynchronous). */
async function creditedTo(request: APIRequestContext, token: string, amount: number): Promise<void> {
  await expect.poll(() => walletAmount(request, token), { timeout: 15_000, intervals: [100, 250, 500] }).toBe(amount);
}

test('a bank-feed deposit shows after "check balance", and when the app comes back to the front, without a reload', async ({ page, request }) => {
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);
  await expect(page.getByTestId('wallet-balance')).toHaveText('฿0.00');
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });

  await sandboxBankTransfer(request, { fromBankCode: member.bankCode, fromAccountNo: member.bankAccountNo, toBankCode: 'KBANK', toAccountNo: KBANK_AUTO, amount: 120 });
  await creditedTo(request, token, 120);
  await page.getByTestId('check-balance').click();
  await expect(page.getByTestId('wallet-balance')).toHaveText('฿120.00');
  await expect(page.getByTestId('total-balance')).toHaveText('฿120.00');

  // The member switches to the bank app and back: the wallet is read again on the way back.
  await sandboxBankTransfer(request, { fromBankCode: member.bankCode, fromAccountNo: member.bankAccountNo, toBankCode: 'KBANK', toAccountNo: KBANK_AUTO, amount: 30 });
  await creditedTo(request, token, 150);
  await page.evaluate(() => {
    window.dispatchEvent(new Event('blur'));
    window.dispatchEvent(new Event('focus'));
  });
  await expect(page.getByTestId('wallet-balance')).toHaveText('฿150.00');
  expect(navigations).toBe(0);
});

test('slips: an already-credited transfer says it was credited; a photo without a QR says to upload the bank app\'s slip', async ({ page, request }) => {
  const th = MESSAGES.th;
  const text = depositLocales.th;
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  // The bank feed credits the transfer first; the member then uploads its slip too.
  const { transRef } = await sandboxBankTransfer(request, { fromBankCode: member.bankCode, fromAccountNo: member.bankAccountNo, toBankCode: 'KBANK', toAccountNo: KBANK_AUTO, amount: 88.5 });
  await creditedTo(request, token, 88.5);
  const slipPng = await (await request.get(`/api/sandbox/bank/transfers/${transRef}/slip.png`)).body();
  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);
  await page.getByTestId('home-tile-deposit').click();
  const upload = page.getByTestId('deposit-modal').getByTestId('slip-upload');
  await upload.getByTestId('slip-file').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: slipPng });
  await upload.getByTestId('slip-send').click();
  const result = upload.getByTestId('slip-result');
  await expect(result).toHaveAttribute('data-status', 'FAILED', { timeout: 30_000 });
  await expect(result).toContainText(th.slipReasons.SLIP_REFNO_DUPLICATED);
  // "Already credited: ฿88.50 on <when>" — the amount and a date of today.
  await expect(result).toContainText(th.explain.slipCredited.split('{{amount}}')[0] + '฿88.50');
  await expect(result).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
  await upload.scrollIntoViewIfNeeded();
  await screen(page, 'th-slip-already-credited');

  // A random photo (a picture with shapes and words, no QR): the answer names the QR and what to upload.
  const photo = Buffer.from(
    await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 720;
      canvas.height = 960;
      const ctx = canvas.getContext('2d');
      if (!ctx) return '';
      const sky = ctx.createLinearGradient(0, 0, 0, 960);
      sky.addColorStop(0, '#7ec8f0');
      sky.addColorStop(1, '#f4d58d');
      ctx.fillStyle = sky;
      ctx.fillRect(0, 0, 720, 960);
      ctx.fillStyle = '#2e7d32';
      ctx.fillRect(0, 700, 720, 260);
      ctx.fillStyle = '#ffb300';
      ctx.beginPath();
      ctx.arc(560, 180, 90, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = '#333';
      ctx.font = '48px sans-serif';
      ctx.fillText('holiday 2026', 60, 640);
      return canvas.toDataURL('image/png').split(',')[1] ?? '';
    }),
    'base64',
  );
  await upload.getByTestId('slip-file').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: photo });
  await upload.getByTestId('slip-send').click();
  await expect(result).toHaveText(fill(text.slipFailed, { reason: text.slipNoQr }), { timeout: 30_000 });
  await expect(result).toContainText('คิวอาร์');
  await screen(page, 'th-slip-no-qr');
  expect(await walletAmount(request, token)).toBe(88.5);
});

async function openGame(page: Page, code: string): Promise<ReturnType<Page['getByTestId']>> {
  await page.getByTestId(`game-card-${code}`).click();
  const slot = page.getByTestId('slot-account-modal');
  await expect(slot).toBeVisible();
  if (await slot.getByTestId('slot-activate').isVisible()) await slot.getByTestId('slot-activate').click();
  await expect(slot.getByTestId('slot-play')).toBeEnabled();
  return slot;
}

for (const locale of ['th', 'la', 'en'] as const satisfies readonly Locale[]) {
  test(`Play asks before moving money, then says what moved (${locale})`, async ({ page, request }) => {
    const m = MESSAGES[locale];
    const member = await registerViaApi(request);
    const token = await loginViaApi(request, member.phone, member.password);
    expect((await request.post('/api/wallet/add', { data: { amount: 250 }, headers: headers(token, `add-${member.phone}`) })).ok()).toBe(true);
    await startInLocale(page, locale);
    await skipAgreement(page);
    await loginInBrowser(page, member.phone, member.password);
    const slot = await openGame(page, 'PG');
    await slot.getByTestId('slot-play').click();
    const sheet = slot.getByTestId('play-confirm');
    await expect(sheet).toBeVisible();
    // The amount and the game, in the member's language (Lao writes its own number format).
    const sheetText = sheet.getByTestId('play-confirm-text');
    if (locale === 'la') await expect(sheetText).toContainText('PG Soft');
    else await expect(sheetText).toHaveText(fill(m.gameAccount.playConfirmText, { amount: '฿250.00', name: 'PG Soft' }));
    await expect(sheetText).toContainText('250');
    await screen(page, `${locale}-play-confirm`);
    // Nothing moved yet; "cancel" keeps it that way.
    expect(await walletAmount(request, token)).toBe(250);
    await sheet.getByTestId('play-confirm-cancel').click();
    await expect(sheet).toBeHidden();
    expect(await walletAmount(request, token)).toBe(250);

    await slot.getByTestId('slot-play').click();
    const tab = page.waitForEvent('popup');
    await slot.getByTestId('play-confirm-go').click();
    const game = await tab;
    await game.waitForURL(/\/games\/PG\/play\?t=/);
    await game.close();
    const moved = locale === 'la' ? page.getByTestId('toast').filter({ hasText: 'PG Soft' }) : page.getByTestId('toast').filter({ hasText: fill(m.gameAccount.playMoved, { amount: '฿250.00', name: 'PG Soft' }) });
    await expect(moved.first()).toBeVisible();
    expect(await walletAmount(request, token)).toBe(0);
  });
}

test('bonus taken → Play → cancel: the bonus is cancelled, the game money comes home, no error', async ({ page, request }) => {
  const text = bonusLocales.en;
  const m = MESSAGES.en;
  const member = await registerViaApi(request);
  const token = await loginViaApi(request, member.phone, member.password);
  expect((await request.post('/api/wallet/add', { data: { amount: 1000 }, headers: headers(token, `add-${member.phone}`) })).ok()).toBe(true);
  await startInLocale(page, 'en');
  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);

  await page.goto('/user/bonus');
  await page.locator('[data-testid=bonus-card][data-code=WELCOME20]').click();
  await page.getByTestId('bonus-modal').getByTestId('bonus-receive').click();
  // The success alert names the amount and the turnover it asks.
  await expect(page.getByTestId('alert-message')).toHaveText(fill(text.received_amount, { amount: '฿200.00', target: '฿6,000.00' }));
  await page.getByTestId('alert-ok').click();
  // While a bonus is open the promotion-code field says why it is not there.
  await expect(page.getByTestId('promotion-while-active')).toHaveText(text.promoWhileActive);

  await page.goto('/user/home');
  // A withdrawal is refused on screen with its reason and figures.
  await page.getByTestId('home-tile-withdraw').click();
  const withdraw = page.getByTestId('withdraw-modal');
  await withdraw.locator('input[name=amount]').fill('100');
  await withdraw.getByTestId('withdraw-submit').click();
  const refusal = page.getByTestId('alert-message');
  await expect(refusal).toContainText(m.errors.BONUS_CONDITION);
  await expect(refusal).toContainText(fill(m.explain.BONUS_CONDITION_WITHDRAW_LOCKED, { condition: fill(m.explain.conditionBonus, { code: 'WELCOME20' }), remaining: '฿6,000.00', turnover: '฿0.00', target: '฿6,000.00' }));
  await screen(page, 'en-withdraw-bonus-locked');
  await page.getByTestId('alert-ok').click();
  await withdraw.getByTestId('modal-close').click();

  // Play: the whole wallet (1,200) goes into PG, a slot game of the bonus.
  const slot = await openGame(page, 'PG');
  await slot.getByTestId('slot-play').click();
  const tab = page.waitForEvent('popup');
  await slot.getByTestId('play-confirm-go').click();
  await (await tab).close();
  await expect.poll(() => walletAmount(request, token)).toBe(0);

  // Moving it out is refused with the reason and the turnover left.
  const out = await request.post('/api/wallet/transfer', { data: { from: 'PG', to: 'WALLET', amount: 100 }, headers: headers(token, `out-${member.phone}`) });
  expect(out.status()).toBe(403);
  expect(await out.json()).toMatchObject({ message: 'BONUS_CONDITION', reason: 'TRANSFER_LOCKED', bonusCode: 'WELCOME20', remainingTurnover: 6000, games: ['PG'] });
  // Cancel: the dialog says what it brings home and takes back; confirming does it.
  await page.goto('/user/bonus');
  await page.getByTestId('bonus-active').getByTestId('bonus-cancel').click();
  const dialog = page.getByTestId('bonus-cancel-dialog');
  await expect(dialog.getByTestId('bonus-cancel-figures')).toHaveText(
    fill(text.cancelFigures, { total: '฿1,200.00', wallet: '฿0.00', games: '฿1,200.00', takeBack: '฿200.00', keep: '฿1,000.00' }),
  );
  await screen(page, 'en-bonus-cancel-figures');
  await dialog.getByTestId('bonus-cancel-confirm').click();
  await expect(page.getByTestId('toast').filter({ hasText: text.cleared })).toBeVisible();
  await expect(page.getByTestId('alert-message')).toHaveCount(0);
  await expect(page.getByTestId('bonus-active')).toBeHidden();
  expect(await walletAmount(request, token)).toBe(1000);
  const check = await request.get('/api/bonus/check/active', { headers: headers(token) });
  expect(((await check.json()) as { status: boolean }).status).toBe(false);
});

/**
 * Each changed screen in th, la and en at 390×844, saved to test-results/screens/<locale>-x2-*.png
 * for a look: the home with the docked chat bubble, the invite code with its share buttons, the
 * bonus cancel with its figures, a refusal with its reason and figures, the QR with "save" and its
 * expired state (the page's clock moved on 10 minutes), the statement naming its sources, a slip refused
 * for having no QR. Each also fails on a raw key or an unfilled placeholder.
 */
for (const locale of ['th', 'la', 'en'] as const satisfies readonly Locale[]) {
  test(`changed screens in ${locale}`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const member = await registerViaApi(request);
    const token = await loginViaApi(request, member.phone, member.password);
    expect((await request.post('/api/wallet/add', { data: { amount: 1000 }, headers: headers(token, `add-${member.phone}`) })).ok()).toBe(true);
    expect((await request.get('/api/bonus/activate/WELCOME20', { headers: headers(token, `bonus-${member.phone}`) })).ok()).toBe(true);
    await startInLocale(page, locale);
    await skipAgreement(page);
    await loginInBrowser(page, member.phone, member.password);
    const shot = async (name: string) => {
      const text = await page.evaluate(() => document.body.innerText);
      expect.soft(text, `${locale}-x2-${name}: unfilled placeholder`).not.toContain('{{');
      expect.soft(text, `${locale}-x2-${name}: raw key`).not.toMatch(/\b(?:explain|gameAccount|statement|deposit)\.[A-Za-z_]+/);
      await screen(page, `${locale}-x2-${name}`);
    };
    await expect(page.getByTestId('chat-launcher')).toBeVisible({ timeout: 15_000 });
    await shot('home');

    await page.getByTestId('home-tile-invite').click();
    const banners = page.getByTestId('banner-modal');
    const invite = page.getByTestId('invite-modal');
    await expect(banners.or(invite)).toBeVisible();
    if (await banners.isVisible()) await banners.getByTestId('banner-continue').click();
    await expect(invite.getByTestId('invite-code')).toHaveText(/^[A-Z2-9]{6}$/);
    await shot('invite');
    await invite.getByTestId('modal-close').click();

    await page.getByTestId('home-tile-withdraw').click();
    const withdraw = page.getByTestId('withdraw-modal');
    await withdraw.locator('input[name=amount]').fill('100');
    await withdraw.getByTestId('withdraw-submit').click();
    await expect(page.getByTestId('alert-message')).toContainText(MESSAGES[locale].errors.BONUS_CONDITION);
    await shot('withdraw-refused');
    await page.getByTestId('alert-ok').click();
    await withdraw.getByTestId('modal-close').click();

    await page.getByTestId('home-tile-deposit').click();
    const deposit = page.getByTestId('deposit-modal');
    const upload = deposit.getByTestId('slip-upload');
    const photo = Buffer.from(
      await page.evaluate(() => {
        const canvas = document.createElement('canvas');
        canvas.width = 600;
        canvas.height = 800;
        const ctx = canvas.getContext('2d');
        if (!ctx) return '';
        ctx.fillStyle = '#8fb8de';
        ctx.fillRect(0, 0, 600, 800);
        ctx.fillStyle = '#ffffff';
        ctx.fillRect(120, 200, 360, 300);
        return canvas.toDataURL('image/png').split(',')[1] ?? '';
      }),
      'base64',
    );
    await upload.getByTestId('slip-file').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: photo });
    await upload.getByTestId('slip-send').click();
    await expect(upload.getByTestId('slip-result')).toContainText(depositLocales[locale].slipNoQr, { timeout: 30_000 });
    await upload.getByTestId('slip-result').scrollIntoViewIfNeeded();
    await shot('slip-no-qr');

    await deposit.getByTestId('deposit-tab-qr').click();
    await deposit.getByTestId('qr-provider-WW').click();
    await deposit.getByTestId('qr-preset-200').click();
    await deposit.getByTestId('qr-create').click();
    // Saved once the QR is drawn (its encoder loads with the first QR).
    await expect(deposit.getByTestId('qr-image')).toBeVisible();
    const saved = page.waitForEvent('download');
    await deposit.getByTestId('qr-save').click();
    expect((await saved).suggestedFilename()).toBe('qr-200.00.png');
    await shot('qr-shown');
    // The page's clock moves on past the QR's 10 minutes (its countdown reads Date.now each second).
    await page.evaluate(() => {
      const real = Date.now.bind(Date);
      Date.now = () => real() + 605_000;
    });
    const expired = deposit.getByTestId('qr-expired');
    await expect(expired).toBeVisible();
    await expect(expired.getByTestId('qr-renew')).toContainText('200');
    await shot('qr-expired');
    await deposit.getByTestId('deposit-close').click();

    await page.goto('/user/bonus');
    await page.getByTestId('bonus-active').getByTestId('bonus-cancel').click();
    await expect(page.getByTestId('bonus-cancel-figures')).toContainText('200');
    await shot('bonus-cancel');
    await page.getByTestId('bonus-cancel-confirm').click();
    await expect(page.getByTestId('bonus-active')).toBeHidden();

    await page.getByTestId('nav-statement').click();
    await expect(page.getByTestId('statement-row').first()).toBeVisible();
    await shot('statement');
  });
}
