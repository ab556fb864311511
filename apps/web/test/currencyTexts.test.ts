import { afterEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { en } from '../src/i18n/en';
import { la } from '../src/i18n/la';
import { th } from '../src/i18n/th';
import { bonusLocales } from '../src/features/bonus/locales';
import { depositLocales } from '../src/features/deposit/locales';
import { rewardsLocales } from '../src/features/rewards/locales';
import { spinLocales } from '../src/features/spin/locales';
import { setMoneyCurrency } from '../src/shared/format/moneyCurrency';

/** Issue 33: a text that quotes an amount takes the member's currency, never a baht written into it. */
type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]): Array<[string, string]> =>
    typeof value === 'object' && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, String(value)]],
  );
}

const BAHT_NEAR_AMOUNT = /฿\s*(\{\{|\d)|(\}\}|\d)\s*(บาท|ບາດ|baht)/i;
const KIP_NEAR_AMOUNT = /₭\s*(\{\{|\d)|(\}\}|\d)\s*(กีบ|ກີບ|kip)/i;

const files: Record<string, Tree> = {
  th: th as unknown as Tree,
  la: la as unknown as Tree,
  en: en as unknown as Tree,
  ...Object.fromEntries(
    Object.entries({ bonus: bonusLocales, deposit: depositLocales, rewards: rewardsLocales, spin: spinLocales }).flatMap(([ns, locales]) =>
      Object.entries(locales as unknown as Record<string, Tree>).map(([lng, tree]) => [`${ns}/${lng}`, tree]),
    ),
  ),
};

describe('member texts and the currency', () => {
  it.each(Object.keys(files))('%s writes no baht or kip sign or word beside an amount (they come from {{sign}} / {{moneyUnit}})', (name) => {
    const wrong = leaves(files[name] as Tree).filter(([, text]) => BAHT_NEAR_AMOUNT.test(text) || KIP_NEAR_AMOUNT.test(text));
    expect(wrong).toEqual([]);
  });

  describe('amounts quoted for a kip member and a baht member', () => {
    afterEach(() => setMoneyCurrency('BAHT'));

    /** The app's own i18next (test/setup.ts sets it up as main.tsx does), with the three locales' texts. */
    function translate(lng: 'th' | 'la' | 'en', key: string, options: Record<string, unknown>): string {
      const messages = { th, la, en }[lng];
      if (!i18next.hasResourceBundle(lng, 'translation') || !i18next.exists('deposit.demoSuccess', { lng })) i18next.addResourceBundle(lng, 'translation', messages, true, false);
      return i18next.t(key as 'deposit.demoSuccess', { ...options, lng } as { lng: string });
    }

    const cases: Array<[lng: 'th' | 'la' | 'en', kip: RegExp, baht: RegExp]> = [
      ['th', /กีบ/, /บาท/],
      ['la', /ກີບ/, /ບາດ/],
      ['en', /kip/, /baht/],
    ];
    it.each(cases)('%s: the demo top-up, the QR minimum and the transfer success say kip to a kip member, baht to a baht member', (lng, kip, baht) => {
      setMoneyCurrency('LAK');
      const demo = translate(lng, 'deposit.demoSuccess', { amount: '500,000' });
      expect(demo).toMatch(kip);
      expect(demo).not.toMatch(baht);
      expect(demo).toContain('500,000');
      const minimum = translate(lng, 'deposit.qr.minimum', { amount: '50,000' });
      expect(minimum).toContain('₭50,000');
      expect(minimum).not.toContain('฿');
      expect(translate(lng, 'transfer.successMessage', { amount: '1,000', from: 'WALLET', to: 'PG' })).toMatch(kip);

      setMoneyCurrency('BAHT');
      const bahtDemo = translate(lng, 'deposit.demoSuccess', { amount: '500' });
      expect(bahtDemo).toMatch(baht);
      expect(bahtDemo).not.toMatch(kip);
      expect(translate(lng, 'deposit.qr.minimum', { amount: '100' })).toContain('฿100');
    });
  });
});
