/**
 * The guest pages are prerendered at build time in each language (apps/web/scripts/prerender.mjs)
 * and the server sends the one of the language cookie (apps/server/src/http/app-document.ts): the
 * login form is in the HTML before any script runs, and the app then takes the page over
 * (hydration) without React reporting a mismatch. Issue 23.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { appReady, DEMO, HTML_LANG, MESSAGES, SCREENS_DIR, screen } from './support';

/** React's reports of a hydration that did not match (production builds log them minified: #418, #423, #425…). */
const HYDRATION_ERROR = /hydrat|did not match|Minified React error #(418|419|421|422|423|425)/i;

function collectConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

test('the server sends /login with the login form in its HTML, in the language of the cookie', async ({ request }) => {
  for (const locale of ['th', 'la', 'en'] as const) {
    const res = await request.get('/login', { headers: locale === 'th' ? {} : { cookie: `mw-locale=${locale}` } });
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html, locale).toContain(`<html lang="${HTML_LANG[locale]}">`);
    expect(html, locale).toContain(`<div id="root" data-prerendered="/login" data-locale="${locale}">`);
    const form = /<form[^>]*data-testid="login-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1] ?? '';
    expect(form, locale).toMatch(/<input [^>]*name="username"/);
    expect(form, locale).toMatch(/<input [^>]*type="password"[^>]*name="password"|<input [^>]*name="password"[^>]*type="password"/);
    expect(html, locale).toContain(MESSAGES[locale].login.title);
  }
  // Member pages keep the plain shell.
  expect(await (await request.get('/user/home')).text()).not.toContain('data-prerendered');
});

for (const locale of ['th', 'en'] as const) {
  test(`without JavaScript, /login in ${locale} shows the login form`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, locale: 'th-TH' });
    try {
      if (locale !== 'th') await context.addCookies([{ name: 'mw-locale', value: locale, url: baseURL ?? '' }]);
      const page = await context.newPage();
      await page.goto('/login');
      const form = page.getByTestId('login-form');
      await expect(form).toBeVisible();
      await expect(form.locator('input[name=username]')).toBeVisible();
      await expect(form.locator('input[name=password]')).toBeVisible();
      await expect(page.getByTestId('login-page').locator('h1')).toHaveText(MESSAGES[locale].login.title);
      await expect(page.getByTestId('login-submit')).toHaveText(MESSAGES[locale].login.submit);
      await expect(page.getByTestId('login-submit')).toBeDisabled();
      await expect(page.locator('.noscript')).toHaveText(MESSAGES[locale].app.noScript);
      // (No script runs on this page: a plain screenshot, without screen()'s wait for the fonts.)
      mkdirSync(SCREENS_DIR, { recursive: true });
      await page.screenshot({ path: `${SCREENS_DIR}${locale}-login-before-hydration.png` });
    } finally {
      await context.close();
    }
  });

  test(`/login in ${locale} is hydrated, not rendered again, without a React hydration error, and logs in`, async ({ page, context, baseURL }) => {
    if (locale !== 'th') {
      // The member's language as the app keeps it: localStorage, and the cookie the server reads.
      await context.addCookies([{ name: 'mw-locale', value: locale, url: baseURL ?? '' }]);
      await page.addInitScript((value) => window.localStorage.setItem('locale', value), locale);
    }
    await page.addInitScript(() => {
      window.localStorage.setItem('remember-agreement', 'true');
      // The form element the server sent, marked before any script of the app runs.
      document.addEventListener('readystatechange', () => {
        const form = document.querySelector('[data-testid="login-form"]');
        if (form && document.readyState === 'interactive') (form as unknown as { prerendered?: boolean }).prerendered = true;
      });
    });
    const problems = collectConsole(page);
    await page.goto('/login');
    await appReady(page);
    await expect(page.getByTestId('login-submit')).toBeEnabled();
    await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[locale]);
    await expect(page.getByTestId('login-page').locator('h1')).toHaveText(MESSAGES[locale].login.title);
    // Hydration keeps the server's elements (a render from scratch would have replaced them).
    expect(await page.getByTestId('login-form').evaluate((form) => (form as unknown as { prerendered?: boolean }).prerendered === true)).toBe(true);
    await screen(page, `${locale}-login-hydrated`);
    expect(problems.filter((line) => HYDRATION_ERROR.test(line))).toEqual([]);

    await page.getByTestId('login-form').locator('input[name=username]').fill(DEMO.phone);
    await page.getByTestId('login-form').locator('input[name=password]').fill(DEMO.password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/user\/home$/);
    await expect(page.getByTestId('home-page')).toBeVisible();
    expect(problems.filter((line) => HYDRATION_ERROR.test(line))).toEqual([]);
  });
}

test('a language chosen before the cookie existed: the page renders in it at once, then comes prerendered in it', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('locale', 'en'));
  const problems = collectConsole(page);
  await page.goto('/login');
  // The server sent Thai (no cookie yet); the app renders the member's English instead.
  await appReady(page);
  await expect(page.getByTestId('login-page').locator('h1')).toHaveText(MESSAGES.en.login.title);
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG.en);
  expect(problems.filter((line) => HYDRATION_ERROR.test(line))).toEqual([]);
  // The app told the server: the next load is English from the start.
  expect(await page.evaluate(() => document.cookie)).toContain('mw-locale=en');
  const next = await page.request.get('/login');
  expect(await next.text()).toContain('data-locale="en"');
  await page.reload();
  await appReady(page);
  await expect(page.getByTestId('login-page').locator('h1')).toHaveText(MESSAGES.en.login.title);
  expect(problems.filter((line) => HYDRATION_ERROR.test(line))).toEqual([]);
});

test('choosing a language on /login sets the cookie: the next load is prerendered in it', async ({ page }) => {
  await page.goto('/login');
  await appReady(page);
  await page.getByTestId('language-select').selectOption('la');
  await expect(page.getByTestId('login-page').locator('h1')).toHaveText(MESSAGES.la.login.title);
  expect(await page.evaluate(() => document.cookie)).toContain('mw-locale=la');
  const problems = collectConsole(page);
  await page.reload();
  await expect(page.locator('#root')).toHaveAttribute('data-locale', 'la');
  await appReady(page);
  await expect(page.getByTestId('login-page').locator('h1')).toHaveText(MESSAGES.la.login.title);
  expect(problems.filter((line) => HYDRATION_ERROR.test(line))).toEqual([]);
});

/** The other guest pages too, in each language they are prerendered in. */
for (const locale of ['th', 'en'] as const) {
  test(`the guest pages in ${locale} hydrate without an error`, async ({ page, context, baseURL }) => {
    if (locale !== 'th') {
      await context.addCookies([{ name: 'mw-locale', value: locale, url: baseURL ?? '' }]);
      await page.addInitScript((value) => window.localStorage.setItem('locale', value), locale);
    }
    const problems = collectConsole(page);
    for (const [path, testId] of [
      ['/register', 'register-page'],
      ['/howto', 'howto-page'],
      ['/contact', 'contact-page'],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('#root')).toHaveAttribute('data-prerendered', path);
      await expect(page.locator('#root')).toHaveAttribute('data-locale', locale);
      await appReady(page);
      await expect(page.getByTestId(testId)).toBeVisible();
      expect(problems.filter((line) => HYDRATION_ERROR.test(line)), path).toEqual([]);
    }
  });
}

