import { randomBytes } from 'node:crypto';
import { sameConnection } from '../src/db/database';
import type { WalletDb } from '../src/modules/wallet/tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrations';
import { allMigrations } from '../src/app';
import { SecretBox } from '../src/lib/secret-box';
import { AppError } from '../src/lib/errors';
import { account, balances, checkInvariants } from '../src/money/ledger';
import { GameService } from '../src/modules/wallet/game-service';
import { TransferService } from '../src/modules/wallet/transfer-service';
import type { GameProvider } from '../src/providers/games/game-provider';
import { call, dbKinds, dropSchema, login, OPERATOR_TOKEN, PG_URL, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let keySeq = 0;
const newKey = () => `money-${Date.now()}-${++keySeq}`;

type Answer = { status: number; body: Record<string, unknown> };

describe.each(dbKinds)('the money core on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { RECONCILE_INTERVAL_MS: '0', PROVIDER_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function member(topUp: number, games: string[] = []): Promise<{ token: string; id: string }> {
    const { phone, password, id } = await registerMember(t.app);
    const token = await login(t.app, phone, password);
    if (topUp > 0) expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: topUp } })).status).toBe(200);
    for (const code of games) expect((await call(t.app, 'GET', `/api/wallet/activate/${code}`, { token })).status).toBe(200);
    return { token, id };
  }
  const send = async (token: string, path: string, body: unknown, key: string): Promise<Answer> => {
    const res = await call(t.app, 'POST', path, { token, body, headers: { 'idempotency-key': key } });
    return { status: res.status, body: res.body };
  };
  const money = async (id: string, code?: string) => {
    const ids = [account.wallet(id), ...(code ? [account.game(id, code)] : [])];
    const b = await balances(t.services.database.db, ids);
    return ids.map((a) => b.get(a)?.balance ?? 0);
  };
  const fault = (code: string, mode: string) => call(t.app, 'PUT', `/api/operator/sandbox/games/${code}/fault`, { headers: operator, body: { mode } });

  it('finding 1: a retried transferAll to a game answers the first answer, TRANSFER_FAIL included, never 200 for a failure', async () => {
    const { token, id } = await member(300, ['JOKER']);
    await fault('JOKER', 'down');
    const key = newKey();
    const first = await send(token, '/api/wallet/transferAll', { to: 'JOKER' }, key);
    await fault('JOKER', 'none');
    expect(first).toMatchObject({ status: 502, body: { message: 'TRANSFER_FAIL' } });
    for (let i = 0; i < 3; i++) expect(await send(token, '/api/wallet/transferAll', { to: 'JOKER' }, key)).toEqual(first);
    expect(await money(id, 'JOKER')).toEqual([30_000, 0]);
    // A successful one answers the same body again, though the wallet has moved since.
    const ok = newKey();
    const done = await send(token, '/api/wallet/transferAll', { to: 'JOKER' }, ok);
    expect(done).toMatchObject({ status: 200, body: { wallet: { amount: 0 }, game: { code: 'JOKER', amount: 300 }, amount: 300 } });
    await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 50 } });
    expect(await send(token, '/api/wallet/transferAll', { to: 'JOKER' }, ok)).toEqual(done);
    expect(await money(id, 'JOKER')).toEqual([5_000, 30_000]);
  });

  it('finding 1: a retry while the transfer is unsettled answers REQUEST_IN_PROGRESS, then the settled outcome', async () => {
    const { token } = await member(100, ['BETFLIX']);
    await t.services.sandboxGames?.setFault('BETFLIX', { mode: 'error-after-take', latencyMs: 0 });
    const provider = t.services.games.provider('BETFLIX');
    const original = provider.lookupTransfer.bind(provider);
    provider.lookupTransfer = async () => {
      throw new Error('unreachable');
    };
    const key = newKey();
    let first: Answer;
    let during: Answer;
    try {
      first = await send(token, '/api/wallet/transferAll', { to: 'BETFLIX' }, key);
      during = await send(token, '/api/wallet/transferAll', { to: 'BETFLIX' }, key);
    } finally {
      provider.lookupTransfer = original;
      await t.services.sandboxGames?.setFault('BETFLIX', { mode: 'none', latencyMs: 0 });
    }
    expect(first).toMatchObject({ status: 504, body: { message: 'TRANSFER_PENDING' } });
    expect(during).toMatchObject({ status: 409, body: { message: 'REQUEST_IN_PROGRESS', reference: first.body.reference } });
    expect(await t.services.transfers.reconcile(0)).toBeGreaterThanOrEqual(1);
    // The provider had taken it: completed. Every retry now answers that, the same each time.
    const after = await send(token, '/api/wallet/transferAll', { to: 'BETFLIX' }, key);
    expect(after).toMatchObject({ status: 200, body: { reference: first.body.reference, amount: 100, wallet: { amount: 0 }, game: { code: 'BETFLIX', amount: 100 } } });
    expect(await send(token, '/api/wallet/transferAll', { to: 'BETFLIX' }, key)).toEqual(after);
  });

  it('finding 2: a retried transferAll to WALLET moves nothing new and answers the first answer', async () => {
    const { token, id } = await member(500, ['PG', 'SLOTXO']);
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 200 } });
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'SLOTXO', amount: 100 } });
    const key = newKey();
    const first = await send(token, '/api/wallet/transferAll', { to: 'WALLET' }, key);
    expect(first.status).toBe(200);
    expect(await money(id, 'PG')).toEqual([50_000, 0]);
    // The player wins at PG; the retry must not bring the win home, nor answer anything else.
    const creds = (await call<{ username: string }>(t.app, 'GET', '/api/wallet/account/PG', { token })).body;
    await t.services.sandboxGames?.setFault('PG', { mode: 'none', latencyMs: 0 });
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 10 } });
    await t.services.sandboxGames?.spin('PG', creds.username, 1000, 30);
    const [walletBefore] = await money(id);
    for (let i = 0; i < 3; i++) expect(await send(token, '/api/wallet/transferAll', { to: 'WALLET' }, key)).toEqual(first);
    expect((await money(id))[0]).toBe(walletBefore);
    expect((await t.services.sandboxGames?.accountBalance('PG', creds.username)) ?? 0).toBe(1_000 - 1_000 + 30_000);
  });

  it('finding 2: a first MONEY_NOT_ENOUGH stays the answer of its key, even after money arrives', async () => {
    const { token, id } = await member(0, ['PG']);
    const key = newKey();
    const first = await send(token, '/api/wallet/transferAll', { to: 'WALLET' }, key);
    expect(first).toMatchObject({ status: 400, body: { message: 'MONEY_NOT_ENOUGH' } });
    await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 80 } });
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 80 } });
    expect(await send(token, '/api/wallet/transferAll', { to: 'WALLET' }, key)).toEqual(first);
    expect(await money(id, 'PG')).toEqual([0, 8_000]);
    // The same for a plain transfer refused for want of money.
    const plain = newKey();
    const refused = await send(token, '/api/wallet/transfer', { from: 'WALLET', to: 'PG', amount: 10 }, plain);
    expect(refused).toMatchObject({ status: 400, body: { message: 'MONEY_NOT_ENOUGH' } });
    await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 10 } });
    expect(await send(token, '/api/wallet/transfer', { from: 'WALLET', to: 'PG', amount: 10 }, plain)).toEqual(refused);
    expect(await money(id, 'PG')).toEqual([1_000, 8_000]);
  });

  it('withdrawAll fixes its parts at the first execution and answers a retry with the first answer', async () => {
    const { token, id } = await member(500, ['PG']);
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 300 } });
    const key = newKey();
    const first = await send(token, '/api/wallet/withdrawAll', { amount: 400 }, key);
    expect(first).toMatchObject({ status: 200, body: { amount: 400, wallet: { amount: 100 } } });
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 100 } });
    expect(await send(token, '/api/wallet/withdrawAll', { amount: 400 }, key)).toEqual(first);
    expect(await money(id, 'PG')).toEqual([0, 10_000]);
    const held = await t.services.database.db.selectFrom('operations').select('id').where('member_id', '=', id).where('type', '=', 'withdraw').execute();
    expect(held).toHaveLength(1);
  });

  it('answers a replayed top-up and withdrawal with the first body, and refuses the key with another body', async () => {
    const { token } = await member(0);
    const key = newKey();
    const first = await send(token, '/api/wallet/add', { amount: 250 }, key);
    await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 5 } });
    expect(await send(token, '/api/wallet/add', { amount: 250 }, key)).toEqual(first);
    expect(await send(token, '/api/wallet/add', { amount: 251 }, key)).toMatchObject({ status: 409, body: { message: 'IDEMPOTENCY_KEY_REUSED' } });
    const w = newKey();
    const withdrawn = await send(token, '/api/wallet/withdraw', { amount: 100 }, w);
    expect(withdrawn).toMatchObject({ status: 200, body: { wallet: { amount: 155 } } });
    await call(t.app, 'POST', `/api/operator/withdrawals/${String(withdrawn.body.reference)}/reject`, { headers: operator, body: { note: 'TEST' } });
    expect(await send(token, '/api/wallet/withdraw', { amount: 100 }, w)).toEqual(withdrawn);
  });

  it('runs policy hooks before money leaves; a refusal moves nothing and stays the answer of its key', async () => {
    const { token, id } = await member(300, ['PG']);
    const remove = t.services.money.policies.register('test-lock', (leaving) => {
      if (leaving.memberId === id && (leaving.action === 'withdraw' || leaving.from !== 'WALLET')) throw new AppError(400, 'BONUS_CONDITION');
    });
    const key = newKey();
    let refused: Answer;
    try {
      refused = await send(token, '/api/wallet/withdraw', { amount: 150 }, key);
      expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 100 } })).status).toBe(200);
      expect(await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'PG', to: 'WALLET', amount: 50 } })).toMatchObject({ status: 400, body: { message: 'BONUS_CONDITION' } });
    } finally {
      remove();
    }
    expect(refused).toMatchObject({ status: 400, body: { message: 'BONUS_CONDITION' } });
    expect(await money(id, 'PG')).toEqual([20_000, 10_000]);
    expect(await send(token, '/api/wallet/withdraw', { amount: 150 }, key)).toEqual(refused);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 150 } })).status).toBe(200);
  });

  it('finding 3: a balance read that a transfer overtook is never booked as a game result', async () => {
    const { token, id } = await member(1_000, ['PG']);
    await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 600 } });
    // That transfer's mark is written behind its answer: written before the test looks for "the" pending transfer below.
    await t.services.money.transfers.drain();
    const db = t.services.database.db;
    const key = (await t.services.settings.get<string>('credentialsKey', '')) || String(t.services.config.CREDENTIALS_KEY);
    const real = t.services.games.provider('PG');
    // A provider whose transfers wait for a gate, and whose balance reads return what they read
    // at once only when a second gate opens: the refresh reads before the transfer reaches the
    // provider and writes after the transfer completed.
    let openTransfer: () => void = () => undefined;
    const transferGate = new Promise<void>((resolve) => (openTransfer = resolve));
    let openRead: () => void = () => undefined;
    const readGate = new Promise<void>((resolve) => (openRead = resolve));
    let readStarted: () => void = () => undefined;
    const readDone = new Promise<void>((resolve) => (readStarted = resolve));
    let gateReads = false;
    const slow: GameProvider = {
      ...real,
      code: 'PG',
      transfer: async (...args) => {
        await transferGate;
        return real.transfer(...args);
      },
      balance: async (username) => {
        const seen = await real.balance(username);
        if (!gateReads) return seen;
        readStarted();
        await readGate;
        return seen;
      },
    };
    const games = new GameService(sameConnection<WalletDb>(db), () => slow, new SecretBox(Buffer.from(key, 'base64')), t.services.money);
    const transfers = new TransferService(sameConnection<WalletDb>(db), games, t.services.money);
    const username = (await games.memberGame(id, 'PG')).username;
    const out = transfers.transfer(id, 'PG', 'WALLET', 50_000, null).catch((error: unknown) => error);
    // Wait until the transfer is PENDING (its hold recorded), then refresh.
    for (let i = 0; i < 100; i++) {
      const pending = await db.selectFrom('operations').select('id').where('member_id', '=', id).where('status', '=', 'PENDING').executeTakeFirst();
      if (pending) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    gateReads = true;
    const refresh = games.sync(id, { code: 'PG', username });
    await readDone;
    openTransfer();
    expect(await out).toMatchObject({ amount: 500 });
    openRead();
    await refresh;
    const [wallet, game] = await money(id, 'PG');
    expect(game).toBe(10_000);
    expect(wallet).toBe(90_000);
    expect(await t.services.sandboxGames?.accountBalance('PG', username)).toBe(10_000);
    expect(await checkInvariants(db)).toMatchObject({ ok: true });
    const results = await db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as tx', 'tx.id', 'e.transaction_id')
      .select('e.amount')
      .where('tx.kind', '=', 'game_result')
      .where('e.account_id', '=', account.game(id, 'PG'))
      .execute();
    expect(results).toEqual([]);
  });
});

describe('two processes', () => {
  it('finding 4: migrate an empty database at the same moment, six times out of six', async () => {
    for (let round = 0; round < 6; round++) {
      const schema = `t_mig_${randomBytes(4).toString('hex')}`;
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: '2' });
      const [a, b] = await Promise.all([openDatabase(config), openDatabase(config)]);
      try {
        const results = await Promise.allSettled([migrate(a, allMigrations()), migrate(b, allMigrations())]);
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
        const applied = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
        // Every migration ran once, in one of the two.
        expect(new Set(applied).size).toBe(applied.length);
      } finally {
        await a.close();
        await b.close();
        await dropSchema(schema);
      }
    }
  });

  it('finding 5: a sandbox fault set through one process is seen by the other', async () => {
    const schema = `t_faults_${randomBytes(4).toString('hex')}`;
    const one = await startApp('postgres', {}, schema);
    const two = await startApp('postgres', {}, schema);
    try {
      const { phone, password } = await registerMember(one.app);
      const token = await login(one.app, phone, password);
      await call(one.app, 'POST', '/api/wallet/add', { token, body: { amount: 100 } });
      await call(one.app, 'GET', '/api/wallet/activate/PG', { token });
      expect((await call(one.app, 'PUT', '/api/operator/sandbox/games/PG/fault', { headers: operator, body: { mode: 'down' } })).status).toBe(200);
      const res = await call(two.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 10 } });
      expect(res).toMatchObject({ status: 502, body: { message: 'TRANSFER_FAIL' } });
      await call(two.app, 'PUT', '/api/operator/sandbox/games/PG/fault', { headers: operator, body: { mode: 'none' } });
      expect((await call(one.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 10 } })).status).toBe(200);
    } finally {
      await one.close();
      await two.close();
      await dropSchema(schema);
    }
  });
});
