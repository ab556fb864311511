import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** Issue 37 item 7: the owner's `overLimit` passes a deposit limit, never a break (time-out / self-exclusion). */
describe.each(dbKinds)('owner override and breaks on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { DEPOSIT_RECONCILE_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a manual deposit with overLimit is refused for a member on a time-out, and credits nothing', async () => {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    const id = m.id;
    expect((await call(t.app, 'POST', '/api/responsible/time-out', { token, body: { days: 7 } })).status).toBe(200);
    const manual = await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': `ob-${Date.now()}` }, body: { memberId: id, currency: 'THB', note: 'test', amount: 100, overLimit: true } });
    expect(manual.status).toBe(403);
    expect(manual.body).toMatchObject({ message: 'TIME_OUT' });
    const credited = await t.services.database.db.selectFrom('operations').select('id').where('member_id', '=', id).where('type', '=', 'deposit').where('status', '=', 'SUCCESS').execute();
    expect(credited).toEqual([]);
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });
});
