import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MemoryRateLimiter, RedisRateLimiter } from '../src/lib/rate-limit';
import { call, dropSchema, latestCode, REDIS_URL, registration, startApp, uniquePhone, type TestApp } from './helpers';

describe('rate limiter', () => {
  it('counts within a window and starts again after it (memory)', async () => {
    let now = 1_000;
    const limiter = new MemoryRateLimiter(() => now);
    expect((await limiter.hit('k', 2, 1000)).allowed).toBe(true);
    expect((await limiter.hit('k', 2, 1000)).allowed).toBe(true);
    const third = await limiter.hit('k', 2, 1000);
    expect(third).toMatchObject({ allowed: false, count: 3, retryAfter: 1 });
    expect((await limiter.peek('k', 2)).allowed).toBe(false);
    now += 1001;
    expect(await limiter.hit('k', 2, 1000)).toMatchObject({ allowed: true, count: 1 });
  });

  it('shares counts between processes through Redis', async () => {
    const prefix = `mw:test:${randomBytes(4).toString('hex')}:`;
    const a = new RedisRateLimiter(REDIS_URL, prefix);
    const b = new RedisRateLimiter(REDIS_URL, prefix);
    try {
      expect((await a.hit('x', 2, 10_000)).allowed).toBe(true);
      expect((await b.hit('x', 2, 10_000)).allowed).toBe(true);
      const third = await a.hit('x', 2, 10_000);
      expect(third.allowed).toBe(false);
      expect(third.retryAfter).toBeGreaterThan(0);
      expect((await b.peek('x', 2)).allowed).toBe(false);
      await b.reset('x');
      expect((await a.peek('x', 2)).allowed).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

/** Two server processes on one PostgreSQL schema and one Redis: limits and sessions hold across them. */
describe('two servers on PostgreSQL and Redis', () => {
  const schema = `t_multi_${randomBytes(4).toString('hex')}`;
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await startApp('postgres', { REDIS_URL }, schema);
    two = await startApp('postgres', { REDIS_URL }, schema);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await dropSchema(schema);
  });

  it('blocks a login on one server after failures on the other', async () => {
    const phone = uniquePhone();
    const sent = await call<{ otpToken: string }>(one.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
    // The code sent through server one is verified on server two: the outbox is shared state.
    await call(two.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: await latestCode(two.app, phone) } });
    expect((await call(one.app, 'POST', '/api/account', { body: registration(phone, { otpToken: sent.body.otpToken }) })).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const server = i % 2 === 0 ? one : two;
      expect((await call(server.app, 'POST', '/api/login', { body: { username: phone, password: 'wrong-one' } })).status).toBe(400);
    }
    const limited = await call(two.app, 'POST', '/api/login', { body: { username: phone, password: 'secret123' } });
    expect(limited).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
    const resend = await call(two.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() } });
    expect(resend.status).toBe(200);
  });

  it('honours a session revoked on the other server', async () => {
    const login = await call<{ token: string }>(one.app, 'POST', '/api/login', { body: { username: '0812345678', password: 'demo1234' } });
    const token = login.body.token;
    // Both servers have checked (and remembered) the token.
    expect((await call(one.app, 'GET', '/api/account/profile', { token })).status).toBe(200);
    expect((await call(two.app, 'GET', '/api/account/profile', { token })).status).toBe(200);
    await call(two.app, 'POST', '/api/logout', { token });
    let status = 0;
    for (let i = 0; i < 50 && status !== 401; i++) {
      status = (await call(one.app, 'GET', '/api/account/profile', { token })).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
  });
});

/** The per-address ceilings hold across processes: counted in Redis, not per process. */
describe('per-address limits across two servers', () => {
  const schema = `t_limits_${randomBytes(4).toString('hex')}`;
  // A fresh address per run: Redis outlives the test run.
  const address = `10.${randomBytes(1)[0] ?? 1}.${randomBytes(1)[0] ?? 2}.${randomBytes(1)[0] ?? 3}`;
  const otherAddress = `172.16.${randomBytes(1)[0] ?? 2}.${randomBytes(1)[0] ?? 3}`;
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL, OTP_SENDS_PER_IP_HOUR: '4', ACCOUNT_CHECKS_PER_IP_MINUTE: '4' };
    one = await startApp('postgres', env, schema);
    two = await startApp('postgres', env, schema);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await dropSchema(schema);
  });

  it('cuts off OTP sends and registration checks from one address spread over both servers', async () => {
    const sends: number[] = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 === 0 ? one : two;
      const res = await call(server.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() }, remoteAddress: address });
      if (res.status !== 200 && res.status !== 429) throw new Error(JSON.stringify(res.body));
      sends.push(res.status);
      if (res.status === 429 && i < 4) throw new Error(`early limit: ${JSON.stringify(res.body)}`);
    }
    expect(sends).toEqual([200, 200, 200, 200, 429, 429]);
    const checks: number[] = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 === 0 ? two : one;
      checks.push((await call(server.app, 'POST', '/api/account/validate', { body: registration(uniquePhone()), remoteAddress: otherAddress })).status);
    }
    expect(checks).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
