/**
 * Balances pushed, not polled: every committed change of a member's wallet or game balance
 * reaches the member's sockets as a `balance` event (money/balance-feed.ts → modules/chat/balance-push.ts),
 * on both databases. Across two processes (Redis): chat.processes.test.ts.
 */
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { BalanceEvent } from '@mw/contract/balance-push';
import { account, inTransaction, runPosting } from '../src/money/ledger';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** A member's socket and the balance events it got, in order. */
async function listen(base: string, token: string): Promise<{ events: BalanceEvent[]; next: (check: (e: BalanceEvent) => boolean) => Promise<BalanceEvent> }> {
  const client: Socket = connect(base, { auth: { token }, transports: ['websocket'], reconnection: false });
  onTestFinished(() => {
    client.close();
  });
  const events: BalanceEvent[] = [];
  const waiters: Array<{ check: (e: BalanceEvent) => boolean; resolve: (e: BalanceEvent) => void }> = [];
  client.on('balance', (event: BalanceEvent) => {
    events.push(event);
    for (const w of waiters.splice(0)) {
      if (w.check(event)) w.resolve(event);
      else waiters.push(w);
    }
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('connect_error', reject);
  });
  return {
    events,
    // Waits on the event itself (the test's own timeout bounds it), never on a delay.
    next: (check) => {
      const seen = events.find(check);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ check, resolve }));
    },
  };
}

describe.each(dbKinds)('balances pushed on %s', (kind) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startApp(kind);
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const member = async () => {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    const profile = (await call<{ bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token })).body;
    return { ...m, token, bankCode: profile.bankCode, accountNo: profile.bankAccountNo };
  };

  it('a bank-feed deposit reaches the member\'s socket with the new wallet, and no one else\'s', async () => {
    const m = await member();
    const other = await member();
    const mine = await listen(base, m.token);
    const theirs = await listen(base, other.token);
    const sent = await call<{ feed: { status: number } | null }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
      body: { fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: 'KBANK', toAccountNo: '0451234567', amount: 500 },
    });
    expect(sent.status).toBe(200);
    const event = await mine.next((e) => e.reason === 'deposit');
    expect(event).toMatchObject({ reason: 'deposit', wallet: 500, amount: 500 });
    expect(event.versions.wallet).toBeGreaterThan(0);
    // The other member's own top-up arrives on their socket; the first member's deposit never did.
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: other.token, body: { amount: 20 }, headers: { 'idempotency-key': `k-${other.id}` } })).status).toBe(200);
    await theirs.next((e) => e.reason === 'deposit');
    expect(theirs.events).toEqual([expect.objectContaining({ reason: 'deposit', wallet: 20, amount: 20 })]);
  });

  it('a withdrawal held, then returned: both reach the socket, versions rising', async () => {
    const m = await member();
    const socket = await listen(base, m.token);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 1000 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 300 } })).status).toBe(200);
    const held = await socket.next((e) => e.reason === 'withdrawal');
    expect(held).toMatchObject({ wallet: 700, amount: -300 });
    const list = await call<{ withdrawals: Array<{ id: string }> }>(t.app, 'GET', `/api/operator/withdrawals?q=${m.phone}`, { headers: operator });
    const id = list.body.withdrawals[0]?.id;
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${id}/reject`, { headers: operator, body: { note: 'wrong account' } })).status).toBe(200);
    const returned = await socket.next((e) => e.reason === 'withdrawal_returned');
    // The member's notice says why (the operator's reason) and which account it was for.
    expect(returned).toMatchObject({ wallet: 1000, amount: 300, note: 'wrong account', account: expect.stringMatching(/^[A-Z]+ \d+$/) });
    const versions = socket.events.map((e) => e.versions.wallet ?? 0);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('a withdrawal paid: the event names the account it was paid to', async () => {
    const m = await member();
    const socket = await listen(base, m.token);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 1000 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 300 } })).status).toBe(200);
    const list = await call<{ withdrawals: Array<{ id: string }> }>(t.app, 'GET', `/api/operator/withdrawals?q=${m.phone}`, { headers: operator });
    const id = list.body.withdrawals[0]?.id;
    // Paid through the sandbox bank (the approval as checked: the automation key would wait for a second person).
    await t.services.payouts.approve(id ?? '', 'finance', true);
    const paid = await socket.next((e) => e.reason === 'withdrawal_paid');
    expect(paid).toMatchObject({ amount: 300, account: expect.stringMatching(/^[A-Z]+ \d+$/) });
    expect(paid).not.toHaveProperty('note');
  });

  it('rounds played at a provider: once imported, the new game balance reaches the socket (no balance check asked)', async () => {
    const m = await member();
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 500 } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/wallet/activate/PG', { token: m.token })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token: m.token, body: { from: 'WALLET', to: 'PG', amount: 500 } })).status).toBe(200);
    const socket = await listen(base, m.token);
    const house = t.services.sandboxGames;
    if (!house) throw new Error('sandbox games expected');
    const { username } = await t.services.games.memberGame(m.id, 'PG');
    // A win of ฿400 on a ฿100 stake (×5), on the provider's side only.
    expect(await house.spin('PG', username, 10_000, 5)).toBe(90_000);
    await t.services.activity.importAll();
    const event = await socket.next((e) => e.reason === 'game_result' && e.games?.PG === 900);
    expect(event.wallet).toBeUndefined();
    expect(event.versions.PG).toBeGreaterThan(0);
    // The wallet read agrees with what was pushed.
    const wallet = await call<{ slots: Array<{ code: string; amount: number }> }>(t.app, 'GET', '/api/wallet', { token: m.token });
    expect(wallet.body.slots.find((s) => s.code === 'PG')?.amount).toBe(900);
  });

  it('a posting in a transaction is announced once it commits, and never when it rolls back', async () => {
    const m = await registerMember(t.app);
    const db = t.services.database.db;
    const seen: string[] = [];
    const stop = t.services.money.balances.subscribe((change) => {
      if (change.memberId === m.id) seen.push(`${change.kind}:${change.wallet?.balance}`);
    });
    onTestFinished(stop);
    const credit = { kind: 'adjustment' as const, operationId: null, postings: [{ account: account.deposits('THB'), amount: -700 }, { account: account.wallet(m.id), amount: 700 }] };
    await expect(
      inTransaction(db, async (trx) => {
        await runPosting(trx, credit);
        expect(seen).toEqual([]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(seen).toEqual([]);
    await inTransaction(db, async (trx) => {
      await runPosting(trx, credit);
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['adjustment:700']);
  });
});
