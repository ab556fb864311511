import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupEndpoints } from '@mw/contract/lookups';
import { DEMO_MEMBER } from '../src/modules/demo';
import { call, dbKinds, login, OPERATOR_TOKEN, startApp, type TestApp } from './helpers';

describe.each(dbKinds)('lookups and site state on %s', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startApp(kind);
    token = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves all 13 lookups from the database, each matching its contract', async () => {
    for (const [name, def] of Object.entries(lookupEndpoints)) {
      const res = await call(t.app, 'GET', def.path, { token });
      expect(res.status, name).toBe(200);
      expect(() => def.response.parse(res.body), name).not.toThrow();
    }
    expect(Object.keys(lookupEndpoints)).toHaveLength(13);
  });

  it('seeds the banks with Thai names and the site switches', async () => {
    const banks = (await call<Array<{ code: string; nameTH: string }>>(t.app, 'GET', '/api/lookup/banks')).body;
    for (const code of ['KTB', 'TMB', 'BBL', 'SCB', 'KBANK', 'GSB', 'BCEL']) {
      expect(banks.find((b) => b.code === code)?.nameTH, code).toMatch(/^ธนาคาร/);
    }
    expect((await call(t.app, 'GET', '/api/lookup/registerOTP')).body).toEqual({ registerOTP: true });
    // The demo seeds the chat widget on; without SEED_DEMO it starts off.
    expect((await call(t.app, 'GET', '/api/lookup/enableChatWidget')).body).toEqual({ enableChatWidget: true });
    expect((await call(t.app, 'GET', '/api/lookup/active')).body).toEqual({ active: true });
    expect((await call(t.app, 'GET', '/api/lookup/withdraw')).body).toEqual({ withdrawMin: 100, withdrawMax: 50000, currency: 'THB', transferMin: 1 });
  });

  it('reads the lookup data from the database, not from code', async () => {
    await t.services.database.db.updateTable('banks').set({ name_th: 'ธนาคารทดสอบ' }).where('code', '=', 'GSB').execute();
    const banks = (await call<Array<{ code: string; nameTH: string }>>(t.app, 'GET', '/api/lookup/banks')).body;
    expect(banks.find((b) => b.code === 'GSB')?.nameTH).toBe('ธนาคารทดสอบ');
  });

  it('answers content in the language the client asks for', async () => {
    const th = (await call<string[]>(t.app, 'GET', '/api/lookup/conditions', { headers: { 'accept-language': 'th' } })).body;
    const la = (await call<string[]>(t.app, 'GET', '/api/lookup/conditions', { headers: { 'accept-language': 'lo' } })).body;
    const en = (await call<string[]>(t.app, 'GET', '/api/lookup/conditions', { headers: { 'accept-language': 'en-GB,en;q=0.9' } })).body;
    expect(th[0]).toMatch(/[\u0E00-\u0E7F]/);
    expect(la[0]).toMatch(/[\u0E80-\u0EFF]/);
    expect(en[0]).toMatch(/bonus/i);
  });

  it('keeps the deposit lookup for members', async () => {
    expect((await call(t.app, 'GET', '/api/lookup/deposit')).status).toBe(401);
  });

  it('answers 410 gone to every call while the site is terminated, and comes back', async () => {
    const refused = await call(t.app, 'PUT', '/api/operator/settings/siteActive', { body: { value: false } });
    expect(refused).toMatchObject({ status: 401, body: { message: 'UNAUTHORIZED' } });
    const wrongToken = await call(t.app, 'PUT', '/api/operator/settings/siteActive', { body: { value: false }, headers: { authorization: 'Bearer nope' } });
    expect(wrongToken.status).toBe(401);

    const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    expect((await call(t.app, 'PUT', '/api/operator/settings/siteActive', { body: { value: false }, headers: operator })).status).toBe(200);
    const active = await call(t.app, 'GET', '/api/lookup/active');
    expect(active).toMatchObject({ status: 410, body: { message: 'gone', active: false } });
    for (const [method, url] of [['GET', '/api/lookup/banks'], ['POST', '/api/login'], ['GET', '/api/account/profile'], ['GET', '/api/wallet']] as const) {
      expect(await call(t.app, method, url, { token, body: method === 'POST' ? {} : undefined }), url).toMatchObject({ status: 410, body: { message: 'gone' } });
    }
    expect((await call(t.app, 'PUT', '/api/operator/settings/siteActive', { body: { value: true }, headers: operator })).status).toBe(200);
    expect(await call(t.app, 'GET', '/api/lookup/active')).toMatchObject({ status: 200, body: { active: true } });
  });

  it('lets the operator switch registration OTP off', async () => {
    const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    await call(t.app, 'PUT', '/api/operator/settings/registerOTP', { body: { value: false }, headers: operator });
    expect((await call(t.app, 'GET', '/api/lookup/registerOTP')).body).toEqual({ registerOTP: false });
    const unknownKey = await call(t.app, 'PUT', '/api/operator/settings/password', { body: { value: false }, headers: operator });
    expect(unknownKey.status).toBe(400);
    await call(t.app, 'PUT', '/api/operator/settings/registerOTP', { body: { value: true }, headers: operator });
  });
});
