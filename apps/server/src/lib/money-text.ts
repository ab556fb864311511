import type { Currency } from '../money';

/**
 * An amount in minor units as players and operators read it: ฿1,500.00, ₭50,000. Both currencies
 * have 100 minor units (satang; LAK's hundredths), and kip is shown without decimals.
 */
export function formatMajor(minor: number, currency: Currency): string {
  const major = minor / 100;
  if (currency === 'LAK') return `₭${major.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
  return `฿${major.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
