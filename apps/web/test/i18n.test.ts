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
import { depositTexts } from '../src/features/deposit/depositTexts';
import { spinTexts } from '../src/features/spin/spinTexts';
import { bonusTexts } from '../src/features/bonus/bonusTexts';
import { rewardsTexts } from '../src/features/rewards/rewardsTexts';
import { chatTexts } from '../src/features/chat/chatTexts';

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

/** Texts kept with a lazily loaded feature (not in the locale files): the same checks. */
describe.each([
  ['deposit', depositTexts as unknown as Record<string, Tree>],
  ['spin', spinTexts as unknown as Record<string, Tree>],
  ['bonus', bonusTexts as unknown as Record<string, Tree>],
  ['rewards', rewardsTexts as unknown as Record<string, Tree>],
  ['chat', chatTexts as unknown as Record<string, Tree>],
])('%s feature texts', (_name, texts) => {
  const every = new Set(Object.values(texts).flatMap((tree) => [...keysOf(tree)]));
  it.each(['th', 'la', 'en'])('%s has every key, none empty', (locale) => {
    const tree = texts[locale] as Tree;
    expect([...every].filter((key) => !keysOf(tree).has(key))).toEqual([]);
    expect(leaves(tree).filter(([, value]) => typeof value !== 'string' || value.trim() === '').map(([key]) => key)).toEqual([]);
  });
});
