/**
 * Shared helpers of the end-to-end tests: fresh phone numbers, the sandbox SMS outbox, members
 * created over the API, logging in through the browser, storage checks, screenshots and the
 * app's own message catalogues (so assertions follow the copy, not a duplicate of it).
 */
import { mkdirSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { en } from '../../apps/web/src/i18n/en';
import { la } from '../../apps/web/src/i18n/la';
import { th } from '../../apps/web/src/i18n/th';
import type { Messages } from '../../apps/web/src/i18n/messages';

export const OPERATOR_TOKEN = 'e2e-operator-token-0001';
export const DEMO = { phone: '0812345678', password: 'demo1234' } as const;

export type Locale = 'th' | 'la' | 'en';
export const MESSAGES: Record<Locale, Messages> = { th, la, en };
/** What <html lang> says per locale (LOCALE_TAGS of the contract). */
export const HTML_LANG: Record<Locale, string> = { th: 'th-TH', la: 'lo-LA', en: 'en-GB' };

/** The demo/test members' bank (KBANK) by name in each language: the profile, withdraw and statement follow the locale. */
export const KBANK_NAMES: Record<Locale, string> = { th: 'ธนาคารกสิกรไทย', la: 'ທະນາຄານກະສິກອນໄທ', en: 'Kasikornbank' };

export const LAO_SCRIPT = /[\u0E80-\u0EFF]/;
export const THAI_SCRIPT = /[\u0E00-\u0E7F]/;

/** Fills the `{{name}}` placeholders of a message. */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  // A text quoting an amount takes the member's currency (docs/currency.md): `{{sign}}` and
  // `$t(translation:wallet.{{moneyUnit}})`, baht unless `sign` / `moneyUnit` say otherwise.
  const messages = /[\u0E80-\u0EFF]/.test(template) ? la : /[\u0E00-\u0E7F]/.test(template) ? th : en;
  const unit = values.moneyUnit === 'kip' ? messages.wallet.kip : messages.wallet.baht;
  const all: Record<string, string | number> = { sign: values.moneyUnit === 'kip' ? '\u20AD' : '\u0E3F', ...values };
  return template
    .replace(/\$t\(translation:wallet\.\{\{moneyUnit\}\}\)/g, unit)
    .replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in all ? String(all[name]) : whole));
}

const usedPhones = new Set<string>();

/**
 * A phone number no other test uses: `08` + 8 digits from the clock and a random part. Both
 * servers start on an empty database, so it only has to be unique within one run.
 */
export function freshPhone(): string {
  for (;;) {
    const clock = String(Date.now() % 100_000).padStart(5, '0');
    const random = String(randomInt(0, 1000)).padStart(3, '0');
    const phone = `08${clock}${random}`;
    if (phone !== DEMO.phone && !usedPhones.has(phone)) {
      usedPhones.add(phone);
      return phone;
    }
  }
}

/** A 10-digit bank account number as unique as the phone it belongs to. */
export function accountNoFor(phone: string): string {
  return `9${phone.slice(1)}`;
}

/** The 3-3-rest form the profile shows for a 10-digit account number. */
export function formatAccountNo(accountNo: string): string {
  return `${accountNo.slice(0, 3)}-${accountNo.slice(3, 6)}-${accountNo.slice(6)}`;
}

interface SmsOutbox {
  messages: Array<{ phoneNumber: string; text: string; createdAt: string }>;
}

/** The 6-digit code in a sandbox SMS text ("Your code is 123456 (ref ABCD) …"). */
export function otpCodeOf(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match?.[1]) throw new Error(`No 6-digit code in SMS text: ${text}`);
  return match[1];
}

/** The newest sandbox SMS sent to a phone (waits for it), optionally one carrying a given OTP ref. */
export async function latestSms(request: APIRequestContext, phone: string, ref?: string): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/sandbox/sms', { params: { phoneNumber: phone } });
        expect(response.status()).toBe(200);
        const outbox = (await response.json()) as SmsOutbox;
        text = outbox.messages[0]?.text ?? '';
        return text !== '' && (ref === undefined || text.includes(ref));
      },
      { timeout: 10_000, intervals: [100, 250, 500] },
    )
    .toBe(true);
  return text;
}

/** The number of sandbox SMS sent to a phone so far. */
export async function smsCount(request: APIRequestContext, phone: string): Promise<number> {
  const response = await request.get('/api/sandbox/sms', { params: { phoneNumber: phone } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as SmsOutbox).messages.length;
}

export interface Member {
  phone: string;
  password: string;
  name: string;
  bankCode: string;
  bankAccountName: string;
  bankAccountNo: string;
}

async function postOk(request: APIRequestContext, url: string, data: unknown): Promise<unknown> {
  const response = await request.post(url, { data, headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  const body: unknown = await response.json().catch(() => null);
  expect(response.ok(), `${url} answered ${response.status()} ${JSON.stringify(body)}`).toBe(true);
  return body;
}

/** Verifies a phone's registration OTP over the API (as the wizard's OTP step would). */
export async function verifyPhoneViaApi(request: APIRequestContext, phone: string): Promise<string> {
  const sent = (await postOk(request, '/api/otp/send', { phoneNumber: phone })) as { otpRef: string; otpToken: string; code: string };
  expect(sent.code).toBe('OTP_SENT');
  const code = otpCodeOf(await latestSms(request, phone, sent.otpRef));
  await postOk(request, '/api/otp/verify', { otpToken: sent.otpToken, otpCode: code });
  return sent.otpToken;
}

/**
 * Registers a new member over the API: OTP send, the code from the sandbox outbox, verify, create.
 * `currency` is for a server in Laos mode (LAK or BAHT); other servers refuse anything but BAHT.
 */
export async function registerViaApi(
  request: APIRequestContext,
  overrides: Partial<Member> = {},
  options: { currency?: 'LAK' | 'BAHT'; inviteCode?: string } = {},
): Promise<Member> {
  const phone = overrides.phone ?? freshPhone();
  const member: Member = {
    phone,
    password: 'secret123',
    name: `E2E ${phone.slice(-4)}`,
    bankCode: 'KBANK',
    bankAccountName: 'SOMCHAI TESTER',
    bankAccountNo: accountNoFor(phone),
    ...overrides,
  };
  const otpToken = await verifyPhoneViaApi(request, phone);
  await postOk(request, '/api/account', {
    otpToken,
    name: member.name,
    username: member.phone,
    password: member.password,
    sourceCode: 'FACEBOOK',
    inviteCode: options.inviteCode ?? '',
    bankCode: member.bankCode,
    bankAccountName: member.bankAccountName,
    bankAccountNo: member.bankAccountNo,
    birthDate: '1990-01-15',
    ...(options.currency ? { currency: options.currency } : {}),
  });
  return member;
}

/** A bearer token for a member, from POST /api/login. */
export async function loginViaApi(request: APIRequestContext, phone: string, password: string): Promise<string> {
  const body = (await postOk(request, '/api/login', { username: phone, password })) as { token: string };
  expect(body.token).toBeTruthy();
  return body.token;
}

/** Marks the agreement as accepted before any page script runs (for tests about something else). */
export async function skipAgreement(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('remember-agreement', 'true'));
}

/** Starts the browser in a locale (localStorage `locale`) without touching the UI. */
export async function startInLocale(page: Page, locale: Locale): Promise<void> {
  await page.addInitScript((value) => window.localStorage.setItem('locale', value), locale);
}

/**
 * After a full page load: waits until the route's screen is working — the guest pages come
 * prerendered (their HTML paints before any script runs) and the app then takes them over
 * (hydration), which the screen marks on <html data-screen-ready> (apps/web/src/app/screenReady.ts).
 * Fields of a prerendered page are read-only until then (Playwright's fill waits by itself);
 * a click on one of its buttons needs this first.
 */
export async function appReady(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-screen-ready', 'true');
}

/** Logs in through the login form and waits for the member home. */
export async function loginInBrowser(page: Page, phone: string, password: string, options: { remember?: boolean } = {}): Promise<void> {
  if (!page.url().endsWith('/login')) await page.goto('/login');
  const form = page.getByTestId('login-form');
  await form.locator('input[name=username]').fill(phone);
  await form.locator('input[name=password]').fill(password);
  if (options.remember) await page.getByTestId('remember-me').check();
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/user\/home$/);
  await expect(page.getByTestId('home-page')).toBeVisible();
}

/**
 * Stores a token as the app would after login, without the login form: from a page that is
 * neither a guest page (those clear the token) nor a member page.
 */
export async function seedToken(page: Page, token: string, area: 'local' | 'session' = 'local'): Promise<void> {
  await page.goto('/__e2e-seed__');
  await expect(page.getByTestId('not-found-page')).toBeVisible();
  await page.evaluate(
    ({ value, kind }) => (kind === 'local' ? window.localStorage : window.sessionStorage).setItem('token', value),
    { value: token, kind: area },
  );
}

/** Where the token is kept: localStorage, sessionStorage, or nowhere. */
export async function storedTokens(page: Page): Promise<{ local: string | null; session: string | null }> {
  return page.evaluate(() => ({ local: window.localStorage.getItem('token'), session: window.sessionStorage.getItem('token') }));
}

/** Picks a language in a native <select name=locale>. */
export async function chooseLocale(select: Locator, locale: Locale): Promise<void> {
  await select.selectOption(locale);
  await expect(select).toHaveValue(locale);
}

export const SCREENS_DIR = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));

/** A screenshot of what the 390×844 phone shows, into test-results/screens/<name>.png. */
export async function screen(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  // Let web fonts and the last layout settle so the picture shows what a member sees.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path: `${SCREENS_DIR}${name}.png`, fullPage: options.fullPage ?? false, animations: 'disabled' });
}

/** The sandbox gateway's customer pays an open QR (POST /api/sandbox/payments/:qrcodeId/pay); its signed webhook credits the wallet. */
export async function sandboxPayQr(request: APIRequestContext, qrcodeId: string): Promise<void> {
  await postOk(request, `/api/sandbox/payments/${encodeURIComponent(qrcodeId)}/pay`, {});
}

export interface SandboxTransfer {
  fromBankCode: string;
  fromAccountNo: string;
  toBankCode: string;
  toAccountNo: string;
  amount: number;
}

/**
 * A transfer at the sandbox bank (POST /api/sandbox/bank/transfers). Into an AUTO deposit account
 * it reaches the server's automatic-deposit feed, which credits the member whose registered
 * account sent it.
 */
export async function sandboxBankTransfer(request: APIRequestContext, transfer: SandboxTransfer): Promise<{ transRef: string }> {
  return (await postOk(request, '/api/sandbox/bank/transfers', transfer)) as { transRef: string };
}
