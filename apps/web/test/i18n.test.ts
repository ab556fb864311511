import { describe, expect, it } from 'vitest';
import { errorCodes, slipReasonCodes } from '@mw/contract/errors';
import { en } from '../src/i18n/en';
import { la } from '../src/i18n/la';
import { th } from '../src/i18n/th';
import { thGuest } from '../src/i18n/th.guest';
import { thMember } from '../src/i18n/th.member';
import { laGuest } from '../src/i18n/la.guest';
import { laMember } from '../src/i18n/la.member';
import { ruleCodes } from '../src/shared/forms/ruleMessage';
import i18next, { type TFunction } from 'i18next';
import { depositLocales, depositNs } from '../src/features/deposit/locales';
import { spinLocales, spinNs } from '../src/features/spin/locales';
import { bonusLocales, bonusNs } from '../src/features/bonus/locales';
import { rewardsLocales, rewardsNs } from '../src/features/rewards/locales';
import { chatLocales, chatNs } from '../src/features/chat/locales';

type Tree = { [key: string]: string | Tree };

/** Every leaf of a locale as [dotted key, value]. */
function leaves(tree: Tree, prefix = ''): Array<[string, unknown]> {
  return Object.entries(tree).flatMap(([key, value]): Array<[string, unknown]> =>
    typeof value === 'object' && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

const locales = { th, la, en } as unknown as Record<string, Tree>;
const keysOf = (tree: Tree) => new Set(leaves(tree).map(([key]) => key));
const allKeys = new Set(Object.values(locales).flatMap((tree) => [...keysOf(tree)]));

describe('locale files', () => {
  it('splits th and la into the same guest and member halves, no section in both', () => {
    const sections = (half: object) => Object.keys(half).sort();
    expect(sections(thGuest).filter((section) => section in thMember)).toEqual([]);
    expect(sections(laGuest)).toEqual(sections(thGuest));
    expect(sections(laMember)).toEqual(sections(thMember));
    expect([...sections(thGuest), ...sections(thMember)].sort()).toEqual(sections(th));
  });

  it.each(Object.keys(locales))('%s has every key that any locale has', (name) => {
    const keys = keysOf(locales[name] as Tree);
    const missing = [...allKeys].filter((key) => !keys.has(key));
    expect(missing, `missing in ${name}`).toEqual([]);
  });

  it.each(Object.keys(locales))('%s has no empty or non-string value', (name) => {
    const empty = leaves(locales[name] as Tree)
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([key]) => key);
    expect(empty, `empty in ${name}`).toEqual([]);
  });

  it.each(Object.keys(locales))('%s translates every error code of the contract', (name) => {
    const keys = keysOf(locales[name] as Tree);
    expect(errorCodes.filter((code) => !keys.has(`errors.${code}`))).toEqual([]);
  });

  it.each(Object.keys(locales))('%s translates every validation rule code', (name) => {
    const keys = keysOf(locales[name] as Tree);
    expect(ruleCodes.length).toBeGreaterThanOrEqual(10);
    expect(ruleCodes.filter((code) => !keys.has(`rules.${code}`))).toEqual([]);
  });

  it.each(Object.keys(locales))('%s translates every slip reason code', (name) => {
    const keys = keysOf(locales[name] as Tree);
    expect(slipReasonCodes.filter((code) => !keys.has(`slipReasons.${code}`))).toEqual([]);
  });

  it('Thai and Lao are written in their own scripts, not left in English', () => {
    const thai = /[\u0E00-\u0E7F]/;
    const lao = /[\u0E80-\u0EFF]/;
    const untranslated = (tree: Tree, script: RegExp) =>
      leaves(tree)
        .filter(([key]) => key.startsWith('login.') || key.startsWith('register.') || key.startsWith('errors.'))
        .filter(([, value]) => typeof value === 'string' && !script.test(value))
        .map(([key]) => key);
    expect(untranslated(th as unknown as Tree, thai)).toEqual([]);
    expect(untranslated(la as unknown as Tree, lao)).toEqual([]);
  });
});

/** `{{name}}` placeholders of a text, sorted. */
const placeholders = (value: unknown) => [...String(value).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** A lazily loaded feature's own i18next namespace (features/<ns>/locales.ts): the same checks, and more. */
describe.each([
  [depositNs, depositLocales as unknown as Record<string, Tree>],
  [spinNs, spinLocales as unknown as Record<string, Tree>],
  [bonusNs, bonusLocales as unknown as Record<string, Tree>],
  [rewardsNs, rewardsLocales as unknown as Record<string, Tree>],
  [chatNs, chatLocales as unknown as Record<string, Tree>],
])('the %s namespace', (ns, texts) => {
  const every = new Set(Object.values(texts).flatMap((tree) => [...keysOf(tree)]));
  it('has th, la and en, no other', () => {
    expect(Object.keys(texts).sort()).toEqual(['en', 'la', 'th']);
  });

  it.each(['th', 'la', 'en'])('%s has every key, none empty', (locale) => {
    const tree = texts[locale] as Tree;
    expect([...every].filter((key) => !keysOf(tree).has(key))).toEqual([]);
    expect(leaves(tree).filter(([, value]) => typeof value !== 'string' || value.trim() === '').map(([key]) => key)).toEqual([]);
  });

  it.each(['th', 'la'])('%s has the placeholders of en in every text', (locale) => {
    const en = new Map(leaves(texts.en as Tree));
    const differ = leaves(texts[locale] as Tree)
      .filter(([key, value]) => placeholders(value).join() !== placeholders(en.get(key)).join())
      .map(([key]) => key);
    expect(differ).toEqual([]);
  });

  it('is in i18next for every locale once its module is loaded, and t fills the placeholders', () => {
    for (const locale of ['th', 'la', 'en']) {
      expect(i18next.hasResourceBundle(locale, ns), `${ns} ${locale}`).toBe(true);
      const t = i18next.getFixedT(locale, ns);
      for (const [key, value] of leaves(texts[locale] as Tree)) {
        const values = Object.fromEntries(placeholders(value).map((name) => [name, `<${name}>`]));
        const expected = String(value).replace(/\{\{\s*(\w+)\s*\}\}/g, (_whole, name: string) => `<${name}>`);
        expect((t as (key: string, options: object) => string)(key, values), `${ns}:${key} in ${locale}`).toBe(expected);
      }
    }
  });
});

describe('feature namespaces are typed', () => {
  it('a key of the namespace type-checks; a wrong key, or a key of another namespace, does not', () => {
    const t: TFunction<'bonus'> = i18next.getFixedT('en', bonusNs);
    expect(t('title')).toBe(bonusLocales.en.title);
    // @ts-expect-error: not a key of the bonus namespace
    expect(t('no-such-key')).toBe('no-such-key');
    // @ts-expect-error: a key of the chat namespace, not of the bonus one
    expect(t('unknownMessage')).toBe('unknownMessage');
  });
});
