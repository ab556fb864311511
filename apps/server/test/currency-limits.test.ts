import { constants, publicEncrypt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

interface DepositLookup {
  currency?: string;
  banks: Array<{ bankCode: string; currency: string; minimum?: number; presets?: number[] }>;
  wallets: Array<{ walletAccountName: string; mode: string; publicKey?: string; minimum?: number }>;
}

/** Issue 33: every money figure in its own currency: a kip member's withdrawal bounds are kip, never baht read as kip. */
describe.each(dbKinds)('withdrawal bounds and the demo top-up per currency on the Lao site on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { LAOS_MODE: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });

  let counter = 0;
  async function member(currency: 'LAK' | 'BAHT') {
    counter += 1;
    const phone = `20${String(Date.now()).slice(-6)}${String(counter).padStart(2, '0')}`;
    const { id, password } = await registerMember(t.app, { username: phone, bankCode: 'BCEL', currency });
    return { id, token: await login(t.app, phone, password) };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;

  it('answers kip bounds to a kip member and to a guest of the Lao site, baht bounds to a baht member', async () => {
    const kip = await member('LAK');
    const baht = await member('BAHT');
    const lak = await call<{ withdrawMin: number; withdrawMax: number; currency: string }>(t.app, 'GET', '/api/lookup/withdraw', { token: kip.token });
    expect(lak.body).toEqual({ withdrawMin: 50_000, withdrawMax: 10_000_000, currency: 'LAK', transferMin: 1_000 });
    expect(lak.body.withdrawMax).toBeGreaterThanOrEqual(5_000_000);
    expect((await call(t.app, 'GET', '/api/lookup/withdraw')).body).toEqual({ withdrawMin: 50_000, withdrawMax: 10_000_000, currency: 'LAK', transferMin: 1_000 });
    expect((await call(t.app, 'GET', '/api/lookup/withdraw', { token: baht.token })).body).toEqual({ withdrawMin: 100, withdrawMax: 50_000, currency: 'THB', transferMin: 1 });
    // A stale token is a guest, not an error.
    expect((await call(t.app, 'GET', '/api/lookup/withdraw', { token: 'not-a-token-of-anyone' })).status).toBe(200);
  });

  it('a kip member tops up 500,000 as ₭500,000 and withdraws ₭1,000,000; the bounds refuse in kip', async () => {
    const kip = await member('LAK');
    for (let i = 0; i < 3; i += 1) expect((await call(t.app, 'POST', '/api/wallet/add', { token: kip.token, body: { amount: 500_000 } })).status).toBe(200);
    expect(await wallet(kip.token)).toBe(1_500_000);
    const withdrawn = await call(t.app, 'POST', '/api/wallet/withdraw', { token: kip.token, body: { amount: 1_000_000 } });
    expect(withdrawn.status).toBe(200);
    expect(await wallet(kip.token)).toBe(500_000);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: kip.token, body: { amount: 49_999 } })).body).toMatchObject({ message: 'WITHDRAW_MINIMUM', withdrawMin: 50_000, currency: 'LAK' });
    const baht = await member('BAHT');
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: baht.token, body: { amount: 1_000 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: baht.token, body: { amount: 500 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: baht.token, body: { amount: 99 } })).body).toMatchObject({ message: 'WITHDRAW_MINIMUM', withdrawMin: 100, currency: 'THB' });
  });
});

/** Issue 33, the rest: the QR minimums and presets, the e-wallet minimum and the transfer minimum per currency. */
describe.each(dbKinds)('QR, e-wallet and transfer figures per currency on the Lao site on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { LAOS_MODE: 'true', DEPOSIT_RECONCILE_INTERVAL_MS: '0' });
    // Kip channels beside the demo's baht ones: a QR provider (WW) and a gift e-wallet.
    const channels = t.services.deposits.channels;
    await channels.upsert({ id: 'WW-LAK', kind: 'bank', bank_code: 'WW', bank_type: 'PAYMENT', mode: 'AUTO', account_name: '', account_no: '', currency: 'LAK', sort: 1, active: true });
    await channels.upsert({ id: 'EWALLET-GIFT-LAK', kind: 'wallet', bank_code: 'TRUEWALLET', bank_type: 'BANK', mode: 'GIFT', account_name: 'GOLDEN WALLET', account_no: '0891234567', currency: 'LAK', sort: 12, active: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  let counter = 0;
  async function member(currency: 'LAK' | 'BAHT') {
    counter += 1;
    const phone = `20${String(Date.now()).slice(-6)}${String(counter).padStart(2, '0')}`;
    const { id, password } = await registerMember(t.app, { username: phone, bankCode: 'BCEL', currency });
    return { id, token: await login(t.app, phone, password) };
  }
  const lookup = async (token: string) => (await call<DepositLookup>(t.app, 'GET', '/api/lookup/deposit', { token })).body;

  it('GET /api/lookup/deposit answers the QR minimum and presets and the e-wallet minimum of the member\'s currency', async () => {
    const kip = await lookup((await member('LAK')).token);
    expect(kip.currency).toBe('LAK');
    expect(kip.banks.find((b) => b.bankCode === 'WW')).toMatchObject({ currency: 'LAK', minimum: 50_000, presets: [50_000, 100_000, 200_000, 500_000, 1_000_000] });
    expect(kip.wallets.map((w) => w.minimum)).toEqual([1_000]);
    const baht = await lookup((await member('BAHT')).token);
    expect(baht.currency).toBe('THB');
    expect(baht.banks.find((b) => b.bankCode === 'WW')).toMatchObject({ currency: 'BAHT', minimum: 100, presets: [100, 200, 300, 500, 1000] });
    expect(baht.banks.find((b) => b.bankCode === 'PAYTIMZ')).toMatchObject({ minimum: 10, presets: [10, 50, 100, 500, 1000] });
    expect(baht.wallets.filter((w) => w.mode !== 'AUTO').map((w) => w.minimum)).toEqual([2]);
    // A bank account is no QR: no QR figures on it.
    expect(baht.banks.find((b) => b.bankCode === 'SCB')).not.toHaveProperty('minimum');
  });

  it('a kip member\'s QR is refused under ₭50,000 and asked of the gateway at ₭50,000; a baht member\'s under ฿100', async () => {
    const kip = await member('LAK');
    expect((await call(t.app, 'POST', '/api/qrcode/WW', { token: kip.token, body: { amount: 49_999 } })).body).toMatchObject({ message: 'DEPOSIT_MINIMUM', minimum: 50_000, currency: 'LAK' });
    // ₭50,000 passes the minimum and reaches the gateway (the sandbox gateways take THB only: QR_FAIL, not DEPOSIT_MINIMUM).
    const made = await call<{ hasQrcode: boolean; message?: string }>(t.app, 'POST', '/api/qrcode/WW', { token: kip.token, body: { amount: 50_000 } });
    expect(made).toMatchObject({ status: 200, body: { hasQrcode: false, message: 'QR_FAIL' } });
    const baht = await member('BAHT');
    expect((await call(t.app, 'POST', '/api/qrcode/WW', { token: baht.token, body: { amount: 99 } })).body).toMatchObject({ message: 'DEPOSIT_MINIMUM', minimum: 100, currency: 'THB' });
    expect((await call<{ hasQrcode: boolean }>(t.app, 'POST', '/api/qrcode/WW', { token: baht.token, body: { amount: 100 } })).body.hasQrcode).toBe(true);
  });

  it('a kip member\'s gift voucher under ₭1,000 is refused (left unredeemed), ₭1,000 is credited', async () => {
    const kip = await member('LAK');
    const gift = (await lookup(kip.token)).wallets.find((w) => w.mode !== 'AUTO');
    const key = gift?.publicKey ?? '';
    const seal = (link: string) => `${publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(link)).toString('base64')}::GOLDEN WALLET`;
    const voucher = async (amount: number) => (await call<{ link: string }>(t.app, 'POST', '/api/sandbox/ewallet/vouchers', { body: { amount } })).body.link;
    const send = async (link: string) => call(t.app, 'POST', '/api/wallet/truelink', { token: kip.token, body: { link: seal(link) } });
    expect((await send(await voucher(999))).body).toMatchObject({ message: 'DEPOSIT_MINIMUM', minimum: 1_000, currency: 'LAK' });
    expect((await send(await voucher(1_000))).status).toBe(200);
    expect((await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token: kip.token })).body.wallet.amount).toBe(1_000);
  });

  it('a kip member\'s transfer to a game is refused under ₭1,000, a baht member\'s under ฿1', async () => {
    const kip = await member('LAK');
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: kip.token, body: { amount: 500_000 } })).status).toBe(200);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token: kip.token });
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token: kip.token, body: { from: 'WALLET', to: 'PG', amount: 999 } })).body).toMatchObject({ message: 'TRANSFER_MINIMUM', minimum: 1_000, currency: 'LAK' });
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token: kip.token, body: { from: 'WALLET', to: 'PG', amount: 1_000 } })).status).toBe(200);
    const baht = await member('BAHT');
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: baht.token, body: { amount: 100 } })).status).toBe(200);
    await call(t.app, 'GET', '/api/wallet/activate/PG', { token: baht.token });
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token: baht.token, body: { from: 'WALLET', to: 'PG', amount: 0.99 } })).body).toMatchObject({ message: 'TRANSFER_MINIMUM', minimum: 1, currency: 'THB' });
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token: baht.token, body: { from: 'WALLET', to: 'PG', amount: 1 } })).status).toBe(200);
  });
});
