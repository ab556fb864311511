/**
 * Live chat end to end at the 390×844 phone: a guest chats with the sandbox bot (every kind shown,
 * a button pressed, a quick reply answered, an image sent with its progress, a script payload shown
 * as text), logs in and keeps the conversation; the widget in th, la and en.
 */
import { expect, test, type Page } from '@playwright/test';
import { chatLocales } from '../../apps/web/src/features/chat/locales';
import { OPERATOR_TOKEN, loginInBrowser, registerViaApi, screen, skipAgreement, startInLocale, type Locale } from './support';

const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('a guest chats with the bot in th, sends an image, logs in and keeps the conversation', async ({ page, request }) => {
  const text = chatLocales.th;
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await skipAgreement(page);
  await page.goto('/contact');
  // The contact page offers the chat instead of the LINE block; the bubble shows the invite.
  await expect(page.getByTestId('contact-chat')).toBeVisible();
  const launcher = page.getByTestId('chat-launcher');
  await expect(launcher).toContainText(text.invite);
  await page.getByTestId('contact-open-chat').click();
  const panel = page.getByTestId('chat-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute('data-state', 'joined');

  const input = panel.getByTestId('chat-input');
  await input.fill('สวัสดี');
  await input.press('Enter');
  const messages = panel.getByTestId('chat-message');
  await expect(messages.first()).toHaveAttribute('data-sender', 'customer');
  // The bot answers with text, buttons, a card and quick replies.
  for (const kind of ['buttons', 'generic', 'quick_replies']) await expect(panel.locator(`[data-testid=chat-message][data-kind=${kind}]`)).toHaveCount(1);
  await expect(panel.getByTestId('chat-date').first()).toBeVisible();
  await screen(page, 'th-chat-bot');

  // A quick reply: answered, then no longer usable.
  const quick = panel.locator('[data-testid=chat-message][data-kind=quick_replies]');
  await quick.getByRole('button', { name: 'ได้รับแล้ว' }).click();
  await expect(quick.getByRole('button', { name: 'ได้รับแล้ว' })).toBeDisabled();

  // A postback button: the bot's answer follows.
  await panel.locator('[data-kind=buttons]').getByRole('button', { name: 'ฝากเงิน' }).click();
  await expect(panel.getByText('ฝากเงินได้ที่ปุ่ม', { exact: false })).toBeVisible();
  // A script payload is shown as text and never runs.
  const xss = '<img src=x onerror=alert(1)><script>alert(2)</script>';
  await input.fill(xss);
  await panel.getByTestId('chat-send').click();
  await expect(panel.getByText(xss, { exact: true })).toBeVisible();

  // An image: uploaded (progress), then sent and shown from its signed link.
  await panel.getByTestId('chat-file').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: PNG_1x1 });
  const image = panel.locator('[data-testid=chat-message][data-kind=media]').last();
  await expect(image).toHaveAttribute('data-status', /succeed|^$/);
  await expect(image.getByTestId('chat-image')).toHaveAttribute('src', /\/api\/chat\/files\/[0-9a-f]{24}\?exp=\d+&sig=/);
  await screen(page, 'th-chat-image');
  // An unsupported file is refused before any upload.
  await panel.getByTestId('chat-file').setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
  await expect(page.getByTestId('toast').filter({ hasText: text.fileNotSupported })).toBeVisible();
  expect(dialogs).toBe(0);

  // Logging in keeps the conversation: the member sees what the guest wrote.
  const member = await registerViaApi(request);
  await panel.getByTestId('chat-close').click();
  await loginInBrowser(page, member.phone, member.password);
  await page.getByTestId('chat-launcher').click();
  const memberPanel = page.getByTestId('chat-panel');
  await expect(memberPanel).toHaveAttribute('data-state', 'joined');
  await expect(memberPanel.getByText(xss, { exact: true })).toBeVisible();
  expect(dialogs).toBe(0);
});

for (const locale of ['la', 'en'] as Locale[]) {
  test(`the chat widget in ${locale}`, async ({ page }) => {
    const text = chatLocales[locale];
    await skipAgreement(page);
    await startInLocale(page, locale);
    await page.goto('/login');
    await page.getByTestId('chat-launcher').click();
    const panel = page.getByTestId('chat-panel');
    await expect(panel).toContainText(text.title);
    await expect(panel.getByTestId('chat-input')).toHaveAttribute('placeholder', text.placeholder);
    await panel.getByTestId('chat-input').fill(locale === 'la' ? 'ສະບາຍດີ' : 'hello');
    await panel.getByTestId('chat-send').click();
    await expect(panel.locator('[data-testid=chat-message][data-kind=quick_replies]')).toHaveCount(1);
    await screen(page, `${locale}-chat`);
  });
}

/**
 * Where the text box and the send button are painted: inside the viewport, and the topmost element
 * at their centre is themselves (not the bottom menu the member pages keep at the foot of the screen).
 */
async function composerPlacement(page: Page) {
  return page.evaluate(() => {
    const at = (testId: string) => {
      const el = document.querySelector<HTMLElement>(`[data-testid=chat-panel] [data-testid=${testId}]`);
      if (!el) return { inside: false, onTop: 'missing' };
      const r = el.getBoundingClientRect();
      const inside = r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const onTop = hit && (hit === el || el.contains(hit)) ? 'self' : (hit?.closest('[data-testid]')?.getAttribute('data-testid') ?? hit?.tagName ?? 'nothing');
      return { inside, onTop };
    };
    return { input: at('chat-input'), send: at('chat-send') };
  });
}

test('on a member page the chat text box and send button are on screen, above the bottom menu (390×844, and 390×500 as with a keyboard)', async ({ page, request }) => {
  const member = await registerViaApi(request);
  await skipAgreement(page);
  await startInLocale(page, 'la');
  await loginInBrowser(page, member.phone, member.password);
  await expect(page.getByTestId('bottom-nav')).toBeVisible();
  await page.getByTestId('top-bar').getByTestId('chat-launcher').click();
  const panel = page.getByTestId('chat-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute('data-state', 'joined');
  // Opened: whatever animations or transitions the panel has, finished, and a frame painted after them.
  await panel.evaluate(async (el) => {
    await Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished));
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  });
  const onScreen = { inside: true, onTop: 'self' };
  expect(await composerPlacement(page), '390×844').toEqual({ input: onScreen, send: onScreen });
  await screen(page, 'la-chat-member');
  await page.setViewportSize({ width: 390, height: 500 });
  await expect.poll(() => composerPlacement(page), { message: '390×500' }).toEqual({ input: onScreen, send: onScreen });
  // The text box is usable there: a message goes out.
  await panel.getByTestId('chat-input').fill('ສະບາຍດີ');
  await panel.getByTestId('chat-send').click();
  await expect(panel.locator('[data-testid=chat-message][data-sender=customer]')).toHaveCount(1);
});

test('support messages with script payloads in every field are shown as inert text', async ({ page, request }) => {
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await skipAgreement(page);
  await startInLocale(page, 'en');
  await page.goto('/login');
  await page.getByTestId('chat-launcher').click();
  const panel = page.getByTestId('chat-panel');
  await expect(panel).toHaveAttribute('data-state', 'joined');
  // The browser keeps the guest session the server signed (`<id>.<signature>`); support sees the id.
  const session = await page.evaluate(() => window.localStorage.getItem('guest-id'));
  const guestId = session?.split('.')[0] ?? null;
  expect(guestId).toMatch(/^[0-9a-f-]{36}$/);
  // The conversation exists once the panel has read it; support finds it by the guest id.
  const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
  const threads = (await (await request.get('/api/operator/chat/conversations?limit=100', { headers: operator })).json()) as Array<{ id: string; guestId: string | null }>;
  const thread = threads.find((c) => c.guestId === guestId);
  expect(thread).toBeTruthy();
  const x = (n: number) => `<img src=x onerror=alert(${n})><script>alert(${n})</script>`;
  const messages = [
    { message_type: 'text', payload: { message: x(1) } },
    { message_type: 'buttons', payload: { message: x(2), buttons: [{ type: 'web', title: x(3), payload: 'javascript:alert(4)' }, { type: 'postback', title: x(5), payload: x(6) }] } },
    { message_type: 'generic', payload: { elements: [{ image_url: 'javascript:alert(7)', title: x(8), subtitle: x(9), buttons: [{ type: 'call', title: x(10), payload: 'javascript:alert(11)' }] }] } },
    { message_type: 'quick_replies', payload: { message: x(12), buttons: [{ type: 'plain', title: x(13), payload: x(14) }] } },
    { message_type: 'media', payload: { message: x(15), url: 'javascript:alert(16)', fileType: 'image', filePath: '/api/chat/files/000000000000000000000000', name: x(17) } },
    { message_type: 'unknown', payload: { html: x(18) } },
  ];
  for (const message of messages.filter((m) => m.message_type !== 'media')) {
    const sent = await request.post(`/api/operator/chat/conversations/${thread?.id}/messages`, { headers: operator, data: { message } });
    expect(sent.ok()).toBe(true);
  }
  // A media message naming a file that was never uploaded is refused.
  expect((await request.post(`/api/operator/chat/conversations/${thread?.id}/messages`, { headers: operator, data: { message: messages[4] } })).status()).toBe(400);
  await expect(panel.locator('[data-testid=chat-message][data-kind=unknown]')).toContainText(chatLocales.en.unknownMessage);
  for (const n of [1, 2, 3, 5, 8, 9, 10, 12, 13]) await expect(panel.getByText(x(n), { exact: true }).first()).toBeVisible();
  // The web button with a javascript: address is not a link; the card's javascript: image is not shown.
  await expect(panel.locator('a[href^="javascript"]')).toHaveCount(0);
  await expect(panel.locator('img[src^="javascript"]')).toHaveCount(0);
  await expect(panel.locator('script')).toHaveCount(0);
  await screen(page, 'en-chat-inert');
  expect(dialogs).toBe(0);
});
