import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameConnection } from '../src/db/database';
import type { MoneyDb } from '../src/money/tables';
import { KeyBook, type Idem } from '../src/money/idempotency';
import { dbKinds, registerMember, startApp, type TestApp } from './helpers';

/**
 * The route layer's keys claimed and answered in batches (money/idempotency.ts KeyBook): many
 * calls at once share one statement, and each gets the outcome it would have had alone.
 */
describe.each(dbKinds)('KeyBook batches on %s', (kind) => {
  let t: TestApp;
  let members: string[];

  beforeAll(async () => {
    t = await startApp(kind);
    members = [];
    for (let i = 0; i < 3; i++) members.push((await registerMember(t.app)).id);
  });
  afterAll(async () => {
    await t.close();
  });

  const idem = (key: string, hash = 'h1'): Idem => ({ key: `#${key}`, hash });
  const db = () => t.services.database.db;

  it('claims each new key once: of the same key sent many times at once, exactly one claim holds it', async () => {
    const book = new KeyBook(sameConnection<MoneyDb>(db()), 60_000);
    const [a, b, c] = members as [string, string, string];
    // 30 claims in the same tick: the first goes alone, the rest gather into batches.
    const asks = [
      ...Array.from({ length: 10 }, () => ({ member: a, key: 'same-key-1' })),
      ...Array.from({ length: 10 }, (_, i) => ({ member: b, key: `own-key-${i}` })),
      ...Array.from({ length: 10 }, () => ({ member: c, key: 'same-key-1' })),
    ];
    const claimed = await Promise.all(asks.map((x) => book.claim(x.member, idem(x.key))));
    expect(claimed.slice(0, 10).filter(Boolean)).toHaveLength(1);
    expect(claimed.slice(10, 20).every(Boolean)).toBe(true);
    expect(claimed.slice(20).filter(Boolean)).toHaveLength(1);
    const rows = await db().selectFrom('idempotency_keys').select(['member_id', 'key']).where('key', 'in', ['#same-key-1', ...Array.from({ length: 10 }, (_, i) => `#own-key-${i}`)]).execute();
    expect(rows).toHaveLength(12);
  });

  it('keeps the first answer of a key: answers stored at once all read back as that one', async () => {
    const book = new KeyBook(sameConnection<MoneyDb>(db()), 60_000);
    const m = members[0] as string;
    expect(await book.claim(m, idem('answer-key'))).toBe(true);
    expect(await book.claim(m, idem('other-answer-key'))).toBe(true);
    const stored = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => book.settle(m, idem('answer-key'), { status: 200, body: { n: i } })),
      book.settle(m, idem('other-answer-key'), { status: 400, body: { message: 'MONEY_NOT_ENOUGH' } }),
    ]);
    const first = stored[0];
    // One answer is kept and every caller of that key is told the same one.
    for (const answer of stored.slice(0, 8)) expect(answer).toEqual(first);
    expect(stored[8]).toEqual({ status: 400, body: { message: 'MONEY_NOT_ENOUGH' } });
    const row = await db().selectFrom('idempotency_keys').select(['answer', 'answer_status']).where('member_id', '=', m).where('key', '=', '#answer-key').executeTakeFirstOrThrow();
    expect({ status: row.answer_status, body: row.answer }).toEqual(first);
    // A later answer changes nothing.
    expect(await book.settle(m, idem('answer-key'), { status: 200, body: { n: 99 } })).toEqual(first);
  });

  it('takes a stale claim over only after the batch, one by one, as a lone claim would', async () => {
    const m = members[1] as string;
    const stale = new KeyBook(sameConnection<MoneyDb>(db()), 0);
    expect(await stale.claim(m, idem('stale-key'))).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    // Unanswered and older than 0 ms: a retry takes it over; with an answer stored, never.
    expect(await stale.claim(m, idem('stale-key'))).toBe(true);
    await stale.settle(m, idem('stale-key'), { status: 200, body: { ok: true } });
    expect(await stale.claim(m, idem('stale-key'))).toBe(false);
  });
});
