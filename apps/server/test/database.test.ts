import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database';
import { BACKGROUND_PASSED_OVER, inBackground, isBackground } from '../src/db/priority';
import { Batcher } from '../src/lib/batcher';
import { dbKinds, dropSchema, PG_URL, startApp, type TestApp } from './helpers';

describe('PostgreSQL prepared statements', () => {
  const schema = `prep_${randomBytes(4).toString('hex')}`;
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
    await dropSchema(schema);
  });

  it('keeps answering when a table changes under a prepared statement (another process migrated)', async () => {
    // One connection, so the second call meets the statement the first one prepared.
    database = await openDatabase({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: 1, DATA_DIR: 'memory' });
    const db = database.db;
    await database.execScript('CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL); INSERT INTO things VALUES (1, $$one$$), (2, $$two$$);');
    const read = () => sql<Record<string, unknown>>`SELECT * FROM things WHERE id = ${1}`.execute(db);
    expect((await read()).rows).toEqual([{ id: 1, name: 'one' }]);
    expect((await read()).rows).toEqual([{ id: 1, name: 'one' }]);
    await database.execScript('ALTER TABLE things ADD COLUMN note text');
    // PostgreSQL refuses the old plan ("cached plan must not change result type"); the query
    // runs unnamed instead of failing.
    expect((await read()).rows).toEqual([{ id: 1, name: 'one', note: null }]);
    expect((await read()).rows).toEqual([{ id: 1, name: 'one', note: null }]);
  });
});

describe('the embedded database’s one connection', () => {
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
  });

  it('serves waiting calls before background work, and background work after at most BACKGROUND_PASSED_OVER calls', async () => {
    database = await openDatabase({ DATABASE_URL: undefined, DATABASE_SCHEMA: undefined, DATABASE_POOL_SIZE: 1, DATA_DIR: 'memory' });
    const db = database.db;
    const order: string[] = [];
    const query = (label: string) => sql`SELECT ${label}::text AS label`.execute(db).then(() => void order.push(label));
    let queued: Promise<unknown>[] = [];
    // The connection held (a transaction): the others queue in the order called.
    await db.transaction().execute(async (trx) => {
      queued = [inBackground(() => query('image-1')), query('read-1'), inBackground(() => query('image-2')), query('read-2')];
      await new Promise((resolve) => setTimeout(resolve, 20));
      await sql`SELECT 1`.execute(trx);
      expect(database?.waiting()).toBe(4);
    });
    await Promise.all(queued);
    expect(order).toEqual(['read-1', 'read-2', 'image-1', 'image-2']);

    // Background work waits for at most BACKGROUND_PASSED_OVER calls, however many keep coming.
    order.length = 0;
    await db.transaction().execute(async () => {
      queued = [inBackground(() => query('image')), ...Array.from({ length: BACKGROUND_PASSED_OVER + 4 }, (_, i) => query(`read-${i}`))];
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await Promise.all(queued);
    expect(order.indexOf('image')).toBe(BACKGROUND_PASSED_OVER);
  });

  it('lets the event loop turn while a long queue is served (a request arriving meanwhile is read)', async () => {
    const db = (database ??= await openDatabase({ DATABASE_URL: undefined, DATABASE_SCHEMA: undefined, DATABASE_POOL_SIZE: 1, DATA_DIR: 'memory' })).db;
    await sql`CREATE TABLE IF NOT EXISTS numbers AS SELECT generate_series(1, 20000) AS n`.execute(db);
    let done = 0;
    const queries = Array.from({ length: 300 }, () => sql`SELECT sum(n) FROM numbers`.execute(db).then(() => void (done += 1)));
    // A timer due at once stands for a socket's data: set once the queue is being served, it runs
    // between queries, not after all 300.
    await queries[0];
    const seenAt = await new Promise<number>((resolve) => setTimeout(() => resolve(done), 0));
    await Promise.all(queries);
    expect(seenAt).toBeGreaterThan(0);
    expect(seenAt).toBeLessThan(300);
  });

  it('lets the event loop turn between statements run one after another, with nobody waiting', async () => {
    const db = (database ??= await openDatabase({ DATABASE_URL: undefined, DATABASE_SCHEMA: undefined, DATABASE_POOL_SIZE: 1, DATA_DIR: 'memory' })).db;
    await sql`CREATE TABLE IF NOT EXISTS numbers AS SELECT generate_series(1, 20000) AS n`.execute(db);
    let done = 0;
    const timer = new Promise<number>((resolve) => setTimeout(() => resolve(done), 0));
    for (let i = 0; i < 100; i++) {
      await sql`SELECT sum(n) FROM numbers`.execute(db);
      done += 1;
    }
    expect(await timer).toBeLessThan(100);
  });

  it('runs a batch as a call even when a background caller started it', async () => {
    const seen: boolean[] = [];
    const batcher = new Batcher<number, number>(
      async (items) => {
        seen.push(isBackground());
        return items.map((value) => ({ ok: true, value }));
      },
      { maxBatch: 8, concurrency: 1 },
    );
    await inBackground(() => Promise.all([batcher.submit(1), batcher.submit(2)]));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((background) => !background)).toBe(true);
  });
});

describe.each(dbKinds)('our schema after every migration (%s)', (kind) => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('holds no outside system\'s state: no sandbox_* table (the sandbox service keeps its own)', async () => {
    t = await startApp(kind);
    const tables = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(t.services.database.db);
    const names = tables.rows.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['operations', 'qr_codes', 'ewallet_redemptions', 'withdrawal_payouts']));
    expect(names.filter((name) => name.startsWith('sandbox'))).toEqual([]);
  });

  it('refuses a write through a published read model (a view another area reads): the owner writes through its service', async () => {
    t ??= await startApp(kind);
    const db = t.services.database.db;
    const bank = await db.selectFrom('banks').select('code').executeTakeFirstOrThrow();
    const member = { id: `rm${Date.now()}`, name: 'Read Model' };
    await db.insertInto('members').values({ id: member.id, username: `08${String(Date.now()).slice(-8)}`, name: member.name, password_hash: 'x', bank_code: bank.code, bank_account_name: 'Read Model', bank_account_no: String(Date.now()), currency: 'BAHT' }).execute();
    for (const write of [
      sql`UPDATE member_view SET name = 'someone else' WHERE id = ${member.id}`,
      sql`DELETE FROM member_view WHERE id = ${member.id}`,
      sql`INSERT INTO operation_view (id, member_id, type, status, source, target, amount) VALUES ('x', ${member.id}, 'deposit', 'SUCCESS', 'BANK', 'WALLET', 1)`,
      sql`INSERT INTO bank_view (code, name_th, name_en, country, sort, active) VALUES ('ZZZ', 'z', 'z', 'TH', 0, true)`,
    ]) {
      await expect(write.execute(db)).rejects.toThrow(/is a read model/);
    }
    expect((await db.selectFrom('members').select('name').where('id', '=', member.id).executeTakeFirstOrThrow()).name).toBe(member.name);
    // Reading works, and is the table's data.
    const seen = await sql<{ n: number }>`SELECT count(*)::int AS n FROM member_view`.execute(db);
    expect(seen.rows[0]?.n).toBe(Number((await db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n));
  });
});
