/**
 * How-to videos (spec section 2): five films recorded from this app by `npm run howto`, one per
 * journey and language. The page plays the one in the player's language, with its caption track;
 * the captions are the recorder's own, in the language's script.
 */
import { expect, test } from '@playwright/test';
import { LOCALE_TAGS } from '../../packages/contract/src/constants';
import { CAPTIONS, JOURNEYS, VIDEO_FILES, type JourneyId } from '../howto/captions';
import { captionText } from '../howto/journeys';
import { appReady, LAO_SCRIPT, MESSAGES, THAI_SCRIPT, screen, startInLocale, type Locale } from './support';

const LOCALES: Locale[] = ['th', 'la', 'en'];
/** The film each language's run actually plays through (the others are loaded and measured). */
const PLAYED: Record<Locale, JourneyId> = { th: 'wallet', la: 'playGame', en: 'endBonus' };

test('every caption is written in its own language', () => {
  for (const locale of LOCALES) {
    for (const journey of JOURNEYS) {
      const keys = Object.keys(CAPTIONS.en[journey]);
      expect(Object.keys(CAPTIONS[locale][journey]), `${locale}.${journey}: the same steps as en`).toEqual(keys);
      for (const key of keys) {
        const text = captionText(locale, journey, key);
        expect(text, `${locale}.${journey}.${key}: every placeholder filled`).not.toMatch(/\{\{|\}\}/);
        if (locale === 'th') expect(text, `th.${journey}.${key}`).toMatch(THAI_SCRIPT);
        if (locale === 'la') {
          expect(text, `la.${journey}.${key}`).toMatch(LAO_SCRIPT);
          expect(text, `la.${journey}.${key}: no Thai`).not.toMatch(THAI_SCRIPT);
        }
        if (locale === 'en') expect(text, `en.${journey}.${key}: no Thai or Lao`).not.toMatch(/[\u0E00-\u0EFF]/);
      }
    }
  }
});

for (const locale of LOCALES) {
  test(`the how-to page in ${locale} plays films of this app recorded in ${locale}, with their captions`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const m = MESSAGES[locale];
    await startInLocale(page, locale);
    await page.goto('/howto');
    await appReady(page);
    await expect(page.getByTestId('howto-page')).toContainText(m.howto.title);
    await expect(page.getByTestId('nav-howto')).toHaveClass(/active/);

    for (const journey of JOURNEYS) {
      const file = `/howto/${locale}/${VIDEO_FILES[journey]}`;
      const card = page.getByTestId(`howto-video-${journey}`);
      await expect(card).toContainText(m.howto.videos[journey]);
      // The card shows a frame of the film in this language.
      const poster = card.locator('img.howto-poster');
      await expect(poster).toHaveAttribute('src', `${file}.jpg`);
      await poster.scrollIntoViewIfNeeded();
      await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

      await card.click();
      const modal = page.getByTestId('howto-modal');
      await expect(modal).toBeVisible();
      await expect(modal.locator('.modal-title')).toHaveText(m.howto.videos[journey]);
      const player = page.getByTestId('howto-player');
      await expect(player).toHaveAttribute('src', `${file}.webm`);
      await expect(player).toHaveAttribute('controls', '');
      const track = player.locator('track');
      await expect(track).toHaveAttribute('kind', 'captions');
      await expect(track).toHaveAttribute('src', `${file}.vtt`);
      await expect(track).toHaveAttribute('srclang', LOCALE_TAGS[locale]);

      // Chromium decodes it: a phone-sized recording (390×844) of some length, not a title card.
      await expect.poll(() => player.evaluate((v: HTMLVideoElement) => (v.error ? `error ${v.error.code}` : v.readyState))).toBeGreaterThanOrEqual(1);
      const shape = await player.evaluate((v: HTMLVideoElement) => ({ width: v.videoWidth, height: v.videoHeight, duration: v.duration }));
      expect(shape.width).toBe(390);
      expect(shape.height).toBe(844);
      expect(shape.duration).toBeGreaterThan(10);
      expect(shape.duration).toBeLessThan(90);

      // Its captions are the recorder's, in this language and in the journey's order, and end within the film.
      const vtt = await request.get(`${file}.vtt`);
      expect(vtt.ok()).toBe(true);
      const body = await vtt.text();
      expect(body.startsWith('WEBVTT')).toBe(true);
      const cues = body.trim()
        .split('\n\n')
        .slice(1)
        .map((block) => block.split('\n'))
        .filter((lines) => lines.length >= 3);
      const expected = Object.keys(CAPTIONS[locale][journey]).map((key) => captionText(locale, journey, key));
      expect(cues.map((lines) => lines.slice(2).join(' '))).toEqual(expected);
      const lastEnd = cues.at(-1)?.[1]?.split(' --> ')[1] ?? '';
      const [h, min, sec] = lastEnd.split(':').map(Number);
      expect((h ?? 0) * 3600 + (min ?? 0) * 60 + (sec ?? 0)).toBeLessThanOrEqual(shape.duration + 0.05);

      if (journey === PLAYED[locale]) {
        // …and it really plays (muted, so autoplay rules cannot stop it).
        await player.evaluate((v: HTMLVideoElement) => {
          v.muted = true;
          return v.play();
        });
        await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(1);
        await screen(page, `${locale}-howto-player-${journey}`);
      }
      await page.getByTestId('modal-close').click();
      await expect(modal).toHaveCount(0);
    }

    // Escape closes the player as well.
    await page.getByTestId('howto-video-endBonus').click();
    await expect(page.getByTestId('howto-modal')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('howto-modal')).toHaveCount(0);
  });
}
