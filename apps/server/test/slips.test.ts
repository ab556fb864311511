import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { buildThaiQr } from '../src/providers/payments/emvco';
import { qrPng } from './images';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

/** multipart/form-data with one file field. */
function multipart(field: string, filename: string, bytes: Buffer, type = 'image/png'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----mw${Date.now()}${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}


describe.each(dbKinds)('slip deposits on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { SLIP_MAX_BYTES: '2000000' });
    // Uploads are open all day in these tests (the window itself is tested below).
    await t.services.settings.set('slip', { uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });

  async function member() {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    const profile = (await call<{ bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token })).body;
    return { ...m, token, bankCode: profile.bankCode, accountNo: profile.bankAccountNo };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;
  async function transfer(from: { bankCode: string; accountNo: string }, to: { bank: string; no: string }, amount: number, at?: Date) {
    const sent = await call<{ transRef: string }>(t.app, 'POST', '/api/sandbox/bank/transfers', { body: { fromBankCode: from.bankCode, fromAccountNo: from.accountNo, toBankCode: to.bank, toAccountNo: to.no, amount, ...(at ? { at: at.toISOString() } : {}) } });
    const slip = await t.app.inject({ method: 'GET', url: `/api/sandbox/bank/transfers/${sent.body.transRef}/slip.png` });
    return { transRef: sent.body.transRef, png: slip.rawPayload };
  }
  const upload = async (token: string, bytes: Buffer, filename = 'slip.png') => {
    const form = multipart('file', filename, bytes);
    const res = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...form.headers, authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' }, payload: form.payload });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };
  const GSB = { bank: 'GSB', no: '020123456789' };

  it('credits a slip once with the bank\'s amount; the same slip again, and ten at once, move nothing more', async () => {
    const m = await member();
    const { png } = await transfer(m, GSB, 456.78);
    const first = await upload(m.token, png);
    expect(first).toMatchObject({ status: 200, body: { status: 'SUCCESS', amount: 456.78, note: null } });
    expect(await wallet(m.token)).toBe(456.78);
    expect(await upload(m.token, png)).toMatchObject({ status: 409, body: { message: 'SLIP_REFNO_DUPLICATED', status: 'FAILED' } });
    const other = await member();
    const { png: png2 } = await transfer(other, GSB, 10);
    const ten = await Promise.all(Array.from({ length: 10 }, () => upload(other.token, png2)));
    expect(ten.filter((r) => r.status === 200)).toHaveLength(1);
    expect(ten.filter((r) => r.body.message === 'SLIP_REFNO_DUPLICATED')).toHaveLength(9);
    expect(await wallet(other.token)).toBe(10);
    const history = await call<{ slips: Array<{ status: string; note: string | null }> }>(t.app, 'POST', '/api/statement/slip', { token: other.token, body: { page: 1, limit: 20 } });
    expect(history.body.slips.filter((s) => s.status === 'SUCCESS')).toHaveLength(1);
  });

  it('refuses a slip from another account, to a wrong account, too old, with no QR, with a PromptPay QR — each with its code, nothing moves', async () => {
    const m = await member();
    const stranger = { bankCode: 'KTB', accountNo: '1112223334' };
    expect((await upload(m.token, (await transfer(stranger, GSB, 50)).png)).body).toMatchObject({ message: 'NOT_MATCH', status: 'FAILED' });
    expect((await upload(m.token, (await transfer(m, { bank: 'KTB', no: '9998887776' }, 50)).png)).body).toMatchObject({ message: 'DEST_ACC_INVALID' });
    expect((await upload(m.token, (await transfer(m, GSB, 50, new Date(Date.now() - 2 * 3600_000))).png)).body).toMatchObject({ message: 'EXPIRED_SLIP' });
    const blank = await sharp({ create: { width: 600, height: 900, channels: 3, background: '#f4f4f4' } }).png().toBuffer();
    expect((await upload(m.token, blank)).body).toMatchObject({ message: 'CANNOT_READ_CROPPED_IMAGE' });
    expect((await upload(m.token, await qrPng(buildThaiQr({ merchant: { kind: 'promptpay', target: '0812345678' }, amountSatang: 5000 })))).body).toMatchObject({ message: 'INVALID_SLIP' });
    expect(await wallet(m.token)).toBe(0);
  });

  it('refuses what is not a slip image before writing anything: no file, a program named .png, too large', async () => {
    const m = await member();
    const none = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { authorization: `Bearer ${m.token}`, 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' }, payload: '{}' });
    expect(none.json()).toEqual({ message: 'SLIP_NO_FILE' });
    expect(await upload(m.token, Buffer.from('\x7fELF\x02\x01\x01\x00binary program'), 'evil.png')).toEqual({ status: 400, body: { message: 'SLIP_INVALID_FILE' } });
    const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2_100_000)]);
    expect(await upload(m.token, big)).toEqual({ status: 400, body: { message: 'IMG_SIZE_UNABLE_TO_PROCESS' } });
    const count = await t.services.database.db.selectFrom('slips').select((eb) => eb.fn.countAll<string>().as('n')).where('member_id', '=', m.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('keeps a slip in progress while the bank does not know its reference, and answers the bank\'s failures', async () => {
    const m = await member();
    const { buildSlipPayload } = await import('../src/providers/payments/emvco');
    const pending = await upload(m.token, await qrPng(buildSlipPayload({ sendingBank: '004', transRef: `2611${Date.now()}` })));
    expect(pending).toMatchObject({ status: 200, body: { status: 'PENDING', note: 'UNSTABLE_REFNO_ON_SLIP' } });
    t.services.deposits.sandboxBank?.setLookupFault('captcha');
    try {
      expect((await upload(m.token, (await transfer(m, GSB, 5)).png)).body).toMatchObject({ message: 'TRIPPLE_WRONG_CAPTCHA' });
    } finally {
      t.services.deposits.sandboxBank?.setLookupFault('none');
    }
  });

  it('is closed outside the daily upload window', async () => {
    const m = await member();
    await t.services.settings.set('slip', { uploadEnabled: false, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
    try {
      expect(await upload(m.token, (await transfer(m, GSB, 5)).png)).toEqual({ status: 403, body: { message: 'SLIP_UPLOAD_CLOSED' } });
    } finally {
      await t.services.settings.set('slip', { uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
    }
    expect(await wallet(m.token)).toBe(0);
  });
});
