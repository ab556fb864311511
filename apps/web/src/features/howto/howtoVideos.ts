import { config } from '../../shared/config';

/** The five how-to videos of spec section 2, in order. Files live in public/howto/ unless VITE_HOWTO_BASE_URL says otherwise. */
export const HOWTO_VIDEOS = [
  { id: 'wallet', file: 'wallet.mp4', hue: 'violet' },
  { id: 'playGame', file: 'play-game.mp4', hue: 'blue' },
  { id: 'checkBalance', file: 'check-balance.mp4', hue: 'teal' },
  { id: 'receiveBonus', file: 'receive-bonus.mp4', hue: 'rose' },
  { id: 'endBonus', file: 'end-bonus.mp4', hue: 'amber' },
] as const;

export type HowtoVideo = (typeof HOWTO_VIDEOS)[number];

export function videoUrl(video: HowtoVideo): string {
  return `${config.howtoBaseUrl}/${video.file}`;
}
