/**
 * The chat bubble covers no control (issue 33): on the guest pages it floats at the bottom right,
 * on member pages it is a button of the top bar. At a phone's sizes (390×844 and 360×640), at the
 * top of each page and scrolled to its end, no link, button or field lies under it.
 */
import { expect, test, type Page } from '@playwright/test';
import { loginInBrowser, registerViaApi, skipAgreement } from './support';

const SIZES = [
  { width: 390, height: 844 },
  { width: 360, height: 640 },
] as const;
const GUEST_PAGES = ['/login', '/register', '/contact'] as const;
const MEMBER_PAGES = ['/user/home', '/user/profile', '/user/bonus', '/user/statement', '/user/contact', '/user/spin', '/user/responsible'] as const;

/** The controls the bubble lies over (their first characters), at the present scroll position. */
async function covered(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bubble = document.querySelector('[data-testid=chat-launcher]');
    if (!bubble) return ['(no chat bubble)'];
    const b = bubble.getBoundingClientRect();
    const hits: string[] = [];
    for (const el of Array.from(document.querySelectorAll('a[href], button, input, select, textarea, [role=button], [role=link], [tabindex="0"]'))) {
      if (bubble.contains(el) || el.contains(bubble) || el.closest('[data-testid=chat-widget]')) continue;
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
      const x = Math.min(b.right, r.right) - Math.max(b.left, r.left);
      const y = Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top);
      if (x <= 1 || y <= 1) continue;
      // A control scrolled under the member pages' top bar is hidden by the bar, not by the bubble in it.
      const bar = bubble.closest('[data-testid=top-bar]');
      if (bar) {
        const stack = document.elementsFromPoint(Math.max(b.left, r.left) + x / 2, Math.max(b.top, r.top) + y / 2);
        const barAt = stack.findIndex((s) => bar.contains(s));
        const elAt = stack.findIndex((s) => el.contains(s) || s === el);
        if (barAt >= 0 && (elAt < 0 || barAt < elAt)) continue;
      }
      hits.push(el.outerHTML.slice(0, 120));
    }
    return hits;
  });
}

async function check(page: Page, path: string): Promise<void> {
  await page.setViewportSize(SIZES[0]);
  await page.goto(path);
  await expect(page.getByTestId('chat-launcher')).toBeVisible();
  // Fonts and lazy parts settled: nothing moves under the bubble afterwards.
  await page.evaluate(() => document.fonts.ready);
  // Each size on the same page (the layout reflows): at the top, then scrolled to the end.
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(size.width);
    expect(await covered(page), `${path} at ${size.width}×${size.height}, at the top`).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 1)).toBe(true);
    expect(await covered(page), `${path} at ${size.width}×${size.height}, scrolled to its end`).toEqual([]);
  }
}

test('the chat bubble covers no control on the guest pages at 390×844 and 360×640', async ({ page }) => {
  await skipAgreement(page);
  for (const path of GUEST_PAGES) await check(page, path);
});

test('the chat bubble covers no control on the member pages at 390×844 and 360×640', async ({ page, request }) => {
  const member = await registerViaApi(request);
  await skipAgreement(page);
  await loginInBrowser(page, member.phone, member.password);
  for (const path of MEMBER_PAGES) await check(page, path);
});
