import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

describe.each(dbKinds)('invite a friend on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });

  async function member(overrides: Record<string, unknown> = {}) {
    const m = await registerMember(t.app, overrides);
    return { ...m, token: await login(t.app, m.phone, m.password) };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number }; invite: { amount: number; success: number; fail: number } }>(t.app, 'GET', '/api/wallet', { token })).body;
  const deposit = async (token: string, amount: number) => expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount } })).status).toBe(200);

  it('earns 1 % of each invitee deposit once, pays it into the wallet once (20 receives at once), lists it', async () => {
    const inviter = await member({ bankAccountName: 'ANAN INVITER' });
    expect(await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).toMatchObject({ status: 404, body: { message: 'NO_INVITE_BONUS' } });
    const friend = await member({ bankAccountName: 'BUNMA FRIEND', name: 'Bunma', inviteCode: `PR${inviter.id}` });
    expect(await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).toMatchObject({ status: 404, body: { message: 'NO_INVITEE_PLAY_INFO' } });
    await deposit(friend.token, 1000);
    await deposit(friend.token, 500);
    const reads = await Promise.all([wallet(inviter.token), wallet(inviter.token), wallet(inviter.token)]);
    expect(reads.map((r) => r.invite.amount)).toEqual([15, 15, 15]);
    const list = await call<{ total: number; invites: Array<{ from: { name: string }; amount: number }> }>(t.app, 'POST', '/api/invite', { token: inviter.token, body: { page: 1, limit: 10 } });
    expect(list.body.total).toBe(2);
    expect(list.body.invites.map((i) => [i.from.name, i.amount]).sort()).toEqual([['Bunma', 10], ['Bunma', 5]].sort());
    const receives = await Promise.all(Array.from({ length: 20 }, () => call<Record<string, unknown>>(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })));
    expect(receives.filter((r) => r.status === 200)).toHaveLength(1);
    expect(receives.find((r) => r.status === 200)?.body).toMatchObject({ message: 'INVITE_BONUS_SUCCESS', amount: 15 });
    const after = await wallet(inviter.token);
    expect(after.wallet.amount).toBe(15);
    expect(after.invite.amount).toBe(0);
    // Received under its own condition: 100 % of it to play before it can be withdrawn.
    expect((await call<{ progress: unknown }>(t.app, 'GET', '/api/bonus/progress', { token: inviter.token })).body.progress).toMatchObject({ code: 'INVITE', target: 15, bonus: 15 });
    await deposit(inviter.token, 500);
    expect(await call(t.app, 'POST', '/api/wallet/withdraw', { token: inviter.token, body: { amount: 100 } })).toMatchObject({ status: 403, body: { message: 'BONUS_CONDITION' } });
    expect(await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).toMatchObject({ status: 404, body: { message: 'NO_INVITE_BONUS' } });
    // The friend's later deposit earns again; it cannot be received while the condition is open,
    // and stays to receive (nothing taken, nothing credited).
    await deposit(friend.token, 200);
    expect((await wallet(inviter.token)).invite.amount).toBe(2);
    expect(await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).toMatchObject({ status: 409, body: { message: 'BONUS_REMAINING' } });
    expect((await wallet(inviter.token)).invite.amount).toBe(2);
    expect((await wallet(inviter.token)).wallet.amount).toBe(515);
    // Cancelling the condition gives the payout back; then the rest can be received.
    expect((await call(t.app, 'GET', '/api/bonus/clear', { token: inviter.token })).body).toEqual({ message: 'BONUS_CLEAR' });
    expect((await wallet(inviter.token)).wallet.amount).toBe(500);
    expect(await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).toMatchObject({ status: 200, body: { amount: 2 } });
  });

  it('opens no condition when the operator sets the success percentage to 0', async () => {
    const operator = { authorization: 'Bearer operator-token-for-tests' };
    const rules = (await t.app.inject({ method: 'GET', url: '/api/operator/invite-settings', headers: operator })).json() as Record<string, unknown>;
    try {
      expect((await t.app.inject({ method: 'PUT', url: '/api/operator/invite-settings', headers: operator, payload: { ...rules, successPercent: 0 } })).statusCode).toBe(200);
      const inviter = await member({ bankAccountName: 'DAO FREEMONEY' });
      const friend = await member({ bankAccountName: 'EK FRIEND', inviteCode: `PR${inviter.id}` });
      await deposit(friend.token, 1000);
      expect((await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).status).toBe(200);
      expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: inviter.token })).body).toEqual({ status: false, type: null });
    } finally {
      await t.app.inject({ method: 'PUT', url: '/api/operator/invite-settings', headers: operator, payload: rules });
    }
  });

  it('earns nothing from the same person under another phone (the same bank account name)', async () => {
    const inviter = await member({ bankAccountName: 'CHAI SAMENAME' });
    const self = await member({ bankAccountName: 'chai samename', inviteCode: `pr${inviter.id}` });
    await deposit(self.token, 5000);
    expect((await wallet(inviter.token)).invite.amount).toBe(0);
    expect(await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).toMatchObject({ status: 404 });
  });
});
