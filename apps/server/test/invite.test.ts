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
    expect(await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).toMatchObject({ status: 404, body: { message: 'NO_INVITE_BONUS' } });
    // The friend's later deposit earns again.
    await deposit(friend.token, 200);
    expect((await wallet(inviter.token)).invite.amount).toBe(2);
  });

  it('earns nothing from the same person under another phone (the same bank account name)', async () => {
    const inviter = await member({ bankAccountName: 'CHAI SAMENAME' });
    const self = await member({ bankAccountName: 'chai samename', inviteCode: `pr${inviter.id}` });
    await deposit(self.token, 5000);
    expect((await wallet(inviter.token)).invite.amount).toBe(0);
    expect(await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).toMatchObject({ status: 404 });
  });
});
