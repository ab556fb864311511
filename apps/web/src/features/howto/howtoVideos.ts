import type { Locale } from '@mw/contract/constants';
import { config } from '../../shared/config';

/**
 * The five how-to videos of spec section 2, in order. They are recorded from this very app by
 * `npm run howto` (e2e/howto/record.ts), one per journey and language, into
 * public/howto/<locale>/<file>.{webm,vtt,jpg} (or under VITE_HOWTO_BASE_URL): the film, its
 * caption track and its poster frame.
 */
export const HOWTO_VIDEOS = [
  { id: 'wallet', file: 'wallet', hue: 'violet' },
  { id: 'playGame', file: 'play-game', hue: 'blue' },
  { id: 'checkBalance', file: 'check-balance', hue: 'teal' },
  { id: 'receiveBonus', file: 'receive-bonus', hue: 'rose' },
  { id: 'endBonus', file: 'end-bonus', hue: 'amber' },
] as const;

export type HowtoVideo = (typeof HOWTO_VIDEOS)[number];

function base(video: HowtoVideo, locale: Locale): string {
  return `${config.howtoBaseUrl}/${locale}/${video.file}`;
}

/** The film in the player's language. */
export function videoUrl(video: HowtoVideo, locale: Locale): string {
  return `${base(video, locale)}.webm`;
}

/** Its captions (WebVTT), the same words the film shows. */
export function captionsUrl(video: HowtoVideo, locale: Locale): string {
  return `${base(video, locale)}.vtt`;
}

/** A frame of the film, for the card and before playing. */
export function posterUrl(video: HowtoVideo, locale: Locale): string {
  return `${base(video, locale)}.jpg`;
}
