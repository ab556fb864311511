import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSlipPayload, buildThaiQr } from '../src/lib/emvco';
import { ImageError } from '../src/providers/slips/image';
import { SlipVerifier } from '../src/providers/slips/verifier';
import { qrPng } from './images';
import { call, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };


describe('slip verification against the sandbox bank', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('embedded');
  });
  afterAll(async () => {
    await t?.close();
  });
  const bank = () => {
    const found = t.services.deposits.sandboxBank;
    if (!found) throw new Error('sandbox bank expected');
    return found;
  };

  it('hands out a slip for a transfer; reading it gives the bank\'s transfer, not the image\'s', async () => {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    const profile = (await call<{ bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token })).body;
    const sent = await call<{ transRef: string }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
      body: { fromBankCode: 'KBANK', fromAccountNo: profile.bankAccountNo, toBankCode: 'GSB', toAccountNo: '020123456789', amount: 321.5 },
    });
    const slip = await t.app.inject({ method: 'GET', url: `/api/sandbox/bank/transfers/${sent.body.transRef}/slip.png` });
    expect(slip.statusCode).toBe(200);
    expect(slip.headers['content-type']).toBe('image/png');
    const verdict = await new SlipVerifier(bank()).verify(slip.rawPayload);
    expect(verdict).toMatchObject({ ok: true, sendingBank: 'KBANK', transRef: sent.body.transRef, transfer: { amount: 32_150, toAccountNo: '020123456789', fromAccountNo: profile.bankAccountNo } });
    // As a chat app re-sends it: a small JPEG.
    const jpeg = await sharp(slip.rawPayload).resize({ width: 400 }).jpeg({ quality: 55 }).toBuffer();
    expect(await new SlipVerifier(bank()).verify(jpeg)).toMatchObject({ ok: true, transRef: sent.body.transRef });
    expect((await t.app.inject({ method: 'GET', url: '/api/sandbox/bank/transfers/NOSUCHREF123/slip.png' })).statusCode).toBe(404);
  });

  it('names each failure: no QR, a QR that is not a slip, a reference the bank does not know, a bank that fails', async () => {
    const verifier = new SlipVerifier(bank());
    const blank = await sharp({ create: { width: 600, height: 900, channels: 3, background: '#f4f4f4' } }).png().toBuffer();
    expect(await verifier.verify(blank)).toEqual({ ok: false, reason: 'CANNOT_READ_CROPPED_IMAGE' });
    const promptPay = buildThaiQr({ merchant: { kind: 'promptpay', target: '0812345678' }, amountSatang: 10_000 });
    expect(await verifier.verify(await qrPng(promptPay))).toEqual({ ok: false, reason: 'INVALID_SLIP' });
    const broken = buildSlipPayload({ sendingBank: '014', transRef: '2611230000ABCDEF' }).replace(/.{4}$/, '0000');
    expect(await verifier.verify(await qrPng(broken))).toEqual({ ok: false, reason: 'INVALID_SLIP' });
    const unknown = buildSlipPayload({ sendingBank: '014', transRef: '2611239999ZZZZZZ' });
    expect(await verifier.verify(await qrPng(unknown))).toEqual({ ok: false, reason: 'UNSTABLE_REFNO_ON_SLIP', sendingBank: 'SCB', transRef: '2611239999ZZZZZZ' });
    for (const [mode, reason] of [
      ['captcha', 'TRIPPLE_WRONG_CAPTCHA'],
      ['error', 'UNKNOW_ERROR'],
    ] as const) {
      expect((await call(t.app, 'PUT', '/api/operator/sandbox/bank/fault', { headers: operator, body: { mode } })).status).toBe(200);
      expect(await verifier.verify(await qrPng(unknown))).toMatchObject({ ok: false, reason });
    }
    await call(t.app, 'PUT', '/api/operator/sandbox/bank/fault', { headers: operator, body: { mode: 'none' } });
    expect((await call(t.app, 'PUT', '/api/operator/sandbox/bank/fault', { body: { mode: 'error' } })).status).toBe(401);
    // Not an image at all: refused before any reading.
    await expect(verifier.verify(Buffer.from('#!/bin/sh\necho not a png\n'))).rejects.toBeInstanceOf(ImageError);
  });
});
