import { describe, expect, it } from 'vitest';
import { bonusEndpoints } from '@mw/contract/bonus';
import { BONUS_PROGRESS_PATH, bonusProgressParser } from '../src/features/bonus/bonusProgress';

/** The dashboard's zod-free parser of GET /api/bonus/progress must say exactly what the contract says. */
describe('bonus progress parser stays in step with the contract', () => {
  it('uses the contract path', () => {
    expect(BONUS_PROGRESS_PATH).toBe(bonusEndpoints.bonusProgress.path);
  });

  const condition = { code: 'WELCOME', turnover: 120.5, target: 1000, bonus: 100, deposit: 100, bust: 10 };
  const samples: unknown[] = [
    { progress: null },
    { progress: condition },
    { progress: { ...condition, extra: 'dropped' }, other: 1 },
    { progress: { ...condition, turnover: 0, bust: -1 } },
    { progress: { ...condition, code: 7 } },
    { progress: { ...condition, target: '1000' } },
    { progress: { ...condition, bonus: null } },
    { progress: (({ bust: _bust, ...rest }) => rest)(condition) },
    { progress: [] },
    { progress: 'none' },
    {},
    { progress: undefined },
    null,
    [],
    'text',
  ];
  it.each(samples)('%j', (sample) => {
    const contract = bonusEndpoints.bonusProgress.response.safeParse(sample);
    const parsed = bonusProgressParser.safeParse(sample);
    expect(parsed.success).toBe(contract.success);
    if (parsed.success && contract.success) expect(parsed.data).toEqual(contract.data);
  });
});
