import type { Locale } from '@mw/contract/constants';

/** A bank's name in the UI language: the Thai name in Thai, the English name in Lao and English. */
export function bankName(bank: { nameTH: string; nameEN: string }, locale: Locale): string {
  return locale === 'th' ? bank.nameTH : bank.nameEN;
}
