import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { sliceOf, spinRoll } from '../src/modules/spin/fairness';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

describe('spin fairness (unit)', () => {
  it('10,000 spins follow the weights (chi-square, 7 degrees of freedom, 0.1 % significance)', () => {
    const weights = [300, 250, 200, 120, 70, 40, 15, 5];
    const total = weights.reduce((a, b) => a + b, 0);
    const counts = weights.map(() => 0);
    // Fixed seeds: the test is deterministic, and a mapping that skews the odds fails it.
    for (let i = 0; i < 10_000; i++) {
      const seed = createHash('sha256').update(`seed-${Math.floor(i / 100)}`).digest('hex');
      const index = sliceOf(spinRoll(seed, `client-${i % 7}`, i, total), weights);
      counts[index] = (counts[index] ?? 0) + 1;
    }
    const chiSquare = weights.reduce((sum, w, i) => {
      const expected = (10_000 * w) / total;
      return sum + ((counts[i] ?? 0) - expected) ** 2 / expected;
    }, 0);
    expect(chiSquare).toBeLessThan(24.32);
    // The walk of the weights at its edges.
    expect(sliceOf(0, weights)).toBe(0);
    expect(sliceOf(299, weights)).toBe(0);
    expect(sliceOf(300, weights)).toBe(1);
    expect(sliceOf(total - 1, weights)).toBe(7);
    expect(() => sliceOf(total, weights)).toThrow(RangeError);
  });

  it('is a pure function of seed, client seed and nonce', () => {
    expect(spinRoll('a'.repeat(64), 'c', 3, 1000)).toBe(spinRoll('a'.repeat(64), 'c', 3, 1000));
    const rolls = new Set(Array.from({ length: 50 }, (_, n) => spinRoll('a'.repeat(64), 'c', n, 1_000_000)));
    expect(rolls.size).toBeGreaterThan(45);
  });
});

describe.each(dbKinds)('prize wheel on %s', (kind) => {
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

  async function member(topUp = 0) {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    if (topUp > 0) expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: topUp } })).status).toBe(200);
    return { ...m, token };
  }
  const setup = async (token: string) => (await call<{ result: { activeSpinwheel: { slices: Array<Record<string, unknown>> } | null; userCoin: number } }>(t.app, 'GET', '/api/spinwheel/setup', { token })).body.result;
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;

  it('shows the wheel without its weights, and earns one coin per 100 baht deposited, once per deposit', async () => {
    const m = await member(350);
    const first = await setup(m.token);
    expect(first.activeSpinwheel?.slices).toHaveLength(8);
    for (const slice of first.activeSpinwheel?.slices ?? []) expect(Object.keys(slice).sort()).toEqual(['bgColor', 'code', 'htmlDescription', 'label', 'textColor']);
    expect(first.userCoin).toBe(3);
    expect((await setup(m.token)).userCoin).toBe(3);
    expect((await call(t.app, 'GET', '/api/spinwheel/active', { token: m.token })).body).toEqual({ active: true });
    // A deposit through the money core's credits (an operator's manual deposit) counts the same; reads at once do not count twice.
    const manual = await t.app.inject({ method: 'POST', url: '/api/operator/deposits', headers: { ...operator, 'idempotency-key': `coins-${m.id}` }, payload: { memberId: m.id, amount: 250, currency: 'BAHT', note: 'test' } });
    expect(manual.statusCode).toBe(200);
    const reads = await Promise.all(Array.from({ length: 5 }, () => setup(m.token)));
    expect(reads.map((r) => r.userCoin).sort()).toContain(5);
    expect((await setup(m.token)).userCoin).toBe(5);
    await t.services.spins.accrue();
    expect((await call<{ profile: { coin: number } }>(t.app, 'GET', '/api/wallet', { token: m.token })).body.profile.coin).toBe(5);
  });

  it('spends exactly the coins there are: 20 spins at once with 3 coins are 3 spins', async () => {
    const m = await member();
    expect(await call(t.app, 'POST', '/api/spinwheel/spin', { token: m.token })).toMatchObject({ status: 409, body: { message: 'NO_COIN', success: false, error: 'NO_COIN' } });
    await t.services.spins.grantCoins(m.id, 3);
    const spins = await Promise.all(Array.from({ length: 20 }, () => call<{ success: boolean; result?: { code: string; remainingCoin: number } }>(t.app, 'POST', '/api/spinwheel/spin', { token: m.token })));
    const won = spins.filter((s) => s.status === 200);
    expect(won).toHaveLength(3);
    expect(spins.filter((s) => s.status === 409)).toHaveLength(17);
    expect(won.map((s) => s.body.result?.remainingCoin).sort()).toEqual([0, 1, 2]);
    expect((await setup(m.token)).userCoin).toBe(0);
    const coupons = await call<Array<{ _id: string; amount: number }>>(t.app, 'GET', '/api/spinwheel/coupon', { token: m.token });
    expect(coupons.body).toHaveLength(3);
  });

  it('claims a coupon once (20 claims at once), as a bonus from SPIN; not someone else\'s, not an expired one', async () => {
    const m = await member();
    const other = await member();
    await t.services.spins.grantCoins(m.id, 2);
    await call(t.app, 'POST', '/api/spinwheel/spin', { token: m.token });
    await call(t.app, 'POST', '/api/spinwheel/spin', { token: m.token });
    const [coupon, second] = (await call<Array<{ _id: string; amount: number; prize: { slice: string } }>>(t.app, 'GET', '/api/spinwheel/coupon', { token: m.token })).body;
    if (!coupon || !second) throw new Error('two coupons expected');
    expect((await call(t.app, 'POST', '/api/spinwheel/coupon/claim', { token: other.token, body: { coupon: coupon._id } })).body).toMatchObject({ message: 'NO_CLAIMABLE_COUPON' });
    const claims = await Promise.all(Array.from({ length: 20 }, () => call<{ success: boolean }>(t.app, 'POST', '/api/spinwheel/coupon/claim', { token: m.token, body: { coupon: coupon._id } })));
    expect(claims.filter((c) => c.status === 200)).toHaveLength(1);
    expect(claims.filter((c) => c.body.success === false).every((c) => (c.body as unknown as { error: string }).error === 'NO_CLAIMABLE_COUPON')).toBe(true);
    expect(await wallet(m.token)).toBe(coupon.amount);
    const statement = await call<{ statements: Array<{ statementType: string; from: string; amount: number }> }>(t.app, 'POST', '/api/statement', { token: m.token, body: { page: 1, limit: 5 } });
    expect(statement.body.statements[0]).toMatchObject({ statementType: 'bonus', from: 'SPIN', amount: coupon.amount });
    // Expired: refused, nothing moves.
    await t.services.database.db.updateTable('spin_coupons').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', second._id).execute();
    expect(await call(t.app, 'POST', '/api/spinwheel/coupon/claim', { token: m.token, body: { coupon: second._id } })).toMatchObject({ status: 410, body: { message: 'COUPON_EXPIRED' } });
    expect((await call<unknown[]>(t.app, 'GET', '/api/spinwheel/coupon', { token: m.token })).body).toHaveLength(0);
    expect(await wallet(m.token)).toBe(coupon.amount);
    for (const body of [{}, { coupon: '' }, { coupon: 5 }, { coupon: 'x'.repeat(500) }]) expect((await call(t.app, 'POST', '/api/spinwheel/coupon/claim', { token: m.token, body })).status).toBe(400);
  });

  it('proves its spins: the revealed seed hashes to what was shown, and recomputes every outcome', async () => {
    const m = await member();
    const before = (await call<{ seedHash: string; clientSeed: string; nonce: number; slices: Array<{ code: string; weight: number }>; totalWeight: number }>(t.app, 'GET', '/api/spinwheel/fairness', { token: m.token })).body;
    expect(before.nonce).toBe(0);
    expect(before.totalWeight).toBe(1000);
    await t.services.spins.grantCoins(m.id, 6);
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) codes.push((await call<{ result: { code: string } }>(t.app, 'POST', '/api/spinwheel/spin', { token: m.token })).body.result.code);
    const rotated = await call<{ revealed: { seed: string; seedHash: string; clientSeed: string; spins: number }; next: { seedHash: string; nonce: number } }>(t.app, 'POST', '/api/spinwheel/fairness/rotate', { token: m.token, body: { clientSeed: 'my-lucky-seed' } });
    const { revealed, next } = rotated.body;
    expect(revealed).toMatchObject({ seedHash: before.seedHash, clientSeed: before.clientSeed, spins: 6 });
    expect(createHash('sha256').update(revealed.seed).digest('hex')).toBe(before.seedHash);
    const weights = before.slices.map((s) => s.weight);
    const recomputed = codes.map((_, nonce) => before.slices[sliceOf(spinRoll(revealed.seed, revealed.clientSeed, nonce, before.totalWeight), weights)]?.code);
    expect(recomputed).toEqual(codes);
    expect(next.seedHash).not.toBe(before.seedHash);
    expect(next.nonce).toBe(0);
    expect((await call<{ clientSeed: string }>(t.app, 'GET', '/api/spinwheel/fairness', { token: m.token })).body.clientSeed).toBe('my-lucky-seed');
    expect((await call(t.app, 'POST', '/api/spinwheel/fairness/rotate', { token: m.token, body: { clientSeed: 'bad seed!' } })).status).toBe(400);
  });

  it('lets an operator change the wheel; members never see weights; a wheel switched off answers NO_SPINWHEEL', async () => {
    const m = await member();
    const current = (await t.app.inject({ method: 'GET', url: '/api/operator/spinwheel', headers: operator })).json() as { wheel: { slices: Array<{ weight: number }> } };
    expect(current.wheel.slices[0]?.weight).toBe(300);
    expect((await t.app.inject({ method: 'GET', url: '/api/operator/spinwheel' })).statusCode).toBe(401);
    const bad = await t.app.inject({ method: 'PUT', url: '/api/operator/spinwheel', headers: operator, payload: { ...current.wheel, slices: current.wheel.slices.map((s) => ({ ...s, weight: 0 })) } });
    expect(bad.statusCode).toBe(400);
    const { updatedAt: _updatedAt, ...wheel } = current.wheel as unknown as Record<string, unknown>;
    try {
      expect((await t.app.inject({ method: 'PUT', url: '/api/operator/spinwheel', headers: operator, payload: { ...wheel, active: false } })).statusCode).toBe(200);
      expect((await setup(m.token)).activeSpinwheel).toBeNull();
      expect((await call(t.app, 'GET', '/api/spinwheel/active', { token: m.token })).body).toEqual({ active: false });
      await t.services.spins.grantCoins(m.id, 1);
      expect((await call(t.app, 'POST', '/api/spinwheel/spin', { token: m.token })).body).toMatchObject({ message: 'NO_SPINWHEEL' });
      expect((await setup(m.token)).userCoin).toBe(1);
    } finally {
      await t.app.inject({ method: 'PUT', url: '/api/operator/spinwheel', headers: operator, payload: { ...wheel, active: true } });
    }
  });
});

describe.each(dbKinds)('prize wheel in the Laos build on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { LAOS_MODE: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    const report = await checkInvariants(t.services.database.db);
    expect(report).toMatchObject({ ok: true });
    // Coins are summed apart from money, each unit to zero.
    for (const total of Object.values(report.totals)) expect(total).toBe(0);
  });

  let phones = 0;
  async function member(currency: 'LAK' | 'BAHT') {
    phones += 1;
    const phone = `20${String(Date.now()).slice(-5)}${String(phones).padStart(3, '0')}`;
    const { id, password } = await registerMember(t.app, { username: phone, bankCode: 'BCEL', currency });
    return { id, token: await login(t.app, phone, password) };
  }
  const setup = async (token: string) => (await call<{ result: { activeSpinwheel: { slices: Array<{ label: string }> } | null; userCoin: number } }>(t.app, 'GET', '/api/spinwheel/setup', { token })).body.result;

  it('gives a LAK member the kip wheel: coins at its rate from LAK deposits, prizes credited in LAK', async () => {
    const lak = await member('LAK');
    // 100,000 kip deposited at 50,000 kip per coin: 2 coins.
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: lak.token, body: { amount: 100_000 } })).status).toBe(200);
    const wheel = await setup(lak.token);
    expect(wheel.activeSpinwheel?.slices[0]?.label).toBe('₭2,000');
    expect(wheel.userCoin).toBe(2);
    expect((await call<{ profile: { coin: number; currency: string } }>(t.app, 'GET', '/api/wallet', { token: lak.token })).body.profile).toMatchObject({ coin: 2, currency: 'LAK' });
    for (let i = 0; i < 2; i++) expect((await call(t.app, 'POST', '/api/spinwheel/spin', { token: lak.token })).status).toBe(200);
    const coupons = (await call<Array<{ _id: string; amount: number }>>(t.app, 'GET', '/api/spinwheel/coupon', { token: lak.token })).body;
    expect(coupons).toHaveLength(2);
    for (const c of coupons) expect(c.amount).toBeGreaterThanOrEqual(2_000);
    const before = (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token: lak.token })).body.wallet.amount;
    const first = coupons[0] as { _id: string; amount: number };
    expect((await call(t.app, 'POST', '/api/spinwheel/coupon/claim', { token: lak.token, body: { coupon: first._id } })).status).toBe(200);
    expect((await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token: lak.token })).body.wallet.amount).toBe(before + first.amount);
    const db = t.services.database.db;
    const prize = await db.selectFrom('ledger_accounts').select('balance').where('id', '=', 'sys:bonus:LAK').executeTakeFirstOrThrow();
    expect(Number(prize.balance)).toBeLessThanOrEqual(-first.amount * 100);
    const coin = await db.selectFrom('ledger_accounts').select(['balance', 'currency', 'kind']).where('id', '=', `m:${lak.id}:coin`).executeTakeFirstOrThrow();
    expect(coin).toMatchObject({ currency: 'COIN', kind: 'coin' });
    expect(Number(coin.balance)).toBe(0);
  });

  it('keeps a baht member on the baht wheel in the same build', async () => {
    const baht = await member('BAHT');
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: baht.token, body: { amount: 300 } })).status).toBe(200);
    const wheel = await setup(baht.token);
    expect(wheel.activeSpinwheel?.slices[0]?.label).toBe('฿1');
    expect(wheel.userCoin).toBe(3);
  });

  it('spins once for 10 requests at once with one Idempotency-Key, and answers each the same', async () => {
    const lak = await member('LAK');
    await t.services.spins.grantCoins(lak.id, 3);
    const headers = { 'idempotency-key': `spin-once-${lak.id}` };
    const answers = await Promise.all(Array.from({ length: 10 }, () => call<{ success: boolean; result?: { code: string; remainingCoin: number } }>(t.app, 'POST', '/api/spinwheel/spin', { token: lak.token, headers })));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(new Set(ok.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(ok[0]?.body.result?.remainingCoin).toBe(2);
    expect((await setup(lak.token)).userCoin).toBe(2);
    const again = await call<{ result?: { remainingCoin: number } }>(t.app, 'POST', '/api/spinwheel/spin', { token: lak.token, headers });
    expect(again.body).toEqual(ok[0]?.body);
    expect((await call<unknown[]>(t.app, 'GET', '/api/spinwheel/coupon', { token: lak.token })).body).toHaveLength(1);
    // Another key is another spin.
    expect((await call<{ result: { remainingCoin: number } }>(t.app, 'POST', '/api/spinwheel/spin', { token: lak.token, headers: { 'idempotency-key': `spin-two-${lak.id}` } })).body.result.remainingCoin).toBe(1);
  });

  it('claims a coupon once for 10 claims at once with one Idempotency-Key, in LAK', async () => {
    const lak = await member('LAK');
    await t.services.spins.grantCoins(lak.id, 1);
    expect((await call(t.app, 'POST', '/api/spinwheel/spin', { token: lak.token })).status).toBe(200);
    const [coupon] = (await call<Array<{ _id: string; amount: number }>>(t.app, 'GET', '/api/spinwheel/coupon', { token: lak.token })).body;
    if (!coupon) throw new Error('a coupon expected');
    const headers = { 'idempotency-key': `claim-${lak.id}` };
    const claims = await Promise.all(Array.from({ length: 10 }, () => call<{ success: boolean }>(t.app, 'POST', '/api/spinwheel/coupon/claim', { token: lak.token, body: { coupon: coupon._id }, headers })));
    expect(claims.filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(1);
    expect((await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token: lak.token })).body.wallet.amount).toBe(coupon.amount);
    const credits = await t.services.database.db.selectFrom('operations').select('amount').where('member_id', '=', lak.id).where('source', '=', 'SPIN').execute();
    expect(credits.map((c) => Number(c.amount))).toEqual([coupon.amount * 100]);
  });

  it('lets an operator set each currency\'s wheel; an unknown currency is refused', async () => {
    const lakWheel = (await t.app.inject({ method: 'GET', url: '/api/operator/spinwheel?currency=LAK', headers: operator })).json() as { wheel: { depositPerCoin: number } };
    expect(lakWheel.wheel.depositPerCoin).toBe(5_000_000);
    expect((await t.app.inject({ method: 'GET', url: '/api/operator/spinwheel?currency=USD', headers: operator })).statusCode).toBe(400);
  });
});

describe('coins before the ledger (migration money/004_coins)', () => {
  it('moves members.coin onto the ledger as opening postings, and the check stays clean', async () => {
    const { loadConfig } = await import('../src/config');
    const { openDatabase } = await import('../src/db/database');
    const { migrate } = await import('../src/db/migrations');
    const { modules } = await import('../src/modules');
    const { migrationsOf } = await import('../src/platform/module');
    const { sql } = await import('kysely');
    const database = await openDatabase(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory', OPERATOR_TOKEN }));
    try {
      const all = migrationsOf(modules);
      const cut = all.findIndex((m) => m.id === 'money/004_coins');
      expect(cut).toBeGreaterThan(0);
      await migrate(database, all.slice(0, cut));
      await sql`INSERT INTO banks (code, name_th, name_en) VALUES ('ZZB', 'x', 'x') ON CONFLICT DO NOTHING`.execute(database.db);
      for (const [id, coin] of [['old-1', 4], ['old-2', 0], ['old-3', 11]] as const) {
        await sql`INSERT INTO members (id, username, name, password_hash, bank_code, bank_account_name, bank_account_no, coin)
          VALUES (${id}, ${id}, ${id}, 'x', 'ZZB', ${id}, ${id}, ${coin})`.execute(database.db);
      }
      await migrate(database, all);
      const { coinBalance } = await import('../src/money/coins');
      expect(await coinBalance(database.db, 'old-1')).toBe(4);
      expect(await coinBalance(database.db, 'old-2')).toBe(0);
      expect(await coinBalance(database.db, 'old-3')).toBe(11);
      const report = await checkInvariants(database.db);
      expect(report).toMatchObject({ ok: true, total: 0 });
      expect(report.totals).toMatchObject({ COIN: 0 });
    } finally {
      await database.close();
    }
  });
});
