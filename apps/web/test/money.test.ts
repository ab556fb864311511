import { describe, expect, it } from 'vitest';
import { formatMoney } from '../src/shared/format/money';

/** What the formatter must write: exactly what Intl.NumberFormat writes for the same locale. */
function intl(amount: number, tag: string): string {
  return new Intl.NumberFormat(tag, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
}

describe('formatMoney', () => {
  const cases = [
    0, -0, 1, -1, 0.1, 0.2, 0.1 + 0.2, 0.005, 0.015, 0.025, 1.005, 2.675, 12.345, 999.995, 1000, 1234.5, 1234567.891, 50000, -5.5, -0.001,
    -0.005, 0.004999, 1e-7, -1e-7, 99999999.999, 123456789012.34, 9999999999999.99, 1e13, 1e21, 1.5e-6, 0.000001, 100.5, 3.14159,
  ];

  it('writes th and en amounts exactly as Intl.NumberFormat does', () => {
    for (const [locale, tag] of [['th', 'th-TH'], ['en', 'en-GB']] as const) {
      for (const amount of cases) expect(formatMoney(amount, locale), `${locale} ${amount}`).toBe(intl(amount, tag));
    }
  });

  it('matches Intl.NumberFormat on many random amounts', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 20000; i += 1) {
      const digits = Math.floor(random() * 5);
      const scale = 10 ** Math.floor(random() * 12);
      const amount = Number(((random() - 0.3) * scale).toFixed(digits));
      expect(formatMoney(amount, 'th'), String(amount)).toBe(intl(amount, 'th-TH'));
    }
  });

  it('leaves Lao and non-finite amounts to Intl', () => {
    expect(formatMoney(1234.5, 'la')).toBe(intl(1234.5, 'lo-LA'));
    expect(formatMoney(Number.NaN, 'th')).toBe(intl(Number.NaN, 'th-TH'));
    expect(formatMoney(Number.POSITIVE_INFINITY, 'en')).toBe(intl(Number.POSITIVE_INFINITY, 'en-GB'));
  });
});
