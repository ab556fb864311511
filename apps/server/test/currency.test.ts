import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, checkInvariants, LedgerError, post } from '../src/money/ledger';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';
import { withoutTurnoverSignal } from './operator-helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

describe.each(dbKinds)('currencies on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { LAOS_MODE: 'true' });
    await withoutTurnoverSignal(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.services.database.db;

  async function member(currency: 'LAK' | 'BAHT') {
    const phone = `20${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 90 + 10)}`;
    const { id, password } = await registerMember(t.app, { username: phone, bankCode: 'BCEL', currency });
    return { id, phone, token: await login(t.app, phone, password) };
  }

  it('finds a Lao member\'s entries in the audit log by their phone, as by their id', async () => {
    const lak = await member('LAK');
    const credited = await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': `audit-lao-${Date.now()}` }, body: { memberId: lak.id, amount: 20_000, currency: 'LAK', note: 'cash at the counter' } });
    expect(credited.status).toBe(200);
    const byPhone = await call<{ total: number; rows: Array<{ subject: { memberId: string; currency: string } | null }> }>(t.app, 'GET', `/api/operator/audit?member=${lak.phone}&limit=50`, { headers: operator });
    const byId = await call<{ total: number }>(t.app, 'GET', `/api/operator/audit?member=${lak.id}&limit=50`, { headers: operator });
    expect(byPhone.body.total).toBeGreaterThan(0);
    expect(byPhone.body.total).toBe(byId.body.total);
    expect(byPhone.body.rows[0]?.subject).toMatchObject({ memberId: lak.id, currency: 'LAK' });
  });

  it('keeps a LAK member in LAK accounts: wallet, game, holds, and the LAK system accounts', async () => {
    const lak = await member('LAK');
    const baht = await member('BAHT');
    // Amounts in each member's own currency: kip figures for the kip member (the withdrawal minimum is ₭50,000).
    for (const [m, scale] of [[lak, 1_000], [baht, 1]] as const) {
      expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 500 * scale } })).status).toBe(200);
      expect((await call(t.app, 'GET', '/api/wallet/activate/PG', { token: m.token })).status).toBe(200);
      expect((await call(t.app, 'POST', '/api/wallet/transfer', { token: m.token, body: { from: 'WALLET', to: 'PG', amount: 100 * scale } })).status).toBe(200);
      expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 150 * scale } })).status).toBe(200);
    }
    const rows = await db().selectFrom('ledger_accounts').select(['id', 'currency']).where('member_id', 'in', [lak.id, baht.id]).where('kind', '<>', 'coin').execute();
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const row of rows) expect(row.currency).toBe(row.id.includes(lak.id) ? 'LAK' : 'THB');
    const system = new Map((await db().selectFrom('ledger_accounts').select(['id', 'balance', 'currency']).where('kind', '=', 'system').execute()).map((r) => [r.id, r]));
    expect(system.get('sys:deposits:LAK')).toMatchObject({ currency: 'LAK' });
    expect(Number(system.get('sys:deposits:LAK')?.balance)).toBeLessThanOrEqual(-50_000);
    expect(system.get('sys:game:PG:LAK')).toMatchObject({ currency: 'LAK' });
    // A withdrawal completed by the operator leaves through the LAK system account.
    const pending = await call<{ withdrawals: Array<{ id: string; memberId: string }> }>(t.app, 'GET', '/api/operator/withdrawals', { headers: operator });
    const hold = pending.body.withdrawals.find((w) => w.memberId === lak.id);
    expect(hold).toBeDefined();
    const before = Number(system.get('sys:withdrawals:LAK')?.balance ?? 0);
    expect((await call(t.app, 'POST', `/api/operator/withdrawals/${hold?.id}/complete`, { headers: operator })).status).toBe(200);
    const after = await db().selectFrom('ledger_accounts').select('balance').where('id', '=', 'sys:withdrawals:LAK').executeTakeFirstOrThrow();
    expect(Number(after.balance) - before).toBe(15_000_000);
    const report = await checkInvariants(db());
    expect(report).toMatchObject({ ok: true, mixedCurrencyTransactions: [] });
    expect(report.totals).toMatchObject({ THB: 0, LAK: 0 });
  });

  it('refuses a ledger transaction that mixes currencies, and writes nothing', async () => {
    const lak = await member('LAK');
    const count = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ledger_transactions`.execute(db())).rows[0]?.n);
    const before = await count();
    await expect(
      post(db(), { kind: 'adjustment', operationId: null, postings: [{ account: account.deposits('THB'), amount: -100 }, { account: account.wallet(lak.id), amount: 100 }] }),
    ).rejects.toBeInstanceOf(LedgerError);
    await expect(
      post(db(), { kind: 'adjustment', operationId: null, postings: [{ account: account.deposits('LAK'), amount: -100 }, { account: account.wallet(lak.id), amount: 100 }] }),
    ).resolves.toBeDefined();
    expect(await count()).toBe(before + 1);
    expect((await checkInvariants(db())).ok).toBe(true);
  });

  it('reports a mixed transaction written behind the trigger\'s back', async () => {
    // The check must see what the trigger would have refused (a restore, a manual fix).
    const lak = await member('LAK');
    await sql`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_one_currency`.execute(db());
    try {
      await post(db(), { kind: 'adjustment', operationId: null, postings: [{ account: account.deposits('THB'), amount: -7 }, { account: account.wallet(lak.id), amount: 7 }] });
    } finally {
      await sql`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_one_currency`.execute(db());
    }
    const report = await checkInvariants(db());
    expect(report.ok).toBe(false);
    expect(report.mixedCurrencyTransactions).toHaveLength(1);
    expect(report.totals).toMatchObject({ THB: -7, LAK: 7 });
  });
});
