import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import { loginSchema } from '../src/account';
import { endpointList } from '../src/endpoints';
import { pageRequestSchema } from '../src/http';
import { amountSchema, MAX_AMOUNT_SATANG, parseBaht, toBaht } from '../src/money';
import {
  checkBankAccountName,
  checkPhone,
  formatAccountNo,
  isEnglishOnlyName,
  requiresEnglishName,
} from '../src/rules';
import { transferSchema } from '../src/wallet';
import { specCalls } from './spec-calls';

const key = (def: { method: string; path: string }) => `${def.method} ${def.path}`;

describe('endpoint catalogue', () => {
  it('lists 78 distinct spec calls', () => {
    expect(specCalls).toHaveLength(78);
    expect(new Set(specCalls).size).toBe(78);
  });

  it('defines every spec call', () => {
    const defined = new Set(endpointList.map(([, def]) => key(def)));
    const missing = specCalls.filter((call) => !defined.has(call));
    expect(missing).toEqual([]);
  });

  it('has exactly the 78 spec calls besides the ones marked added', () => {
    const notAdded = endpointList.filter(([, def]) => def.added !== true).map(([, def]) => key(def));
    expect(notAdded).toHaveLength(78);
    expect(new Set(notAdded)).toEqual(new Set(specCalls));
  });

  it('has no two endpoints with the same method and path', () => {
    const seen = new Map<string, string>();
    const duplicates: string[] = [];

    for (const [name, def] of endpointList) {
      const k = key(def);
      const other = seen.get(k);
      if (other !== undefined) duplicates.push(`${k}: ${other} and ${name}`);
      seen.set(k, name);
    }
    expect(duplicates).toEqual([]);
  });

  it('describes path parameters as objects with exactly the path names', () => {
    for (const [name, def] of endpointList) {
      const pathNames = [...def.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
      if (pathNames.length === 0) {
        expect(def.params, name).toBeUndefined();
        continue;
      }
      expect(def.params, name).toBeInstanceOf(z.ZodObject);
      if (def.params instanceof z.ZodObject) {
        expect(Object.keys(def.params.shape).sort(), name).toEqual(pathNames);
        const tooLong = Object.fromEntries(pathNames.map((p) => [p, 'x'.repeat(10_000)]));
        expect(def.params.safeParse(tooLong).success, name).toBe(false);
      }
    }
  });

  it('gives GET and DELETE calls no body, and every money-moving call a token', () => {
    for (const [name, def] of endpointList) {
      if (def.method === 'GET' || def.method === 'DELETE') expect(def.body, name).toBeUndefined();
      if (def.movesMoney === true) expect(def.auth, name).toBe(true);
    }
  });

  it('uses strict objects for every body', () => {
    for (const [name, def] of endpointList) {
      if (def.body === undefined) continue;
      expect(def.body, name).toBeInstanceOf(z.ZodObject);
      if (def.body instanceof z.ZodObject) {
        expect(def.body.def.catchall?._zod.def.type, name).toBe('never');
      }
    }
  });
});

describe('strict bodies', () => {
  it('reject unknown fields', () => {
    expect(transferSchema.safeParse({ from: 'WALLET', to: 'PG', amount: 10 }).success).toBe(true);
    expect(transferSchema.safeParse({ from: 'WALLET', to: 'PG', amount: 10, extra: 1 }).success).toBe(false);
    expect(pageRequestSchema.safeParse({ page: 1, limit: 10 }).success).toBe(true);
    expect(pageRequestSchema.safeParse({ page: 1, limit: 10, sort: 'x' }).success).toBe(false);
    expect(loginSchema.safeParse({ username: '0812345678', password: 'secret1' }).success).toBe(true);
    expect(loginSchema.safeParse({ username: '0812345678', password: 'secret1', admin: true }).success).toBe(false);
  });

  it('let an unknown game code through to the service but cap its length', () => {
    expect(transferSchema.safeParse({ from: 'NOPE', to: 'WALLET', amount: '1' }).success).toBe(true);
    expect(transferSchema.safeParse({ from: 'X'.repeat(33), to: 'WALLET', amount: '1' }).success).toBe(false);
  });
});

describe('amountSchema', () => {
  it.each([
    [1, 100],
    ['1.5', 150],
    [100.25, 10025],
    [0, 0],
  ])('accepts %j as %i satang', (input, satang) => {
    expect(amountSchema.parse(input)).toBe(satang);
  });

  it.each([-1, 1.005, 'abc', 1e20, Number.NaN, true, null, '1.2.3'])('rejects %j', (input) => {
    expect(amountSchema.safeParse(input).success).toBe(false);
  });
});

describe('parseBaht and toBaht', () => {
  it('round trip every satang value through baht', () => {
    const samples = [0, 1, 5, 10, 99, 100, 101, 150, 999, 10025, 123_456, 9_999_999, MAX_AMOUNT_SATANG];
    for (let s = 0; s <= 20_000; s += 7) samples.push(s);
    for (const satang of samples) {
      const baht = toBaht(satang);
      expect(parseBaht(baht)).toBe(satang);
      expect(parseBaht(String(baht))).toBe(satang);
    }
  });

  it('reads decimal text exactly', () => {
    expect(parseBaht('0.1')).toBe(10);
    expect(parseBaht('0.01')).toBe(1);
    expect(parseBaht(' 12.30 ')).toBe(1230);
    expect(toBaht(1230)).toBe(12.3);
  });

  it('rejects amounts over the maximum and float noise', () => {
    expect(parseBaht(toBaht(MAX_AMOUNT_SATANG + 1))).toBeNull();
    expect(parseBaht(0.1 + 0.2)).toBeNull();
    expect(parseBaht(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('rules', () => {
  it('requires 10 digits outside Laos mode', () => {
    expect(checkPhone('0812345678', false)).toBeNull();
    expect(checkPhone('081234567', false)).toBe('PHONE_NUMBER_REQUIRE_10_DIGIT');
    expect(checkPhone('08123456789', false)).toBe('PHONE_NUMBER_REQUIRE_10_DIGIT');
    expect(checkPhone('081234567a', false)).toBe('PHONE_NUMBER_REQUIRE_10_DIGIT');
    expect(checkPhone('', false)).toBe('REQUIRED');
  });

  it('drops the 10-digit rule in Laos mode', () => {
    expect(checkPhone('02012345', true)).toBeNull();
    expect(checkPhone('020123456', true)).toBeNull();
    expect(checkPhone('0812345678', true)).toBeNull();
    expect(checkPhone('1234567', true)).toBe('PHONE_NUMBER_INVALID');
    expect(checkPhone('1234567890123456', true)).toBe('PHONE_NUMBER_INVALID');
    expect(checkPhone('02012345ab', true)).toBe('PHONE_NUMBER_INVALID');
    expect(checkPhone('', true)).toBe('REQUIRED');
  });

  it('requires English-only account names for KTB, TMB and BBL only', () => {
    for (const bank of ['KTB', 'TMB', 'BBL']) {
      expect(requiresEnglishName(bank)).toBe(true);
      expect(checkBankAccountName(bank, 'สมชาย ใจดี')).toBe('BANK_ACCOUNT_NAME_ENG');
      expect(checkBankAccountName(bank, 'SOMCHAI JAIDEE')).toBeNull();
      expect(checkBankAccountName(bank, '  somchai   jaidee ')).toBeNull();
    }
    for (const bank of ['SCB', 'KBANK', 'GSB']) {
      expect(requiresEnglishName(bank)).toBe(false);
      expect(checkBankAccountName(bank, 'สมชาย ใจดี')).toBeNull();
      expect(checkBankAccountName(bank, 'SOMCHAI JAIDEE')).toBeNull();
    }
    expect(isEnglishOnlyName('SOMCHAI JAIDEE')).toBe(true);
    expect(isEnglishOnlyName('SOMCHAI ใจดี')).toBe(false);
    expect(isEnglishOnlyName('   ')).toBe(false);
  });

  it('formats 10-digit account numbers as 3-3-rest', () => {
    expect(formatAccountNo('1234567890')).toBe('123-456-7890');
    expect(formatAccountNo('123456789012')).toBe('123456789012');
    expect(formatAccountNo('123456789')).toBe('123456789');
    expect(formatAccountNo('12345abcde')).toBe('12345abcde');
  });
});
