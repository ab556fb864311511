import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { DEMO_CHAT_TEXT, DEMO_QUEUE_MEMBER } from '../src/modules/demo/queue';
import { call, dbKinds, dropSchema, login, startApp, type TestApp } from './helpers';
import { advance, operatorLogin, useTestClock } from './operator-helpers';

interface Withdrawal { id: string; username: string; amount: number; status: string }
interface Slip { id: string; username: string; amount: number; status: string; note: string | null; transferKey: string | null }
interface Unmatched { id: string; channel: string; reason: string; amount: number; fromBankCode: string | null; fromAccountNo: string | null; toAccountNo: string | null }
interface Thread { id: string; userId: string | null; username: string | null; unread: number }
interface Message { sender: string; message: { message_type: string; payload: { message?: string } } }

/**
 * The demo's back-office queue (SEED_DEMO with SEED_DEMO_QUEUE): made once per database through
 * the domains' services, seen through the operator API, never made twice across restarts, and
 * what operators did to it stays done. Every other suite starts with it off (helpers.ts).
 */
describe.each(dbKinds)('the demo back-office queue on %s', (kind) => {
  const dataDir = kind === 'embedded' ? mkdtempSync(join(tmpdir(), 'mw-demo-queue-')) : 'memory';
  const schema = kind === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  let steps = 0;
  const start = async (env: Record<string, string> = {}): Promise<TestApp> => {
    const t = await startApp(kind, { SEED_DEMO_QUEUE: 'true', DATA_DIR: dataDir, RECONCILE_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0', DEPOSIT_AUDIT_INTERVAL_MS: '0', ...env }, schema);
    useTestClock(t);
    // TOTP steps used by the previous start stay used: this start's clock begins after them.
    advance(t, steps * 30_000);
    return t;
  };
  const staff = async (t: TestApp) => {
    const finance = await operatorLogin(t, 'finance');
    const support = await operatorLogin(t, 'support');
    steps += 4;
    return { finance, support };
  };
  async function queues(t: TestApp, tokens: { finance: string; support: string }) {
    const f = { token: tokens.finance };
    const withdrawals = (await call<{ withdrawals: Withdrawal[] }>(t.app, 'GET', '/api/operator/withdrawals', f)).body.withdrawals;
    const slips = (await call<{ slips: Slip[] }>(t.app, 'GET', '/api/operator/slips?status=PENDING', f)).body.slips;
    const unmatched = (await call<{ deposits: Unmatched[] }>(t.app, 'GET', '/api/operator/deposits/unmatched', f)).body.deposits;
    const threads = (await call<Thread[]>(t.app, 'GET', '/api/operator/chat/conversations', { token: tokens.support })).body;
    return { withdrawals, slips, unmatched, threads };
  }
  async function ledgerOk(t: TestApp, finance: string) {
    expect((await call<{ ok: boolean }>(t.app, 'GET', '/api/operator/ledger/check', { token: finance })).body).toMatchObject({ ok: true });
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  }

  /** A start of the server on the test's data: `body` sees the queues as finance and support do; the ledger is checked after. */
  async function visit(env: Record<string, string>, body: (t: TestApp, tokens: { finance: string; support: string }, q: Awaited<ReturnType<typeof queues>>) => Promise<void>) {
    const t = await start(env);
    try {
      const tokens = await staff(t);
      await body(t, tokens, await queues(t, tokens));
      await ledgerOk(t, tokens.finance);
    } finally {
      await t.close();
    }
  }
  /** The second demo member's wallet, signed in with the README's password. */
  async function secondMemberWallet(t: TestApp): Promise<number> {
    const token = await login(t.app, DEMO_QUEUE_MEMBER.username, DEMO_QUEUE_MEMBER.password);
    return (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;
  }

  afterAll(async () => {
    if (schema) await dropSchema(schema);
    if (kind === 'embedded') rmSync(dataDir, { recursive: true, force: true });
  });

  it('a start without the sandbox bank makes what it can, the next start the rest, a third nothing; what operators did stays done', { timeout: 180_000 }, async () => {
    // First start: the sandbox bank is off, so no slip and no bank deposit; the rest is made.
    let pendingId = '';
    await visit({ BANK_PROVIDER: 'none' }, async (t, tokens, q) => {
      const mine = q.withdrawals.filter((w) => w.username === DEMO_QUEUE_MEMBER.username);
      expect(mine).toEqual([expect.objectContaining({ amount: 1000, status: 'PENDING' })]);
      pendingId = mine[0]?.id ?? '';
      expect(q.slips).toEqual([]);
      expect(q.unmatched).toEqual([]);
      expect(q.threads).toEqual([expect.objectContaining({ userId: DEMO_QUEUE_MEMBER.id, username: DEMO_QUEUE_MEMBER.username, unread: 1 })]);
      // The top-up less the withdrawal is left.
      expect(await secondMemberWallet(t)).toBe(1000);
    });

    // Second start, the sandbox bank on: the slip in progress and the unmatched deposit come; nothing else twice.
    await visit({}, async (t, tokens, q) => {
      expect(q.withdrawals.filter((w) => w.username === DEMO_QUEUE_MEMBER.username).map((w) => w.id)).toEqual([pendingId]);
      expect(q.slips).toEqual([expect.objectContaining({ username: DEMO_QUEUE_MEMBER.username, status: 'PENDING', note: 'UNSTABLE_REFNO_ON_SLIP', transferKey: expect.stringMatching(/^KBANK:/) as unknown })]);
      expect(q.unmatched).toEqual([expect.objectContaining({ channel: 'KBANK', reason: 'NO_MEMBER', amount: 1500, fromBankCode: 'SCB', toAccountNo: '0451234567' })]);
      expect(q.threads).toHaveLength(1);
      const dashboard = await call<{ queues: { withdrawals: { count: number }; slips: { count: number }; unmatched: { count: number }; chats: { count: number; messages: number } } }>(t.app, 'GET', '/api/operator/dashboard', { token: tokens.finance });
      expect(dashboard.body.queues).toMatchObject({ withdrawals: { count: 1 }, slips: { count: 1 }, unmatched: { count: 1 }, chats: { count: 1, messages: 1 } });
      const thread = q.threads[0]?.id ?? '';
      const messages = (await call<Message[]>(t.app, 'GET', `/api/operator/chat/conversations/${thread}/messages`, { token: tokens.support })).body;
      expect(messages.filter((m) => m.sender === 'customer').map((m) => m.message.payload.message)).toEqual([DEMO_CHAT_TEXT]);

      // Finance pays the withdrawal through the sandbox payout bank and refuses the slip; support reads the chat.
      expect((await call<{ payout: string }>(t.app, 'POST', `/api/operator/withdrawals/${pendingId}/approve`, { token: tokens.finance })).body).toMatchObject({ payout: 'paid' });
      const slip = q.slips[0]?.id ?? '';
      expect((await call(t.app, 'POST', `/api/operator/slips/${slip}/reject`, { token: tokens.finance, body: { reason: 'INVALID_SLIP' } })).status).toBe(200);
      expect((await call(t.app, 'PUT', `/api/operator/chat/conversations/${thread}/read`, { token: tokens.support })).status).toBe(200);
    });

    // Third start: nothing is made again, and what was done stays done.
    await visit({}, async (t, tokens, q) => {
      expect(q.withdrawals.filter((w) => w.username === DEMO_QUEUE_MEMBER.username)).toEqual([]);
      expect((await call<{ status: string; payout: string }>(t.app, 'GET', `/api/operator/withdrawals/${pendingId}`, { token: tokens.finance })).body).toMatchObject({ status: 'SUCCESS', payout: 'paid' });
      expect(q.slips).toEqual([]);
      const all = (await call<{ slips: Slip[] }>(t.app, 'GET', '/api/operator/slips', { token: tokens.finance })).body.slips;
      expect(all.map((s) => s.status)).toEqual(['FAILED']);
      expect(q.unmatched).toHaveLength(1);
      expect(q.threads).toEqual([expect.objectContaining({ unread: 0 })]);
      const messages = (await call<Message[]>(t.app, 'GET', `/api/operator/chat/conversations/${q.threads[0]?.id ?? ''}/messages`, { token: tokens.support })).body;
      expect(messages.filter((m) => m.sender === 'customer')).toHaveLength(1);
      expect(await secondMemberWallet(t)).toBe(1000);
    });
  });

  it('stays off with SEED_DEMO_QUEUE=false, and without SEED_DEMO the second demo member is retired', async () => {
    const fresh = await startApp(kind, { SEED_DEMO_QUEUE: 'false' });
    try {
      expect(await fresh.services.accounts.findById(DEMO_QUEUE_MEMBER.id)).toBeNull();
      expect(await fresh.services.deposits.slips.pendingSummary()).toMatchObject({ count: 0 });
      expect(await fresh.services.deposits.bank.unmatchedSummary()).toMatchObject({ count: 0 });
      expect(await fresh.services.chat.unreadSummary()).toMatchObject({ conversations: 0 });
    } finally {
      await fresh.close();
    }
    // The data folder of the test above, started without the demo: the second demo member can no longer log in.
    const off = await startApp(kind, { SEED_DEMO: 'false', DATA_DIR: dataDir }, schema);
    try {
      expect(await off.services.accounts.findById(DEMO_QUEUE_MEMBER.id)).toMatchObject({ status: 'inactive' });
      expect((await call(off.app, 'POST', '/api/login', { body: { username: DEMO_QUEUE_MEMBER.username, password: DEMO_QUEUE_MEMBER.password } })).status).not.toBe(200);
    } finally {
      await off.close();
    }
  });
});
