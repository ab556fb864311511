import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletResponseSchema } from '@mw/contract/wallet';
import { account, checkInvariants } from '../src/money/ledger';
import { recordWithMoney } from '../src/money/operations';
import { newId } from '../src/lib/ids';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';
import { withoutTurnoverSignal } from './operator-helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let keySeq = 0;
const newKey = () => `test-key-${Date.now()}-${++keySeq}`;

/** Wallet test helpers bound to the suite's app (read when called, after beforeAll). */
function walletKit(app: () => TestApp) {
  return {
    async member(topUp = 0): Promise<string> {
      const { phone, password } = await registerMember(app().app);
      const token = await login(app().app, phone, password);
      if (topUp > 0) expect((await call(app().app, 'POST', '/api/wallet/add', { token, body: { amount: topUp } })).status).toBe(200);
      return token;
    },
    walletOf: async (token: string) => walletResponseSchema.parse((await call(app().app, 'GET', '/api/wallet', { token })).body),
    invariants: async () => expect(await checkInvariants(app().services.database.db)).toMatchObject({ ok: true, total: 0 }),
    fault: (code: string, mode: string) => call(app().app, 'PUT', `/api/operator/sandbox/games/${code}/fault`, { headers: operator, body: { mode } }),
  };
}

describe.each(dbKinds)('wallet on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // A generous deadline: under a loaded machine 50 parallel transfers must not time out here
    // (the deadline itself is tested with its own app below).
    t = await startApp(kind, { RECONCILE_INTERVAL_MS: '0', PROVIDER_TIMEOUT_MS: '10000' });
    await withoutTurnoverSignal(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const { member, walletOf, invariants, fault } = walletKit(() => t);

  it('tops up, opens PG, moves money both ways, withdraws, and shows it all in the statement', async () => {
    const token = await member();
    expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 500 } })).body).toMatchObject({ ok: true, wallet: { amount: 500 }, amount: 500 });
    const before = await walletOf(token);
    expect(before.slots).toHaveLength(16);
    expect(before.slots.find((s) => s.code === 'PG')).toMatchObject({ isActive: false, amount: 0, category: 'slot' });

    const activated = await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    expect(activated).toMatchObject({ status: 200, body: { code: 'PG', isActive: true, amount: 0 } });
    expect((await call(t.app, 'GET', '/api/wallet/activate/PG', { token })).body).toEqual({ message: 'SLOT_ALREADY_ACTIVE' });
    const creds = (await call<{ username: string; password: string }>(t.app, 'GET', '/api/wallet/account/PG', { token })).body;
    expect(creds.username).toMatch(/^pg/);
    const reset = (await call<{ username: string; password: string }>(t.app, 'GET', '/api/wallet/resetpassword/PG', { token })).body;
    expect(reset.username).toBe(creds.username);
    expect(reset.password).not.toBe(creds.password);

    const into = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 120.5 } });
    expect(into).toMatchObject({ status: 200, body: { ok: true, wallet: { amount: 379.5 }, game: { code: 'PG', amount: 120.5 }, amount: 120.5 } });
    const out = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'PG', to: 'WALLET', amount: '20.25' } });
    expect(out).toMatchObject({ status: 200, body: { wallet: { amount: 399.75 }, game: { code: 'PG', amount: 100.25 } } });
    const withdraw = await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 150 } });
    expect(withdraw).toMatchObject({ status: 200, body: { wallet: { amount: 249.75 }, amount: 150 } });

    const statement = await call<{ total: number; statements: Array<{ statementType: string; status: string; from: string; to: string; amount: number }> }>(t.app, 'POST', '/api/statement', { token, body: { page: 1, limit: 10 } });
    expect(statement.body.total).toBe(4);
    expect(statement.body.statements.map((s) => [s.statementType, s.status, s.from, s.to, s.amount])).toEqual([
      ['withdraw', 'PENDING', 'WALLET', expect.stringMatching(/^KBANK \d+$/), 150],
      ['transfer', 'SUCCESS', 'PG', 'WALLET', 20.25],
      ['transfer', 'SUCCESS', 'WALLET', 'PG', 120.5],
      ['deposit', 'SUCCESS', 'SANDBOX', 'WALLET', 500],
    ]);
    const page2 = await call<{ statements: unknown[] }>(t.app, 'POST', '/api/statement', { token, body: { page: 2, limit: 3 } });
    expect(page2.body.statements).toHaveLength(1);
    await invariants();
  });

  it.each([
    ['under 1 baht', { from: 'WALLET', to: 'PG', amount: 0.99 }, 400, 'TRANSFER_MINIMUM'],
    ['zero', { from: 'WALLET', to: 'PG', amount: 0 }, 400, 'TRANSFER_MINIMUM'],
    ['negative', { from: 'WALLET', to: 'PG', amount: -10 }, 400, 'KEY_INVALID'],
    ['3 decimals', { from: 'WALLET', to: 'PG', amount: 10.005 }, 400, 'KEY_INVALID'],
    ['not a number', { from: 'WALLET', to: 'PG', amount: 'ten' }, 400, 'KEY_INVALID'],
    ['NaN-like', { from: 'WALLET', to: 'PG', amount: 'NaN' }, 400, 'KEY_INVALID'],
    ['huge', { from: 'WALLET', to: 'PG', amount: 1e15 }, 400, 'KEY_INVALID'],
    ['an array', { from: 'WALLET', to: 'PG', amount: [10] }, 400, 'KEY_INVALID'],
    ['the same account', { from: 'WALLET', to: 'WALLET', amount: 10 }, 400, 'TRANSFER_SAME_ACCOUNT'],
    ['a game without an account', { from: 'WALLET', to: 'JOKER', amount: 10 }, 404, 'SLOT_NO_ACCOUNT'],
    ['an unknown game', { from: 'WALLET', to: 'NOPE', amount: 10 }, 404, 'NO_GAME'],
    ['more than the balance', { from: 'WALLET', to: 'PG', amount: 100.01 }, 400, 'MONEY_NOT_ENOUGH'],
    ['more than the game holds', { from: 'PG', to: 'WALLET', amount: 1 }, 400, 'MONEY_NOT_ENOUGH'],
    ['a missing amount', { from: 'WALLET', to: 'PG' }, 400, 'KEY_MISSING'],
    ['an extra field', { from: 'WALLET', to: 'PG', amount: 10, fee: 0 }, 400, 'KEY_INVALID'],
  ])('refuses a transfer of %s and moves nothing', async (_label, body, status, code) => {
    const token = await member(100);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    const before = await walletOf(token);
    const res = await call(t.app, 'POST', '/api/wallet/transfer', { token, body });
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(code);
    const after = await walletOf(token);
    expect(after.wallet.amount).toBe(before.wallet.amount);
    expect(after.slots.find((s) => s.code === 'PG')?.amount).toBe(0);
    expect((await call<{ total: number }>(t.app, 'POST', '/api/statement', { token, body: { page: 1, limit: 10 } })).body.total).toBe(1);
  });

  it('lets exactly 35 of 50 parallel transfers of 20 from a 700 wallet through', async () => {
    const token = await member(700);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    const results = await Promise.all(Array.from({ length: 50 }, () => call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 20 } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(35);
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.message === 'MONEY_NOT_ENOUGH')).toBe(true);
    const after = await walletOf(token);
    expect(after.wallet.amount).toBe(0);
    expect(after.slots.find((s) => s.code === 'PG')?.amount).toBe(700);
    const refreshed = await call<{ slots: Array<{ code: string; amount: number }> }>(t.app, 'GET', '/api/wallet/refresh/slot', { token });
    expect(refreshed.body.slots.find((s) => s.code === 'PG')?.amount).toBe(700);
    await invariants();
  });

  it('answers each transfer of a batch with the balances right after its own move', async () => {
    // As if the batch ran one by one: never the effect of the others sharing its statement.
    const token = await member(500);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    const results = await Promise.all(Array.from({ length: 8 }, () => call<{ wallet: { amount: number }; game: { amount: number } }>(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 40 } })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.map((r) => r.body.wallet.amount).sort((a, b) => b - a)).toEqual([460, 420, 380, 340, 300, 260, 220, 180]);
    expect(results.map((r) => r.body.game.amount).sort((a, b) => a - b)).toEqual([40, 80, 120, 160, 200, 240, 280, 320]);
    await invariants();
  });

  it('gives every request of a busy moment its own exact answer, though they are written in batches', async () => {
    // Transfers that arrive together are group-committed (one statement for many); a batch
    // refused because of one member's balance or a repeated key is re-run item by item.
    const rich = await Promise.all([member(500), member(500), member(500)]);
    const poor = await member(30);
    for (const token of [...rich, poor]) await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    const sameKey = newKey();
    const requests = [
      ...rich.flatMap((token) => Array.from({ length: 5 }, () => ({ token, amount: 40, key: newKey() }))),
      ...Array.from({ length: 3 }, () => ({ token: poor, amount: 20, key: newKey() })),
      ...Array.from({ length: 4 }, () => ({ token: rich[0] as string, amount: 100, key: sameKey })),
    ];
    const results = await Promise.all(
      requests.map((r) => call(t.app, 'POST', '/api/wallet/transfer', { token: r.token, body: { from: 'WALLET', to: 'PG', amount: r.amount }, headers: { 'idempotency-key': r.key } })),
    );
    const poorResults = results.slice(15, 18);
    expect(results.slice(0, 15).every((r) => r.status === 200)).toBe(true);
    expect(poorResults.filter((r) => r.status === 200)).toHaveLength(1);
    expect(poorResults.filter((r) => r.status === 400).every((r) => r.body.message === 'MONEY_NOT_ENOUGH')).toBe(true);
    const keyed = results.slice(18);
    expect(keyed.every((r) => r.status === 200 || (r.status === 409 && r.body.message === 'REQUEST_IN_PROGRESS'))).toBe(true);
    expect(new Set(keyed.filter((r) => r.status === 200).map((r) => r.body.reference)).size).toBe(1);
    expect((await walletOf(rich[0] as string)).wallet.amount).toBe(500 - 5 * 40 - 100);
    for (const token of rich.slice(1)) expect((await walletOf(token)).wallet.amount).toBe(300);
    expect((await walletOf(poor)).wallet.amount).toBe(10);
    await invariants();
  });

  it('moves money once for a retried Idempotency-Key, and refuses the key with another body', async () => {
    const token = await member(300);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    const key = newKey();
    const first = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 50 }, headers: { 'idempotency-key': key } });
    const again = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 50 }, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.reference).toBe(first.body.reference);
    expect(again.body.game).toEqual({ code: 'PG', amount: 50 });
    expect((await walletOf(token)).wallet.amount).toBe(250);
    const other = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 60 }, headers: { 'idempotency-key': key } });
    expect(other).toMatchObject({ status: 409, body: { message: 'IDEMPOTENCY_KEY_REUSED' } });
    const parallelKey = newKey();
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 100 }, headers: { 'idempotency-key': parallelKey } })),
    );
    expect(new Set(burst.filter((r) => r.status === 200).map((r) => r.body.reference)).size).toBe(1);
    expect((await walletOf(token)).wallet.amount).toBe(150);
    const bad = await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 1 }, headers: { 'idempotency-key': 'short' } });
    expect(bad).toMatchObject({ status: 400, body: { message: 'KEY_INVALID' } });
    await invariants();
  });

  it('keeps members apart: no one sees or launches another member\'s game accounts', async () => {
    const alice = await member(100);
    const bob = await member();
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token: alice });
    const aliceCreds = (await call<{ username: string; password: string }>(t.app, 'GET', '/api/wallet/account/PG', { token: alice })).body;
    const own = await call<{ link: string }>(t.app, 'GET', `/api/autoLogin/pg/${aliceCreds.username}`, { token: alice });
    expect(own.status).toBe(200);
    // The sandbox service's play page (the provider's side), in the caller's language.
    expect(own.body.link).toMatch(new RegExp(`^${t.sandbox?.url ?? 'none'}/games/PG/play\\?t=[\\w-]+&lang=(th|la|en)$`));
    // Its "back to wallet" goes to the member home on the host the member called us on (here a phone on the LAN).
    const lan = await call<{ link: string }>(t.app, 'GET', `/api/autoLogin/pg/${aliceCreds.username}`, { token: alice, headers: { host: '192.168.1.20:3000' } });
    expect(await (await fetch(lan.body.link)).text()).toContain('href="http://192.168.1.20:3000/user/home"');
    expect((await call(t.app, 'GET', `/api/autoLogin/pg/${aliceCreds.username}`, { token: bob })).body).toEqual({ message: 'SLOT_NO_ACCOUNT' });
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token: bob });
    expect((await call(t.app, 'GET', `/api/autoLogin/pg/${aliceCreds.username}`, { token: bob })).status).toBe(404);
    expect((await call(t.app, 'GET', `/api/autoLogin/pgslot/${aliceCreds.username}/${aliceCreds.password}`, { token: bob })).body).toEqual({ message: 'SLOT_NO_ACCOUNT' });
    const bobCreds = (await call<{ username: string }>(t.app, 'GET', '/api/wallet/account/PG', { token: bob })).body;
    expect(bobCreds.username).not.toBe(aliceCreds.username);
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token: bob, body: { from: 'PG', to: 'WALLET', amount: 1 } })).body.message).toBe('MONEY_NOT_ENOUGH');
  });

  it('gives the form-state event to the provider that needs it', async () => {
    const token = await member();
    await call(t.app, 'GET', '/api/wallet/activate/UFABET', { token });
    const creds = await call<{ username: string; event: { action: string; method: string; fields: Record<string, string> } }>(t.app, 'GET', '/api/wallet/account/UFABET', { token });
    expect(creds.body.event).toMatchObject({ action: `${t.sandbox?.url ?? 'none'}/games/UFABET/login`, method: 'POST', fields: { username: creds.body.username } });
  });

  it('returns the money when the provider is down', async () => {
    const token = await member(100);
    await call(t.app, 'GET', '/api/wallet/activate/JOKER', { token });
    await fault('JOKER', 'down');
    try {
      const res = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'JOKER', amount: 40 } });
      expect(res).toMatchObject({ status: 502, body: { message: 'TRANSFER_FAIL' } });
      expect((await walletOf(token)).wallet.amount).toBe(100);
      const items = (await call<{ statements: Array<{ status: string; note?: string }> }>(t.app, 'POST', '/api/statement', { token, body: { page: 1, limit: 10 } })).body.statements;
      expect(items[0]).toMatchObject({ status: 'FAILED', note: 'TRANSFER_FAIL' });
    } finally {
      await fault('JOKER', 'none');
    }
    await invariants();
  });

  it('completes a transfer the provider took before failing', async () => {
    const token = await member(100);
    await call(t.app, 'GET', '/api/wallet/activate/SLOTXO', { token });
    await fault('SLOTXO', 'error-after-take');
    try {
      const res = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'SLOTXO', amount: 40 } });
      expect(res.status).toBe(200);
    } finally {
      await fault('SLOTXO', 'none');
    }
    const w = await walletOf(token);
    expect(w.wallet.amount).toBe(60);
    expect(w.slots.find((s) => s.code === 'SLOTXO')?.amount).toBe(40);
    const live = await call<{ slots: Array<{ code: string; amount: number }> }>(t.app, 'GET', '/api/wallet/refresh/slot', { token });
    expect(live.body.slots.find((s) => s.code === 'SLOTXO')?.amount).toBe(40);
    await invariants();
  });

  it('leaves a transfer pending when the provider cannot be asked, and the reconciler settles it', async () => {
    const token = await member(100);
    await call(t.app, 'GET', '/api/wallet/activate/BETFLIX', { token });
    const creds = (await call<{ username: string }>(t.app, 'GET', '/api/wallet/account/BETFLIX', { token })).body;
    // error-after-take, then down before the lookup: the answer is unknown and cannot be asked.
    await t.services.sandboxGames?.setFault('BETFLIX', { mode: 'error-after-take', latencyMs: 0 });
    const provider = t.services.games.provider('BETFLIX');
    const original = provider.lookupTransfer.bind(provider);
    provider.lookupTransfer = async () => {
      throw new Error('unreachable');
    };
    try {
      const res = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'BETFLIX', amount: 25 } });
      expect(res).toMatchObject({ status: 504, body: { message: 'TRANSFER_PENDING' } });
    } finally {
      provider.lookupTransfer = original;
      await t.services.sandboxGames?.setFault('BETFLIX', { mode: 'none', latencyMs: 0 });
    }
    const pending = await walletOf(token);
    expect(pending.wallet.amount).toBe(75);
    expect((await call<{ statements: Array<{ status: string }> }>(t.app, 'POST', '/api/statement', { token, body: { page: 1, limit: 1 } })).body.statements[0]?.status).toBe('PENDING');
    // While it is pending, a read of the game's copy says so: no game result is booked from a
    // provider balance read then (it may have overtaken the transfer at the provider).
    const session = await t.services.sessions.authenticate(`Bearer ${token}`);
    expect(await t.services.money.gameCopy(t.services.database.db, session.memberId, 'BETFLIX')).toMatchObject({ balance: 2_500, transferPending: true });
    expect(await t.services.transfers.reconcile(0)).toBeGreaterThanOrEqual(1);
    expect(await t.services.money.gameCopy(t.services.database.db, session.memberId, 'BETFLIX')).toMatchObject({ balance: 2_500, transferPending: false });
    const settled = await walletOf(token);
    expect(settled.wallet.amount).toBe(75);
    expect(settled.slots.find((s) => s.code === 'BETFLIX')?.amount).toBe(25);
    expect(creds.username).toBeTruthy();
    await invariants();
  });

  it('holds withdrawals until the operator completes or rejects them', async () => {
    const token = await member(1000);
    const tooSmall = await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 99.99 } });
    expect(tooSmall).toMatchObject({ status: 400, body: { message: 'WITHDRAW_MINIMUM', withdrawMin: 100 } });
    const tooBig = await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 50_000.01 } });
    expect(tooBig).toMatchObject({ status: 400, body: { message: 'WITHDRAW_MAXIMUM', withdrawMax: 50000 } });
    const more = await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 1000.01 } });
    expect(more.body.message).toBe('MONEY_NOT_ENOUGH');
    const a = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 300 } });
    const b = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 200 } });
    expect((await walletOf(token)).wallet.amount).toBe(500);
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${a.body.reference}/complete`)).status).toBe(401);
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${a.body.reference}/complete`, { headers: operator })).body).toEqual({ id: a.body.reference, status: 'SUCCESS' });
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${a.body.reference}/reject`, { headers: operator, body: { note: 'late' } })).status).toBe(404);
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${b.body.reference}/reject`, { headers: operator, body: { note: 'NAME_MISMATCH' } })).status).toBe(200);
    expect((await walletOf(token)).wallet.amount).toBe(700);
    const items = (await call<{ statements: Array<{ status: string; amount: number; note?: string }> }>(t.app, 'POST', '/api/statement', { token, body: { page: 1, limit: 2 } })).body.statements;
    expect(items).toMatchObject([{ status: 'FAILED', amount: 200, note: 'NAME_MISMATCH' }, { status: 'SUCCESS', amount: 300 }]);
    await invariants();
  });

  it('withdrawAll brings the game balances home first', async () => {
    const token = await member(500);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 450 } });
    const res = await call(t.app, 'POST', '/api/wallet/withdrawAll', { token, body: { amount: 480 } });
    expect(res).toMatchObject({ status: 200, body: { wallet: { amount: 20 }, amount: 480 } });
    expect((await walletOf(token)).slots.find((s) => s.code === 'PG')?.amount).toBe(0);
    await invariants();
  });

  it('books wins and losses played at the provider on refresh', async () => {
    const token = await member(200);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 100 } });
    const creds = (await call<{ username: string }>(t.app, 'GET', '/api/wallet/account/PG', { token })).body;
    await t.services.sandboxGames?.spin('PG', creds.username, 1000, 0);
    await t.services.sandboxGames?.spin('PG', creds.username, 1000, 5);
    const refreshed = await call<{ slots: Array<{ code: string; amount: number }>; updatedAt: string }>(t.app, 'GET', '/api/wallet/refresh/slot', { token });
    expect(refreshed.body.slots.find((s) => s.code === 'PG')?.amount).toBe(130);
    const back = await call(t.app, 'POST', '/api/wallet/transferAll', { token, body: { to: 'WALLET' } });
    expect(back).toMatchObject({ status: 200, body: { wallet: { amount: 230 } } });
    await invariants();
  });

  it('lists only the member\'s own slips, and their images only to them', async () => {
    const alice = await member();
    const bob = await member();
    const aliceId = ((await call(t.app, 'GET', '/api/account/profile', { token: alice })).body as { _id: string })._id;
    await t.services.database.db
      .insertInto('slips')
      .values([
        { id: `slip-a-${Date.now()}`, member_id: aliceId, reference: `REF-A-${Date.now()}`, amount: 50_000, status: 'SUCCESS', note: null, image_path: null, image: Buffer.from('not really a jpeg'), image_type: 'image/jpeg' },
        { id: `slip-b-${Date.now()}`, member_id: aliceId, reference: `REF-B-${Date.now()}`, amount: 0, status: 'FAILED', note: 'SLIP_REFNO_DUPLICATED', image_path: null },
      ])
      .execute();
    const list = await call<{ total: number; slips: Array<{ reference: string; amount: number; status: string; note: string | null }> }>(t.app, 'POST', '/api/statement/slip', { token: alice, body: { page: 1, limit: 10 } });
    expect(list.body.total).toBe(2);
    expect(list.body.slips.map((x) => [x.status, x.amount, x.note])).toEqual(expect.arrayContaining([['SUCCESS', 500, null], ['FAILED', 0, 'SLIP_REFNO_DUPLICATED']]));
    const ref = list.body.slips.find((x) => x.status === 'SUCCESS')?.reference ?? '';
    const { url } = (await call<{ url: string }>(t.app, 'GET', `/api/statement/slip/reference/${ref}`, { token: alice })).body;
    expect(url).toMatch(/^\/api\/slips\/slip-a-\d+\/image\?exp=\d+&sig=[0-9a-f]{64}$/);
    const image = await t.app.inject({ method: 'GET', url });
    expect([image.statusCode, image.headers['content-type'], image.body]).toEqual([200, 'image/jpeg', 'not really a jpeg']);
    // A slip without an image has no link.
    const noImage = list.body.slips.find((x) => x.status === 'FAILED')?.reference ?? '';
    expect((await call(t.app, 'GET', `/api/statement/slip/reference/${noImage}`, { token: alice })).body).toEqual({ message: 'UPLOADED_FILE_NOT_EXIST' });
    expect((await call(t.app, 'GET', `/api/statement/slip/reference/${ref}`, { token: bob })).body).toEqual({ message: 'NO_DATA' });
    expect((await call<{ total: number }>(t.app, 'POST', '/api/statement/slip', { token: bob, body: { page: 1, limit: 10 } })).body.total).toBe(0);
    expect((await call(t.app, 'POST', '/api/statement', { token: bob, body: { page: 0, limit: 10 } })).status).toBe(400);
    expect((await call(t.app, 'POST', '/api/statement', { token: bob, body: { page: 1, limit: 101 } })).status).toBe(400);
  });

  it('transferAll puts the whole wallet into a game', async () => {
    const token = await member(80);
    await call(t.app, 'GET', '/api/wallet/activate/HUAYHD', { token });
    const res = await call(t.app, 'POST', '/api/wallet/transferAll', { token, body: { to: 'HUAYHD' } });
    expect(res).toMatchObject({ status: 200, body: { wallet: { amount: 0 }, amount: 80 } });
    expect((await call(t.app, 'POST', '/api/wallet/transferAll', { token, body: { to: 'HUAYHD' } })).body.message).toBe('MONEY_NOT_ENOUGH');
  });
});


describe.each(dbKinds)('a transfer to a game settled behind its answer on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { RECONCILE_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const { member, walletOf, invariants } = walletKit(() => t);

  /** Holds the settle batches (the write behind the answer) until `open` is called. */
  function holdSettlements(): { open: () => void; held: () => number } {
    const postings = t.services.money.transfers as unknown as { settles: { submit: (item: unknown) => Promise<unknown> } };
    const real = postings.settles.submit.bind(postings.settles);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let held = 0;
    postings.settles.submit = async (item: unknown) => {
      held += 1;
      await gate;
      return real(item);
    };
    return {
      open: () => {
        postings.settles.submit = real;
        open();
      },
      held: () => held,
    };
  }

  const statusOf = async (id: string) => (await sql<{ status: string }>`SELECT status FROM operations WHERE id = ${id}`.execute(t.services.database.db)).rows[0]?.status;

  it("answers once the provider took it; the member's next call waits for the write, and a retry answers the same", async () => {
    const token = await member(100);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    const hold = holdSettlements();
    const key = newKey();
    let first;
    try {
      first = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/transfer', { token, headers: { 'idempotency-key': key }, body: { from: 'WALLET', to: 'PG', amount: 30 } });
      expect(first).toMatchObject({ status: 200, body: { wallet: { amount: 70 }, game: { code: 'PG', amount: 30 }, amount: 30 } });
      // Answered, and its mark not written yet: the operation still reads PENDING, the money moved.
      expect(hold.held()).toBe(1);
      expect(await statusOf(first.body.reference)).toBe('PENDING');
      // The member's next call (the statement, a retry) waits for the write.
      const statement = call<{ statements: Array<{ status: string }> }>(t.app, 'POST', '/api/statement', { token, body: { page: 1, limit: 5 } });
      const retry = call(t.app, 'POST', '/api/wallet/transfer', { token, headers: { 'idempotency-key': key }, body: { from: 'WALLET', to: 'PG', amount: 30 } });
      let answered = false;
      void statement.then(() => (answered = true));
      await new Promise((r) => setTimeout(r, 150));
      expect(answered).toBe(false);
      hold.open();
      expect((await statement).body.statements[0]?.status).toBe('SUCCESS');
      const again = await retry;
      expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
    } finally {
      hold.open();
    }
    await t.services.money.transfers.drain();
    expect(await statusOf(first.body.reference)).toBe('SUCCESS');
    expect((await walletOf(token)).wallet.amount).toBe(70);
    await invariants();
  });

  it('leaves a mark never written (the process died) to the reconciler, which settles it with nothing moved', async () => {
    const token = await member(100);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    const hold = holdSettlements();
    const key = newKey();
    try {
      const first = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/transfer', { token, headers: { 'idempotency-key': key }, body: { from: 'WALLET', to: 'PG', amount: 40 } });
      expect(first.status).toBe(200);
      expect(await statusOf(first.body.reference)).toBe('PENDING');
      // As after a crash: the reconciler asks the provider, which has it.
      expect(await t.services.transfers.reconcile(0)).toBeGreaterThanOrEqual(1);
      expect(await statusOf(first.body.reference)).toBe('SUCCESS');
      hold.open();
      await t.services.money.transfers.drain();
      const wallet = await walletOf(token);
      expect(wallet.wallet.amount).toBe(60);
      const retry = await call(t.app, 'POST', '/api/wallet/transfer', { token, headers: { 'idempotency-key': key }, body: { from: 'WALLET', to: 'PG', amount: 40 } });
      expect({ status: retry.status, body: retry.body }).toEqual({ status: first.status, body: first.body });
    } finally {
      hold.open();
    }
    await invariants();
  });
});

describe.each(dbKinds)('a transfer started before money/011 on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { RECONCILE_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const { walletOf, invariants } = walletKit(() => t);

  it('counts its money once (in the in-flight account), does not hold back a transfer out of the game, and settles the old way', async () => {
    const { phone, password, id: memberId } = await registerMember(t.app);
    const token = await login(t.app, phone, password);
    await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 100 } });
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 20 } })).status).toBe(200);
    // As an older server left it: the money moved from the wallet to the in-flight account
    // (transfer_start), the operation pending, the provider never asked.
    const legacy = newId();
    await recordWithMoney(
      t.services.database.db,
      { id: legacy, memberId, type: 'transfer', status: 'PENDING', source: 'WALLET', target: 'PG', amount: 3_000 },
      null,
      [{ account: account.wallet(memberId), amount: -3_000 }, { account: account.inflight(memberId), amount: 3_000 }],
      'transfer_start',
    );
    const position = await t.services.money.positions.read(memberId, 'THB');
    expect({ wallet: position.wallet, inflight: position.inflight, total: position.total }).toEqual({ wallet: 5_000, inflight: 3_000, total: 10_000 });
    // The game account's ฿20 is not promised to it: all of it can come out.
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'PG', to: 'WALLET', amount: 20 } })).body).toMatchObject({ wallet: { amount: 70 }, game: { code: 'PG', amount: 0 } });
    // The reconciler asks the provider (it never had it) and returns it from the in-flight account.
    expect(await t.services.transfers.reconcile(0)).toBe(1);
    expect((await walletOf(token)).wallet.amount).toBe(100);
    expect((await t.services.money.positions.read(memberId, 'THB')).inflight).toBe(0);
    await invariants();
  });
});

describe.each(dbKinds)('provider deadline on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { RECONCILE_INTERVAL_MS: '0', PROVIDER_TIMEOUT_MS: '400' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const { member, walletOf, invariants, fault } = walletKit(() => t);

  it('settles a timed-out transfer by asking the provider, and refuses it afterwards', async () => {
    const token = await member(100);
    await call(t.app, 'GET', '/api/wallet/activate/SUPERSLOT', { token });
    await fault('SUPERSLOT', 'timeout');
    try {
      const res = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'SUPERSLOT', amount: 30 } });
      expect(res).toMatchObject({ status: 502, body: { message: 'TRANSFER_FAIL' } });
      expect((await walletOf(token)).wallet.amount).toBe(100);
      // The slow provider's late attempt to apply it is refused: the game gets nothing.
      await new Promise((r) => setTimeout(r, 900));
    } finally {
      await fault('SUPERSLOT', 'none');
    }
    const live = await call<{ slots: Array<{ code: string; amount: number }> }>(t.app, 'GET', '/api/wallet/refresh/slot', { token });
    expect(live.body.slots.find((s) => s.code === 'SUPERSLOT')?.amount).toBe(0);
    await invariants();
  });


  it('refreshes every game in parallel; a slow provider keeps its last balance and fails nothing', async () => {
    const token = await member(100);
    for (const code of ['PG', 'IMI']) await call(t.app, 'GET', `/api/wallet/activate/${code}`, { token });
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'IMI', amount: 10 } });
    await t.services.sandboxGames?.setFault('IMI', { mode: 'none', latencyMs: 2_000 });
    try {
      const started = Date.now();
      const res = await call<{ slots: Array<{ code: string; amount: number; isActive: boolean }> }>(t.app, 'GET', '/api/wallet/refresh/slot', { token });
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(res.body.slots.find((s) => s.code === 'IMI')).toMatchObject({ isActive: true, amount: 10 });
      expect(res.body.slots.find((s) => s.code === 'PG')).toMatchObject({ isActive: true, amount: 0 });
    } finally {
      await t.services.sandboxGames?.setFault('IMI', { mode: 'none', latencyMs: 0 });
    }
  });

});

describe('live payments', () => {
  it('has no demo top-up when real payment providers are configured', async () => {
    const t = await startApp('embedded', { PAYMENTS: 'live' });
    try {
      const token = await login(t.app, '0812345678', 'demo1234');
      const res = await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 100 } });
      expect(res).toMatchObject({ status: 404, body: { message: 'NOT_FOUND' } });
      // The deposit lookup says so, and the app does not offer it.
      expect((await call(t.app, 'GET', '/api/lookup/deposit', { token })).body).toMatchObject({ demoTopUp: false });
    } finally {
      await t.close();
    }
  });
});
