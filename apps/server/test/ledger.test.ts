import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, balances, checkInvariants, InsufficientFunds, LedgerError, openMemberAccounts, post } from '../src/money/ledger';
import { CORE_CODES, declaredCodes, transferCode } from '../src/money/codes';

/** A code declared the way a new module declares one: no money migration brings it. */
const TEST_CODE = transferCode('ledger-test', 'ledger_test_prize', 'A prize of the ledger test');
import { DEMO_MEMBER } from '../src/modules/demo';
import { dbKinds, startApp, type TestApp } from './helpers';

describe.each(dbKinds)('ledger on %s', (kind) => {
  let t: TestApp;
  const member = DEMO_MEMBER.id;
  beforeAll(async () => {
    t = await startApp(kind);
    await openMemberAccounts(t.services.database.db, member);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.services.database.db;

  it('posts balanced transactions and keeps the invariants', async () => {
    await post(db(), { kind: 'deposit', operationId: null, postings: [{ account: account.deposits('THB'), amount: -10_000 }, { account: account.wallet(member), amount: 10_000 }] });
    const after = await post(db(), {
      kind: 'withdraw_hold',
      operationId: null,
      postings: [{ account: account.wallet(member), amount: -2_550 }, { account: account.withdrawal(member), amount: 2_550 }],
    });
    expect(after.get(account.wallet(member))).toBe(7_450);
    const report = await checkInvariants(db());
    expect(report).toMatchObject({ ok: true, total: 0, unbalancedTransactions: [], driftedAccounts: [], negativeAccounts: [] });
  });

  it('refuses to overdraw a member account and writes nothing', async () => {
    const before = await checkInvariants(db());
    const wallet = (await balances(db(), [account.wallet(member)])).get(account.wallet(member))?.balance ?? 0;
    await expect(
      post(db(), { kind: 'withdraw_hold', operationId: null, postings: [{ account: account.wallet(member), amount: -(wallet + 1) }, { account: account.withdrawals('THB'), amount: wallet + 1 }] }),
    ).rejects.toBeInstanceOf(InsufficientFunds);
    const after = await checkInvariants(db());
    expect(after.transactions).toBe(before.transactions);
    expect((await balances(db(), [account.wallet(member)])).get(account.wallet(member))?.balance).toBe(wallet);
  });

  it('refuses unbalanced, zero, fractional and duplicate postings', async () => {
    const w = account.wallet(member);
    await expect(post(db(), { kind: 'adjustment', operationId: null, postings: [{ account: w, amount: 1 }, { account: account.deposits('THB'), amount: -2 }] })).rejects.toBeInstanceOf(LedgerError);
    await expect(post(db(), { kind: 'adjustment', operationId: null, postings: [{ account: w, amount: 0 }, { account: account.deposits('THB'), amount: 0 }] })).rejects.toBeInstanceOf(LedgerError);
    await expect(post(db(), { kind: 'adjustment', operationId: null, postings: [{ account: w, amount: 0.5 }, { account: account.deposits('THB'), amount: -0.5 }] })).rejects.toBeInstanceOf(LedgerError);
    await expect(post(db(), { kind: 'adjustment', operationId: null, postings: [{ account: w, amount: 1 }, { account: w, amount: -1 }] })).rejects.toBeInstanceOf(LedgerError);
    await expect(post(db(), { kind: 'adjustment', operationId: null, postings: [{ account: 'm:nobody:wallet', amount: 1 }, { account: account.deposits('THB'), amount: -1 }] })).rejects.toThrow();
    expect((await checkInvariants(db())).ok).toBe(true);
  });

  it('keeps entries append-only', async () => {
    await expect(sql`UPDATE ledger_entries SET amount = amount + 1`.execute(db())).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM ledger_entries`.execute(db())).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM ledger_transactions`.execute(db())).rejects.toThrow(/append-only/);
  });

  it('detects a balance changed behind the ledger', async () => {
    await sql`UPDATE ledger_accounts SET balance = balance + 1 WHERE id = ${account.wallet(member)}`.execute(db());
    const report = await checkInvariants(db());
    expect(report.ok).toBe(false);
    expect(report.driftedAccounts.map((a) => a.id)).toContain(account.wallet(member));
    await sql`UPDATE ledger_accounts SET balance = balance - 1 WHERE id = ${account.wallet(member)}`.execute(db());
    expect((await checkInvariants(db())).ok).toBe(true);
  });

  it('never overdraws under parallel debits', async () => {
    const other = 'de300000000000000000c0c0';
    await db()
      .insertInto('members')
      .values({ id: other, username: '0800000099', name: 'Par', password_hash: 'x', source_code: null, inviter_id: null, bank_code: 'KBANK', bank_account_name: 'PAR ALLEL', bank_account_no: '9990009990', currency: 'BAHT' })
      .execute();
    await openMemberAccounts(db(), other);
    await post(db(), { kind: 'deposit', operationId: null, postings: [{ account: account.deposits('THB'), amount: -70_000 }, { account: account.wallet(other), amount: 70_000 }] });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        post(db(), { kind: 'withdraw_hold', operationId: null, postings: [{ account: account.wallet(other), amount: -2_000 }, { account: account.withdrawal(other), amount: 2_000 }] }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(35);
    expect(results.flatMap((r) => (r.status === 'rejected' && !(r.reason instanceof InsufficientFunds) ? [String(r.reason)] : []))).toEqual([]);
    const b = await balances(db(), [account.wallet(other), account.withdrawal(other)]);
    expect(b.get(account.wallet(other))?.balance).toBe(0);
    expect(b.get(account.withdrawal(other))?.balance).toBe(70_000);
    expect((await checkInvariants(db())).ok).toBe(true);
  });

  it('keeps the invariants over random sequences of postings', async () => {
    const members = ['de3000000000000000000001', 'de3000000000000000000002', 'de3000000000000000000003'];
    for (const [i, id] of members.entries()) {
      await db()
        .insertInto('members')
        .values({ id, username: `080000010${i}`, name: 'Prop', password_hash: 'x', source_code: null, inviter_id: null, bank_code: 'KBANK', bank_account_name: 'PROP TEST', bank_account_no: `777000100${i}`, currency: 'BAHT' })
        .execute();
      await openMemberAccounts(db(), id);
    }
    const accounts = members.flatMap((m) => [account.wallet(m), account.inflight(m), account.withdrawal(m)]).concat([account.deposits('THB'), account.withdrawals('THB')]);
    const op = fc.record({ from: fc.constantFrom(...accounts), to: fc.constantFrom(...accounts), amount: fc.integer({ min: 1, max: 50_000 }) });
    let model = new Map<string, number>();
    const read = async () => new Map([...(await balances(db(), accounts))].map(([k, v]) => [k, v.balance]));
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        model = await read();
        for (const o of ops) {
          if (o.from === o.to) continue;
          const outcome = await post(db(), { kind: 'adjustment', operationId: null, postings: [{ account: o.from, amount: -o.amount }, { account: o.to, amount: o.amount }] }).then(
            () => 'ok' as const,
            (e: unknown) => (e instanceof InsufficientFunds ? ('refused' as const) : Promise.reject(e)),
          );
          const fromBalance = model.get(o.from) ?? 0;
          const mayGoNegative = o.from.startsWith('sys:');
          expect(outcome).toBe(mayGoNegative || fromBalance >= o.amount ? 'ok' : 'refused');
          if (outcome === 'ok') {
            model.set(o.from, fromBalance - o.amount);
            model.set(o.to, (model.get(o.to) ?? 0) + o.amount);
          }
        }
        expect(await read()).toEqual(model);
      }),
      { numRuns: kind === 'embedded' ? 300 : 150 },
    );
    expect((await checkInvariants(db())).ok).toBe(true);
  });
});

describe('ledger transaction kinds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('embedded');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a transaction\'s kind is a declared transfer code: the core\'s, a module\'s (written at start, no migration), never an unknown one', async () => {
    const db = t.services.database.db;
    const rows = await db.selectFrom('transfer_codes').select(['code', 'owner']).execute();
    const owners = new Map(rows.map((r) => [r.code, r.owner]));
    for (const code of CORE_CODES) expect(owners.get(code)).toBe('money');
    expect(declaredCodes().map((c) => c.code)).toEqual(expect.arrayContaining(['bonus', 'refund', 'invite', 'spin_prize', TEST_CODE]));
    for (const declared of declaredCodes()) expect(owners.get(declared.code)).toBe(declared.owner);
    await sql`INSERT INTO ledger_transactions (operation_id, kind) VALUES (NULL, ${TEST_CODE})`.execute(db);
    await expect(sql`INSERT INTO ledger_transactions (operation_id, kind) VALUES ('x', 'free_money')`.execute(db)).rejects.toThrow(/ledger_transactions_kind/);
    expect(() => transferCode('someone-else', 'bonus', 'x')).toThrow(/declared by bonus and someone-else/);
    expect(() => transferCode('x', 'deposit', 'x')).toThrow(/money core/);
    expect(() => transferCode('x', 'Free Money', 'x')).toThrow(/lower case/);
  });
});
