import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointList } from '@mw/contract/endpoints';
import { specCalls } from '../../../packages/contract/test/spec-calls';
import { redactUrl } from '../src/app';
import { DEMO_MEMBER } from '../src/modules/demo';
import { call, concrete, dbKinds, login, startApp, type TestApp } from './helpers';

describe('request logs', () => {
  it('never carry the game password of an auto-login path', () => {
    expect(redactUrl('/api/autoLogin/imi/imi0000de30/Gewk6rJCja')).toBe('/api/autoLogin/imi/imi0000de30/***');
    expect(redactUrl('/api/autoLogin/pg/pg0001')).toBe('/api/autoLogin/pg/pg0001');
    expect(redactUrl('/api/wallet/transfer')).toBe('/api/wallet/transfer');
  });
});

describe.each(dbKinds)('routing on %s', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startApp(kind);
    token = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('routes every call of spec section 7', () => {
    const missing = specCalls.filter((entry) => {
      const [method, url] = entry.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
      return !t.app.hasRoute({ method, url });
    });
    expect(missing).toEqual([]);
  });

  it('never answers 404 or 500 for a call of the contract', async () => {
    const bad: string[] = [];
    for (const [name, def] of endpointList) {
      const res = await call(t.app, def.method, concrete(def.path), { token, ...(def.method === 'POST' || def.method === 'PUT' ? { body: {} } : {}) });
      if (res.status === 404 && res.body.message === 'NOT_FOUND') bad.push(`${name} ${res.status}`);
      if (res.status >= 500 && res.status !== 501) bad.push(`${name} ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(bad).toEqual([]);
  });

  it('answers every domain (chat included: no 501 left), and checks the token first on member calls', async () => {
    expect(await call(t.app, 'GET', '/api/chat/config')).toMatchObject({ status: 200, body: { PREFIX: 'mw-chat' } });
    expect(await call(t.app, 'GET', '/api/invite/banners')).toMatchObject({ status: 401, body: { message: 'invalid-token' } });
    const fresh = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
    const banners = await call<unknown[]>(t.app, 'GET', '/api/invite/banners', { token: fresh });
    expect(banners.status).toBe(200);
    expect(Array.isArray(banners.body)).toBe(true);
  });

  it('answers an unknown API path with 404 NOT_FOUND', async () => {
    expect(await call(t.app, 'GET', '/api/nothing/here')).toMatchObject({ status: 404, body: { message: 'NOT_FOUND' } });
  });

  it('sends security headers on every response and answers the health check', async () => {
    const health = await call(t.app, 'GET', '/healthz');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok', database: kind } });
    const answers = [
      health,
      await call(t.app, 'GET', '/api/lookup/banks'),
      await call(t.app, 'GET', '/api/wallet'),
      await call(t.app, 'GET', '/api/nothing/here'),
      await call(t.app, 'POST', '/api/login', { body: { username: 1 } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 400]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});
