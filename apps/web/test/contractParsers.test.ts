import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { spinEndpoints } from '@mw/contract/spin';
import { walletEndpoints } from '@mw/contract/wallet';
import type { ResponseParser } from '../src/shared/api/client';
import {
  refreshSlotsParser,
  SPIN_ACTIVE_PATH,
  spinActiveParser,
  WALLET_PATH,
  WALLET_REFRESH_SLOT_PATH,
  walletResponseParser,
} from '../src/shared/api/contractParsers.generated';
import * as generated from '../src/shared/api/contractParsers.generated';
import { generateParsers, OUTPUT, targets } from '../scripts/contract-parsers';
import { game, walletAnswer } from './walletFixtures';

interface Schema {
  safeParse(value: unknown): { success: boolean; data?: unknown };
}

function same(parser: ResponseParser<unknown>, schema: Schema, sample: unknown): void {
  const contract = schema.safeParse(sample);
  const parsed = parser.safeParse(sample);
  expect(parsed.success, JSON.stringify(sample)).toBe(contract.success);
  if (parsed.success && contract.success) expect(parsed.data).toStrictEqual(contract.data);
}

/** Every path of a JSON value, e.g. ['slots', 0, 'amount']. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...paths(child, [...prefix, key])]);
}

const replacements: unknown[] = [undefined, null, 'x', '', 0, -0, 1.5, -3, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, true, false, [], {}, 'slot', 'lotto'];

/** The sample with the value at `path` replaced (undefined: the key removed). */
function mutate(sample: unknown, path: (string | number)[], replacement: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return replacement;
  if (Array.isArray(sample)) return sample.map((item, index) => (index === key ? mutate(item, rest, replacement) : item));
  const { [key]: child, ...others } = sample as Record<string | number, unknown>;
  const value = mutate(child, rest, replacement);
  return value === undefined ? others : { ...others, [key]: value };
}

function checkAll(parser: ResponseParser<unknown>, schema: Schema, valid: unknown): void {
  same(parser, schema, valid);
  same(parser, schema, { ...(valid as object), extra: 1 });
  for (const sample of [null, undefined, 'text', 1, [], [valid], {}]) same(parser, schema, sample);
  for (const path of paths(valid)) {
    for (const replacement of replacements) same(parser, schema, mutate(valid, path, replacement));
    const node = path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], valid);
    if (typeof node === 'object' && node !== null && !Array.isArray(node)) same(parser, schema, mutate(valid, [...path, 'extra'], 1));
  }
}

/** The zod-free parsers of the home dashboard must say exactly what the contract says. */
describe('the generated parsers say what the contract says', () => {
  it('use the contract paths', () => {
    expect(WALLET_PATH).toBe(walletEndpoints.wallet.path);
    expect(WALLET_REFRESH_SLOT_PATH).toBe(walletEndpoints.walletRefreshSlot.path);
    expect(SPIN_ACTIVE_PATH).toBe(spinEndpoints.spinActive.path);
    expect([walletEndpoints.wallet.method, walletEndpoints.walletRefreshSlot.method, spinEndpoints.spinActive.method]).toEqual(['GET', 'GET', 'GET']);
  });

  it('GET /api/wallet', () => {
    const answer = walletAnswer({ slots: [game('PG', { isActive: true, amount: 200.1, ios: 'ios://pg' }), game('UFABET', { category: 'sport' })] });
    checkAll(walletResponseParser, walletEndpoints.wallet.response, answer);
    checkAll(walletResponseParser, walletEndpoints.wallet.response, { ...answer, bankAccount: { ...answer.bankAccount, bank: null } });
    checkAll(walletResponseParser, walletEndpoints.wallet.response, { ...answer, slots: [] });
  });

  it('GET /api/wallet/refresh/slot', () => {
    const answer = { slots: [game('PG', { isActive: true, amount: 1.25 }), game('HUAYHD', { category: 'lotto' })], updatedAt: '2026-01-02T03:04:05.000Z' };
    checkAll(refreshSlotsParser, walletEndpoints.walletRefreshSlot.response, answer);
  });

  it('GET /api/spinwheel/active', () => {
    checkAll(spinActiveParser, spinEndpoints.spinActive.response, { active: true });
    checkAll(spinActiveParser, spinEndpoints.spinActive.response, { active: false });
  });
});

/** A small seeded random generator (mulberry32): the same samples on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value the schema accepts, drawn at random (with absent optional keys, nulls, empty and long arrays). */
function sample(schema: z.core.$ZodType, next: () => number): unknown {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
  if (schema instanceof z.ZodString) return pick(['', 'PG', 'สมชาย', 'ສົມໄຊ', '2026-01-02T03:04:05.000Z', 'x'.repeat(300), '{}', 'null']);
  if (schema instanceof z.ZodNumber) {
    const int = (schema._zod.def.checks ?? []).length > 0;
    return int ? pick([0, 1, -1, 7, 2 ** 53 - 1, -(2 ** 53 - 1), -0]) : pick([0, 0.01, 200.1, -3.5, 1e21, Number.MAX_VALUE, Number.MIN_VALUE, -0]);
  }
  if (schema instanceof z.ZodBoolean) return next() < 0.5;
  if (schema instanceof z.ZodEnum) return pick(Object.values(schema.enum as Record<string, string>));
  if (schema instanceof z.ZodLiteral) return pick([...schema.values]);
  if (schema instanceof z.ZodNullable) return next() < 0.3 ? null : sample(schema.unwrap(), next);
  if (schema instanceof z.ZodOptional) return next() < 0.3 ? undefined : sample(schema.unwrap(), next);
  if (schema instanceof z.ZodArray) return Array.from({ length: pick([0, 1, 2, 3]) }, () => sample(schema.element, next));
  if (schema instanceof z.ZodObject) {
    const entries = Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, child]) => [key, sample(child, next)] as const);
    // An optional key is sometimes absent, sometimes present as undefined.
    return Object.fromEntries(entries.filter(([, value]) => value !== undefined || next() < 0.5));
  }
  throw new Error(`no sampler for ${schema._zod.def.type}`);
}

/** Values of every kind, put in place of any part of a sample. */
const anything: unknown[] = [...replacements, '2026-01-02', 'BAHT', 'LAK', 'sport', 0.1, -1, 2 ** 53 - 1, Number.NEGATIVE_INFINITY, [1], [null], { amount: 1 }, 1n, () => 1, new Date(0)];

describe('generated parsers against their zod schemas, on samples drawn from the schemas and mutated', () => {
  const parsers = generated as unknown as Record<string, ResponseParser<unknown>>;

  it('the committed file is what the generator writes from the contract now (else: npx tsx apps/web/scripts/contract-parsers.ts)', () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(generateParsers());
  });

  it.each(targets.map((target) => [target.name, target] as const))('%s', (name, target) => {
    const parser = parsers[name] as ResponseParser<unknown>;
    expect((generated as unknown as Record<string, unknown>)[target.pathName]).toBe(target.endpoint.path);
    const next = random(0x5eed + name.length);
    let accepted = 0;
    let refused = 0;
    const compare = (value: unknown) => {
      const contract = target.endpoint.response.safeParse(value);
      const parsed = parser.safeParse(value);
      expect(parsed.success, JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).toBe(contract.success);
      if (parsed.success && contract.success) expect(parsed.data).toStrictEqual(contract.data);
      if (contract.success) accepted += 1;
      else refused += 1;
    };
    for (let round = 0; round < 40; round += 1) {
      const valid = sample(target.endpoint.response, next);
      compare(valid);
      const all = paths(valid);
      for (const path of all) {
        // Every path with a few random replacements, and every object with an unknown key.
        for (let i = 0; i < 4; i += 1) compare(mutate(valid, path, anything[Math.floor(next() * anything.length)]));
      }
      for (const path of [[], ...all]) {
        const node = path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], valid);
        if (typeof node === 'object' && node !== null && !Array.isArray(node)) compare(mutate(valid, [...path, 'extra'], next() < 0.5 ? 1 : undefined));
      }
      // Two mutations at once.
      if (all.length > 1) {
        const first = all[Math.floor(next() * all.length)] as (string | number)[];
        const second = all[Math.floor(next() * all.length)] as (string | number)[];
        const once = mutate(valid, first, anything[Math.floor(next() * anything.length)]);
        try {
          compare(mutate(once, second, anything[Math.floor(next() * anything.length)]));
        } catch (error) {
          if (!(error instanceof TypeError)) throw error; // the second path was under a part the first replaced
        }
      }
    }
    // The samples reach both verdicts, many times.
    expect(accepted).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(100);
  });

  it('the generator refuses a schema it cannot mirror, rather than writing a looser parser', async () => {
    const { targets: list, generateParsers: generate } = await import('../scripts/contract-parsers');
    const saved = list[0]?.endpoint;
    expect(saved).toBeDefined();
    try {
      for (const schema of [z.object({ a: z.string().min(1) }), z.object({ a: z.number().positive() }), z.object({ a: z.string().transform(Number) }), z.union([z.string(), z.number()])]) {
        (list[0] as { endpoint: unknown }).endpoint = { ...saved, response: schema };
        expect(() => generate()).toThrow(/cannot generate a parser/);
      }
    } finally {
      (list[0] as { endpoint: unknown }).endpoint = saved;
    }
  });
});
