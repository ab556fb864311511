import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db/database';
import { migrate } from '../src/db/migrations';
import { modules } from '../src/modules';
import { DEMO_MEMBER } from '../src/modules/demo';
import { defineModule, migrationsOf } from '../src/platform/module';
import { createKernel, servicesUnderConstruction } from '../src/platform/services';

const config = () => loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory', ARGON2_MEMORY_KIB: '8192', SEED_DEMO_QUEUE: 'false' });

describe('domain modules', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('names a service read before the module that provides it was set up', async () => {
    database = await openDatabase(config());
    const services = servicesUnderConstruction(createKernel(config(), database));
    expect(() => services.wallet).toThrow(/service "wallet" is not set up/);
    expect(services.config.PORT).toBe(3000);
    await services.limiter.close();
  });

  it('refuses a call answered by two modules', async () => {
    database = await openDatabase(config());
    const twice = defineModule({ name: 'twice', handlers: () => ({ lookupActive: async () => ({ active: false }) }) });
    await expect(buildApp(config(), database, [...modules, twice])).rejects.toThrow(/lookupActive is answered by both lookup and twice/);
  });

  it('keeps each module to its own migration ids', () => {
    const stray = defineModule({ name: 'chat', migrations: [{ id: 'wallet/009_x', sql: 'SELECT 1' }] });
    expect(() => migrationsOf([stray])).toThrow(/must start with "chat\/"/);
    expect(new Set(migrationsOf(modules).map((m) => m.id)).size).toBe(migrationsOf(modules).length);
  });

  it('answers 501 for a call no module answers, and the module list builds the rest', async () => {
    database = await openDatabase(config());
    // Without the statement module (and the back office, which reads statements through its service).
    const { app } = await buildApp(config(), database, modules.filter((m) => m.name !== 'statement' && m.name !== 'backoffice'));
    await app.ready();
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: DEMO_MEMBER.username, password: DEMO_MEMBER.password } });
    const token = (login.json() as { token: string }).token;
    const statement = await app.inject({ method: 'POST', url: '/api/statement', headers: { authorization: `Bearer ${token}` }, payload: { page: 1, limit: 10 } });
    expect({ status: statement.statusCode, body: statement.json() }).toEqual({ status: 501, body: { message: 'NOT_IMPLEMENTED' } });
    const wallet = await app.inject({ method: 'GET', url: '/api/wallet', headers: { authorization: `Bearer ${token}` } });
    expect(wallet.statusCode).toBe(200);
    await app.close();
  });

  it('recognises a database the squashed history already migrated (appliedWith) and runs only what is new', async () => {
    database = await openDatabase(config());
    await sql`CREATE TABLE schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(database.db);
    await sql`INSERT INTO schema_migrations (id) VALUES ('005_money_core')`.execute(database.db);
    await sql`CREATE TABLE legacy_thing (id int)`.execute(database.db);
    const applied = await migrate(database, [
      { id: 'x/001_thing', appliedWith: '005_money_core', sql: 'CREATE TABLE legacy_thing (id int)' },
      { id: 'x/002_more', sql: 'ALTER TABLE legacy_thing ADD COLUMN name text' },
    ]);
    expect(applied).toEqual(['x/002_more']);
    const ids = (await database.db.selectFrom('schema_migrations').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(ids).toEqual(['005_money_core', 'x/001_thing', 'x/002_more']);
    expect(await migrate(database, [{ id: 'x/001_thing', sql: 'broken' }, { id: 'x/002_more', sql: 'broken' }])).toEqual([]);
  });
});
