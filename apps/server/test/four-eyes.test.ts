import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';
import { operatorLogin, useTestClock } from './operator-helpers';

let seq = 0;
const key = () => `four-eyes-${Date.now()}-${++seq}`;

/**
 * Four eyes with the default settings (issue 32 and 37): thresholds under the largest withdrawal,
 * sums per member over 24 hours, the automation key approving nothing, thresholds as the owner's
 * audited settings.
 */
describe.each(dbKinds)('four eyes at the defaults on %s', (kind) => {
  let t: TestApp;
  let finance = '';
  let owner = '';
  const as = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440', PAYOUT_SETTLE_INTERVAL_MS: '0' });
    useTestClock(t);
    finance = await operatorLogin(t, 'finance');
    owner = await operatorLogin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  const credit = (token: string, memberId: string, amount: number) =>
    call<{ status?: string; approvalId?: string }>(t.app, 'POST', '/api/operator/deposits', { headers: as(token, { 'idempotency-key': key() }), body: { memberId, amount, currency: 'BAHT', note: 'cash at the counter' } });

  it('ten ฿10,000 manual credits to one member in a day need a second approver from the sum above ฿20,000 on', async () => {
    const { id: memberId } = await registerMember(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await credit(finance, memberId, 10_000)).status);
    expect(statuses).toEqual([200, 200, 202, 202, 202, 202, 202, 202, 202, 202]);
    const pending = await call<{ approvals: Array<{ memberId: string; amount: number; currency: string }> }>(t.app, 'GET', '/api/operator/approvals?status=pending', { headers: as(owner) });
    expect(pending.body.approvals.filter((a) => a.memberId === memberId)).toHaveLength(8);
    expect(pending.body.approvals.find((a) => a.memberId === memberId)).toMatchObject({ amount: 10_000, currency: 'THB' });
  });

  it('a ฿30,000 withdrawal needs a second approver; the automation key approves nothing', async () => {
    const { id: memberId, phone, password } = await registerMember(t.app);
    const funded = await credit(finance, memberId, 30_000);
    expect(funded.status).toBe(202);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${funded.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
    const token = await login(t.app, phone, password);
    const asked = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 30_000 } });
    expect(asked.status).toBe(200);
    const approve = await call<{ status: string; approvalId: string }>(t.app, 'POST', `/api/operator/withdrawals/${asked.body.reference}/approve`, { headers: as(finance) });
    expect(approve).toMatchObject({ status: 202, body: { status: 'awaiting-approval' } });
    for (const name of ['owner', 'bob']) {
      const byKey = await call(t.app, 'POST', `/api/operator/approvals/${approve.body.approvalId}/approve`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': name } });
      expect(byKey).toMatchObject({ status: 403, body: { message: 'API_KEY_NOT_A_PERSON' } });
    }
    const done = await call<{ result: { status: number; body: { payout: string } } }>(t.app, 'POST', `/api/operator/approvals/${approve.body.approvalId}/approve`, { headers: as(owner) });
    expect(done.body.result).toMatchObject({ status: 200, body: { payout: 'paid' } });
    // A key-made request names the key as its maker, not the typed name.
    const { id: other } = await registerMember(t.app);
    const keyMade = await call<{ approvalId: string }>(t.app, 'POST', '/api/operator/deposits', { headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': 'finance', 'idempotency-key': key() }, body: { memberId: other, amount: 25_000, currency: 'BAHT', note: 'script' } });
    expect(keyMade.status).toBe(202);
    expect((await call<{ maker: string }>(t.app, 'GET', `/api/operator/approvals/${keyMade.body.approvalId}`, { headers: as(owner) })).body.maker).toBe('api-key');
  });

  it('the thresholds are the owner\'s settings in major units, audited with before and after', async () => {
    const got = await call<{ THB: { manual: number; payout: number; operatorDay: number }; LAK: { payout: number } }>(t.app, 'GET', '/api/operator/four-eyes', { headers: as(finance) });
    expect(got.body).toMatchObject({ THB: { manual: 20_000, payout: 20_000, operatorDay: 200_000 }, LAK: { payout: 12_000_000 } });
    const changed = { ...got.body, THB: { ...got.body.THB, manual: 5_000 } };
    expect((await call(t.app, 'PUT', '/api/operator/four-eyes', { headers: as(finance), body: changed })).body).toEqual({ message: 'FORBIDDEN_ROLE' });
    expect((await call(t.app, 'PUT', '/api/operator/four-eyes', { headers: as(owner), body: { ...changed, THB: { ...changed.THB, manual: -1 } } })).status).toBe(400);
    expect((await call(t.app, 'PUT', '/api/operator/four-eyes', { headers: as(owner), body: changed })).body).toMatchObject({ THB: { manual: 5_000 } });
    const audit = await call<{ rows: Array<{ before: unknown; after: unknown; target: string }> }>(t.app, 'GET', '/api/operator/audit?action=setting.change', { headers: as(owner) });
    expect(audit.body.rows.find((r) => r.target === 'fourEyes')).toMatchObject({ before: { THB: { manual: 20_000 } }, after: { THB: { manual: 5_000 } } });
    const { id: memberId } = await registerMember(t.app);
    expect((await credit(finance, memberId, 6_000)).status).toBe(202);
  });
});
