import { describe, expect, it } from 'vitest';
import { easeOut, motion, sliceAt, targetRotation } from '../src/features/spin/spinMotion';

describe('wheel motion', () => {
  it('lands every slice under the pointer after 3 to 4 extra turns, wherever the wheel stood', () => {
    for (const count of [2, 6, 8, 13]) {
      for (const from of [0, 17, 359.5, 1234.5, -90]) {
        for (let index = 0; index < count; index++) {
          for (const jitter of [-0.5, 0, 0.5]) {
            const to = targetRotation(from, index, count, 3.6, jitter);
            expect(sliceAt(to, count)).toBe(index);
            expect(to - from).toBeGreaterThanOrEqual(3 * 360);
            expect(to - from).toBeLessThan(4 * 360);
          }
        }
      }
    }
  });

  it('takes a random 4 to 5 s times the turns times 0.1', () => {
    expect(motion(() => 0)).toEqual({ turns: 3, durationMs: 1200 });
    const high = motion(() => 0.999);
    expect(high.turns).toBeCloseTo(3.999);
    expect(high.durationMs).toBe(Math.round(4.999 * 3.999 * 100));
    expect(easeOut(0)).toBe(0);
    expect(easeOut(1)).toBe(1);
    expect(easeOut(2)).toBe(1);
  });
});
