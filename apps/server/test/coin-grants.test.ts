import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, registerMember, startApp, type TestApp } from './helpers';
import { operatorLogin } from './operator-helpers';

/**
 * Coins on one operator's word stop at COIN_GRANT_MAX_PER_DAY to a member in 24 h (300 by
 * default), also when the grants come at once: the day's sum is read under the member's coin
 * account lock. A hostile review granted 1,000 coins with ten requests of 100 at once.
 */
describe.each(dbKinds)('coin grants at once on %s', (kind) => {
  let t: TestApp;
  let marketing = '';
  beforeAll(async () => {
    t = await startApp(kind);
    marketing = await operatorLogin(t, 'marketing');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ten grants of 100 at once: three granted alone, the other seven asked of a second person', async () => {
    const { id: memberId } = await registerMember(t.app);
    const grant = (i: number) =>
      call<{ coin?: number; approvalId?: string }>(t.app, 'POST', `/api/operator/members/${memberId}/coins`, {
        headers: { authorization: `Bearer ${marketing}`, 'idempotency-key': `coins-at-once-${memberId}-${i}` },
        body: { coins: 100 },
      });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => grant(i)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 202, 202, 202, 202, 202, 202, 202]);
    expect(Math.max(...answers.map((a) => a.body.coin ?? 0))).toBe(300);
    expect(await t.services.money.coins.grantedSince(memberId, new Date(Date.now() - 3600_000))).toBe(300);
    // A retry of a granted key answers its grant; of an asked one, its approval.
    const again = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => grant(i)));
    expect(again.map((a) => a.status).sort()).toEqual(answers.map((a) => a.status).sort());
    expect(await t.services.money.coins.grantedSince(memberId, new Date(Date.now() - 3600_000))).toBe(300);
  });
});
