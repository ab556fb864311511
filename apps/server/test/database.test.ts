import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database';
import { dropSchema, PG_URL } from './helpers';

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
