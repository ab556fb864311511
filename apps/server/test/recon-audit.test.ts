import type { AuditRow } from '@mw/contract/admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';
import { operatorLogin, useTestClock, withoutTurnoverSignal } from './operator-helpers';

/**
 * Back office II, item 8: the reconciliation screen's answer (per day × outside system matched
 * counts and sums per currency, every open item with its reference and where to act on it) and
 * the audit's sentences (the member's phone and the amount in its currency beside each money entry).
 */
interface Day {
  day: string;
  system: string;
  currency: string;
  matched: number;
  matchedAmount: number;
  open: number;
  openAmount: number;
}
interface Item {
  kind: string;
  system: string;
  reference: string;
  amount: number | null;
  currency: string | null;
  at: string;
  detail: string | null;
  memberId: string | null;
  link: { screen: string; id: string | null };
}
interface Recon {
  ok: boolean;
  timeZone: string;
  days: Day[];
  items: Item[];
}

const KBANK_AUTO = { bank: 'KBANK', no: '0451234567' };

describe.each(dbKinds)('reconciliation screen and readable audit on %s', (kind) => {
  let t: TestApp;
  let finance: string;
  let owner: string;
  const as = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
  let seq = 0;
  const key = () => `recon-audit-${Date.now()}-${++seq}`;

  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440', PAYOUT_SETTLE_INTERVAL_MS: '0', DEPOSIT_RECONCILE_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0' });
    useTestClock(t);
    await withoutTurnoverSignal(t);
    finance = await operatorLogin(t, 'finance');
    owner = await operatorLogin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function member() {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    const profile = (await call<{ bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token })).body;
    return { ...m, token, bankCode: profile.bankCode, accountNo: profile.bankAccountNo };
  }
  const bankTransfer = (body: Record<string, unknown>) => call<{ transRef: string; feed: { status: number } | null }>(t.app, 'POST', '/api/sandbox/bank/transfers', { body });
  const totals = (days: Day[], system: string) =>
    days.filter((d) => d.system === system && d.currency === 'THB').reduce((sum, d) => ({ matched: sum.matched + d.matched, matchedAmount: sum.matchedAmount + d.matchedAmount, open: sum.open + d.open, openAmount: sum.openAmount + d.openAmount }), { matched: 0, matchedAmount: 0, open: 0, openAmount: 0 });

  it('lists an unmatched bank transfer by its reference with amount, currency and a link; counts and sums what matched per system', async () => {
    const m = await member();
    // Matched: a bank-feed transfer of ฿100 and a paid QR of ฿200.
    expect((await bankTransfer({ fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: KBANK_AUTO.bank, toAccountNo: KBANK_AUTO.no, amount: 100 })).body.feed).toEqual({ status: 200 });
    const qr = await call<{ qrcodeId: string }>(t.app, 'POST', '/api/qrcode/WW', { token: m.token, body: { amount: 200 } });
    expect((await call(t.app, 'POST', `/api/sandbox/payments/${qr.body.qrcodeId}/pay`)).status).toBe(200);
    // A payout of ฿150 paid by the sandbox bank.
    const withdraw = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 150 } });
    expect(withdraw.status).toBe(200);
    expect((await call<{ payout: string }>(t.app, 'POST', `/api/operator/withdrawals/${withdraw.body.reference}/approve`, { headers: as(finance) })).body.payout).toBe('paid');
    // Money from an account no member has: it waits, unmatched, for an operator.
    const stranger = await bankTransfer({ fromBankCode: 'KTB', fromAccountNo: '8887776665', toBankCode: KBANK_AUTO.bank, toAccountNo: KBANK_AUTO.no, amount: 30.5 });
    expect(stranger.body.feed).toEqual({ status: 200 });
    const unmatched = (await call<{ deposits: Array<{ id: string; reference: string }> }>(t.app, 'GET', '/api/operator/deposits/unmatched', { headers: as(finance) })).body.deposits;
    const waiting = unmatched.find((d) => d.reference.endsWith(stranger.body.transRef.toUpperCase()));
    expect(waiting).toBeDefined();

    const res = await call<Recon>(t.app, 'GET', '/api/operator/reconciliation', { headers: as(finance) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, timeZone: 'Asia/Bangkok' });
    expect(res.body.items).toContainEqual(
      expect.objectContaining({ kind: 'unmatched', system: 'bank', reference: `KTB/${stranger.body.transRef}`, amount: 30.5, currency: 'THB', memberId: null, link: { screen: 'deposits', id: waiting?.id } }),
    );
    expect(res.body.items.every((i) => !Number.isNaN(Date.parse(i.at)))).toBe(true);
    expect(totals(res.body.days, 'bank')).toEqual({ matched: 1, matchedAmount: 100, open: 1, openAmount: 30.5 });
    expect(totals(res.body.days, 'gateway')).toEqual({ matched: 1, matchedAmount: 200, open: 0, openAmount: 0 });
    expect(totals(res.body.days, 'payout')).toEqual({ matched: 1, matchedAmount: 150, open: 0, openAmount: 0 });
    expect(res.body.days.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d.day))).toBe(true);
    // Support may not read it; a period before it all holds nothing.
    expect((await call<Recon>(t.app, 'GET', '/api/operator/reconciliation?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z', { headers: as(finance) })).body).toMatchObject({ days: [], items: [] });
  });

  it('names the operator, the member\'s phone and the amount in its currency for approvals, withdrawals and manual credits', async () => {
    const m = await member();
    // A ฿60,000 credit waits for a second person; the owner approves it.
    const credit = await call<{ approvalId: string }>(t.app, 'POST', '/api/operator/deposits', { headers: as(finance, { 'idempotency-key': key() }), body: { memberId: m.id, amount: 60_000, currency: 'BAHT', note: 'cash' } });
    expect(credit.status).toBe(202);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${credit.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
    // A small credit finance makes alone.
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: as(finance, { 'idempotency-key': key() }), body: { memberId: m.id, amount: 15.25, currency: 'BAHT', note: 'cash' } })).status).toBe(200);
    // A ฿50,000 withdrawal: finance approves, the owner is the second person.
    const asked = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 50_000 } });
    expect(asked.status).toBe(200);
    const approve = await call<{ approvalId: string }>(t.app, 'POST', `/api/operator/withdrawals/${asked.body.reference}/approve`, { headers: as(finance) });
    expect(approve.status).toBe(202);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${approve.body.approvalId}/approve`, { headers: as(owner) })).status).toBe(200);
    // A withdrawal finance refuses.
    const small = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 700 } });
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${small.body.reference}/reject`, { headers: as(finance), body: { note: 'name differs' } })).status).toBe(200);

    // Filtered by the member's phone: every entry names the member and the amount.
    const audit = await call<{ rows: AuditRow[] }>(t.app, 'GET', `/api/operator/audit?member=${m.phone}&limit=50`, { headers: as(owner) });
    expect(audit.status).toBe(200);
    const rows = audit.body.rows;
    const subject = (amount: number, request: string | null = null) => ({ memberId: m.id, phone: m.phone, amount, currency: 'THB', request });
    const approvedWithdrawal = rows.find((r) => r.entity === 'approval' && r.target === approve.body.approvalId && (r.after as { status?: string }).status === 'approved');
    expect(approvedWithdrawal).toMatchObject({ operator: 'owner', subject: subject(50_000, 'withdrawal.approve') });
    const askedWithdrawal = rows.find((r) => r.entity === 'approval' && r.target === approve.body.approvalId && (r.after as { status?: string }).status === 'pending');
    expect(askedWithdrawal).toMatchObject({ operator: 'finance', subject: subject(50_000, 'withdrawal.approve') });
    expect(rows.find((r) => r.entity === 'approval' && r.target === credit.body.approvalId && (r.after as { status?: string }).status === 'approved')).toMatchObject({ operator: 'owner', subject: subject(60_000, 'deposit.manual') });
    expect(rows.find((r) => r.entity === 'withdrawal' && r.target === asked.body.reference)).toMatchObject({ operator: 'owner', subject: subject(50_000) });
    expect(rows.find((r) => r.entity === 'withdrawal' && r.target === small.body.reference)).toMatchObject({ operator: 'finance', subject: subject(700) });
    expect(rows.find((r) => r.action === 'POST /api/operator/deposits')).toMatchObject({ operator: 'finance', subject: subject(15.25) });
    // The same rows by the member's id.
    const byId = await call<{ rows: AuditRow[] }>(t.app, 'GET', `/api/operator/audit?member=${m.id}&limit=50`, { headers: as(owner) });
    expect(byId.body.rows.map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });
});
