/**
 * Deposits end to end (spec section 2 "Deposit modal", section 4 QR flow), at the 390×844 phone:
 * a QR deposit paid at the sandbox gateway lands in the wallet on screen without a reload; a
 * transfer into the automatic KBANK account is credited through the bank feed and shows in the
 * statement; a LAK member on a server in Laos mode sees BCEL with its currency and guide.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  MESSAGES,
  LAO_SCRIPT,
  fill,
  formatAccountNo,
  loginInBrowser,
  registerViaApi,
  sandboxBankTransfer,
  sandboxPayQr,
  screen,
  skipAgreement,
  startInLocale,
} from './support';
import { depositLocales } from '../../apps/web/src/features/deposit/locales';

const th = MESSAGES.th;
const thDeposit = depositLocales.th;
/** The demo seed's GSB account, checked by staff (MANUAL): no bank feed credits it, a slip does. */
const GSB_MANUAL = '020123456789';
/** The demo seed's automatic KBANK account (KBANK in AUTO mode). */
const KBANK_AUTO = '0451234567';

async function openDeposit(page: Page): Promise<Locator> {
  await page.getByTestId('home-tile-deposit').click();
  const modal = page.getByTestId('deposit-modal');
  await expect(modal).toBeVisible();
  return modal;
}

test.describe('deposits on the main server', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('QR deposit in th: preset, create, countdown, paid at the gateway, balance updates without a reload', async ({ page, request }) => {
    const member = await registerViaApi(request);
    await skipAgreement(page);
    await loginInBrowser(page, member.phone, member.password);
    const modal = await openDeposit(page);
    await expect(modal.getByTestId('deposit-balance')).toHaveText('฿0.00');

    await modal.getByTestId('deposit-tab-qr').click();
    await expect(modal.getByTestId('deposit-tab-qr')).toHaveAttribute('aria-selected', 'true');
    await modal.getByTestId('qr-provider-WW').click();
    await expect(modal.getByTestId('deposit-qr')).toHaveAttribute('data-provider', 'WW');
    // WW's minimum is 100: create stays off while the field is empty, and a smaller amount is refused inline.
    await expect(modal.getByTestId('qr-create')).toBeDisabled();
    await modal.locator('input[name=qrAmount]').fill('50');
    await modal.getByTestId('qr-create').click();
    await expect(modal.getByTestId('field-error')).toHaveText(fill(th.wallet.minAmountMsg, { amount: '100.00', unit: th.wallet.baht }));

    await modal.getByTestId('qr-preset-200').click();
    await expect(modal.getByTestId('qr-preset-200')).toHaveAttribute('aria-pressed', 'true');
    await expect(modal.locator('input[name=qrAmount]')).toHaveValue('200');
    await modal.getByTestId('qr-create').click();

    const shown = modal.getByTestId('qr-shown');
    await expect(shown).toBeVisible();
    await expect(shown.getByTestId('qr-amount')).toHaveText('฿200.00');
    await expect(shown.getByRole('img', { name: fill(th.deposit.qr.image, { amount: '200.00' }) })).toBeVisible();
    const countdown = shown.getByTestId('qr-countdown');
    await expect(countdown).toHaveText(/^\d\d:\d\d$/);
    // It counts down.
    const first = await countdown.innerText();
    await expect(countdown).not.toHaveText(first, { timeout: 3_000 });
    await screen(page, 'th-deposit-qr-shown');

    // The QR on screen is the member's open QR at WW.
    const qrcodeId = await shown.getAttribute('data-qrcode-id');
    expect(qrcodeId).toBeTruthy();
    await sandboxPayQr(request, qrcodeId ?? '');

    // The wallet is polled every 5 s while the QR is shown: the balance follows, no reload.
    await expect(modal.getByTestId('deposit-balance')).toHaveText('฿200.00', { timeout: 15_000 });
    await expect(page.getByTestId('toast').filter({ hasText: fill(th.deposit.qr.received, { amount: '200.00' }) })).toBeVisible();
    // The paid QR is closed: the provider offers a new one.
    await expect(modal.getByTestId('qr-create-form')).toBeVisible();
    await modal.getByTestId('deposit-close').click();
    await expect(page.getByTestId('wallet-balance')).toHaveText('฿200.00');
  });

  test('KBANK QR in th: cancel drops the QR; "I have transferred" asks to refresh the balance and closes', async ({ page, request }) => {
    const member = await registerViaApi(request);
    await skipAgreement(page);
    await loginInBrowser(page, member.phone, member.password);
    let modal = await openDeposit(page);
    await modal.getByTestId('deposit-tab-qr').click();
    await modal.getByTestId('qr-provider-KBANK').click();
    await modal.getByTestId('qr-preset-20').click();
    await modal.getByTestId('qr-create').click();
    await expect(modal.getByTestId('qr-shown')).toBeVisible();
    await modal.getByTestId('qr-cancel').click();
    await expect(page.getByTestId('toast').filter({ hasText: th.deposit.qr.cancelled })).toBeVisible();
    await expect(modal.getByTestId('qr-create-form')).toBeVisible();

    await modal.getByTestId('qr-preset-50').click();
    await modal.getByTestId('qr-create').click();
    const shown = modal.getByTestId('qr-shown');
    await expect(shown.getByTestId('qr-amount')).toHaveText('฿50.00');
    await shown.getByTestId('qr-transferred').click();
    await expect(page.getByTestId('toast').filter({ hasText: th.deposit.qr.refreshBalance })).toBeVisible();
    await expect(modal).toBeHidden();

    // The open QR is still the member's: opening the modal again shows it (GET /api/qrcode/KBANK).
    modal = await openDeposit(page);
    await modal.getByTestId('deposit-tab-qr').click();
    await modal.getByTestId('qr-provider-KBANK').click();
    await expect(modal.getByTestId('qr-shown').getByTestId('qr-amount')).toHaveText('฿50.00');
  });

  test('slip deposit: a transfer in the sandbox bank, its slip uploaded, the wallet credited and the slip SUCCESS; the same slip again is a duplicate', async ({ page, request }) => {
    const member = await registerViaApi(request);
    const { transRef } = await sandboxBankTransfer(request, {
      fromBankCode: member.bankCode,
      fromAccountNo: member.bankAccountNo,
      toBankCode: 'GSB',
      toAccountNo: GSB_MANUAL,
      amount: 275.5,
    });
    // The slip the member's banking app shows (the sandbox bank draws it, with its mini-QR).
    const slipPng = await (await request.get(`/api/sandbox/bank/transfers/${transRef}/slip.png`)).body();
    await skipAgreement(page);
    await loginInBrowser(page, member.phone, member.password);
    const modal = await openDeposit(page);
    const upload = modal.getByTestId('slip-upload');
    await expect(upload.getByRole('heading')).toHaveText(thDeposit.slipTitle);
    await expect(upload.getByTestId('slip-send')).toBeDisabled();
    await upload.getByTestId('slip-file').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: slipPng });
    await expect(upload.getByTestId('slip-preview')).toBeVisible();
    await upload.scrollIntoViewIfNeeded();
    await screen(page, 'th-deposit-slip-picked');
    await upload.getByTestId('slip-send').click();
    const result = upload.getByTestId('slip-result');
    await expect(result).toHaveAttribute('data-status', 'SUCCESS', { timeout: 30_000 });
    await expect(result).toHaveText(fill(thDeposit.slipSuccess, { amount: '฿275.50' }));
    await expect(modal.getByTestId('deposit-balance')).toHaveText('฿275.50');
    await screen(page, 'th-deposit-slip-credited');

    // The same slip again: refused as a duplicate that was already credited (how much), nothing more credited.
    await upload.getByTestId('slip-file').setInputFiles({ name: 'slip-again.png', mimeType: 'image/png', buffer: slipPng });
    await upload.getByTestId('slip-send').click();
    await expect(result).toHaveAttribute('data-status', 'FAILED', { timeout: 30_000 });
    await expect(result).toContainText(fill(thDeposit.slipFailed, { reason: th.slipReasons.SLIP_REFNO_DUPLICATED }));
    await expect(result).toContainText(`${th.explain.slipCredited.split('{{amount}}')[0]}฿275.50`);
    await screen(page, 'th-deposit-slip-duplicate');

    // Every slip reader busy (the server's queue full): 503 BUSY, the member is told to send it again.
    await page.route('**/api/wallet/slip', (route) => route.fulfill({ status: 503, headers: { 'retry-after': '2' }, contentType: 'application/json', body: JSON.stringify({ message: 'BUSY', retryAfter: 2 }) }), { times: 1 });
    await upload.getByTestId('slip-file').setInputFiles({ name: 'slip-busy.png', mimeType: 'image/png', buffer: slipPng });
    await upload.getByTestId('slip-send').click();
    await expect(result).toHaveAttribute('data-status', 'BUSY');
    await expect(result).toHaveText(thDeposit.slipBusy);
    await modal.getByTestId('deposit-close').click();
    await expect(page.getByTestId('wallet-balance')).toHaveText('฿275.50');

    // The slip history: the credited slip and the refused one, and the image opens for its owner.
    await page.getByTestId('nav-statement').click();
    await page.getByTestId('open-slips').click();
    const slips = page.getByTestId('slip-modal');
    await expect(slips.getByTestId('slip-row')).toHaveCount(2);
    await expect(slips.getByTestId('slip-status').nth(0)).toContainText(th.slipReasons.SLIP_REFNO_DUPLICATED);
    await expect(slips.getByTestId('slip-amount').nth(1)).toHaveText('฿275.50');
    await expect(slips.getByTestId('slip-status').nth(1)).toHaveText(th.statement.status.success);
    const [image] = await Promise.all([page.waitForEvent('popup'), slips.getByTestId('slip-view').nth(1).click()]);
    // The window opens at the click; its address follows once the private link is made.
    await image.waitForURL(/\/api\/slips\/[^/]+\/image\?exp=\d+&sig=[0-9a-f]{64}$/);
    const shown = await image.evaluate(() => document.contentType);
    expect(shown).toBe('image/png');
    await image.close();
  });

  test('gift link: a sandbox voucher pasted in the e-wallet tab is encrypted in the browser and credited once', async ({ page, request }) => {
    const member = await registerViaApi(request);
    const voucher = (await (await request.post('/api/sandbox/ewallet/vouchers', { data: { amount: 35 } })).json()) as { link: string };
    await skipAgreement(page);
    await loginInBrowser(page, member.phone, member.password);
    const modal = await openDeposit(page);
    await modal.getByTestId('deposit-tab-ewallet').click();
    const form = modal.getByTestId('gift-form');
    await expect(form.getByTestId('gift-send')).toBeDisabled();
    await form.locator('input[name=giftLink]').fill(voucher.link);
    await form.getByTestId('gift-send').click();
    await expect(page.getByTestId('toast').filter({ hasText: fill(th.deposit.ewallet.giftSuccess, { amount: '35.00' }) })).toBeVisible();
    await expect(modal.getByTestId('deposit-balance')).toHaveText('฿35.00');
    // Again: already redeemed.
    await form.locator('input[name=giftLink]').fill(voucher.link);
    await form.getByTestId('gift-send').click();
    await expect(page.getByTestId('toast').filter({ hasText: th.errors.TRUELINK_DUPLICATE })).toBeVisible();
    await expect(modal.getByTestId('deposit-balance')).toHaveText('฿35.00');
  });

  test('automatic bank deposit: a transfer from the registered account into KBANK AUTO is credited and listed', async ({ page, request }) => {
    const member = await registerViaApi(request);
    await skipAgreement(page);
    await loginInBrowser(page, member.phone, member.password);

    // The account view the member transfers to.
    const modal = await openDeposit(page);
    const kbank = modal.locator('[data-testid=deposit-bank][data-bank=KBANK][data-mode=AUTO]');
    await expect(kbank.getByTestId('deposit-bank-no')).toHaveText(formatAccountNo(KBANK_AUTO));
    await expect(kbank.getByTestId('deposit-bank-mode')).toHaveText(th.deposit.mode.AUTO);
    await expect(kbank.getByTestId('deposit-auto-note')).toContainText(th.deposit.note);
    await expect(kbank.getByTestId('deposit-registered-account')).toContainText(formatAccountNo(member.bankAccountNo));
    // A baht member sees no LAK channel.
    await expect(modal.getByTestId('deposit-bcel')).toHaveCount(0);
    await kbank.getByTestId('copy-deposit-account-no').click();
    await expect(page.getByTestId('toast').filter({ hasText: fill(th.common.copied, { text: KBANK_AUTO }) })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(KBANK_AUTO);
    await screen(page, 'th-deposit-bank');
    await modal.getByTestId('deposit-close').click();

    await sandboxBankTransfer(request, {
      fromBankCode: member.bankCode,
      fromAccountNo: member.bankAccountNo,
      toBankCode: 'KBANK',
      toAccountNo: KBANK_AUTO,
      amount: 150,
    });

    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('wallet-balance')).toHaveText('฿150.00', { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });

    await page.getByTestId('nav-statement').click();
    const row = page.getByTestId('statement-row').first();
    await expect(row).toHaveAttribute('data-type', 'deposit');
    await expect(row.getByTestId('statement-activity')).toHaveText(fill(th.statement.activity.deposit, { source: 'ธนาคารกสิกรไทย' }));
    await expect(row.getByTestId('statement-amount')).toHaveText('+฿150.00');
    await expect(row.getByTestId('statement-status')).toHaveText(th.statement.status.success);
  });
});

/**
 * The main e2e server is not in Laos mode, where alone a member can hold LAK: these tests start
 * one of their own (LAOS_MODE=true) on a fresh database, from the same build.
 */
const LAOS_PORT = 3194;
const LAOS_URL = `http://127.0.0.1:${LAOS_PORT}`;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test.describe('deposits in Laos mode', () => {
  let server: ChildProcess | null = null;
  test.use({ baseURL: LAOS_URL });

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const dataDir = `${ROOT}.e2e-data/laos-deposit`;
    rmSync(dataDir, { recursive: true, force: true });
    server = spawn(process.execPath, ['apps/server/dist/main.js'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(LAOS_PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        LAOS_MODE: 'true',
        OTP_SENDS_PER_IP_HOUR: '100000',
        OTP_SENDS_GLOBAL_MINUTE: '100000',
        ACCOUNT_CHECKS_PER_IP_MINUTE: '100000',
      },
    });
    await expect
      .poll(
        async () => {
          try {
            return (await fetch(`${LAOS_URL}/healthz`)).ok;
          } catch {
            return false;
          }
        },
        { timeout: 90_000, intervals: [250, 500, 1_000] },
      )
      .toBe(true);
  });

  test.afterAll(() => {
    server?.kill('SIGTERM');
  });

  test('BCEL in la for a LAK member: its currency, the BCEL One guide image and Lao texts', async ({ page, request }) => {
    const la = MESSAGES.la;
    const member = await registerViaApi(request, { bankCode: 'BCEL' }, { currency: 'LAK' });
    await startInLocale(page, 'la');
    await skipAgreement(page);
    await loginInBrowser(page, member.phone, member.password);
    const modal = await openDeposit(page);
    await expect(modal.getByRole('heading', { name: la.deposit.title })).toBeVisible();

    const bcel = modal.getByTestId('deposit-bcel');
    await expect(bcel).toHaveAttribute('data-currency', 'LAK');
    await expect(bcel.getByTestId('deposit-currency')).toHaveText(la.register.currencies.LAK);
    // Bank names follow the locale: the English name in Lao.
    await expect(bcel.getByRole('heading', { level: 3 })).toHaveText('ທະນາຄານການຄ້າຕ່າງປະເທດລາວ');
    const guide = bcel.getByRole('img', { name: la.deposit.bcel.guide });
    await expect(guide).toBeVisible();
    const box = await guide.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(200);
    await expect(bcel.locator('.bcel-guide-steps li')).toHaveText([la.deposit.bcel.step1, la.deposit.bcel.step2, la.deposit.bcel.step3]);
    await expect(bcel).toContainText(LAO_SCRIPT);
    // Only the member's currency: no baht bank, no QR, no e-wallet (and so no tabs).
    await expect(modal.getByTestId('deposit-bank')).toHaveCount(0);
    await expect(modal.getByRole('tablist')).toHaveCount(0);
    await screen(page, 'la-deposit-bcel');
    await guide.scrollIntoViewIfNeeded();
    await screen(page, 'la-deposit-bcel-guide');
  });
});
