/**
 * Every amount in its own currency, on screen (docs/currency.md): on the Lao site (the `laos`
 * project's LAOS_MODE=true server) a kip member sees every member screen — home, the withdraw and
 * deposit modals, the statement, the bonus page and the wheel — in la, th and en with ₭ / ກີບ / kip
 * on its amounts and no ฿, บาท, ບາດ or "baht" anywhere; a baht member of the same site sees ฿ and no ₭.
 * One browser context per member, logged in once (a token over the API); the language is switched
 * with the top bar's select, as a member does. Screenshots: test-results/screens/laos-<currency>-<locale>-<screen>.png.
 */
import { randomInt } from 'node:crypto';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { chooseLocale, HTML_LANG, loginViaApi, registerViaApi, screen, seedToken, skipAgreement, type Locale } from './support';

/** A baht sign or word in any of the app's languages. */
const BAHT = /\u0E3F|บาท|ບາດ|\bbaht\b/i;
/** A kip sign or word in any of the app's languages. */
const KIP = /\u20AD|ກີບ|กีบ|\bkip\b/i;
/** An amount in the app's money format: 1,234.00 (Lao and Thai digits are Western in the app). */
const AMOUNT = /\d[\d,]*\.\d{2}/;

type MemberCurrency = 'LAK' | 'BAHT';

/** An 8-digit Lao mobile number (20 + 6 digits), as laos.spec.ts makes them. */
function laoPhone(): string {
  return `20${String(Date.now() % 1_000_000).padStart(6, '0').slice(0, 3)}${String(randomInt(0, 1000)).padStart(3, '0')}`;
}

/** A member of the Lao site in this currency, registered over the API and topped up by the sandbox: 500,000 is ₭500,000 for a kip member, 1,000 is ฿1,000 for a baht one. */
async function fundedMember(request: APIRequestContext, currency: MemberCurrency): Promise<string> {
  const phone = laoPhone();
  const member = await registerViaApi(request, { phone, bankCode: 'BCEL', bankAccountNo: `0101${phone}` }, { currency });
  const token = await loginViaApi(request, member.phone, member.password);
  const topUp = await request.post('/api/wallet/add', {
    data: { amount: currency === 'LAK' ? 500_000 : 1_000 },
    headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(topUp.status()).toBe(200);
  return token;
}

/** The region's text has the member's currency (when `amounts`) and never the other one. */
async function expectCurrency(region: Locator, currency: MemberCurrency, where: string, amounts: boolean): Promise<void> {
  const text = await region.innerText();
  const [own, other] = currency === 'LAK' ? [KIP, BAHT] : [BAHT, KIP];
  const wrong = other.exec(text);
  expect(wrong, `${where}: "${wrong?.[0] ?? ''}" on a ${currency} member's screen, near: ${wrong ? text.slice(Math.max(0, wrong.index - 40), wrong.index + 40) : ''}`).toBeNull();
  if (amounts) {
    expect(text, `${where}: an amount`).toMatch(AMOUNT);
    expect(text, `${where}: the ${currency} sign or word`).toMatch(own);
  }
}

async function visit(page: Page, path: string, ready: string): Promise<Locator> {
  await page.goto(path);
  await expect(page.getByTestId(ready)).toBeVisible();
  return page.locator('main');
}

async function everyScreen(page: Page, currency: MemberCurrency, locale: Locale): Promise<void> {
  const sign = currency === 'LAK' ? '\u20AD' : '\u0E3F';
  const shot = (name: string) => screen(page, `laos-${currency.toLowerCase()}-${locale}-${name}`);

  // Home: the wallet in the member's currency.
  let main = await visit(page, '/user/home', 'home-page');
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[locale]);
  await expect(page.getByTestId('wallet-balance')).toHaveText(new RegExp(`^${sign}`));
  await expectCurrency(main, currency, `${locale} home`, true);
  await shot('home');

  // The withdraw modal: the bounds of the member's currency.
  await page.getByTestId('home-tile-withdraw').click();
  const withdraw = page.getByTestId('withdraw-modal');
  await expect(withdraw.getByTestId('withdraw-min')).toContainText(sign);
  await expectCurrency(withdraw, currency, `${locale} withdraw modal`, true);
  await shot('withdraw');
  await withdraw.getByTestId('modal-close').click();
  await expect(withdraw).toBeHidden();

  // The deposit modal: the member's channels and the sandbox top-up's presets.
  await page.getByTestId('home-tile-deposit').click();
  const deposit = page.getByTestId('deposit-modal');
  // Loaded: the channels are drawn (the sandbox top-up's form comes with them).
  await expect(deposit.getByTestId('demo-topup-form')).toBeAttached();
  await expect(deposit.getByTestId('demo-topup-form')).toContainText(sign);
  await expectCurrency(deposit, currency, `${locale} deposit modal`, true);
  await shot('deposit');
  await deposit.getByTestId('modal-close').click();
  await expect(deposit).toBeHidden();

  // The statement: the top-up.
  main = await visit(page, '/user/statement', 'statement-page');
  await expect(page.getByTestId('statement-amount').first()).toContainText(sign);
  await expectCurrency(main, currency, `${locale} statement`, true);
  await shot('statement');

  // The bonus page and the wheel: whatever amounts they show, none in the other currency.
  main = await visit(page, '/user/bonus', 'bonus-page');
  await expectCurrency(main, currency, `${locale} bonus page`, false);
  await shot('bonus');
  main = await visit(page, '/user/spin', 'spin-page');
  await expectCurrency(main, currency, `${locale} spin page`, false);
  await shot('spin');
}

test.describe.configure({ mode: 'parallel' });

// One test per member currency and language (each about 15 s; the three languages in one test
// came near the 60 s limit on a loaded machine). Each member gets its own browser context.
for (const currency of ['LAK', 'BAHT'] as const) {
  for (const locale of ['la', 'th', 'en'] as const) {
    test(`a ${currency} member of the Lao site sees ${currency === 'LAK' ? '₭ and no baht' : '฿ and no kip'} on every member screen in ${locale}`, async ({ page, request }) => {
      const token = await fundedMember(request, currency);
      await skipAgreement(page);
      await seedToken(page, token);
      // The Lao site starts in Lao; another language through the top bar's select, as a member switches.
      if (locale !== 'la') {
        await visit(page, '/user/home', 'home-page');
        await chooseLocale(page.getByTestId('top-bar').getByTestId('language-select'), locale);
      }
      await everyScreen(page, currency, locale);
    });
  }
}
