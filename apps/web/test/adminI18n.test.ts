import { describe, expect, it } from 'vitest';
import { en } from '../admin/src/i18n/en';
import { th } from '../admin/src/i18n/th';
import { previewBonus, validateBonus, type BonusForm } from '../admin/src/features/promotions/bonusForm';
import { toCsv } from '../admin/src/shared/csv';
import { can } from '../admin/src/shared/roles';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Array<[string, unknown]> {
  return Object.entries(tree).flatMap(([key, value]): Array<[string, unknown]> =>
    typeof value === 'object' && value !== null ? leaves(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

const locales = { th, en } as unknown as Record<string, Tree>;
const keysOf = (tree: Tree) => new Set(leaves(tree).map(([key]) => key));
const allKeys = new Set(Object.values(locales).flatMap((tree) => [...keysOf(tree)]));

describe('back office texts', () => {
  it.each(Object.keys(locales))('%s has every key that any locale has', (name) => {
    const keys = keysOf(locales[name] as Tree);
    expect([...allKeys].filter((key) => !keys.has(key)), `missing in ${name}`).toEqual([]);
  });

  it.each(Object.keys(locales))('%s has no empty value', (name) => {
    expect(leaves(locales[name] as Tree).filter(([, value]) => typeof value !== 'string' || value.trim() === '').map(([key]) => key)).toEqual([]);
  });

  it('th keeps the same {{placeholders}} as en', () => {
    const en_ = new Map(leaves(locales.en as Tree));
    const differ = leaves(locales.th as Tree).filter(([key, value]) => {
      const names = (text: unknown) => [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(',');
      return names(value) !== names(en_.get(key));
    });
    expect(differ.map(([key]) => key)).toEqual([]);
  });
});

describe('back office rules', () => {
  it('shows each role only what it may do', () => {
    expect(can('support', 'withdrawals')).toBe(false);
    expect(can('support', 'chat')).toBe(true);
    expect(can('finance', 'withdrawals')).toBe(true);
    expect(can('marketing', 'promotions')).toBe(true);
    expect(can('marketing', 'members.read')).toBe(false);
    expect(can('owner', 'operators')).toBe(true);
    expect(can(undefined, 'dashboard')).toBe(false);
  });

  it('checks a bonus and previews what a deposit gets', () => {
    const form: BonusForm = { type: 'limit', maxReceived: 1, maxTotal: null, percentFail: 0, banners: [], percent: 20, amounts: { THB: { minDeposit: 100_00, maxBonus: 500_00 } }, turnoverMultiple: 5, categories: ['slot'], depositWindowMinutes: 60, active: true, sort: 0 };
    expect(validateBonus(form)).toEqual({});
    expect(previewBonus(form, 'THB', 1000_00)).toEqual({ bonus: 200_00, turnover: 6000_00 });
    expect(previewBonus(form, 'THB', 5000_00).bonus).toBe(500_00);
    expect(previewBonus(form, 'THB', 50_00).bonus).toBe(0);
    expect(Object.keys(validateBonus({ ...form, percent: 0, categories: [] }))).toEqual(['percent', 'categories']);
  });

  it('writes CSV that spreadsheets read as text', () => {
    expect(toCsv([{ a: 'x,y', b: '=SUM(A1)', c: -5 }], ['a', 'b', 'c'])).toBe('a,b,c\r\n"x,y",\'=SUM(A1),-5');
  });
});
