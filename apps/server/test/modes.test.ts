import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../src/config';
import { call, latestCode, login, registration, startApp, type TestApp } from './helpers';

describe('Laos mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('embedded', { LAOS_MODE: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('accepts Lao phone lengths and registers in LAK by default', async () => {
    const phone = '2055512345';
    const eight = await call(t.app, 'POST', '/api/account/validate', { body: registration('20555123', { bankCode: 'BCEL' }) });
    expect(eight.status).toBe(200);
    const short = await call(t.app, 'POST', '/api/account/validate', { body: registration('2055', { bankCode: 'BCEL' }) });
    expect(short.body.message).toBe('PHONE_NUMBER_INVALID');
    const sent = await call<{ otpToken: string }>(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
    await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: await latestCode(t.app, phone) } });
    expect((await call(t.app, 'POST', '/api/account', { body: registration(phone, { bankCode: 'BCEL' }) })).status).toBe(200);
    const token = await login(t.app, phone, 'secret123');
    expect((await call(t.app, 'GET', '/api/account/profile', { token })).body).toMatchObject({ currency: 'LAK', bankCode: 'BCEL' });
  });
});

describe('configuration', () => {
  it('names the variable of a wrong value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ LAOS_MODE: 'maybe' })).toThrow(/LAOS_MODE/);
  });

  it('refuses the sandbox SMS provider in production unless told so', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).SMS_PROVIDER).toBe('sandbox');
  });

  it('defaults to port 3000 and ./data', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('./data');
  });
});
