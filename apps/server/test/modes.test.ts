import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../src/config';
import { call, login, registration, startApp, verifyPhone, type TestApp } from './helpers';

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
    const otpToken = await verifyPhone(t.app, phone);
    expect((await call(t.app, 'POST', '/api/account', { body: registration(phone, { bankCode: 'BCEL', otpToken }) })).status).toBe(200);
    const token = await login(t.app, phone, 'secret123');
    expect((await call(t.app, 'GET', '/api/account/profile', { token })).body).toMatchObject({ currency: 'LAK', bankCode: 'BCEL' });
  });

  it('takes a Thai bank only for a baht wallet: a kip wallet banks in Laos', async () => {
    const kip = await call(t.app, 'POST', '/api/account/validate', { body: registration('2055512399', { bankCode: 'KBANK', currency: 'LAK' }) });
    expect(kip).toMatchObject({ status: 400, body: { message: 'INVALID_BANK' } });
    const baht = await call(t.app, 'POST', '/api/account/validate', { body: registration('2055512399', { bankCode: 'KBANK', currency: 'BAHT' }) });
    expect(baht.status).toBe(200);
  });
});

describe('Thai build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('embedded');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every bank with its Lao name and country, and refuses a Lao bank at registration', async () => {
    const banks = await call<Array<{ code: string; nameLA: string; country: string }>>(t.app, 'GET', '/api/lookup/banks');
    expect(banks.body.find((b) => b.code === 'KBANK')).toMatchObject({ nameLA: 'ທະນາຄານກະສິກອນໄທ', country: 'TH' });
    expect(banks.body.find((b) => b.code === 'BCEL')).toMatchObject({ nameLA: 'ທະນາຄານການຄ້າຕ່າງປະເທດລາວ', country: 'LA' });
    const bcel = await call(t.app, 'POST', '/api/account/validate', { body: registration('0812399001', { bankCode: 'BCEL' }) });
    expect(bcel).toMatchObject({ status: 400, body: { message: 'INVALID_BANK' } });
    const kbank = await call(t.app, 'POST', '/api/account/validate', { body: registration('0812399001', { bankCode: 'KBANK' }) });
    expect(kbank.status).toBe(200);
  });
});

describe('configuration', () => {
  it('names the variable of a wrong value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ LAOS_MODE: 'maybe' })).toThrow(/LAOS_MODE/);
  });

  it('has no sandbox by default in production: the SMS gateway must be named, games none, payments live, no demo', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SMS_PROVIDER/);
    expect(() => loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'http' })).toThrow(/SMS_HTTP_URL/);
    const live = loadConfig({ NODE_ENV: 'production', SMS_HTTP_URL: 'https://sms.example/send' });
    expect(live).toMatchObject({ SMS_PROVIDER: 'http', GAME_PROVIDER: 'none', PAYMENTS: 'live', SEED_DEMO: false, HSTS_MAX_AGE: 15_552_000 });
    const demo = loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', GAME_PROVIDER: 'sandbox', PAYMENTS: 'sandbox', SEED_DEMO: 'true' });
    expect(demo).toMatchObject({ SMS_PROVIDER: 'sandbox', GAME_PROVIDER: 'sandbox', PAYMENTS: 'sandbox', SEED_DEMO: true });
    expect(loadConfig({})).toMatchObject({ SMS_PROVIDER: 'sandbox', GAME_PROVIDER: 'sandbox', PAYMENTS: 'sandbox', SEED_DEMO: true, HSTS_MAX_AGE: 0, TRUST_PROXY: false });
  });

  it('reads TRUST_PROXY as off, on, a hop count or a list of addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,loopback' }).TRUST_PROXY).toBe('10.0.0.0/8,127.0.0.1,loopback');
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('defaults to port 3000 and ./data', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('./data');
  });
});
