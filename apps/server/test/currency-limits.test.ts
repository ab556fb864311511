import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

/** Issue 33: every money figure in its own currency: a kip member's withdrawal bounds are kip, never baht read as kip. */
describe.each(dbKinds)('withdrawal bounds and the demo top-up per currency on the Lao site on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { LAOS_MODE: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });

  let counter = 0;
  async function member(currency: 'LAK' | 'BAHT') {
    counter += 1;
    const phone = `20${String(Date.now()).slice(-6)}${String(counter).padStart(2, '0')}`;
    const { id, password } = await registerMember(t.app, { username: phone, bankCode: 'BCEL', currency });
    return { id, token: await login(t.app, phone, password) };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;

  it('answers kip bounds to a kip member and to a guest of the Lao site, baht bounds to a baht member', async () => {
    const kip = await member('LAK');
    const baht = await member('BAHT');
    const lak = await call<{ withdrawMin: number; withdrawMax: number; currency: string }>(t.app, 'GET', '/api/lookup/withdraw', { token: kip.token });
    expect(lak.body).toEqual({ withdrawMin: 50_000, withdrawMax: 10_000_000, currency: 'LAK' });
    expect(lak.body.withdrawMax).toBeGreaterThanOrEqual(5_000_000);
    expect((await call(t.app, 'GET', '/api/lookup/withdraw')).body).toEqual({ withdrawMin: 50_000, withdrawMax: 10_000_000, currency: 'LAK' });
    expect((await call(t.app, 'GET', '/api/lookup/withdraw', { token: baht.token })).body).toEqual({ withdrawMin: 100, withdrawMax: 50_000, currency: 'THB' });
    // A stale token is a guest, not an error.
    expect((await call(t.app, 'GET', '/api/lookup/withdraw', { token: 'not-a-token-of-anyone' })).status).toBe(200);
  });

  it('a kip member tops up 500,000 as ₭500,000 and withdraws ₭1,000,000; the bounds refuse in kip', async () => {
    const kip = await member('LAK');
    for (let i = 0; i < 3; i += 1) expect((await call(t.app, 'POST', '/api/wallet/add', { token: kip.token, body: { amount: 500_000 } })).status).toBe(200);
    expect(await wallet(kip.token)).toBe(1_500_000);
    const withdrawn = await call(t.app, 'POST', '/api/wallet/withdraw', { token: kip.token, body: { amount: 1_000_000 } });
    expect(withdrawn.status).toBe(200);
    expect(await wallet(kip.token)).toBe(500_000);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: kip.token, body: { amount: 49_999 } })).body).toMatchObject({ message: 'WITHDRAW_MINIMUM', withdrawMin: 50_000, currency: 'LAK' });
    const baht = await member('BAHT');
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: baht.token, body: { amount: 1_000 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: baht.token, body: { amount: 500 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: baht.token, body: { amount: 99 } })).body).toMatchObject({ message: 'WITHDRAW_MINIMUM', withdrawMin: 100, currency: 'THB' });
  });
});
