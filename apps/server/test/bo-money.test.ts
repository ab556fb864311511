import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { buildSlipPayload } from '../src/lib/emvco';
import { qrPng } from './images';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, registration, startApp, verifyPhone, type TestApp } from './helpers';

/**
 * The back office's money answers (issue 32 items 2, 3 and 5): what an operator's confirmation
 * names (member, phone, bank and account, amount in the member's currency), what the server did
 * (held by a limit, waiting for a second approver), and held deposits released or returned.
 */
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const HOUR = 3_600_000;

interface Held {
  id: string;
  memberId: string;
  username: string;
  name: string;
  bankCode: string;
  bankAccountNo: string;
  amount: number;
  currency: string;
  reference: string;
  reason: string;
  status: string;
  source: string;
}
interface Statement {
  statements: Array<{ _id: string; statementType: string; status: string; amount: number; note?: string }>;
}

function multipart(bytes: Buffer) {
  const boundary = `----bm${Date.now()}${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slip.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-requested-with': 'XMLHttpRequest' } };
}

describe.each(dbKinds)('back office money answers on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { DEPOSIT_RECONCILE_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0' });
    await t.services.settings.set('slip', { uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    await call(t.app, 'PUT', '/api/operator/sandbox/clock', { headers: operator, body: { offsetMs: 0 } });
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true, total: 0 });
  });

  async function member() {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    const profile = (await call<{ name: string; bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token })).body;
    return { ...m, token, name: profile.name, bankCode: profile.bankCode, accountNo: profile.bankAccountNo };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;
  const statement = async (token: string) => (await call<Statement>(t.app, 'POST', '/api/statement', { token, body: { page: 1, limit: 20 } })).body.statements;
  const heldOf = async (memberId: string, status = 'HELD') =>
    (await call<{ deposits: Held[] }>(t.app, 'GET', `/api/operator/deposits/held?status=${status}`, { headers: operator })).body.deposits.filter((h) => h.memberId === memberId);
  const bankFeed = (m: { bankCode: string; accountNo: string }, amount: number) =>
    call<{ transRef: string; feed: { status: number } | null }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
      body: { fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: 'KBANK', toAccountNo: '0451234567', amount },
    });
  const auditOf = (target: string) => t.services.database.db.selectFrom('audit_log').select(['operator', 'action', 'after']).where('target', '=', target).execute();

  it('a held deposit names its member and currency; return needs no money and records the outgoing reference; release credits it once; both in the statement and the audit', async () => {
    const m = await member();
    expect((await call(t.app, 'PUT', '/api/responsible/limits', { token: m.token, body: { day: 100 } })).status).toBe(200);
    expect((await bankFeed(m, 600)).body.feed?.status).toBe(200);
    expect((await bankFeed(m, 700)).body.feed?.status).toBe(200);
    const held = await heldOf(m.id);
    expect(held).toHaveLength(2);
    expect(held[0]).toMatchObject({ username: m.phone, name: m.name, bankCode: m.bankCode, bankAccountNo: m.accountNo, amount: 600, currency: 'THB', reason: 'DEPOSIT_LIMIT', status: 'HELD', reference: expect.any(String) });
    const [first, second] = held as [Held, Held];

    // Returned by hand with the outgoing transfer's reference: nothing credited, the reason and reference audited.
    const bad = await call(t.app, 'POST', `/api/operator/deposits/held/${first.id}/return`, { headers: operator, body: { reason: 'sender asked', reference: 'no spaces allowed' } });
    expect(bad.status).toBe(400);
    const returned = await call(t.app, 'POST', `/api/operator/deposits/held/${first.id}/return`, { headers: operator, body: { reason: 'over the limit, sent back', reference: 'KB2611280001' } });
    expect(returned).toMatchObject({ status: 200, body: { ok: true, id: first.id, status: 'RETURNED', reference: 'KB2611280001' } });
    expect(await call(t.app, 'POST', `/api/operator/deposits/held/${first.id}/return`, { headers: operator, body: { reason: 'again' } })).toMatchObject({ status: 404, body: { message: 'NO_HELD_DEPOSIT' } });
    expect(await heldOf(m.id, 'RETURNED')).toEqual([expect.objectContaining({ id: first.id, status: 'RETURNED', amount: 600, currency: 'THB' })]);
    expect((await auditOf(first.id)).map((a) => a.after)).toEqual([expect.objectContaining({ status: 'RETURNED', memberId: m.id, amount: 600, currency: 'THB', reason: 'over the limit, sent back', reference: 'KB2611280001' })]);

    // Released: over the limit a finance operator is refused (the limit's own words), the next day it credits once.
    expect(await call(t.app, 'POST', `/api/operator/deposits/held/${second.id}/release`, { headers: operator })).toMatchObject({ status: 403, body: { message: 'DEPOSIT_LIMIT' } });
    expect((await call(t.app, 'PUT', '/api/responsible/limits', { token: m.token, body: { day: 5000 } })).status).toBe(200);
    await call(t.app, 'PUT', '/api/operator/sandbox/clock', { headers: operator, body: { offsetMs: 25 * HOUR } });
    const released = await Promise.all([1, 2, 3].map(() => call(t.app, 'POST', `/api/operator/deposits/held/${second.id}/release`, { headers: operator })));
    expect(released.filter((r) => r.status === 200)).toEqual([expect.objectContaining({ body: expect.objectContaining({ amount: 700, currency: 'THB', memberId: m.id }) })]);
    expect(await wallet(m.token)).toBe(700);
    expect((await auditOf(second.id)).map((a) => a.after)).toEqual([expect.objectContaining({ status: 'RELEASED', amount: 700, currency: 'THB' })]);

    // The member's statement: the returned one as returned, the released one as credited.
    const lines = await statement(m.token);
    expect(lines.find((l) => l._id === first.id)).toMatchObject({ statementType: 'deposit', status: 'FAILED', amount: 600, note: 'DEPOSIT_RETURNED' });
    expect(lines.find((l) => l._id === second.id)).toMatchObject({ statementType: 'deposit', status: 'SUCCESS', amount: 700 });
    expect(await heldOf(m.id)).toEqual([]);
  });

  it('withdrawals name the member and their currency', async () => {
    const m = await member();
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 500 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 200 } })).status).toBe(200);
    const list = async () =>
      (await call<{ withdrawals: Array<Record<string, unknown>> }>(t.app, 'GET', `/api/operator/withdrawals?status=ALL&q=${m.phone}`, { headers: operator })).body.withdrawals;
    expect(await list()).toEqual([expect.objectContaining({ username: m.phone, name: m.name, bankCode: m.bankCode, bankAccountNo: m.accountNo, amount: 200, currency: 'THB' })]);
  });

  // A Laos-mode server of its own (one database kind is enough for it).
  it.skipIf(kind !== 'embedded')('a kip member\'s withdrawal is listed in LAK (major units: ₭50,000 reads 50000), with the member', async () => {
    const lao = await startApp('embedded', { LAOS_MODE: 'true' });
    try {
      const phone = `20${String(Date.now()).slice(-8)}`;
      const otpToken = await verifyPhone(lao.app, phone);
      expect((await call(lao.app, 'POST', '/api/account', { body: registration(phone, { bankCode: 'BCEL', otpToken }) })).status).toBe(200);
      const token = await login(lao.app, phone, 'secret123');
      expect((await call(lao.app, 'POST', '/api/wallet/add', { token, body: { amount: 80_000 } })).status).toBe(200);
      expect((await call(lao.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 50_000 } })).status).toBe(200);
      const rows = (await call<{ withdrawals: Array<Record<string, unknown>> }>(lao.app, 'GET', `/api/operator/withdrawals?status=ALL&q=${phone}`, { headers: operator })).body.withdrawals;
      expect(rows).toEqual([expect.objectContaining({ username: phone, bankCode: 'BCEL', amount: 50_000, currency: 'LAK' })]);
    } finally {
      await lao.close();
    }
  });

  it('a slip in progress whose amount the bank does not know reads as unknown (null), not ฿0.00; with the member and currency', async () => {
    const m = await member();
    const png = await qrPng(buildSlipPayload({ sendingBank: '004', transRef: `2611${Date.now()}` }));
    const form = multipart(png);
    const sent = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${m.token}` } });
    expect(sent.json()).toMatchObject({ status: 'PENDING', note: 'UNSTABLE_REFNO_ON_SLIP' });
    const slips = (await call<{ slips: Array<Record<string, unknown>> }>(t.app, 'GET', '/api/operator/slips?status=PENDING', { headers: operator })).body.slips.filter((s) => s.memberId === m.id);
    expect(slips).toEqual([expect.objectContaining({ amount: null, currency: 'THB', username: m.phone, name: m.name, bankCode: m.bankCode, bankAccountNo: m.accountNo })]);
  });

  it('assigning an unmatched deposit to a member whose limit holds it says held, not credited', async () => {
    const m = await member();
    expect((await call(t.app, 'PUT', '/api/responsible/limits', { token: m.token, body: { day: 100 } })).status).toBe(200);
    // From an account no member registered: unmatched.
    const stranger = `9${String(Date.now()).slice(-9)}`;
    const sent = await call<{ transRef: string }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
      body: { fromBankCode: 'SCB', fromAccountNo: stranger, toBankCode: 'KBANK', toAccountNo: '0451234567', amount: 1500 },
    });
    expect(sent.status).toBe(200);
    const unmatched = (await call<{ deposits: Array<{ id: string; fromAccountNo: string | null; amount: number; currency: string }> }>(t.app, 'GET', '/api/operator/deposits/unmatched', { headers: operator })).body.deposits;
    const deposit = unmatched.find((d) => d.fromAccountNo === stranger);
    expect(deposit).toMatchObject({ amount: 1500, currency: 'THB' });
    const assigned = await call(t.app, 'POST', `/api/operator/deposits/${deposit?.id}/assign`, { headers: operator, body: { memberId: m.id } });
    expect(assigned).toMatchObject({ status: 200, body: { memberId: m.id, amount: 1500, currency: 'THB', held: 'DEPOSIT_LIMIT' } });
    expect(await wallet(m.token)).toBe(0);
    expect(await heldOf(m.id)).toEqual([expect.objectContaining({ amount: 1500, currency: 'THB', name: m.name })]);
  });
});
