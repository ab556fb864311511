import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrations';
import type { DB } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { account, checkInvariants } from '../src/money/ledger';
import { modules } from '../src/modules';
import type { ReconciliationReport } from '../src/modules/deposit/reconciliation';
import { migrationsOf } from '../src/platform/module';
import { signWebhook } from '../src/providers/payments/signing';
import { call, dbKinds, login, OPERATOR_TOKEN, reconcileAll, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const KBANK_AUTO = { bank: 'KBANK', no: '0451234567' };

/**
 * A credit written straight into the database, as a bug would: a deposit operation, its balanced
 * ledger transaction and an external_credits key. The ledger check cannot see anything wrong.
 */
async function forceCredit(db: Kysely<DB>, memberId: string, source: string, ref: string, amount: number): Promise<string> {
  const opId = newId();
  const wallet = account.wallet(memberId);
  const deposits = account.deposits('THB');
  await sql`INSERT INTO operations (id, member_id, type, status, source, target, amount, note) VALUES (${opId}, ${memberId}, 'deposit', 'SUCCESS', 'KBANK', 'WALLET', ${amount}, NULL)`.execute(db);
  const tx = await sql<{ id: number }>`INSERT INTO ledger_transactions (operation_id, kind) VALUES (${opId}, 'deposit') RETURNING id`.execute(db);
  const txId = tx.rows[0]?.id;
  await sql`INSERT INTO ledger_entries (transaction_id, account_id, amount) VALUES (${txId}, ${deposits}, ${-amount}), (${txId}, ${wallet}, ${amount})`.execute(db);
  await sql`UPDATE ledger_accounts SET balance = balance - ${amount} WHERE id = ${deposits}`.execute(db);
  await sql`UPDATE ledger_accounts SET balance = balance + ${amount} WHERE id = ${wallet}`.execute(db);
  await sql`UPDATE operations SET start_tx = ${txId} WHERE id = ${opId}`.execute(db);
  await sql`INSERT INTO external_credits (source, ref, operation_id) VALUES (${source}, ${ref}, ${opId})`.execute(db);
  return opId;
}

describe.each(dbKinds)('deposit reconciliation on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { DEPOSIT_RECONCILE_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0' });
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
  const report = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/operator/reconciliation${query}`, headers: operator });
    return { status: res.statusCode, body: res.json() as ReconciliationReport & { message?: string } };
  };
  const webhook = (path: string, body: unknown, secret: string) => {
    const raw = JSON.stringify(body);
    const ts = Math.floor(Date.now() / 1000);
    return t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', 'x-timestamp': String(ts), 'x-signature': signWebhook(secret, ts, raw) }, payload: raw });
  };

  it('is clean after normal flows, counts them, and lists money never credited as information', async () => {
    const m = await member();
    expect((await bankTransfer({ fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: KBANK_AUTO.bank, toAccountNo: KBANK_AUTO.no, amount: 100 })).body.feed).toEqual({ status: 200 });
    const qr = await call<{ qrcodeId: string }>(t.app, 'POST', '/api/qrcode/WW', { token: m.token, body: { amount: 200 } });
    expect((await call(t.app, 'POST', `/api/sandbox/payments/${qr.body.qrcodeId}/pay`)).status).toBe(200);
    // Money from an account no member has: held for an operator, not a breach.
    const stranger = await bankTransfer({ fromBankCode: 'KTB', fromAccountNo: '8887776665', toBankCode: KBANK_AUTO.bank, toAccountNo: KBANK_AUTO.no, amount: 30 });
    const manual = await t.app.inject({ method: 'POST', url: '/api/operator/deposits', headers: { ...operator, 'idempotency-key': newId() }, payload: { memberId: m.id, amount: 5, currency: 'BAHT', note: 'cash' } });
    expect(manual.statusCode).toBe(200);
    const { status, body } = await report();
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, breaches: [] });
    expect(body.checked.matched).toBeGreaterThanOrEqual(2);
    expect(body.checked.manual).toBeGreaterThanOrEqual(1);
    expect(body.checked.systems.bank).toMatchObject({ listed: true });
    expect(body.uncredited).toEqual(expect.arrayContaining([expect.objectContaining({ system: 'bank', reference: `KTB/${stranger.body.transRef}`, amount: 3000, state: 'held' })]));
    // The period is [from, to): a period before all of it holds nothing.
    const before = await report('?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z');
    expect(before.body).toMatchObject({ ok: true, checked: { credits: 0, outside: 0 }, breaches: [], uncredited: [] });
  });

  it('answers only operators, and refuses a period that is not one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/operator/reconciliation' })).statusCode).toBe(401);
    for (const query of ['?from=yesterday', '?to=2026-13-01T00:00:00Z', '?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', '?from=%00']) {
      const { status, body } = await report(query);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.message).toMatch(/^KEY_/);
    }
  });

  it('refuses control characters in every webhook with 400, never a 500, and credits nothing', async () => {
    const m = await member();
    const secrets = t.services.deposits.webhookSecrets;
    const payment = { event: 'payment.succeeded', paymentId: `PAY${Date.now()}`, provider: 'WW', reference: 'NOSUCHREF1', amount: '10.00', currency: 'THB' };
    for (const bad of [{ paymentId: 'PAY1\u0000' }, { paymentId: 'PAY1:X0' }, { event: 'payment.succeeded\u0000' }, { reference: 'REF\u0000' }, { provider: 'WW\u0000' }, { amount: '10\u0000' }]) {
      expect((await webhook('/api/webhooks/payments/WW', { ...payment, ...bad }, secrets.payments)).statusCode).toBe(400);
    }
    const feed = { transRef: `NUL${Date.now()}`, fromBankCode: 'KBANK', fromAccountNo: m.accountNo, fromName: 'X', toBankCode: 'KBANK', toAccountNo: KBANK_AUTO.no, toName: 'Y', amount: '10.00', currency: 'THB', at: new Date().toISOString() };
    for (const bad of [{ transRef: `${feed.transRef}\u0000` }, { transRef: `${feed.transRef}:X0` }, { fromAccountNo: `${m.accountNo}\u0000` }, { fromBankCode: 'KBANK\u0007' }, { at: `${feed.at}\u0000` }]) {
      expect((await webhook('/api/webhooks/bank/KBANK', { ...feed, ...bad }, secrets.bank)).statusCode).toBe(400);
    }
    const transfer = { transferId: `TW${Date.now()}`, fromPhone: m.phone, toPhone: '0891234567', amount: '10.00', currency: 'THB', at: new Date().toISOString() };
    for (const bad of [{ transferId: `${transfer.transferId}\u0000` }, { fromPhone: `${m.phone}\u0000` }]) {
      expect((await webhook('/api/webhooks/ewallet/TRUEWALLET', { ...transfer, ...bad }, secrets.ewallet)).statusCode).toBe(400);
    }
    expect((await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token: m.token })).body.wallet.amount).toBe(0);
    expect((await reconcileAll(t)).breaches).toEqual([]);
  });

  it('catches what the ledger check cannot: a transfer credited twice (a key variant written by SQL), a credit no outside record explains', async () => {
    const m = await member();
    const sent = await bankTransfer({ fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: KBANK_AUTO.bank, toAccountNo: KBANK_AUTO.no, amount: 1000 });
    expect(sent.body.feed).toEqual({ status: 200 });
    const db = t.services.database.db;
    const key = `${m.bankCode}:${sent.body.transRef.toUpperCase()}`;
    await forceCredit(db, m.id, 'banktx', `${key}:X0`, 100_000);
    await forceCredit(db, m.id, 'banktx', 'KBANK:NOSUCHTRANSFER01', 500);
    // Every entry balances: the ledger check is clean.
    expect(await checkInvariants(db)).toMatchObject({ ok: true });
    const { status, body } = await report('?from=1970-01-01T00:00:00Z');
    expect(status).toBe(200);
    expect(body.ok).toBe(false);
    const twice = body.breaches.find((b) => b.kind === 'CREDITED_MORE_THAN_ONCE');
    expect(twice).toMatchObject({ system: 'bank', reference: `${m.bankCode}/${sent.body.transRef}`, amount: 100_000 });
    expect(twice && 'credits' in twice ? twice.credits.map((c) => c.ref).sort() : []).toEqual([key, `${key}:X0`].sort());
    expect(body.breaches).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'NO_OUTSIDE_RECORD', system: 'bank', reference: 'KBANK:NOSUCHTRANSFER01' })]));
    // An amount that differs from the outside record's is a breach too.
    const other = await member();
    const small = await bankTransfer({ fromBankCode: other.bankCode, fromAccountNo: other.accountNo, toBankCode: 'GSB', toAccountNo: '020123456789', amount: 10 });
    await forceCredit(db, other.id, 'banktx', `${other.bankCode}:${small.body.transRef.toUpperCase()}`, 99_900);
    const again = await reconcileAll(t);
    expect(again.breaches).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'AMOUNT_MISMATCH', reference: `${other.bankCode}/${small.body.transRef}`, outside: { amount: 1000, currency: 'THB' } })]));
  });
});

describe('slip transfer columns (statement/004) on a database that held joined keys', () => {
  it('splits well-formed keys into their columns once, and fails a slip in progress whose key no bank issued', async () => {
    const database = await openDatabase(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory', ARGON2_MEMORY_KIB: '8192' }));
    try {
      const all = migrationsOf(modules);
      await migrate(database, all.filter((m) => m.id !== 'statement/004_slip_transfer_columns'));
      const db = database.db;
      await sql`INSERT INTO banks (code, name_th, name_en) VALUES ('KBANK', 'กสิกรไทย', 'Kasikorn')`.execute(db);
      await sql`INSERT INTO members (id, username, name, password_hash, bank_code, bank_account_name, bank_account_no, currency) VALUES ('m1', '0812345678', 'Old', 'x', 'KBANK', 'OLD', '1234567890', 'BAHT')`.execute(db);
      const slip = (id: string, status: string, key: string) =>
        sql`INSERT INTO slips (id, member_id, reference, amount, status, transfer_key) VALUES (${id}, 'm1', ${`SL${id}`}, 0, ${status}, ${key})`.execute(db);
      await slip('ok', 'SUCCESS', 'KBANK:2611ABC123');
      await slip('wait', 'PENDING', 'SCB:2611DEF456');
      await slip('forged', 'PENDING', 'KBANK:2611ABC123:X0');
      expect(await migrate(database, all)).toEqual(['statement/004_slip_transfer_columns']);
      const rows = await sql<{ id: string; status: string; note: string | null; transfer_bank: string | null; transfer_ref: string | null }>`SELECT id, status, note, transfer_bank, transfer_ref FROM slips ORDER BY id`.execute(db);
      expect(rows.rows).toEqual([
        { id: 'forged', status: 'FAILED', note: 'INVALID_SLIP', transfer_bank: null, transfer_ref: null },
        { id: 'ok', status: 'SUCCESS', note: null, transfer_bank: 'KBANK', transfer_ref: '2611ABC123' },
        { id: 'wait', status: 'PENDING', note: null, transfer_bank: 'SCB', transfer_ref: '2611DEF456' },
      ]);
    } finally {
      await database.close();
    }
  });
});

describe('scheduled deposit reconciliation', () => {
  it('reconciles the last 24 hours every DEPOSIT_AUDIT_INTERVAL_MS and logs a breach at error level', async () => {
    const t = await startApp('embedded', { DEPOSIT_AUDIT_INTERVAL_MS: '150', DEPOSIT_RECONCILE_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0' });
    try {
      const run = vi.spyOn(t.services.deposits.reconciliation, 'run');
      const error = vi.spyOn(t.app.log, 'error');
      const m = await registerMember(t.app);
      await forceCredit(t.services.database.db, m.id, 'banktx', 'KBANK:NOTATRANSFER99', 700);
      await vi.waitFor(() => expect(error).toHaveBeenCalledWith(expect.objectContaining({ breaches: [expect.objectContaining({ kind: 'NO_OUTSIDE_RECORD', reference: 'KBANK:NOTATRANSFER99' })] }), 'deposit reconciliation: BREACH'), { timeout: 5000, interval: 100 });
      const period = run.mock.calls[0]?.[0];
      expect(period ? period.to.getTime() - period.from.getTime() : 0).toBe(86_400_000);
    } finally {
      await t.close();
    }
  });
});
