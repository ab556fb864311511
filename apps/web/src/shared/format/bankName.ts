import type { Locale } from '@mw/contract/constants';

/**
 * A bank's name in the UI language (one language per screen): Thai in th, Lao in la (the API's
 * nameLA; the English name when a bank has none), English in en. The profile follows the same rule:
 * the spec's "bank name (Thai name)" stays Thai in th and follows the locale elsewhere.
 */
export function bankName(bank: { nameTH: string; nameEN: string; nameLA?: string | undefined }, locale: Locale): string {
  if (locale === 'th') return bank.nameTH;
  if (locale === 'la') return bank.nameLA || bank.nameEN;
  return bank.nameEN;
}
