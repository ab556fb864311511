import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMigrations, buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrations';
import { redact } from '../src/platform/audit';
import { call, dbKinds, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';
import { advance, codeNow, operatorLogin, useTestClock } from './operator-helpers';

interface Row {
  operator: string;
  operatorId: string | null;
  role: string | null;
  action: string;
  entity: string | null;
  target: string | null;
  before: unknown;
  after: unknown;
  address: string | null;
  onBehalfOf: string | null;
  at: string;
}

describe('audit redaction', () => {
  it('writes *** for fields that hold secrets, at any depth', () => {
    expect(redact({ password: 'x', nested: [{ apiKey: 'k', token: 't', name: 'n' }], otpCode: '1', amount: 5 })).toEqual({
      password: '***',
      nested: [{ apiKey: '***', token: '***', name: 'n' }],
      otpCode: '***',
      amount: 5,
    });
  });
});

describe.each(dbKinds)('the audit log on %s', (kind) => {
  let t: TestApp;
  let owner: string;
  let marketing: string;
  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440' });
    useTestClock(t);
    owner = await operatorLogin(t, 'owner');
    marketing = await operatorLogin(t, 'marketing');
  });
  afterAll(async () => {
    await t?.close();
  });

  const audit = async (query: string, token = owner) => {
    const res = await call<{ rows: Row[]; total: number; page: number; limit: number }>(t.app, 'GET', `/api/operator/audit?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const db = t.services.database.db;
    expect((await audit('')).total).toBeGreaterThan(0);
    await expect(sql`UPDATE audit_log SET operator = 'someone-else'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE audit_log`.execute(db)).rejects.toThrow(/append-only/);
    const rows = await db.selectFrom('audit_log').select('operator').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.operator === 'someone-else')).toBe(false);
  });

  it('records a configuration change with who, role, address, before and after', async () => {
    const description = { th: 'ทดสอบ', la: 'ທົດສອບ', en: 'Test' };
    // A credit code is an owner's to make at once (marketing's waits for a second person, four-eyes.test.ts).
    const put = (amount: number) => call(t.app, 'PUT', '/api/operator/promotions/AUDIT1', { token: owner, body: { kind: 'credit', amount, description }, remoteAddress: '203.0.113.9' });
    expect((await put(1000)).status).toBe(200);
    expect((await put(2500)).status).toBe(200);
    const { rows } = await audit('action=promotion.change&target=AUDIT1');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ operator: 'owner', role: 'owner', entity: 'promotion', target: 'AUDIT1', address: '203.0.113.9' });
    expect(rows[0]?.before).toMatchObject({ amounts: { THB: 1000 } });
    expect(rows[0]?.after).toMatchObject({ amounts: { THB: 2500 } });
    expect(rows[1]?.before).toBeNull();
    // No generic row besides the call's own.
    expect((await audit('action=PUT /api/operator/promotions')).total).toBe(0);
    // The older view of configuration changes reads the same rows.
    const changes = await call<{ changes: Array<{ who: string; role: string }> }>(t.app, 'GET', '/api/operator/changes?entity=promotion&key=AUDIT1', { token: marketing });
    expect(changes.body.changes[0]).toMatchObject({ who: 'owner', role: 'owner' });
  });

  it('gives every other successful change a generic row; the api-key is recorded as api-key', async () => {
    // The sandbox bank's fault switch records no row of its own: the framework writes a generic one.
    expect((await call(t.app, 'PUT', '/api/operator/sandbox/bank/fault', { token: owner, body: { mode: 'captcha' } })).status).toBe(200);
    expect((await call(t.app, 'PUT', '/api/operator/sandbox/bank/fault', { headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'x-operator': 'deploy-bot' }, body: { mode: 'none' } })).status).toBe(200);
    // A refused change writes nothing.
    expect((await call(t.app, 'PUT', '/api/operator/sandbox/bank/fault', { token: owner, body: { mode: 'no' } })).status).toBe(400);
    const { rows } = await audit('action=PUT /api/operator/sandbox/bank/fault');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ operator: 'api-key', who: 'api-key', operatorId: 'api-key', role: 'owner', target: null, after: { mode: 'none' }, onBehalfOf: 'deploy-bot' });
    expect(rows[1]).toMatchObject({ operator: 'owner', role: 'owner', after: { mode: 'captcha' }, onBehalfOf: null });
    // A path parameter is the target of a generic row (a deposit channel saved unchanged applies at once; a change waits for four eyes, four-eyes.test.ts).
    const channels = await call<{ channels: Array<Record<string, unknown> & { id: string; kind: string; bank_code: string; bank_type: string; mode: string; account_name: string; account_no: string; currency: string; sort: number; active: boolean }> }>(t.app, 'GET', '/api/operator/deposit-channels', { token: owner });
    const c = channels.body.channels[0];
    if (!c) throw new Error('no deposit channel');
    const body = { kind: c.kind, bankCode: c.bank_code, bankType: c.bank_type, mode: c.mode, accountName: c.account_name, accountNo: c.account_no, currency: c.currency, sort: c.sort, active: c.active };
    expect((await call(t.app, 'PUT', `/api/operator/deposit-channels/${c.id}`, { token: owner, body })).status).toBe(200);
    expect((await audit('action=PUT /api/operator/deposit-channels/:id')).rows[0]).toMatchObject({ target: `id=${c.id}`, after: body });
    // The site switches record their own change, with the value before.
    expect((await call(t.app, 'PUT', '/api/operator/settings/registerOTP', { token: owner, body: { value: false } })).status).toBe(200);
    expect((await call(t.app, 'PUT', '/api/operator/settings/registerOTP', { token: owner, body: { value: true } })).status).toBe(200);
    const switched = await audit('action=setting.change&target=registerOTP');
    expect(switched.rows.map((r) => [r.before, r.after])).toEqual([[false, true], [true, false]]);
    // Reads write nothing.
    const before = (await audit('')).total;
    await call(t.app, 'GET', '/api/operator/withdrawals', { token: owner });
    expect((await audit('')).total).toBe(before);
  });

  it('records logins, failed logins, TOTP failures, logouts and operator management', async () => {
    await call(t.app, 'POST', '/api/admin/login', { body: { username: 'finance', password: 'not-it-at-all' } });
    advance(t);
    const first = await call<{ challenge: string }>(t.app, 'POST', '/api/admin/login', { body: { username: 'finance', password: 'demo-operator-1' } });
    await call(t.app, 'POST', '/api/admin/login/totp', { body: { challenge: first.body.challenge, code: '000000' } });
    const ok = await call<{ token: string }>(t.app, 'POST', '/api/admin/login/totp', { body: { challenge: first.body.challenge, code: codeNow(t) } });
    await call(t.app, 'POST', '/api/admin/logout', { token: ok.body.token });
    const { rows } = await audit('operator=finance&limit=10');
    expect(rows.slice(0, 4).map((r) => r.action)).toEqual(['logout', 'login', 'totp.failed', 'login.failed']);
    expect(rows[3]).toMatchObject({ role: 'finance', after: { reason: 'WRONG_CREDENTIAL' } });
    expect(rows.every((r) => r.address === '127.0.0.1')).toBe(true);
    // A username nobody has is recorded as typed.
    await call(t.app, 'POST', '/api/admin/login', { body: { username: 'Mallory', password: 'guess-guess' } });
    expect((await audit('operator=mallory')).rows[0]).toMatchObject({ action: 'login.failed', operatorId: null, role: null });

    const created = await call<{ operator: { id: string } }>(t.app, 'POST', '/api/operator/operators', { token: owner, body: { username: 'audited', role: 'support' } });
    await call(t.app, 'PUT', `/api/operator/operators/${created.body.operator.id}/role`, { token: owner, body: { role: 'finance' } });
    await call(t.app, 'POST', `/api/operator/operators/${created.body.operator.id}/disable`, { token: owner });
    const changes = (await audit('action=operator.&target=audited')).rows;
    expect(changes.map((r) => r.action)).toEqual(['operator.disable', 'operator.role', 'operator.create']);
    expect(changes[1]).toMatchObject({ operator: 'owner', role: 'owner', before: { role: 'support' }, after: { role: 'finance' } });
    expect(changes[0]).toMatchObject({ before: { status: 'pending-enrolment' }, after: { status: 'disabled' } });
    // Nothing generic doubles them.
    expect((await audit('action=POST /api/operator/operators')).total).toBe(0);
  });

  it('filters by member: the lock and the note on that member, not another member\'s', async () => {
    const one = await registerMember(t.app);
    const other = await registerMember(t.app);
    const support = await operatorLogin(t, 'support');
    expect((await call(t.app, 'POST', `/api/operator/members/${one.id}/lock`, { token: support, body: { locked: true } })).status).toBe(200);
    expect((await call(t.app, 'POST', `/api/operator/members/${one.id}/notes`, { token: support, body: { text: 'called about a deposit' } })).status).toBe(200);
    expect((await call(t.app, 'POST', `/api/operator/members/${other.id}/notes`, { token: support, body: { text: 'someone else' } })).status).toBe(200);
    const rows = (await audit(`member=${one.id}`)).rows;
    expect(rows.map((r) => r.entity).sort()).toEqual(['member', 'member-note']);
    expect(rows.every((r) => r.target === one.id && r.operator === 'support')).toBe(true);
    expect((await audit(`member=${one.id}&operator=owner`)).total).toBe(0);
    expect((await audit(`member=${other.id}`)).rows.map((r) => r.after)).toEqual([expect.objectContaining({ text: 'someone else' })]);
  });

  it('filters by time and pages, newest first', async () => {
    const all = await audit('limit=200');
    expect(all.total).toBe(all.rows.length);
    const pageTwo = await audit('limit=3&page=2');
    expect(pageTwo.rows.map((r) => r.at)).toEqual(all.rows.slice(3, 6).map((r) => r.at));
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await audit(`from=${encodeURIComponent(future)}`)).total).toBe(0);
    expect((await audit(`to=${encodeURIComponent(future)}`)).total).toBe(all.total);
    expect((await call(t.app, 'GET', '/api/operator/audit?from=yesterday', { token: owner })).status).toBe(400);
    expect((await call(t.app, 'GET', '/api/operator/audit', { token: marketing })).body).toEqual({ message: 'FORBIDDEN_ROLE' });
  });
});

describe('the audit migration', () => {
  it('moves the rows of operator_changes into the audit log', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: 'memory', ARGON2_MEMORY_KIB: '8192', SEED_DEMO_QUEUE: 'false' });
    const database = await openDatabase(config);
    try {
      const migrations = allMigrations();
      await migrate(database, migrations.slice(0, migrations.findIndex((m) => m.id === 'audit/001_audit_log')));
      await sql`INSERT INTO operator_changes (id, who, entity, key, before, after) VALUES ('old1', 'Nok', 'bonus', 'B1', '{"a":1}', '{"a":2}')`.execute(database.db);
      const { app } = await buildApp(config, database);
      try {
        const res = await call<{ rows: Row[] }>(app, 'GET', '/api/operator/audit?action=bonus.change', { headers: { authorization: 'Bearer no-api-key-configured' } });
        expect(res.status).toBe(401);
        const rows = await database.db.selectFrom('audit_log').selectAll().where('id', '=', 'old1').execute();
        expect(rows[0]).toMatchObject({ operator: 'Nok', action: 'bonus.change', entity: 'bonus', target: 'B1', before: { a: 1 }, after: { a: 2 } });
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  });
});
