import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { periodStart } from '../src/lib/periods';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

/** A UTC instant from a Bangkok wall-clock time. */
const bangkok = (iso: string) => new Date(`${iso}+07:00`);

describe('bonus periods (Asia/Bangkok)', () => {
  it('starts a day at 00:00 Bangkok: 23:59 and 00:01 are different days', () => {
    expect(periodStart('day', bangkok('2026-11-23T23:59:00'))).toEqual(bangkok('2026-11-23T00:00:00'));
    expect(periodStart('day', bangkok('2026-11-24T00:01:00'))).toEqual(bangkok('2026-11-24T00:00:00'));
    // 16:59 UTC is 23:59 in Bangkok, 17:01 UTC the next day there.
    expect(periodStart('day', new Date('2026-11-23T16:59:00Z'))).toEqual(bangkok('2026-11-23T00:00:00'));
    expect(periodStart('day', new Date('2026-11-23T17:01:00Z'))).toEqual(bangkok('2026-11-24T00:00:00'));
  });

  it('starts a week on Monday 00:00 Bangkok, and a limit bonus never restarts', () => {
    // 2026-11-23 is a Monday.
    expect(periodStart('week', bangkok('2026-11-29T23:59:00'))).toEqual(bangkok('2026-11-23T00:00:00'));
    expect(periodStart('week', bangkok('2026-11-30T00:01:00'))).toEqual(bangkok('2026-11-30T00:00:00'));
    expect(periodStart('week', bangkok('2026-11-23T00:00:00'))).toEqual(bangkok('2026-11-23T00:00:00'));
    expect(periodStart('week', bangkok('2026-11-22T23:59:59'))).toEqual(bangkok('2026-11-16T00:00:00'));
    expect(periodStart('limit', new Date())).toBeNull();
  });
});

describe.each(dbKinds)('bonuses on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { ROUND_IMPORT_INTERVAL_MS: '0', PROVIDER_TIMEOUT_MS: '100' });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });

  async function member(deposit: number) {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    if (deposit > 0) expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: deposit } })).status).toBe(200);
    return { ...m, token };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;
  const activate = (token: string, code: string) => call<Record<string, unknown>>(t.app, 'GET', `/api/bonus/activate/${code}`, { token });
  const withdraw = (token: string, amount: number) => call<Record<string, unknown>>(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount } });
  const transfer = (token: string, from: string, to: string, amount: number) => call<Record<string, unknown>>(t.app, 'POST', '/api/wallet/transfer', { token, body: { from, to, amount } });
  /** Spins of the PG demo game at a fixed multiplier (1: the stake comes back; 0: lost). */
  async function play(memberId: string, spins: number, stake: number, multiplier: number) {
    const account = await t.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', memberId).where('game_code', '=', 'PG').executeTakeFirstOrThrow();
    for (let i = 0; i < spins; i++) await t.services.sandboxGames?.spin('PG', account.username, stake, multiplier);
  }

  it('writes the bonus card from the rule in th, la and en: a rule change (percent, cap) is what the member reads at once', async () => {
    const operator = { authorization: 'Bearer operator-token-for-tests' };
    const rule = { type: 'day', maxReceived: 1, percentFail: 0, turnoverMultiple: 5, categories: ['slot'], banners: { th: [], la: [], en: [] } };
    const put = async (percent: number, maxBonus: number) =>
      expect((await t.app.inject({ method: 'PUT', url: '/api/operator/bonuses/CARDTEXT', headers: operator, payload: { ...rule, percent, minDeposit: 10_000, maxBonus } })).statusCode).toBe(200);
    const m = await member(0);
    const card = async () => (await call<Array<{ code: string; text?: { th: string; la: string; en: string } }>>(t.app, 'GET', '/api/bonus', { token: m.token })).body.find((b) => b.code === 'CARDTEXT')?.text;
    await put(10, 20_000);
    const before = await card();
    expect(before?.en).toBe('10% bonus on your deposit, up to ฿200.00 · minimum deposit ฿100.00 · turnover 5× (deposit + bonus) · 1 time a day');
    expect(before?.th).toContain('10%');
    expect(before?.th).toContain('฿200.00');
    expect(before?.la).toContain('฿200.00');
    await put(12, 30_000);
    const after = await card();
    for (const words of [after?.th, after?.la, after?.en]) {
      expect(words).toContain('12%');
      expect(words).toContain('฿300.00');
      expect(words).not.toContain('฿200.00');
    }
    expect(after?.th).toContain('ต่อวัน');
    expect(after?.la).toContain('ຕໍ່ມື້');
  });

  it('grants the bonus on the latest deposit, locks withdrawals and slot transfers out until the turnover is met, then frees the money', async () => {
    const m = await member(1000);
    const taken = await activate(m.token, 'welcome20');
    expect(taken).toMatchObject({ status: 200, body: { isActive: true } });
    expect(await wallet(m.token)).toBe(1200);
    expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: m.token })).body).toEqual({ status: true, type: 'limit' });
    const statement = await call<{ statements: Array<{ statementType: string; from: string; amount: number }> }>(t.app, 'POST', '/api/statement', { token: m.token, body: { page: 1, limit: 5 } });
    expect(statement.body.statements[0]).toMatchObject({ statementType: 'bonus', from: 'WELCOME20', amount: 200 });
    // Locked: no withdrawal; into a game is fine, out of a slot game is not.
    expect(await withdraw(m.token, 100)).toMatchObject({ status: 403, body: { message: 'BONUS_CONDITION' } });
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token: m.token });
    expect((await transfer(m.token, 'WALLET', 'PG', 1200)).status).toBe(200);
    expect(await transfer(m.token, 'PG', 'WALLET', 10)).toMatchObject({ status: 403, body: { message: 'BONUS_CONDITION' } });
    // Turnover target (1000 + 200) × 5 = 6,000 baht: 59 spins of 100 baht are one short.
    await play(m.id, 59, 10_000, 1);
    const progress = await call<{ progress: { turnover: number; target: number } }>(t.app, 'GET', '/api/bonus/progress', { token: m.token });
    expect(progress.body.progress).toMatchObject({ turnover: 5900, target: 6000 });
    expect(await transfer(m.token, 'PG', 'WALLET', 10)).toMatchObject({ status: 403, body: { message: 'BONUS_CONDITION' } });
    await play(m.id, 1, 10_000, 1);
    expect((await transfer(m.token, 'PG', 'WALLET', 1200)).status).toBe(200);
    expect((await withdraw(m.token, 100)).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: m.token })).body).toEqual({ status: false, type: null });
    const rows = await call<{ statements: Array<{ statementType: string; status: string }> }>(t.app, 'POST', '/api/statement', { token: m.token, body: { page: 1, limit: 10 } });
    expect(rows.body.statements.find((s) => s.statementType === 'finish_bonus')).toMatchObject({ status: 'SUCCESS' });
    // A limit bonus taken once is exhausted for good.
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 500 } })).status).toBe(200);
    expect(await activate(m.token, 'WELCOME20')).toMatchObject({ status: 409, body: { message: 'BONUS_MAX_CLAIMED' } });
    const list = await call<Array<{ code: string; userBonus: { isActive: boolean; received: unknown[] } | null }>>(t.app, 'GET', '/api/bonus', { token: m.token });
    expect(list.body.find((b) => b.code === 'WELCOME20')?.userBonus).toMatchObject({ isActive: false, received: [expect.anything()] });
  });

  it('grants once when activated 20 times at once, and never twice on one deposit', async () => {
    const m = await member(600);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => activate(m.token, i % 2 ? 'DAILY10' : 'WEEKLY15')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => ['BONUS_ALREADY_ACTIVE', 'BONUS_CONDITION', 'BONUS_MAX_CLAIMED'].includes(String(a.body.message)))).toBe(true);
    const credited = (await wallet(m.token)) - 600;
    expect([60, 90]).toContain(credited);
    const receipts = await t.services.database.db.selectFrom('bonus_receipts').select('id').where('member_id', '=', m.id).execute();
    expect(receipts).toHaveLength(1);
  });

  it('answers each activation with the receipt it opened, even when the next one opens before its answer', async () => {
    const operator = { authorization: 'Bearer operator-token-for-tests' };
    const rule = { type: 'day', maxReceived: 3, percentFail: 0, percent: 10, minDeposit: 10_000, maxBonus: 100_000, turnoverMultiple: 0, categories: ['slot'], banners: { th: [], la: [], en: [] } };
    expect((await t.app.inject({ method: 'PUT', url: '/api/operator/bonuses/TWICEADAY', headers: operator, payload: rule })).statusCode).toBe(200);
    const m = await member(200);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 300 } })).status).toBe(200);
    // While the first activation credits its receipt, a second one (another tab) ends it (no
    // turnover asked) and opens the next on the earlier deposit: the first answer still names its own.
    const service = t.services.bonuses;
    const grant = service.grant.bind(service);
    const held: { second?: ReturnType<typeof activate> } = {};
    service.grant = async (...args) => {
      if (!held.second) {
        held.second = activate(m.token, 'TWICEADAY');
        await held.second;
      }
      return grant(...args);
    };
    try {
      const first = await activate(m.token, 'TWICEADAY');
      const next = await (held.second ?? Promise.reject(new Error('no second activation')));
      expect(first.status).toBe(200);
      expect(next.status).toBe(200);
      const receipts = await t.services.database.db.selectFrom('bonus_receipts').select(['id', 'deposit_amount']).where('member_id', '=', m.id).orderBy('period_at').execute();
      expect(receipts.map((r) => Number(r.deposit_amount))).toEqual([30_000, 20_000]);
      expect([first.body._id, next.body._id]).toEqual(receipts.map((r) => r.id));
    } finally {
      service.grant = grant;
    }
  });

  it('ends as bust when the total balance falls to percentFail % of deposit + bonus; refuses without a qualifying deposit', async () => {
    // The spec's code, with the reason and what the bonus asks (contract error-details.ts).
    const none = await member(0);
    expect(await activate(none.token, 'DAILY10')).toMatchObject({
      status: 400,
      body: { message: 'BONUS_CONDITION', reason: 'NO_QUALIFYING_DEPOSIT', bonusCode: 'DAILY10', origin: 'bonus', minDeposit: 50, depositWindowMinutes: 60 },
    });
    const small = await member(20);
    expect(await activate(small.token, 'DAILY10')).toMatchObject({ status: 400, body: { message: 'BONUS_CONDITION', reason: 'NO_QUALIFYING_DEPOSIT', minDeposit: 50 } });
    // A deposit already played: the wallet no longer holds it.
    const spent = await member(100);
    expect((await call(t.app, 'GET', '/api/wallet/activate/UFABET', { token: spent.token })).status).toBe(200);
    expect((await transfer(spent.token, 'WALLET', 'UFABET', 60)).status).toBe(200);
    expect(await activate(spent.token, 'DAILY10')).toMatchObject({ status: 400, body: { message: 'BONUS_CONDITION', reason: 'DEPOSIT_SPENT', deposit: 100, wallet: 40 } });
    expect(await activate(small.token, 'NOPE')).toMatchObject({ status: 404 });
    const m = await member(100);
    expect((await activate(m.token, 'DAILY10')).status).toBe(200);
    expect(await wallet(m.token)).toBe(110);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token: m.token });
    expect((await transfer(m.token, 'WALLET', 'PG', 110)).status).toBe(200);
    // Lose down to 11 baht: 10 % of 110.
    await play(m.id, 99, 100, 0);
    expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: m.token })).body).toEqual({ status: false, type: null });
    const rows = await call<{ statements: Array<{ statementType: string; status: string }> }>(t.app, 'POST', '/api/statement', { token: m.token, body: { page: 1, limit: 10 } });
    expect(rows.body.statements.find((s) => s.statementType === 'finish_bonus')).toMatchObject({ status: 'FAILED' });
    expect((await transfer(m.token, 'PG', 'WALLET', 11)).status).toBe(200);
    // DAILY10 was received today: again today is exhausted.
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 100 } })).status).toBe(200);
    expect(await activate(m.token, 'DAILY10')).toMatchObject({ status: 409, body: { message: 'BONUS_MAX_CLAIMED' } });
  });

  it('clears an active bonus: the bonus and its winnings are forfeited, the deposit stays', async () => {
    const m = await member(300);
    expect((await activate(m.token, 'WEEKLY15')).status).toBe(200);
    expect(await wallet(m.token)).toBe(345);
    // A wheel prize waits while the turnover remains.
    await t.services.spins.grantCoins(m.id, 1);
    await call(t.app, 'POST', '/api/spinwheel/spin', { token: m.token });
    const [coupon] = (await call<Array<{ _id: string }>>(t.app, 'GET', '/api/spinwheel/coupon', { token: m.token })).body;
    expect(await call(t.app, 'POST', '/api/spinwheel/coupon/claim', { token: m.token, body: { coupon: coupon?._id } })).toMatchObject({ status: 409, body: { message: 'BONUS_REMAINING' } });
    expect(await wallet(m.token)).toBe(345);
    expect((await call(t.app, 'GET', '/api/bonus/check/minimum', { token: m.token })).body).toMatchObject({ status: true });
    expect((await call(t.app, 'GET', '/api/bonus/clear', { token: m.token })).body).toEqual({ message: 'BONUS_CLEAR' });
    expect(await wallet(m.token)).toBe(300);
    expect((await call(t.app, 'GET', '/api/bonus/clear', { token: m.token })).status).toBe(404);
    expect((await call(t.app, 'POST', '/api/spinwheel/coupon/claim', { token: m.token, body: { coupon: coupon?._id } })).status).toBe(200);
    const prize = (await wallet(m.token)) - 300;
    expect(prize).toBeGreaterThan(0);
    expect((await withdraw(m.token, 100)).status).toBe(200);
  });

  it('cancels with money anywhere in the games: the cancel brings every game home (its own lock lets that move pass) and the member keeps the deposit', async () => {
    // Issue 25's dead end: deposit → bonus → Play (the money in a slot game of the bonus) → cancel.
    const m = await member(100);
    expect((await activate(m.token, 'WELCOME20')).status).toBe(200);
    expect(await wallet(m.token)).toBe(120);
    for (const code of ['UFABET', 'HUAYHD', 'PG']) expect((await call(t.app, 'GET', `/api/wallet/activate/${code}`, { token: m.token })).status).toBe(200);
    expect((await transfer(m.token, 'WALLET', 'UFABET', 60)).status).toBe(200);
    expect((await transfer(m.token, 'WALLET', 'HUAYHD', 20)).status).toBe(200);
    expect((await transfer(m.token, 'WALLET', 'PG', 40)).status).toBe(200);
    // What a cancel would do, for the dialog: everything is in games; 20 goes back, 100 stays.
    expect((await call(t.app, 'GET', '/api/bonus/check/minimum', { token: m.token })).body).toEqual({ status: false, amount: 120, minimum: 120, wallet: 0, games: 120, takeBack: 20, keep: 100 });
    // The member alone cannot move the slot money out, nor withdraw: each refusal says why and what is left.
    expect(await transfer(m.token, 'PG', 'WALLET', 10)).toMatchObject({
      status: 403,
      body: { message: 'BONUS_CONDITION', reason: 'TRANSFER_LOCKED', bonusCode: 'WELCOME20', origin: 'bonus', turnover: 0, target: 600, remainingTurnover: 600, games: ['PG'] },
    });
    expect(await withdraw(m.token, 100)).toMatchObject({ status: 403, body: { message: 'BONUS_CONDITION', reason: 'WITHDRAW_LOCKED', remainingTurnover: 600 } });
    // The cancel does it all: every game home, the bonus taken back, the deposit kept.
    expect((await call(t.app, 'GET', '/api/bonus/clear', { token: m.token })).body).toEqual({ message: 'BONUS_CLEAR' });
    expect(await wallet(m.token)).toBe(100);
    const slots = (await call<{ slots: Array<{ code: string; amount: number }> }>(t.app, 'GET', '/api/wallet/refresh/slot', { token: m.token })).body.slots;
    expect(slots.filter((g) => g.amount > 0)).toEqual([]);
    expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: m.token })).body).toEqual({ status: false, type: null });
    expect(await withdraw(m.token, 120)).toMatchObject({ status: 400, body: { message: 'MONEY_NOT_ENOUGH' } });
    expect((await withdraw(m.token, 100)).status).toBe(200);
    // Winnings in a game outside the bonus go too: the member keeps at most the deposit.
    const w = await member(100);
    expect((await activate(w.token, 'WELCOME20')).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/wallet/activate/UFABET', { token: w.token })).status).toBe(200);
    expect((await transfer(w.token, 'WALLET', 'UFABET', 120)).status).toBe(200);
    const username = (await t.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', w.id).where('game_code', '=', 'UFABET').executeTakeFirstOrThrow()).username;
    await t.services.sandboxGames?.spin('UFABET', username, 10_000, 3);
    expect((await call(t.app, 'GET', '/api/bonus/check/minimum', { token: w.token })).body).toMatchObject({ amount: 320, games: 320, takeBack: 220, keep: 100 });
    expect((await call(t.app, 'GET', '/api/bonus/clear', { token: w.token })).body).toEqual({ message: 'BONUS_CLEAR' });
    expect(await wallet(w.token)).toBe(100);
  });

  it('lets a cancel keep the member\'s own money: what the wallet held when the bonus was taken, and deposits since', async () => {
    const m = await member(500);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 100 } })).status).toBe(200);
    expect((await activate(m.token, 'WELCOME20')).status).toBe(200);
    expect(await wallet(m.token)).toBe(620);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 50 } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/bonus/clear', { token: m.token })).body).toEqual({ message: 'BONUS_CLEAR' });
    expect(await wallet(m.token)).toBe(650);
  });

  it('refuses a cancel while a transfer is in flight (pending at a provider that stopped answering)', async () => {
    const m = await member(100);
    expect((await activate(m.token, 'WELCOME20')).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/wallet/activate/USUN', { token: m.token })).status).toBe(200);
    const games = t.services.sandboxGames;
    try {
      // The provider takes the money after the caller gave up, and is down when asked about it.
      await games?.setFault('USUN', { mode: 'timeout', latencyMs: 0 });
      const pending = transfer(m.token, 'WALLET', 'USUN', 120);
      await new Promise((resolve) => setTimeout(resolve, 60));
      await games?.setFault('USUN', { mode: 'down', latencyMs: 0 });
      expect(await pending).toMatchObject({ status: 504, body: { message: 'TRANSFER_PENDING' } });
      expect(await wallet(m.token)).toBe(0);
      expect(await call(t.app, 'GET', '/api/bonus/clear', { token: m.token })).toMatchObject({ status: 409, body: { message: 'BONUS_MONEY_IN_GAMES', inFlight: true } });
      // Not a bust either: the money in flight is part of the position.
      expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: m.token })).body).toEqual({ status: true, type: 'limit' });
    } finally {
      await games?.setFault('USUN', { mode: 'none', latencyMs: 0 });
    }
    // Once settled by the reconciler (into the game, or back to the wallet), bring it back, then cancel.
    await t.services.transfers.reconcile(0);
    const slots = (await call<{ slots: Array<{ code: string; amount: number }> }>(t.app, 'GET', '/api/wallet/refresh/slot', { token: m.token })).body.slots;
    const parked = slots.find((g) => g.code === 'USUN')?.amount ?? 0;
    expect(parked + (await wallet(m.token))).toBe(120);
    if (parked > 0) expect((await transfer(m.token, 'USUN', 'WALLET', parked)).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/bonus/clear', { token: m.token })).body).toEqual({ message: 'BONUS_CLEAR' });
    expect(await wallet(m.token)).toBe(100);
  });

  it('promotion codes: find (any case), a fixed credit once per member (20 at once: once), a bonus rule reported as a promotion', async () => {
    const m = await member(0);
    expect(await call(t.app, 'GET', '/api/promotion/find/nope', { token: m.token })).toMatchObject({ status: 404, body: { message: 'NO_PROMOTION' } });
    const found = await call(t.app, 'GET', '/api/promotion/find/free50', { token: m.token, headers: { 'accept-language': 'en' } });
    expect(found.body).toEqual({ code: 'FREE50', percentFail: 0, description: 'A free ฿50 credit, once' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => call<Record<string, unknown>>(t.app, 'GET', '/api/promotion/activate/FREE50', { token: m.token })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.message === 'PROMOTION_RECEIVED')).toBe(true);
    expect(await wallet(m.token)).toBe(50);
    expect((await call(t.app, 'GET', '/api/promotion/current', { token: m.token })).body).toEqual({ promotion: null });
    // A bonus rule on the latest deposit: a condition of type promotion.
    const b = await member(200);
    expect((await call(t.app, 'GET', '/api/promotion/activate/boost30', { token: b.token })).status).toBe(200);
    expect(await wallet(b.token)).toBe(260);
    expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: b.token })).body).toEqual({ status: true, type: 'promotion' });
    expect((await call(t.app, 'GET', '/api/promotion/current', { token: b.token })).body).toMatchObject({ promotion: { code: 'BOOST30', percentFail: 10 } });
    expect(await withdraw(b.token, 150)).toMatchObject({ status: 403, body: { message: 'BONUS_CONDITION' } });
    // The notice carries the open condition's percentFail for this member; a guest gets the placeholder.
    await t.services.settings.set('notice', { th: 'ต่ำกว่า %percentFail%%', la: 'ຕ່ຳກວ່າ %percentFail%%', en: 'below %percentFail%%' });
    expect((await call(t.app, 'GET', '/api/lookup/notice', { token: b.token, headers: { 'accept-language': 'en' } })).body).toEqual({ notice: 'below 10%' });
    expect((await call(t.app, 'GET', '/api/lookup/notice', { headers: { 'accept-language': 'en' } })).body).toEqual({ notice: 'below %percentFail%%' });
    expect(await call(t.app, 'GET', '/api/promotion/activate/BOOST30', { token: b.token })).toMatchObject({ status: 409, body: { message: 'PROMOTION_RECEIVED' } });
    // Not listed among the bonuses (the rule's catalogue entry is not active).
    const list = await call<Array<{ code: string }>>(t.app, 'GET', '/api/bonus', { token: b.token });
    expect(list.body.map((x) => x.code)).not.toContain('PROMO30');
    // A window that has not opened, and one that has closed.
    const operator = { authorization: 'Bearer operator-token-for-tests' };
    const put = (code: string, body: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: `/api/operator/promotions/${code}`, headers: operator, payload: body });
    const description = { th: 'ทดสอบ', la: 'ທົດສອບ', en: 'Test' };
    expect((await put('LATER', { kind: 'credit', amount: 1000, description, validFrom: new Date(Date.now() + 3600_000).toISOString() })).statusCode).toBe(200);
    expect((await put('OVER', { kind: 'credit', amount: 1000, description, validTo: new Date(Date.now() - 1000).toISOString() })).statusCode).toBe(200);
    expect((await put('BAD', { kind: 'credit', description })).statusCode).toBe(400);
    // Every change is recorded: who (the automation key, on behalf of the X-Operator it names), when, before and after.
    const changed = await t.app.inject({ method: 'PUT', url: '/api/operator/promotions/LATER', headers: { ...operator, 'x-operator': 'Nok' }, payload: { kind: 'credit', amount: 2000, description, validFrom: new Date(Date.now() + 3600_000).toISOString() } });
    expect(changed.statusCode).toBe(200);
    const audit = (await t.app.inject({ method: 'GET', url: '/api/operator/changes?entity=promotion&key=LATER', headers: operator })).json() as { changes: Array<{ who: string; onBehalfOf: string | null; before: { amounts: { THB: number } } | null; after: { amounts: { THB: number } } }> };
    expect(audit.changes).toHaveLength(2);
    expect(audit.changes[0]).toMatchObject({ who: 'api-key', onBehalfOf: 'Nok' });
    expect(audit.changes[0]?.before?.amounts.THB).toBe(1000);
    expect(audit.changes[0]?.after.amounts.THB).toBe(2000);
    expect(audit.changes[1]?.before).toBeNull();
    for (const code of ['LATER', 'OVER']) expect((await call(t.app, 'GET', `/api/promotion/activate/${code}`, { token: m.token })).body).toMatchObject({ message: 'NO_PROMOTION' });
    // Total uses: the second member is refused once the code is used up.
    expect((await put('ONLYONE', { kind: 'credit', amount: 1000, description, maxUses: 1 })).statusCode).toBe(200);
    const both = await Promise.all([call(t.app, 'GET', '/api/promotion/activate/ONLYONE', { token: m.token }), call(t.app, 'GET', '/api/promotion/activate/ONLYONE', { token: b.token })]);
    expect(both.map((x) => x.status).sort()).toEqual([200, 404]);
  });

  it('a credit code\'s use whose credit a crash cut off: the same key run again credits it once, the sweep credits one no retry comes for', async () => {
    const crash = () => vi.spyOn(t.services.money.credits, 'credit').mockRejectedValueOnce(new Error('the process died here'));
    const use = (token: string, key: string) => call<Record<string, unknown>>(t.app, 'GET', '/api/promotion/activate/FREE50', { token, headers: { 'idempotency-key': key } });
    // Retried under its key: the use the first run recorded is credited, and answers as a success would have.
    const m = await member(0);
    crash();
    expect((await use(m.token, 'free50-crash-retry-0001')).status).toBe(500);
    expect(await wallet(m.token)).toBe(0);
    expect(await use(m.token, 'free50-crash-retry-0001')).toMatchObject({ status: 200, body: { ok: true, promotion: { code: 'FREE50' } } });
    expect(await use(m.token, 'free50-crash-retry-0001')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await wallet(m.token)).toBe(50);
    // No retry: the sweep credits it once it is a minute old (a call in progress finishes its own).
    const n = await member(0);
    crash();
    expect((await use(n.token, 'free50-crash-sweep-0001')).status).toBe(500);
    expect(await t.services.promotions.sweep()).toBe(0);
    await sql`UPDATE promotion_uses SET created_at = now() - interval '2 minutes' WHERE member_id = ${n.id}`.execute(t.services.database.db);
    expect(await t.services.promotions.sweep()).toBe(1);
    expect(await t.services.promotions.sweep()).toBe(0);
    expect(await wallet(n.token)).toBe(50);
    // The member used the code once: a new key is refused, the old one answers its success, nothing moves again.
    expect(await use(n.token, 'free50-crash-sweep-0002')).toMatchObject({ status: 409, body: { message: 'PROMOTION_RECEIVED' } });
    expect(await use(n.token, 'free50-crash-sweep-0001')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await wallet(n.token)).toBe(50);
  });

  it('counts day and week limits in Bangkok time: a day bonus at 23:59 and again at 00:01, a week bonus across Monday', async () => {
    const operator = { authorization: 'Bearer operator-token-for-tests' };
    const clock = (at: string) => t.app.inject({ method: 'PUT', url: '/api/operator/sandbox/clock', headers: operator, payload: { at: bangkok(at).toISOString() } });
    const m = await member(0);
    const takeAndClear = async (code: string) => {
      expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 400 } })).status).toBe(200);
      const taken = await activate(m.token, code);
      if (taken.status === 200) expect((await call(t.app, 'GET', '/api/bonus/clear', { token: m.token })).status).toBe(200);
      return taken;
    };
    try {
      expect((await clock('2026-12-01T23:59:00')).statusCode).toBe(200);
      expect((await takeAndClear('DAILY10')).status).toBe(200);
      expect(await takeAndClear('DAILY10')).toMatchObject({ status: 409, body: { message: 'BONUS_MAX_CLAIMED' } });
      await clock('2026-12-02T00:01:00');
      expect((await takeAndClear('DAILY10')).status).toBe(200);
      // 2026-12-06 is a Sunday: WEEKLY15 twice, a third time refused; Monday 00:01 is a new week.
      await clock('2026-12-06T23:58:00');
      expect((await takeAndClear('WEEKLY15')).status).toBe(200);
      expect((await takeAndClear('WEEKLY15')).status).toBe(200);
      expect(await takeAndClear('WEEKLY15')).toMatchObject({ status: 409, body: { message: 'BONUS_MAX_CLAIMED' } });
      await clock('2026-12-07T00:01:00');
      expect((await takeAndClear('WEEKLY15')).status).toBe(200);
    } finally {
      await t.app.inject({ method: 'PUT', url: '/api/operator/sandbox/clock', headers: operator, payload: {} });
    }
  });
});

/**
 * The Laos build: a LAK member gets bonuses and promotion codes in LAK (minor units: hundredths of
 * a kip, from the rule's LAK amounts), a BAHT member of the same build in baht; every credit and
 * take-back stays in the member's currency and the ledger balances per currency.
 */
describe.each(dbKinds)('bonuses and promotion codes in LAK on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { ROUND_IMPORT_INTERVAL_MS: '0', LAOS_MODE: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    const report = await checkInvariants(t.services.database.db);
    expect(report).toMatchObject({ ok: true, mixedCurrencyTransactions: [] });
    expect(report.totals).toMatchObject({ LAK: 0 });
  });

  let counter = 0;
  async function member(currency: 'LAK' | 'BAHT', deposit: number) {
    counter += 1;
    const phone = `20${String(Date.now()).slice(-6)}${String(counter).padStart(2, '0')}`;
    const { id, password } = await registerMember(t.app, { username: phone, bankCode: 'BCEL', currency });
    const token = await login(t.app, phone, password);
    if (deposit > 0) expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: deposit } })).status).toBe(200);
    return { id, token };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;
  const bonusAccount = async (currency: 'THB' | 'LAK') =>
    Number((await t.services.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', currency === 'THB' ? 'sys:bonus' : `sys:bonus:${currency}`).executeTakeFirst())?.balance ?? 0);

  it('lists, grants and clears a bonus in LAK from the LAK amounts of the rule', async () => {
    const m = await member('LAK', 100_000);
    const list = await call<Array<{ code: string }>>(t.app, 'GET', '/api/bonus', { token: m.token });
    expect(list.body.map((b) => b.code)).toEqual(expect.arrayContaining(['WELCOME20', 'DAILY10', 'WEEKLY15']));
    const lakBefore = await bonusAccount('LAK');
    const thbBefore = await bonusAccount('THB');
    expect((await call(t.app, 'GET', '/api/bonus/activate/WELCOME20', { token: m.token })).status).toBe(200);
    // 20 % of ₭100,000 (the LAK maximum is ₭300,000).
    expect(await wallet(m.token)).toBe(120_000);
    expect((await bonusAccount('LAK')) - lakBefore).toBe(-2_000_000);
    expect(await bonusAccount('THB')).toBe(thbBefore);
    const progress = await call<{ progress: { target: number; bonus: number } }>(t.app, 'GET', '/api/bonus/progress', { token: m.token });
    expect(progress.body.progress).toMatchObject({ bonus: 20_000, target: 600_000 });
    expect((await call(t.app, 'GET', '/api/bonus/clear', { token: m.token })).body).toEqual({ message: 'BONUS_CLEAR' });
    expect(await wallet(m.token)).toBe(100_000);
    expect(await bonusAccount('LAK')).toBe(lakBefore);
    // The LAK minimum deposit (₭30,000 for DAILY10) applies, not the baht one.
    const small = await member('LAK', 20_000);
    expect(await call(t.app, 'GET', '/api/bonus/activate/DAILY10', { token: small.token })).toMatchObject({ status: 400, body: { message: 'BONUS_CONDITION' } });
  });

  it('credits a promotion code in LAK, and a bonus code by its rule\'s LAK amounts; a BAHT member of the build gets baht', async () => {
    const m = await member('LAK', 0);
    expect((await call(t.app, 'GET', '/api/promotion/find/free50', { token: m.token, headers: { 'accept-language': 'en' } })).body).toMatchObject({ code: 'FREE50' });
    expect((await call(t.app, 'GET', '/api/promotion/activate/FREE50', { token: m.token })).status).toBe(200);
    expect(await wallet(m.token)).toBe(30_000);
    const b = await member('LAK', 100_000);
    expect((await call(t.app, 'GET', '/api/promotion/activate/BOOST30', { token: b.token })).status).toBe(200);
    expect(await wallet(b.token)).toBe(130_000);
    expect((await call(t.app, 'GET', '/api/bonus/check/active', { token: b.token })).body).toEqual({ status: true, type: 'promotion' });
    const baht = await member('BAHT', 200);
    expect((await call(t.app, 'GET', '/api/promotion/activate/FREE50', { token: baht.token })).status).toBe(200);
    expect(await wallet(baht.token)).toBe(250);
    expect((await call(t.app, 'GET', '/api/bonus/activate/WELCOME20', { token: baht.token })).status).toBe(200);
    expect(await wallet(baht.token)).toBe(290);
  });

  it('does not offer a bonus or a code that has no amounts in the member\'s currency', async () => {
    const operator = { authorization: 'Bearer operator-token-for-tests' };
    const description = { th: 'ทดสอบ', la: 'ທົດສອບ', en: 'Test' };
    expect((await t.app.inject({ method: 'PUT', url: '/api/operator/promotions/BAHTONLY', headers: operator, payload: { kind: 'credit', amounts: { THB: 1000 }, description } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url: '/api/operator/promotions/NOAMOUNT', headers: operator, payload: { kind: 'credit', amounts: {}, description } })).json()).toMatchObject({ message: 'KEY_MISSING' });
    expect((await t.app.inject({ method: 'PUT', url: '/api/operator/promotions/BADCUR', headers: operator, payload: { kind: 'credit', amounts: { USD: 1000 }, description } })).statusCode).toBe(400);
    const bonus = { type: 'limit', maxReceived: 1, percentFail: 0, percent: 10, turnoverMultiple: 1, categories: ['slot'] };
    expect((await t.app.inject({ method: 'PUT', url: '/api/operator/bonuses/THBONLY', headers: operator, payload: { ...bonus, minDeposit: 10_000, maxBonus: 100_000 } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url: '/api/operator/bonuses/LAKONLY', headers: operator, payload: { ...bonus, percent: 100, amounts: { LAK: { minDeposit: 1_000_000, maxBonus: 5_000_000 } } } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url: '/api/operator/bonuses/NONE', headers: operator, payload: bonus })).json()).toMatchObject({ message: 'KEY_MISSING' });
    const lak = await member('LAK', 100_000);
    const baht = await member('BAHT', 200);
    expect(await call(t.app, 'GET', '/api/promotion/find/BAHTONLY', { token: lak.token })).toMatchObject({ status: 404, body: { message: 'NO_PROMOTION' } });
    expect(await call(t.app, 'GET', '/api/promotion/activate/BAHTONLY', { token: lak.token })).toMatchObject({ status: 404, body: { message: 'NO_PROMOTION' } });
    expect((await call(t.app, 'GET', '/api/promotion/find/BAHTONLY', { token: baht.token })).status).toBe(200);
    const codes = async (token: string) => (await call<Array<{ code: string }>>(t.app, 'GET', '/api/bonus', { token })).body.map((b) => b.code);
    expect(await codes(lak.token)).toContain('LAKONLY');
    expect(await codes(lak.token)).not.toContain('THBONLY');
    expect(await codes(baht.token)).toContain('THBONLY');
    expect(await codes(baht.token)).not.toContain('LAKONLY');
    expect(await call(t.app, 'GET', '/api/bonus/activate/THBONLY', { token: lak.token })).toMatchObject({ status: 404, body: { message: 'NO_DATA' } });
    // 100 % of ₭100,000, capped at the LAK maximum of ₭50,000.
    expect((await call(t.app, 'GET', '/api/bonus/activate/LAKONLY', { token: lak.token })).status).toBe(200);
    expect(await wallet(lak.token)).toBe(150_000);
  });
});

/**
 * Promotion code calls are limited per member (the real limit: codes must not be guessable) and
 * per client address (a backstop: one carrier-grade NAT address carries many players).
 */
describe.each(dbKinds)('promotion code limits on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { PROMOTION_CODES_PER_MEMBER_MINUTE: '5', PROMOTION_CODES_PER_IP_MINUTE: '12' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers REQUEST_LIMIT_1MIN past the per-member limit, and past the per-address backstop for everyone there', async () => {
    const members = await Promise.all([0, 1, 2].map(async () => {
      const m = await registerMember(t.app);
      return login(t.app, m.phone, m.password);
    }));
    const [a = '', b = '', c = ''] = members;
    const nat = '100.64.0.7';
    const find = (token: string, code: string, remoteAddress = nat) => call<{ message?: string; retryAfter?: number }>(t.app, 'GET', `/api/promotion/find/${code}`, { token, remoteAddress });
    // Five guesses a minute for one member (found or not), then refused — find and activate alike.
    for (let i = 0; i < 5; i++) expect((await find(a, i === 0 ? 'FREE50' : `GUESS${i}`)).body.message).not.toBe('REQUEST_LIMIT_1MIN');
    const refused = await find(a, 'GUESS5');
    expect(refused).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
    expect(refused.body.retryAfter).toBeGreaterThan(0);
    expect(await call(t.app, 'GET', '/api/promotion/activate/FREE50', { token: a, remoteAddress: nat })).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
    // Another player behind the same address is not held back by the first one's limit…
    for (let i = 0; i < 5; i++) expect((await find(b, `OTHER${i}`)).status).toBe(404);
    // …until the address's backstop (12 a minute here) is reached; from another address c goes on.
    expect(await find(c, 'FREE50')).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
    expect(await find(c, 'FREE50', '100.64.0.8')).toMatchObject({ status: 200, body: { code: 'FREE50' } });
    expect((await call(t.app, 'GET', '/api/promotion/activate/FREE50', { token: c, remoteAddress: '100.64.0.8' })).status).toBe(200);
  });
});
