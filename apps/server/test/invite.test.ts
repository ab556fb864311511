import { sql } from 'kysely';
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

  it('gives each member a short invite code (made once, stable), which registers a friend as the old PR + id code does', async () => {
    const inviter = await member({ bankAccountName: 'SHORT CODE' });
    const profile = async () => (await call<{ inviteCode: string }>(t.app, 'GET', '/api/account/profile', { token: inviter.token })).body.inviteCode;
    const codes = await Promise.all([profile(), profile(), profile()]);
    expect(codes[0]).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
    expect(new Set(codes).size).toBe(1);
    expect(await profile()).toBe(codes[0]);
    const byShort = await member({ bankAccountName: 'SHORT FRIEND', inviteCode: (codes[0] ?? '').toLowerCase() });
    const byOld = await member({ bankAccountName: 'OLD FRIEND', inviteCode: `PR${inviter.id}` });
    const invitees = await t.services.database.db.selectFrom('members').select('inviter_id').where('id', 'in', [byShort.id, byOld.id]).execute();
    expect(invitees.map((r) => r.inviter_id)).toEqual([inviter.id, inviter.id]);
    expect((await registerMember(t.app, { bankAccountName: 'NOBODY FRIEND', inviteCode: 'ZZZZZZ' }).catch((error: unknown) => String(error)))).toMatch(/INVALID_INVITE_CODE/);
  });

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
    expect((await call<{ progress: unknown }>(t.app, 'GET', '/api/bonus/progress', { token: inviter.token })).body.progress).toMatchObject({ code: 'INVITE', origin: 'invite', target: 15, bonus: 15 });
    await deposit(inviter.token, 500);
    // The refusal names the payout's condition and what it asks.
    expect(await call(t.app, 'POST', '/api/wallet/withdraw', { token: inviter.token, body: { amount: 100 } })).toMatchObject({
      status: 403,
      body: { message: 'BONUS_CONDITION', reason: 'WITHDRAW_LOCKED', bonusCode: 'INVITE', origin: 'invite', target: 15, remainingTurnover: 15 },
    });
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

  it('a payout cut off between claiming the earnings and crediting them: the same key finishes it once, or answers the sweep\'s credit', async () => {
    const receive = (token: string, key: string) => call<Record<string, unknown>>(t.app, 'GET', '/api/invite/bonus', { token, headers: { 'idempotency-key': key } });
    // What a run that died right after claiming leaves: the earnings claimed under the key's payout, nothing credited.
    const claimAndDie = (inviterId: string, key: string) => sql`UPDATE invite_earnings SET payout_id = ${`${inviterId}:key:${key}`} WHERE inviter_id = ${inviterId} AND payout_id IS NULL`.execute(t.services.database.db);
    async function inviterWithEarnings(name: string) {
      const inviter = await member({ bankAccountName: `${name} INVITER` });
      const friend = await member({ bankAccountName: `${name} FRIEND`, inviteCode: `PR${inviter.id}` });
      await deposit(friend.token, 1000);
      expect((await wallet(inviter.token)).invite.amount).toBe(10); // accrued
      return { inviter, friend };
    }
    // Retried under its key: the earnings its first run claimed are credited, once.
    const a = await inviterWithEarnings('CUT RETRY');
    await claimAndDie(a.inviter.id, 'invite-cut-retry-0001');
    expect(await receive(a.inviter.token, 'invite-cut-retry-0001')).toMatchObject({ status: 200, body: { message: 'INVITE_BONUS_SUCCESS', amount: 10, wallet: { amount: 10 } } });
    expect(await receive(a.inviter.token, 'invite-cut-retry-0001')).toMatchObject({ status: 200, body: { amount: 10, wallet: { amount: 10 } } });
    expect((await wallet(a.inviter.token)).wallet.amount).toBe(10);
    // Left alone: the sweep credits it (no key); the retry then answers that credit, and earnings
    // accrued since are not paid under the old key.
    const b = await inviterWithEarnings('CUT SWEEP');
    await claimAndDie(b.inviter.id, 'invite-cut-sweep-0001');
    await sql`UPDATE invite_earnings SET created_at = now() - interval '2 minutes' WHERE inviter_id = ${b.inviter.id}`.execute(t.services.database.db);
    await t.services.invites.settleClaimed();
    expect((await wallet(b.inviter.token)).wallet.amount).toBe(10);
    await deposit(b.friend.token, 2000);
    expect(await receive(b.inviter.token, 'invite-cut-sweep-0001')).toMatchObject({ status: 200, body: { message: 'INVITE_BONUS_SUCCESS', amount: 10, wallet: { amount: 10 } } });
    const after = await wallet(b.inviter.token);
    expect([after.wallet.amount, after.invite.amount]).toEqual([10, 20]);
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

  it('earns nothing from the same person behind a trailing dot, extra spaces, or the same account number', async () => {
    const inviter = await member({ bankAccountName: 'DENG SAMEPERSON', bankAccountNo: '5551234567' });
    const dotted = await member({ bankAccountName: 'deng  sameperson.', inviteCode: `PR${inviter.id}` });
    const sameAccount = await member({ bankAccountName: 'SOMEONE ELSE', bankCode: 'SCB', bankAccountNo: '5551234567', inviteCode: `PR${inviter.id}` });
    await deposit(dotted.token, 5000);
    await deposit(sameAccount.token, 5000);
    expect((await wallet(inviter.token)).invite.amount).toBe(0);
    // A real friend still earns.
    const friend = await member({ bankAccountName: 'FON FRIEND', inviteCode: `PR${inviter.id}` });
    await deposit(friend.token, 1000);
    expect((await wallet(inviter.token)).invite.amount).toBe(10);
  });
});

describe.each(dbKinds)('invite a friend in the Laos build on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { LAOS_MODE: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true, totals: { LAK: 0 } });
  });

  let phones = 0;
  async function member(currency: 'LAK' | 'BAHT', overrides: Record<string, unknown> = {}) {
    phones += 1;
    const phone = `20${String(Date.now()).slice(-5)}${String(phones).padStart(3, '0')}`;
    const { id, password } = await registerMember(t.app, { username: phone, bankCode: 'BCEL', currency, ...overrides });
    return { id, token: await login(t.app, phone, password) };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number }; invite: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body;
  const deposit = async (token: string, amount: number) => expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount } })).status).toBe(200);

  it('pays a LAK inviter in LAK, 1 % of a LAK friend\'s deposits in kip, at the kip minimum (10 receives at once: once)', async () => {
    const inviter = await member('LAK', { bankAccountName: 'KHAMLA INVITER' });
    const friend = await member('LAK', { bankAccountName: 'NOY FRIEND', inviteCode: `PR${inviter.id}` });
    await deposit(friend.token, 50_000);
    // 500 kip earned: under the 1,000 kip minimum.
    expect((await wallet(inviter.token)).invite.amount).toBe(500);
    expect(await call(t.app, 'GET', '/api/invite/bonus', { token: inviter.token })).toMatchObject({ status: 400, body: { message: 'INVITE_COLLECT', minimum: 1000 } });
    await deposit(friend.token, 100_000);
    expect((await wallet(inviter.token)).invite.amount).toBe(1500);
    const receives = await Promise.all(Array.from({ length: 10 }, () => call<Record<string, unknown>>(t.app, 'GET', '/api/invite/bonus', { token: inviter.token, headers: { 'idempotency-key': `invite-${inviter.id}` } })));
    const paid = receives.filter((r) => r.status === 200);
    expect(paid.length).toBeGreaterThanOrEqual(1);
    for (const r of paid) expect(r.body).toMatchObject({ message: 'INVITE_BONUS_SUCCESS', amount: 1500 });
    const after = await wallet(inviter.token);
    expect(after).toMatchObject({ wallet: { amount: 1500 }, invite: { amount: 0 } });
    const rows = await t.services.database.db.selectFrom('invite_earnings').select(['currency', 'paid_operation_id']).where('inviter_id', '=', inviter.id).execute();
    expect(rows.every((r) => r.currency === 'LAK' && r.paid_operation_id !== null)).toBe(true);
    const credited = await t.services.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', `m:${inviter.id}:wallet`).executeTakeFirstOrThrow();
    expect(Number(credited.balance)).toBe(150_000);
  });

  it('earns nothing across currencies (no exchange): a baht friend of a LAK inviter', async () => {
    const inviter = await member('LAK', { bankAccountName: 'VONG INVITER' });
    const friend = await member('BAHT', { bankAccountName: 'PIM FRIEND', inviteCode: `PR${inviter.id}` });
    await deposit(friend.token, 1000);
    expect((await wallet(inviter.token)).invite.amount).toBe(0);
  });
});
