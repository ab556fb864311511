import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sameConnection } from '../src/db/database';
import { account, balances, creditOf, type Credited } from '../src/money';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

/**
 * A tagged credit's domain hears of it through its handler (`Credits.onCredited`): after the
 * posting, inside the posting's transaction, once per credit recorded — never for a repeated
 * message — and a handler that throws undoes the credit.
 */
describe.each(dbKinds)('credit events on %s', (kind) => {
  let t: TestApp;
  let heard: Credited[] = [];
  /** Per handler call: how many of its credits' operations the handler's transaction sees as SUCCESS. */
  let seenInside: number[] = [];
  let refuse = false;
  let seq = 0;
  const ref = () => `probe-${Date.now()}-${++seq}`;

  beforeAll(async () => {
    t = await startApp(kind, { RECONCILE_INTERVAL_MS: '0' });
    t.services.money.credits.onCredited('test_probe', async (trx, credited) => {
      const rows = await sql<{ n: number | string }>`SELECT count(*) AS n FROM operations WHERE id = ANY(${credited.map((c) => c.operationId)}::text[]) AND status = 'SUCCESS'`.execute(
        sameConnection<Record<string, never>>(trx),
      );
      seenInside.push(Number(rows.rows[0]?.n));
      if (refuse) throw new Error('the domain refuses this credit');
      heard.push(...credited);
    });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    heard = [];
    seenInside = [];
    refuse = false;
  });

  const wallet = async (memberId: string) => (await balances(t.services.database.db, [account.wallet(memberId)])).get(account.wallet(memberId))?.balance ?? 0;
  const credit = (memberId: string, r: string, amount: number, id = r) =>
    t.services.money.credits.credit({ source: 'probe', ref: r, memberId, amount, currency: 'THB', kind: 'deposit', from: 'PROBE', note: null, tag: { name: 'test_probe', id, data: `data of ${id}` } });

  it('a tagged credit reaches its domain once, after its posting and inside its transaction; a repeated message raises nothing', async () => {
    const { id: memberId } = await registerMember(t.app);
    const r = ref();
    const first = await credit(memberId, r, 12_345, 'row-1');
    expect(first).toMatchObject({ created: true, wallet: 12_345 });
    expect(heard).toEqual([{ id: 'row-1', data: 'data of row-1', operationId: first.operationId, memberId, amount: 12_345, currency: 'THB', held: null }]);
    expect(seenInside).toEqual([1]);
    const again = await credit(memberId, r, 12_345, 'row-1');
    expect(again).toEqual({ operationId: first.operationId, created: false, wallet: null });
    expect(heard).toHaveLength(1);
    expect(await wallet(memberId)).toBe(12_345);
  });

  it('a handler that throws undoes its credit (nothing recorded, nothing moved); the message credits once when it comes again', async () => {
    const { id: memberId } = await registerMember(t.app);
    const r = ref();
    refuse = true;
    await expect(credit(memberId, r, 5_000)).rejects.toThrow('the domain refuses this credit');
    expect(seenInside).toEqual([1]);
    expect(await creditOf(t.services.database.db, 'probe', r)).toBeNull();
    expect(await wallet(memberId)).toBe(0);
    refuse = false;
    const done = await credit(memberId, r, 5_000);
    expect(done.created).toBe(true);
    expect(heard.map((c) => c.operationId)).toEqual([done.operationId]);
    expect(await wallet(memberId)).toBe(5_000);
  });

  it("announces a tagged credit to the balance feed once it commits (the app's push), and nothing when its handler undoes it", async () => {
    const { id: memberId } = await registerMember(t.app);
    const seen: Array<{ operationId: string | null; wallet: number | undefined }> = [];
    const stop = t.services.money.balances.subscribe((change) => {
      if (change.memberId === memberId) seen.push({ operationId: change.operationId, wallet: change.wallet?.balance });
    });
    try {
      refuse = true;
      await expect(credit(memberId, ref(), 700)).rejects.toThrow();
      refuse = false;
      const done = await credit(memberId, ref(), 900);
      expect(seen).toEqual([{ operationId: done.operationId, wallet: 900 }]);
    } finally {
      stop();
    }
  });

  it('announces a demo top-up of a member with a deposit limit (posted in a transaction of the wallet module, under the deposit lock)', async () => {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    expect((await call(t.app, 'PUT', '/api/responsible/limits', { token, body: { day: 500 } })).status).toBe(200);
    const seen: Array<{ operationId: string | null; wallet: number | undefined }> = [];
    const stop = t.services.money.balances.subscribe((change) => {
      if (change.memberId === m.id) seen.push({ operationId: change.operationId, wallet: change.wallet?.balance });
    });
    try {
      const added = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 120 } });
      expect(added.status).toBe(200);
      expect(seen).toEqual([{ operationId: added.body.reference, wallet: 12_000 }]);
      // Over the limit: refused, nothing announced.
      expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 400 } })).status).toBe(403);
      expect(seen).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('credits arriving together (with repeats) raise one event per credit recorded', async () => {
    const { id: memberId } = await registerMember(t.app);
    const refs = Array.from({ length: 20 }, () => ref());
    const results = await Promise.all([...refs, ...refs.slice(0, 5)].map((r) => credit(memberId, r, 100)));
    expect(results.filter((x) => x.created)).toHaveLength(20);
    expect(heard.map((c) => c.id).sort()).toEqual([...refs].sort());
    expect(new Set(heard.map((c) => c.operationId)).size).toBe(20);
    expect(seenInside.reduce((a, b) => a + b, 0)).toBe(20);
    expect(await wallet(memberId)).toBe(2_000);
  });
});
