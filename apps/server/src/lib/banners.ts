import type { Locale } from '@mw/contract/constants';

/** A carousel banner (spec section 3): an image URL and HTML, either may be empty. */
export interface Banner {
  image: string;
  html: string;
}

/**
 * Banners as stored (settings `inviteBanners` / `refundBanners`, a bonus's `banners`): one list for
 * every language, or a list per language — the member gets theirs, else the English one, else the
 * Thai one.
 */
export type StoredBanners = Banner[] | Partial<Record<Locale, Banner[]>>;

export function bannersFor(stored: StoredBanners | null | undefined, locale: Locale): Banner[] {
  if (!stored) return [];
  if (Array.isArray(stored)) return stored;
  return stored[locale] ?? stored.en ?? stored.th ?? [];
}

/** What an operator may write as banners: one list, or one per language (the contract's). */
export { storedBannersSchema } from '@mw/contract/operator/promotions';
