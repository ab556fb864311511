import { describe, expect, it } from 'vitest';
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
} from '../src/shared/api/walletParsers';
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
describe('home dashboard parsers stay in step with the contract', () => {
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
