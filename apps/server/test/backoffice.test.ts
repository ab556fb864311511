import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { bangkokDayStart } from '../src/modules/backoffice/day';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

describe('bangkokDayStart', () => {
  it('is midnight in Asia/Bangkok (UTC+7)', () => {
    expect(bangkokDayStart(new Date('2026-11-25T16:59:59Z')).toISOString()).toBe('2026-11-24T17:00:00.000Z');
    expect(bangkokDayStart(new Date('2026-11-25T17:00:00Z')).toISOString()).toBe('2026-11-25T17:00:00.000Z');
  });
});

describe.each(dbKinds)('back office read views on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { RECONCILE_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('dashboard: today’s money per currency and the withdrawal queue', async () => {
    const before = await call<{ totals: Array<{ currency: string; deposits: number }>; queues: { withdrawals: { count: number } } }>(t.app, 'GET', '/api/operator/dashboard', { headers: operator });
    expect(before.status).toBe(200);
    const { phone, password } = await registerMember(t.app);
    const token = await login(t.app, phone, password);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 500 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 200 } })).status).toBe(200);
    const after = await call<{ totals: Array<{ currency: string; deposits: number }>; activeMembers: number; queues: { withdrawals: { count: number; oldestAt: string | null } }; providers: unknown[] }>(t.app, 'GET', '/api/operator/dashboard', { headers: operator });
    const thb = (r: typeof before.body) => r.totals.find((x) => x.currency === 'THB')?.deposits ?? 0;
    expect(thb(after.body) - thb(before.body)).toBe(500_00);
    expect(after.body.queues.withdrawals.count).toBe(before.body.queues.withdrawals.count + 1);
    expect(after.body.queues.withdrawals.oldestAt).not.toBeNull();
    expect(after.body.activeMembers).toBeGreaterThanOrEqual(1);
    expect(after.body.providers.length).toBeGreaterThan(0);
    expect((await call(t.app, 'GET', '/api/operator/dashboard')).status).toBe(401);
  });

  it('members: search by phone, name part, bank account; profile; lock ends the sessions; notes', async () => {
    const { phone, password, id } = await registerMember(t.app);
    const token = await login(t.app, phone, password);
    const byPhone = await call<{ total: number; members: Array<{ id: string; bankAccountNo: string; name: string }> }>(t.app, 'GET', `/api/operator/members?q=${phone}`, { headers: operator });
    expect(byPhone.body.members.map((m) => m.id)).toEqual([id]);
    const member = byPhone.body.members[0];
    const byAccount = await call<{ members: Array<{ id: string }> }>(t.app, 'GET', `/api/operator/members?q=${member?.bankAccountNo}`, { headers: operator });
    expect(byAccount.body.members.map((m) => m.id)).toContain(id);
    const byId = await call<{ members: Array<{ id: string }> }>(t.app, 'GET', `/api/operator/members?q=${id}`, { headers: operator });
    expect(byId.body.members.map((m) => m.id)).toContain(id);
    const paged = await call<{ total: number; members: unknown[] }>(t.app, 'GET', '/api/operator/members?pageSize=1&sort=username', { headers: operator });
    expect(paged.body.members).toHaveLength(1);
    expect(paged.body.total).toBeGreaterThanOrEqual(1);

    const profile = await call<{ member: { id: string }; wallet: { amount: number }; games: unknown[]; notes: unknown[] }>(t.app, 'GET', `/api/operator/members/${id}`, { headers: operator });
    expect(profile).toMatchObject({ status: 200, body: { member: { id }, wallet: { amount: 0 }, notes: [] } });
    expect((await call(t.app, 'GET', `/api/operator/members/${id}/statement`, { headers: operator })).status).toBe(200);
    expect((await call(t.app, 'GET', `/api/operator/members/${id}/chat`, { headers: operator })).body).toEqual({ threadId: null, messages: [] });
    expect((await call(t.app, 'GET', '/api/operator/members/nobody', { headers: operator })).status).toBe(404);

    const locked = await call(t.app, 'POST', `/api/operator/members/${id}/lock`, { headers: operator, body: { locked: true } });
    expect(locked).toMatchObject({ status: 200, body: { status: 'inactive' } });
    expect((await call(t.app, 'GET', '/api/wallet', { token })).status).toBe(401);
    expect((await call(t.app, 'POST', `/api/operator/members/${id}/lock`, { headers: operator, body: { locked: false } })).body).toMatchObject({ status: 'active' });
    expect((await login(t.app, phone, password)).length).toBeGreaterThan(0);

    const note = await call(t.app, 'POST', `/api/operator/members/${id}/notes`, { headers: { ...operator, 'x-operator': 'alice' }, body: { text: 'called about a deposit' } });
    // The automation key is one identity: X-Operator is a note in the audit, never the author.
    expect(note).toMatchObject({ status: 200, body: { text: 'called about a deposit', author: 'api-key' } });
    expect((await call(t.app, 'POST', `/api/operator/members/${id}/notes`, { headers: operator, body: { text: '  ' } })).status).toBe(400);
  });

  it('withdrawals: pending by default, every status on request, paged with a total', async () => {
    const { phone, password } = await registerMember(t.app);
    const token = await login(t.app, phone, password);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 1000 } })).status).toBe(200);
    for (const amount of [100, 200, 300]) expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount } })).status).toBe(200);
    const mine = await call<{ total: number; withdrawals: Array<{ id: string; amount: number }> }>(t.app, 'GET', `/api/operator/withdrawals?q=${phone}&sort=-amount`, { headers: operator });
    expect(mine.body.total).toBe(3);
    expect(mine.body.withdrawals.map((w) => w.amount)).toEqual([300, 200, 100]);
    const first = mine.body.withdrawals[0];
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${first?.id}/reject`, { headers: operator, body: { note: 'wrong account' } })).status).toBe(200);
    const pending = await call<{ total: number }>(t.app, 'GET', `/api/operator/withdrawals?q=${phone}`, { headers: operator });
    expect(pending.body.total).toBe(2);
    const all = await call<{ total: number; withdrawals: Array<{ status: string; note: string | null }> }>(t.app, 'GET', `/api/operator/withdrawals?q=${phone}&status=ALL&pageSize=1`, { headers: operator });
    expect(all.body.total).toBe(3);
    expect(all.body.withdrawals).toHaveLength(1);
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });
});
