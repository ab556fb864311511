import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { account, balances, checkInvariants } from '../src/money/ledger';
import { settleOnce } from '../src/money/operations';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';
import { advance, newOperator, operatorLogin, useTestClock, withoutTurnoverSignal } from './operator-helpers';

const as = (name: string) => ({ authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': name });
let keySeq = 0;
const newKey = () => `payout-key-${Date.now()}-${++keySeq}`;

interface Payout {
  id: string;
  status: string;
  payout: string;
  failure: string | null;
  bankStatus: string | null;
  method: string | null;
}

/** A member with `topUp` baht in the wallet and a pending withdrawal of `amount` baht (its id). */
async function withdrawal(t: TestApp, amount: number, topUp = 1000): Promise<{ memberId: string; token: string; id: string }> {
  const { phone, password, id: memberId } = await registerMember(t.app);
  const token = await login(t.app, phone, password);
  expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: topUp } })).status).toBe(200);
  const held = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount } });
  expect(held.status).toBe(200);
  return { memberId, token, id: held.body.reference };
}

async function wallet(t: TestApp, memberId: string): Promise<{ wallet: number; held: number }> {
  const found = await balances(t.services.database.db, [account.wallet(memberId), account.withdrawal(memberId)]);
  return { wallet: found.get(account.wallet(memberId))?.balance ?? 0, held: found.get(account.withdrawal(memberId))?.balance ?? 0 };
}

/** The sandbox bank's outgoing transfers of a reference (its own book). */
async function bankTransfers(t: TestApp, reference: string) {
  const record = await t.services.sandboxPayouts?.record(reference);
  return record ? [record] : [];
}

async function ledgerTransactions(t: TestApp, operationId: string): Promise<number> {
  const rows = await t.services.database.db.selectFrom('ledger_transactions').select('id').where('operation_id', '=', operationId).execute();
  return rows.length;
}

const fault = (t: TestApp, mode: string, failure?: string) =>
  call(t.app, 'PUT', '/api/operator/sandbox/bank/payout-fault', { headers: as('tester'), body: failure ? { mode, failure } : { mode } });

describe.each(dbKinds)('payouts through the bank on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { PROVIDER_TIMEOUT_MS: '200', PAYOUT_SETTLE_INTERVAL_MS: '0' });
    await withoutTurnoverSignal(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pays once when two operators approve at once, and a retried approve answers the same and moves nothing', async () => {
    const w = await withdrawal(t, 200);
    const [a, b] = await Promise.all([
      call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-a') }),
      call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-b') }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const answer of [a.body, b.body]) expect(['processing', 'paid']).toContain(answer.payout);
    expect(await bankTransfers(t, w.id)).toEqual([expect.objectContaining({ reference: w.id, amount: expect.anything(), state: 'completed' })]);
    expect(Number((await bankTransfers(t, w.id))[0]?.amount)).toBe(20_000);
    const paid = await call<Payout>(t.app, 'GET', `/api/operator/withdrawals/${w.id}`, { headers: as('finance-a') });
    expect(paid.body).toMatchObject({ status: 'SUCCESS', payout: 'paid', method: 'bank', bankStatus: 'completed' });
    expect(await wallet(t, w.memberId)).toEqual({ wallet: 80_000, held: 0 });
    // hold + completion: two ledger transactions, and a retry adds none.
    expect(await ledgerTransactions(t, w.id)).toBe(2);
    const again = await call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-a') });
    expect(again.body).toMatchObject({ status: 'SUCCESS', payout: 'paid' });
    expect(await ledgerTransactions(t, w.id)).toBe(2);
    expect(await bankTransfers(t, w.id)).toHaveLength(1);
    // Paid through the bank: it can no longer be completed or rejected by hand.
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/reject`, { headers: as('finance-a'), body: { note: 'late' } })).status).toBe(404);
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/complete`, { headers: as('owner') })).status).toBe(404);
    // The member's statement shows it paid.
    const statement = await call<{ statements: Array<{ statementType: string; status: string }> }>(t.app, 'POST', '/api/statement', { token: w.token, body: { page: 1, limit: 10 } });
    expect(statement.body.statements.find((s) => s.statementType === 'withdraw')).toMatchObject({ status: 'SUCCESS' });
  });

  it('settles nothing on an answer about another account (another bank, another number): left processing until the bank says', async () => {
    const w = await withdrawal(t, 120);
    const payouts = t.services.payouts as unknown as { provider: NonNullable<typeof t.services.payouts.provider> };
    const real = payouts.provider;
    for (const wrong of [{ bankCode: 'SCB' }, { accountNo: '0000000000' }]) {
      // The bank's answer names another account than the one the withdrawal was sent to.
      payouts.provider = { ...real, name: real.name, send: async (request) => ({ ...(await real.send(request)), ...wrong }), status: async (reference) => {
        const answer = await real.status(reference);
        return answer ? { ...answer, ...wrong } : null;
      } };
      try {
        const answer = await call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-a') });
        expect(answer.body).toMatchObject({ status: 'PENDING', payout: 'processing', bankStatus: 'mismatch' });
        expect(await t.services.payouts.settle(0)).toBe(0);
        expect(await wallet(t, w.memberId)).toEqual({ wallet: 88_000, held: 12_000 });
        expect(await ledgerTransactions(t, w.id)).toBe(1);
      } finally {
        payouts.provider = real;
      }
    }
    // The bank's own answer (the right account) settles it, once.
    expect(await t.services.payouts.settle(0)).toBe(1);
    expect(await wallet(t, w.memberId)).toEqual({ wallet: 88_000, held: 0 });
    expect(await bankTransfers(t, w.id)).toHaveLength(1);
    expect(await ledgerTransactions(t, w.id)).toBe(2);
  });

  it('returns the money once with the reason when the bank fails the transfer', async () => {
    const w = await withdrawal(t, 300);
    expect((await fault(t, 'reject', 'NAME_MISMATCH')).status).toBe(200);
    try {
      const answer = await call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-a') });
      expect(answer.body).toMatchObject({ status: 'FAILED', payout: 'returned', failure: 'NAME_MISMATCH', bankStatus: 'failed' });
    } finally {
      await fault(t, 'none');
    }
    expect(await wallet(t, w.memberId)).toEqual({ wallet: 100_000, held: 0 });
    // Approving again (the bank is fine now) sends nothing and moves nothing.
    expect((await call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-b') })).body).toMatchObject({ payout: 'returned' });
    expect(await t.services.payouts.settle(0)).toBe(0);
    expect(await bankTransfers(t, w.id)).toEqual([expect.objectContaining({ state: 'failed', failure: 'NAME_MISMATCH' })]);
    expect(await ledgerTransactions(t, w.id)).toBe(2);
    expect(await wallet(t, w.memberId)).toEqual({ wallet: 100_000, held: 0 });
    const statement = await call<{ statements: Array<{ statementType: string; status: string; note?: string }> }>(t.app, 'POST', '/api/statement', { token: w.token, body: { page: 1, limit: 10 } });
    expect(statement.body.statements.find((s) => s.statementType === 'withdraw')).toMatchObject({ status: 'FAILED', note: 'PAYOUT_NAME_MISMATCH' });
  });

  it('settles a payout whose answer was lost by asking the bank, without paying twice', async () => {
    const w = await withdrawal(t, 150);
    await fault(t, 'lost');
    try {
      const answer = await call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-a') });
      expect(answer.body).toMatchObject({ status: 'PENDING', payout: 'processing', bankStatus: 'unknown' });
    } finally {
      await fault(t, 'none');
    }
    // The bank executed it; the ledger still holds the money.
    expect(await bankTransfers(t, w.id)).toEqual([expect.objectContaining({ state: 'completed' })]);
    expect(await wallet(t, w.memberId)).toEqual({ wallet: 85_000, held: 15_000 });
    const listed = await call<{ withdrawals: Array<{ id: string; payout: string }> }>(t.app, 'GET', '/api/operator/withdrawals', { headers: as('finance-a') });
    expect(listed.body.withdrawals.find((x) => x.id === w.id)).toMatchObject({ payout: 'processing' });
    // By hand it cannot end while the bank has it.
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/reject`, { headers: as('finance-a'), body: { note: 'x' } })).body).toMatchObject({ message: 'WITHDRAWAL_PROCESSING' });
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/complete`, { headers: as('owner') })).body).toMatchObject({ message: 'WITHDRAWAL_PROCESSING' });
    expect(await t.services.payouts.settle(0)).toBeGreaterThanOrEqual(1);
    expect((await t.services.payouts.get(w.id))).toMatchObject({ status: 'SUCCESS', payout: 'paid' });
    expect(await bankTransfers(t, w.id)).toHaveLength(1);
    expect(await wallet(t, w.memberId)).toEqual({ wallet: 85_000, held: 0 });
  });

  it('sends again a payout the bank never received (timeout, bank down), once', async () => {
    const timedOut = await withdrawal(t, 120);
    const down = await withdrawal(t, 130);
    await fault(t, 'timeout');
    try {
      expect((await call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${timedOut.id}/approve`, { headers: as('finance-a') })).body).toMatchObject({ payout: 'processing', bankStatus: 'unknown' });
    } finally {
      await fault(t, 'none');
    }
    await fault(t, 'down');
    try {
      expect((await call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${down.id}/approve`, { headers: as('finance-a') })).body).toMatchObject({ payout: 'processing', bankStatus: 'unavailable' });
      // Still down: the settler leaves it processing.
      await t.services.payouts.settle(0);
      expect(await t.services.payouts.get(down.id)).toMatchObject({ payout: 'processing', bankStatus: 'unavailable' });
    } finally {
      await fault(t, 'none');
    }
    expect(await bankTransfers(t, timedOut.id)).toHaveLength(0);
    expect(await bankTransfers(t, down.id)).toHaveLength(0);
    await Promise.all([t.services.payouts.settle(0), t.services.payouts.settle(0)]);
    for (const w of [timedOut, down]) {
      expect(await t.services.payouts.get(w.id)).toMatchObject({ status: 'SUCCESS', payout: 'paid' });
      expect(await bankTransfers(t, w.id)).toHaveLength(1);
      expect((await wallet(t, w.memberId)).held).toBe(0);
    }
  });

  it('waits for a transfer the bank accepted until the bank completes it', async () => {
    const w = await withdrawal(t, 140);
    await fault(t, 'accept');
    try {
      expect((await call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-a') })).body).toMatchObject({ payout: 'processing', bankStatus: 'accepted' });
    } finally {
      await fault(t, 'none');
    }
    // Not due yet: the settler asks and leaves it processing.
    await t.services.sandboxPayouts?.completeAt(w.id, new Date(Date.now() + 3_600_000));
    await t.services.payouts.settle(0);
    expect(await t.services.payouts.get(w.id)).toMatchObject({ payout: 'processing', bankStatus: 'accepted' });
    // The bank's batch ran: asked again, it answers completed.
    await t.services.sandboxPayouts?.completeAt(w.id, new Date(Date.now() - 1000));
    await t.services.payouts.settle(0);
    expect(await t.services.payouts.get(w.id)).toMatchObject({ status: 'SUCCESS', payout: 'paid', bankStatus: 'completed' });
    expect(await bankTransfers(t, w.id)).toHaveLength(1);
  });

  it('finishes what a crash interrupted: a claimed rejection, and a settled payout whose row was not marked', async () => {
    const db = t.services.database.db;
    const rejected = await withdrawal(t, 160);
    const paid = await withdrawal(t, 170);
    const sandbox = t.services.sandboxPayouts;
    if (!sandbox) throw new Error('the sandbox payout API is the default');
    const target = async (id: string) => {
      const op = await db.selectFrom('operations').select('target').where('id', '=', id).executeTakeFirstOrThrow();
      const [bankCode = '', accountNo = ''] = op.target.split(' ');
      return { bankCode, accountNo };
    };
    const claimRow = async (id: string, memberId: string, method: 'reject' | 'bank', amount: number) => {
      const { bankCode, accountNo } = await target(id);
      await db
        .insertInto('withdrawal_payouts')
        .values({ withdrawal_id: id, member_id: memberId, method, state: 'processing', provider: 'sandbox', amount, currency: 'THB', bank_code: bankCode, account_no: accountNo, account_name: 'SOMCHAI JAIDEE', failure: null, reason: method === 'reject' ? 'NAME_MISMATCH' : null, bank_ref: null, bank_status: null, by_operator: 'finance-a', settled_at: null })
        .execute();
    };
    // A process died right after claiming the rejection, before the money moved.
    await claimRow(rejected.id, rejected.memberId, 'reject', 16_000);
    // …and another died after the bank's answer settled the money, before marking the row.
    await claimRow(paid.id, paid.memberId, 'bank', 17_000);
    await sandbox.send({ reference: paid.id, ...(await target(paid.id)), accountName: 'SOMCHAI JAIDEE', amount: 17_000, currency: 'THB' });
    await settleOnce(db, paid.id, 'SUCCESS', null, {
      kind: 'withdraw_complete',
      operationId: paid.id,
      postings: [{ account: account.withdrawal(paid.memberId), amount: -17_000 }, { account: account.withdrawals('THB'), amount: 17_000 }],
    });
    expect(await t.services.payouts.settle(0)).toBe(2);
    expect(await t.services.payouts.get(rejected.id)).toMatchObject({ status: 'FAILED', payout: 'returned', reason: 'NAME_MISMATCH' });
    expect(await wallet(t, rejected.memberId)).toEqual({ wallet: 100_000, held: 0 });
    expect(await t.services.payouts.get(paid.id)).toMatchObject({ status: 'SUCCESS', payout: 'paid' });
    expect(await wallet(t, paid.memberId)).toEqual({ wallet: 83_000, held: 0 });
    // Nothing more moves on another round.
    expect(await t.services.payouts.settle(0)).toBe(0);
    expect(await ledgerTransactions(t, rejected.id)).toBe(2);
    expect(await ledgerTransactions(t, paid.id)).toBe(2);
  });

  it('keeps manual completion as the owner\'s recorded override, counted apart by the reconciliation', async () => {
    const w = await withdrawal(t, 110);
    const done = await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/complete`, { headers: as('owner') });
    expect(done.body).toEqual({ id: w.id, status: 'SUCCESS' });
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/complete`, { headers: as('owner') })).body).toEqual({ id: w.id, status: 'SUCCESS' });
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-a') })).body).toMatchObject({ payout: 'paid', method: 'manual' });
    expect(await bankTransfers(t, w.id)).toHaveLength(0);
    const audit = await t.services.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'withdrawal').where('target', '=', w.id).execute();
    expect(audit).toEqual([expect.objectContaining({ operator: 'api-key', on_behalf_of: 'owner', after: expect.objectContaining({ method: 'manual', override: true }) })]);
    // Finance sends through the bank: marking paid by hand is refused, and the list says why the screen offers no such button.
    const finance = await operatorLogin(t, 'finance');
    const other = await withdrawal(t, 120);
    expect(await call(t.app, 'POST', `/api/operator/withdrawals/${other.id}/complete`, { token: finance })).toMatchObject({ status: 403, body: { message: 'PAYOUT_OWNER_OVERRIDE' } });
    expect((await call<{ payoutProvider: string }>(t.app, 'GET', '/api/operator/withdrawals', { token: finance })).body.payoutProvider).not.toBe('manual');
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${other.id}/reject`, { token: finance, body: { note: 'asked twice' } })).status).toBe(200);
    expect(await ledgerTransactions(t, w.id)).toBe(2);
  });

  it('ends with the ledger and the payouts reconciled', async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
    const report = await call<{ ok: boolean; payouts: { ok: boolean; breaches: unknown[]; checked: { matched: number; manual: number } } }>(t.app, 'GET', '/api/operator/reconciliation', { headers: as('finance-a') });
    expect(report.body.payouts.breaches).toEqual([]);
    expect(report.body.payouts).toMatchObject({ ok: true, checked: { matched: 7, manual: 1 } });
    expect(report.body.ok).toBe(true);
  });

  // After the reconciliation's counts above (each race adds a payout or not).
  it('an approve that meets a reject under way answers what happened (returned), never "processing" for money not sent', async () => {
    for (let i = 0; i < 6; i += 1) {
      const w = await withdrawal(t, 100 + i);
      const [approved, rejected] = await Promise.all([
        call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-a') }),
        call<{ status?: string; message?: string }>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/reject`, { headers: as('finance-b'), body: { note: 'name differs' } }),
      ]);
      expect(approved.status).toBe(200);
      if (rejected.status === 200) expect(approved.body).toMatchObject({ status: 'FAILED', payout: 'returned', method: 'reject' });
      else {
        expect(approved.body).toMatchObject({ method: 'bank' });
        expect(['WITHDRAWAL_PROCESSING', 'NO_OPERATION']).toContain(rejected.body.message);
      }
    }
  });
});

describe.each(dbKinds)('four eyes on %s', (kind) => {
  let t: TestApp;
  // People with sessions: the maker (finance), the owner and a third checker the owner made (they may
  // check finance's requests, not the owner's, for 7 days).
  const people = new Map<string, string>();
  let carolLogin = { username: '', password: '', secret: '' };
  const by = (name: string) => ({ authorization: `Bearer ${people.get(name) ?? ''}` });
  beforeAll(async () => {
    // 100 baht: the suite's amounts above it need a second operator.
    t = await startApp(kind, { FOUR_EYES_THRESHOLD: '100', PAYOUT_SETTLE_INTERVAL_MS: '0', OPERATOR_IDLE_MINUTES: '1440' });
    await withoutTurnoverSignal(t);
    useTestClock(t);
    people.set('alice', await operatorLogin(t, 'finance'));
    people.set('bob', await operatorLogin(t, 'owner'));
    carolLogin = await newOperator(t, 'finance', people.get('bob') ?? '');
    people.set('carol', await operatorLogin(t, carolLogin.username, carolLogin.password, carolLogin.secret));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('holds a withdrawal above the threshold for a second operator, who pays it once', async () => {
    const w = await withdrawal(t, 200);
    const asked = await call<{ status: string; approvalId: string }>(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: by('alice') });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ status: 'awaiting-approval', approvalId: expect.any(String) });
    // Asking again finds the same approval; nothing was sent.
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: by('alice') })).body).toEqual(asked.body);
    expect(await bankTransfers(t, w.id)).toHaveLength(0);
    const id = asked.body.approvalId;
    const listed = await call<{ approvals: Array<{ id: string; action: string; maker: string; amount: number; status: string }> }>(t.app, 'GET', '/api/operator/approvals?status=pending', { headers: by('bob') });
    expect(listed.body.approvals).toContainEqual(expect.objectContaining({ id, action: 'withdrawal.approve', maker: 'finance', amount: 200, status: 'pending', member: expect.objectContaining({ id: w.memberId, phone: expect.any(String), bank: expect.any(String), account: expect.any(String), currency: 'THB' }) }));
    // The maker cannot be the checker, and the automation key is nobody's second pair of eyes, whatever name it types.
    const self = await call(t.app, 'POST', `/api/operator/approvals/${id}/approve`, { headers: by('alice') });
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ message: 'SAME_OPERATOR' });
    for (const name of ['bob', 'someone-else']) {
      const key = await call(t.app, 'POST', `/api/operator/approvals/${id}/approve`, { headers: as(name) });
      expect(key).toMatchObject({ status: 403, body: { message: 'API_KEY_NOT_A_PERSON' } });
      expect((await call(t.app, 'POST', `/api/operator/approvals/${id}/reject`, { headers: as(name), body: { note: 'no' } })).body).toEqual({ message: 'API_KEY_NOT_A_PERSON' });
    }
    const [bob, carol] = await Promise.all([
      call<{ status: string; result: { status: number; body: Payout } }>(t.app, 'POST', `/api/operator/approvals/${id}/approve`, { headers: by('bob') }),
      call<{ status: string; result: { status: number; body: Payout } }>(t.app, 'POST', `/api/operator/approvals/${id}/approve`, { headers: by('carol') }),
    ]);
    expect([bob.status, carol.status]).toEqual([200, 200]);
    expect(bob.body.result.status).toBe(200);
    expect(await bankTransfers(t, w.id)).toHaveLength(1);
    expect(await t.services.payouts.get(w.id)).toMatchObject({ status: 'SUCCESS', payout: 'paid' });
    expect(await ledgerTransactions(t, w.id)).toBe(2);
    const decided = await call<{ status: string; checker: string }>(t.app, 'GET', `/api/operator/approvals/${id}`, { headers: by('alice') });
    expect(decided.body).toMatchObject({ status: 'approved' });
    expect(['owner', carolLogin.username]).toContain(decided.body.checker);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${id}/reject`, { headers: by('bob'), body: { note: 'late' } })).body).toEqual({ message: 'APPROVAL_CLOSED' });
    // Approving again answers the kept result and runs nothing.
    expect((await call(t.app, 'POST', `/api/operator/approvals/${id}/approve`, { headers: by('carol') })).body).toMatchObject({ status: 'approved', result: { status: 200 } });
    expect(await bankTransfers(t, w.id)).toHaveLength(1);
    // At or below the threshold (for this member over 24 h) one operator pays.
    const small = await withdrawal(t, 100);
    expect((await call<Payout>(t.app, 'POST', `/api/operator/withdrawals/${small.id}/approve`, { headers: by('alice') })).body).toMatchObject({ payout: 'paid' });
  });

  it('an operator the maker created this week cannot approve the maker\'s requests; the maker cancels their own', async () => {
    const { id: memberId } = await registerMember(t.app);
    const body = { memberId, amount: 150, currency: 'BAHT', note: 'cash at the counter' };
    const asked = await call<{ approvalId: string }>(t.app, 'POST', '/api/operator/deposits', { headers: { ...by('bob'), 'idempotency-key': newKey() }, body });
    expect(asked.status).toBe(202);
    // carol was created by the owner (bob) minutes ago.
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/approve`, { headers: by('carol') })).body).toEqual({ message: 'CHECKER_TOO_NEW' });
    expect((await wallet(t, memberId)).wallet).toBe(0);
    // Someone else may not cancel it; the maker may, and then nobody can approve it.
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/cancel`, { headers: by('alice'), body: {} })).body).toEqual({ message: 'NOT_THE_MAKER' });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/cancel`, { headers: by('bob'), body: { note: 'wrong member' } })).body).toMatchObject({ status: 'cancelled', note: 'wrong member' });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${asked.body.approvalId}/approve`, { headers: by('alice') })).body).toEqual({ message: 'APPROVAL_CLOSED' });
    // A week on, carol may check the owner's requests (new sessions: the old ones ran out).
    advance(t, 7 * 24 * 3_600_000 + 60_000);
    people.set('bob', await operatorLogin(t, 'owner'));
    people.set('alice', await operatorLogin(t, 'finance'));
    people.set('carol', await operatorLogin(t, carolLogin.username, carolLogin.password, carolLogin.secret));
    const later = await call<{ approvalId: string }>(t.app, 'POST', '/api/operator/deposits', { headers: { ...by('bob'), 'idempotency-key': newKey() }, body });
    expect(later.status).toBe(202);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${later.body.approvalId}/approve`, { headers: by('carol') })).body).toMatchObject({ status: 'approved', result: { status: 200 } });
    expect((await wallet(t, memberId)).wallet).toBe(15_000);
  });

  it('runs an approved manual credit exactly once, and a rejected one never', async () => {
    const { id: memberId } = await registerMember(t.app);
    const body = { memberId, amount: 150, currency: 'BAHT', note: 'cash at the counter' };
    const key = newKey();
    const first = await call<{ status: string; approvalId: string }>(t.app, 'POST', '/api/operator/deposits', { headers: { ...by('alice'), 'idempotency-key': key }, body });
    expect(first.status).toBe(202);
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...by('alice'), 'idempotency-key': key }, body })).body).toEqual(first.body);
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...by('alice'), 'idempotency-key': key }, body: { ...body, amount: 151 } })).body).toEqual({ message: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await wallet(t, memberId)).wallet).toBe(0);
    expect((await call(t.app, 'POST', `/api/operator/approvals/${first.body.approvalId}/approve`, { headers: by('alice') })).body).toEqual({ message: 'SAME_OPERATOR' });
    const approved = await call<{ result: { status: number; body: { ok: boolean; reference: string } } }>(t.app, 'POST', `/api/operator/approvals/${first.body.approvalId}/approve`, { headers: by('bob') });
    expect(approved.body.result).toMatchObject({ status: 200, body: { ok: true } });
    expect((await wallet(t, memberId)).wallet).toBe(15_000);
    const again = await call<{ result: unknown }>(t.app, 'POST', `/api/operator/approvals/${first.body.approvalId}/approve`, { headers: by('bob') });
    expect(again.body.result).toEqual(approved.body.result);
    // The maker's retry after the approval answers what the credit answered.
    const retry = await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...by('alice'), 'idempotency-key': key }, body });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(approved.body.result.body);
    expect((await wallet(t, memberId)).wallet).toBe(15_000);
    // Rejected: nothing runs, and it cannot be approved afterwards.
    const other = await call<{ approvalId: string }>(t.app, 'POST', '/api/operator/deposits', { headers: { ...by('alice'), 'idempotency-key': newKey() }, body: { ...body, amount: 500 } });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${other.body.approvalId}/reject`, { headers: by('carol'), body: { note: 'no receipt' } })).body).toMatchObject({ status: 'rejected', note: 'no receipt' });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${other.body.approvalId}/approve`, { headers: by('bob') })).body).toEqual({ message: 'APPROVAL_CLOSED' });
    expect((await wallet(t, memberId)).wallet).toBe(15_000);
    // Below the threshold: credited at once.
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...by('alice'), 'idempotency-key': newKey() }, body: { ...body, amount: 50 } })).status).toBe(200);
    expect((await wallet(t, memberId)).wallet).toBe(20_000);
    // …but the member's 24-hour sum counts: 50 + 60 is above 100, so the next one waits.
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...by('alice'), 'idempotency-key': newKey() }, body: { ...body, amount: 60 } })).status).toBe(202);
    expect((await wallet(t, memberId)).wallet).toBe(20_000);
    expect((await call(t.app, 'POST', '/api/operator/approvals/nope/approve', { headers: by('bob') })).body).toEqual({ message: 'NO_APPROVAL' });
  });

  it('ends with the ledger and the reconciliation clean', async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
    const report = await call<{ ok: boolean; payouts: { breaches: unknown[] } }>(t.app, 'GET', '/api/operator/reconciliation', { headers: as('alice') });
    expect(report.body.payouts.breaches).toEqual([]);
    expect(report.body.ok).toBe(true);
  });
});

describe.each(dbKinds)('payout reconciliation findings on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { PAYOUT_SETTLE_INTERVAL_MS: '0', DEPOSIT_AUDIT_INTERVAL_MS: '150', DEPOSIT_RECONCILE_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0' });
    await withoutTurnoverSignal(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds a payout the bank made that the ledger does not know, and a completion the bank never paid', async () => {
    const logged = vi.spyOn(t.app.log, 'error');
    const sandbox = t.services.sandboxPayouts;
    if (!sandbox) throw new Error('the sandbox payout API is the default');
    await sandbox.forge({ reference: 'FORGED-PAYOUT-1', bankCode: 'KBANK', accountNo: '1234567890', accountName: 'MALLORY', amount: 99_900, currency: 'THB' });
    // A withdrawal completed behind the payout flow's back (a restore, a manual fix in the database).
    const w = await withdrawal(t, 200);
    await settleOnce(t.services.database.db, w.id, 'SUCCESS', null, {
      kind: 'withdraw_complete',
      operationId: w.id,
      postings: [{ account: account.withdrawal(w.memberId), amount: -20_000 }, { account: account.withdrawals('THB'), amount: 20_000 }],
    });
    const report = await call<{ ok: boolean; payouts: { ok: boolean; breaches: Array<{ kind: string; payout?: { reference: string }; withdrawal?: { id: string } }> } }>(t.app, 'GET', '/api/operator/reconciliation', { headers: as('finance-a') });
    expect(report.body.ok).toBe(false);
    expect(report.body.payouts.ok).toBe(false);
    expect(report.body.payouts.breaches).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'UNKNOWN_PAYOUT', payout: expect.objectContaining({ reference: 'FORGED-PAYOUT-1' }) }),
        expect.objectContaining({ kind: 'COMPLETED_WITHOUT_PAYOUT', withdrawal: expect.objectContaining({ id: w.id }) }),
      ]),
    );
    expect(report.body.payouts.breaches).toHaveLength(2);
    // The scheduled reconciliation (every DEPOSIT_AUDIT_INTERVAL_MS) logs it at error level.
    await vi.waitFor(
      () => expect(logged).toHaveBeenCalledWith(expect.objectContaining({ breaches: expect.arrayContaining([expect.objectContaining({ kind: 'UNKNOWN_PAYOUT' })]) }), 'payout reconciliation: BREACH'),
      { timeout: 5000, interval: 100 },
    );
    // The ledger itself balances: only the outside record tells.
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });
});

describe.each(dbKinds)('manual payouts (PAYOUT_PROVIDER=manual) on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { PAYOUT_PROVIDER: 'manual', PAYOUT_SETTLE_INTERVAL_MS: '0' });
    await withoutTurnoverSignal(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no payout API: operators complete by hand, and the reconciliation counts it manual', async () => {
    const w = await withdrawal(t, 200);
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/approve`, { headers: as('finance-a') })).body).toEqual({ message: 'PAYOUT_MANUAL' });
    expect((await call(t.app, 'PUT', '/api/operator/sandbox/bank/payout-fault', { headers: as('finance-a'), body: { mode: 'down' } })).status).toBe(404);
    expect((await call<{ payoutProvider: string }>(t.app, 'GET', '/api/operator/withdrawals', { headers: as('finance-a') })).body.payoutProvider).toBe('manual');
    // Without a payout provider finance pays by hand (a person's session, not only the key).
    const finance = await operatorLogin(t, 'finance');
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${w.id}/complete`, { token: finance })).body).toEqual({ id: w.id, status: 'SUCCESS' });
    const report = await call<{ ok: boolean; payouts: { ok: boolean; provider: string; listed: boolean; checked: { manual: number } } }>(t.app, 'GET', '/api/operator/reconciliation', { headers: as('finance-a') });
    expect(report.body.payouts).toMatchObject({ ok: true, provider: 'manual', listed: false, checked: { manual: 1 } });
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });
});

describe.each(dbKinds)("the money core's hold (pending → post / void) on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { PAYOUT_SETTLE_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const paidOut = async () => (await balances(t.services.database.db, [account.withdrawals('THB')])).get(account.withdrawals('THB'))?.balance ?? 0;

  it('posts a hold once when ended twice at once; a void after it moves nothing', async () => {
    const w = await withdrawal(t, 300);
    expect(await wallet(t, w.memberId)).toEqual({ wallet: 70_000, held: 30_000 });
    const before = await paidOut();
    const db = t.services.database.db;
    const ends = await Promise.all([t.services.money.holds.post(db, w.id), t.services.money.holds.post(db, w.id)]);
    expect(ends.filter((e) => e !== null)).toHaveLength(1);
    expect(await t.services.money.holds.void(db, w.id, 'late')).toBeNull();
    expect(await wallet(t, w.memberId)).toEqual({ wallet: 70_000, held: 0 });
    expect(await paidOut()).toBe(before + 30_000);
    expect(await ledgerTransactions(t, w.id)).toBe(2);
    expect((await checkInvariants(db)).ok).toBe(true);
  });

  it('voids a hold back to the wallet with its note, once; a post after it moves nothing', async () => {
    const w = await withdrawal(t, 250);
    const db = t.services.database.db;
    const ends = await Promise.all([t.services.money.holds.void(db, w.id, 'PAYOUT_REFUSED'), t.services.money.holds.void(db, w.id, 'PAYOUT_REFUSED')]);
    expect(ends.filter((e) => e !== null)).toHaveLength(1);
    expect(await t.services.money.holds.post(db, w.id)).toBeNull();
    expect(await wallet(t, w.memberId)).toEqual({ wallet: 100_000, held: 0 });
    const op = await db.selectFrom('operations').select(['status', 'note']).where('id', '=', w.id).executeTakeFirstOrThrow();
    expect(op).toEqual({ status: 'FAILED', note: 'PAYOUT_REFUSED' });
    expect((await checkInvariants(db)).ok).toBe(true);
  });

  it('ends only a withdrawal: another operation (a deposit) is no hold, and nothing moves', async () => {
    const { phone, password, id: memberId } = await registerMember(t.app);
    const token = await login(t.app, phone, password);
    const added = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 100 } });
    await expect(t.services.money.holds.post(t.services.database.db, added.body.reference)).rejects.toThrow(/no hold/);
    await expect(t.services.money.holds.void(t.services.database.db, 'no-such-operation', null)).rejects.toThrow(/no hold/);
    expect(await wallet(t, memberId)).toEqual({ wallet: 10_000, held: 0 });
  });
});
