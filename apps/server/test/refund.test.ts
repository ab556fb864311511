import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

describe.each(dbKinds)('refund of losses on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { ROUND_IMPORT_INTERVAL_MS: '0' });
    // Next week by the bonus clock: this week's rounds are "last week".
    await t.app.inject({ method: 'PUT', url: '/api/operator/sandbox/clock', headers: operator, payload: { offsetMs: 7 * 86_400_000 } });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });

  async function loser(lossBaht: number) {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 1000 } })).status).toBe(200);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 1000 } })).status).toBe(200);
    const account = await t.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', m.id).where('game_code', '=', 'PG').executeTakeFirstOrThrow();
    // One winning round (stake 100, win 200), then losses: net loss = lossBaht.
    await t.services.sandboxGames?.spin('PG', account.username, 10_000, 2);
    for (let lost = -100; lost < lossBaht; lost += 100) await t.services.sandboxGames?.spin('PG', account.username, 10_000, 0);
    return { ...m, token };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;

  it('refunds 5 % of last week\'s net loss once: check, receive, add to the wallet (20 at once: once)', async () => {
    const m = await loser(600);
    const check = await call<Record<string, unknown>>(t.app, 'GET', '/api/refund/check', { token: m.token });
    expect(check.body).toMatchObject({ result: true, bonus: false, refundAmount: 30, refundSuccess: 100 });
    // More losses in that period now change nothing: computed once.
    const account = await t.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', m.id).executeTakeFirstOrThrow();
    await t.services.sandboxGames?.spin('PG', account.username, 10_000, 0);
    expect((await call(t.app, 'GET', '/api/refund/check', { token: m.token })).body).toMatchObject({ refundAmount: 30 });
    expect((await call(t.app, 'GET', '/api/refund/addWallet', { token: m.token })).body).toMatchObject({ message: 'NO_REFUND' });
    expect((await call(t.app, 'GET', '/api/refund/receive', { token: m.token })).body).toEqual({ message: 'REFUND_SUCCESS' });
    expect((await call(t.app, 'GET', '/api/refund/receive', { token: m.token })).body).toMatchObject({ message: 'NO_REFUND' });
    const before = await wallet(m.token);
    const adds = await Promise.all(Array.from({ length: 20 }, () => call<Record<string, unknown>>(t.app, 'GET', '/api/refund/addWallet', { token: m.token })));
    expect(adds.filter((a) => a.status === 200)).toHaveLength(1);
    expect(adds.find((a) => a.status === 200)?.body).toMatchObject({ ok: true, amount: 30 });
    expect(await wallet(m.token)).toBe(before + 30);
    const list = await call<{ total: number; refunds: Array<{ refundAmount: number }> }>(t.app, 'POST', '/api/refund', { token: m.token, body: { page: 1, limit: 10 } });
    expect(list.body).toMatchObject({ total: 1, refunds: [{ refundAmount: 30 }] });
  });

  it('adds the refund under its own condition: withdrawal refused until 100 % of it is played, then allowed', async () => {
    const m = await loser(600);
    // Bring the rest of the money back to the wallet before the condition opens.
    expect((await call(t.app, 'POST', '/api/wallet/transferAll', { token: m.token, body: { to: 'WALLET' } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/refund/receive', { token: m.token })).status).toBe(200);
    const added = await call<{ amount: number }>(t.app, 'GET', '/api/refund/addWallet', { token: m.token });
    expect(added).toMatchObject({ status: 200, body: { amount: 30 } });
    expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: m.token })).body).toEqual({ status: true, type: 'promotion' });
    expect((await call<{ progress: unknown }>(t.app, 'GET', '/api/bonus/progress', { token: m.token })).body.progress).toMatchObject({ code: 'REFUND', turnover: 0, target: 30, bonus: 30, deposit: 0 });
    expect(await call(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 100 } })).toMatchObject({ status: 403, body: { message: 'BONUS_CONDITION' } });
    // A bonus cannot be taken on top of it, nor another payout added.
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 100 } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/bonus/activate/DAILY10', { token: m.token })).body).toMatchObject({ message: 'BONUS_ALREADY_ACTIVE' });
    // Play 30 baht of stakes (3 rounds of 10, evens): the condition ends as met.
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token: m.token, body: { from: 'WALLET', to: 'PG', amount: 100 } })).status).toBe(200);
    const account = await t.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', m.id).executeTakeFirstOrThrow();
    for (let i = 0; i < 3; i += 1) await t.services.sandboxGames?.spin('PG', account.username, 1_000, 1);
    expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: m.token })).body).toEqual({ status: false, type: null });
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 100 } })).status).toBe(200);
    const finished = await t.services.database.db.selectFrom('operations').select(['status', 'source']).where('member_id', '=', m.id).where('type', '=', 'finish_bonus').execute();
    expect(finished).toEqual([{ status: 'SUCCESS', source: 'REFUND' }]);
  });

  it('refuses to add a refund while a bonus is open (nothing credited), and adds it after', async () => {
    const m = await loser(600);
    expect((await call(t.app, 'POST', '/api/wallet/transferAll', { token: m.token, body: { to: 'WALLET' } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/refund/receive', { token: m.token })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 100 } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/bonus/activate/DAILY10', { token: m.token })).status).toBe(200);
    const before = await wallet(m.token);
    expect(await call(t.app, 'GET', '/api/refund/addWallet', { token: m.token })).toMatchObject({ status: 409, body: { message: 'REFUND_CONDITION' } });
    expect(await wallet(m.token)).toBe(before);
    expect((await call(t.app, 'GET', '/api/bonus/clear', { token: m.token })).status).toBe(200);
    expect(await call(t.app, 'GET', '/api/refund/addWallet', { token: m.token })).toMatchObject({ status: 200, body: { amount: 30 } });
  });

  it('has nothing for a winner, refuses while a bonus is open, and follows the operator\'s rules', async () => {
    const winner = await registerMember(t.app);
    const token = await login(t.app, winner.phone, winner.password);
    expect((await call(t.app, 'GET', '/api/refund/check', { token })).body).toMatchObject({ result: false, refundAmount: 0 });
    expect((await call(t.app, 'GET', '/api/refund/receive', { token })).body).toMatchObject({ message: 'REFUND_MINIMUM' });
    const m = await loser(1000);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 100 } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/bonus/activate/DAILY10', { token: m.token })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/refund/check', { token: m.token })).body).toMatchObject({ result: true, bonus: true });
    expect((await call(t.app, 'GET', '/api/refund/receive', { token: m.token })).body).toMatchObject({ message: 'REFUND_CONDITION' });
    const rules = (await t.app.inject({ method: 'GET', url: '/api/operator/refund-settings', headers: operator })).json() as Record<string, unknown>;
    try {
      expect((await t.app.inject({ method: 'PUT', url: '/api/operator/refund-settings', headers: operator, payload: { ...rules, active: false } })).statusCode).toBe(200);
      expect((await call(t.app, 'GET', '/api/refund/receive', { token: m.token })).body).toMatchObject({ message: 'REFUND_INACTIVE' });
      expect((await t.app.inject({ method: 'PUT', url: '/api/operator/refund-settings', headers: operator, payload: { ...rules, percent: 101 } })).statusCode).toBe(400);
    } finally {
      await t.app.inject({ method: 'PUT', url: '/api/operator/refund-settings', headers: operator, payload: rules });
    }
  });
});

describe.each(dbKinds)('refund of losses in the Laos build on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { ROUND_IMPORT_INTERVAL_MS: '0', LAOS_MODE: 'true' });
    await t.app.inject({ method: 'PUT', url: '/api/operator/sandbox/clock', headers: operator, payload: { offsetMs: 7 * 86_400_000 } });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true, totals: { LAK: 0 } });
  });

  let phones = 0;
  /** A LAK member who lost `rounds` × 10,000 kip at PG last week. */
  async function lakLoser(rounds: number) {
    phones += 1;
    const phone = `20${String(Date.now()).slice(-5)}${String(phones).padStart(3, '0')}`;
    const m = await registerMember(t.app, { username: phone, bankCode: 'BCEL', currency: 'LAK' });
    const token = await login(t.app, phone, m.password);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 100_000 } })).status).toBe(200);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 100_000 } })).status).toBe(200);
    const account = await t.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', m.id).where('game_code', '=', 'PG').executeTakeFirstOrThrow();
    for (let i = 0; i < rounds; i++) await t.services.sandboxGames?.spin('PG', account.username, 1_000_000, 0);
    expect((await call(t.app, 'POST', '/api/wallet/transferAll', { token, body: { to: 'WALLET' } })).status).toBe(200);
    return { ...m, token };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;

  it('refunds a LAK member in LAK: 5 % of 60,000 kip lost, received once and added once (10 at once with one key)', async () => {
    const m = await lakLoser(6);
    const check = await call<Record<string, unknown>>(t.app, 'GET', '/api/refund/check', { token: m.token, headers: { 'accept-language': 'en' } });
    expect(check.body).toMatchObject({ result: true, refundAmount: 3000 });
    expect(String(check.body.info)).toContain('₭');
    const receives = await Promise.all(Array.from({ length: 10 }, () => call(t.app, 'GET', '/api/refund/receive', { token: m.token })));
    expect(receives.filter((r) => r.status === 200)).toHaveLength(1);
    const before = await wallet(m.token);
    const headers = { 'idempotency-key': `refund-${m.id}` };
    const adds = await Promise.all(Array.from({ length: 10 }, () => call<Record<string, unknown>>(t.app, 'GET', '/api/refund/addWallet', { token: m.token, headers })));
    const ok = adds.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of ok) expect(a.body).toMatchObject({ ok: true, amount: 3000 });
    expect(await wallet(m.token)).toBe(before + 3000);
    const rows = await t.services.database.db.selectFrom('refunds').select(['currency', 'status', 'amount']).where('member_id', '=', m.id).execute();
    expect(rows).toEqual([{ currency: 'LAK', status: 'CREDITED', amount: 300_000 }]);
  });

  it('holds a LAK refund under the kip minimum (1,000 kip): 5 % of 10,000 kip is nothing', async () => {
    const m = await lakLoser(1);
    expect((await call(t.app, 'GET', '/api/refund/check', { token: m.token })).body).toMatchObject({ result: false, refundAmount: 0 });
    expect((await call(t.app, 'GET', '/api/refund/receive', { token: m.token })).body).toMatchObject({ message: 'REFUND_MINIMUM' });
  });
});
