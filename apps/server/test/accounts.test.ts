import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileSchema } from '@mw/contract/account';
import { DEMO_MEMBER } from '../src/modules/demo';
import { call, dbKinds, latestCode, login, registerMember, registration, startApp, uniquePhone, type TestApp } from './helpers';

describe.each(dbKinds)('accounts on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('registration', () => {
    it('registers a verified phone, logs in and shows the profile', async () => {
      const { phone, password, id } = await registerMember(t.app, { name: 'Nok', bankCode: 'KTB', bankAccountName: 'nok  sukjai ' });
      const token = await login(t.app, phone, password);
      const profile = await call(t.app, 'GET', '/api/account/profile', { token });
      expect(profile.status).toBe(200);
      const parsed = profileSchema.parse(profile.body);
      expect(parsed).toMatchObject({ _id: id, username: phone, name: 'Nok', bankCode: 'KTB', bankAccountName: 'NOK SUKJAI', coin: 0, currency: 'BAHT' });
      expect(parsed.bank).toEqual({ code: 'KTB', nameTH: 'ธนาคารกรุงไทย', nameEN: 'Krungthai Bank', nameLA: 'ທະນາຄານກຸງໄທ' });
    });

    it('refuses to create an account for a phone that has not passed OTP', async () => {
      const phone = uniquePhone();
      const res = await call(t.app, 'POST', '/api/account', { body: registration(phone) });
      expect(res).toMatchObject({ status: 403, body: { message: 'UNVERIFIED_OTP' } });
      expect(await t.services.database.db.selectFrom('members').select('id').where('username', '=', phone).executeTakeFirst()).toBeUndefined();
    });

    it.each([
      ['a 9-digit phone', { username: '081234567' }, 400, 'PHONE_NUMBER_REQUIRE_10_DIGIT'],
      ['letters in the phone', { username: '08123456ab' }, 400, 'PHONE_NUMBER_REQUIRE_10_DIGIT'],
      ['an empty name', { name: '   ' }, 400, 'KEY_MISSING'],
      ['a short password', { password: '123' }, 400, 'PASSWORD_TOO_SHORT'],
      ['an unknown bank', { bankCode: 'NOPE' }, 400, 'INVALID_BANK'],
      ['a Thai name at KTB', { bankCode: 'KTB', bankAccountName: 'สมชาย ใจดี' }, 400, 'BANK_ACCOUNT_NAME_ENG'],
      ['a Thai name at BBL', { bankCode: 'BBL', bankAccountName: 'สมชาย ใจดี' }, 400, 'BANK_ACCOUNT_NAME_ENG'],
      ['digits in a name', { bankAccountName: 'SOMCHAI 123' }, 400, 'BANK_ACCOUNT_NAME_INVALID'],
      ['a short account number', { bankAccountNo: '12345' }, 400, 'BANK_ACCOUNT_NO_INVALID'],
      ['an unknown source', { sourceCode: 'RADIO' }, 400, 'INVALID_SOURCE'],
      ['an unknown inviter', { inviteCode: 'PR000000000000000000000000' }, 400, 'INVALID_INVITE_CODE'],
      ['a number for the name', { name: 42 }, 400, 'KEY_INVALID'],
      ['an unknown field', { admin: true }, 400, 'KEY_INVALID'],
      ['a missing password', { password: undefined }, 400, 'KEY_MISSING'],
    ])('validate refuses %s', async (_label, overrides, status, code) => {
      const res = await call(t.app, 'POST', '/api/account/validate', { body: registration(uniquePhone(), overrides) });
      expect(res.status).toBe(status);
      expect(res.body.message).toBe(code);
    });

    it('validates the profile step without the bank fields, but not a half-filled bank step', async () => {
      const profileStep = registration(uniquePhone(), { bankCode: '', bankAccountName: '', bankAccountNo: '' });
      expect(await call(t.app, 'POST', '/api/account/validate', { body: profileStep })).toMatchObject({ status: 200, body: { ok: true } });
      const halfBank = registration(uniquePhone(), { bankCode: 'KTB', bankAccountName: '', bankAccountNo: '' });
      expect((await call(t.app, 'POST', '/api/account/validate', { body: halfBank })).body.message).toBe('KEY_MISSING');
      const taken = await call(t.app, 'POST', '/api/account/validate', { body: { ...profileStep, username: DEMO_MEMBER.username } });
      expect(taken).toMatchObject({ status: 409, body: { message: 'EXISTING_USER' } });
      const create = await call(t.app, 'POST', '/api/account', { body: profileStep });
      expect(create.status).toBe(400);
    });

    it('accepts a Thai account name at KBANK and a PR-prefixed inviter code', async () => {
      const body = registration(uniquePhone(), { bankAccountName: 'สมชาย ใจดี', inviteCode: `PR${DEMO_MEMBER.id}` });
      const res = await call(t.app, 'POST', '/api/account/validate', { body });
      expect(res).toMatchObject({ status: 200, body: { ok: true } });
    });

    it('answers EXISTING_USER and EXISTING_BANK for taken phones and bank accounts', async () => {
      const first = await registerMember(t.app, { bankAccountNo: '5550001111' });
      const samePhone = await call(t.app, 'POST', '/api/account/validate', { body: registration(first.phone) });
      expect(samePhone).toMatchObject({ status: 409, body: { message: 'EXISTING_USER' } });
      const sameBank = await call(t.app, 'POST', '/api/account/validate', { body: registration(uniquePhone(), { bankAccountNo: '555-000-1111' }) });
      expect(sameBank).toMatchObject({ status: 409, body: { message: 'EXISTING_BANK' } });
      const sendAgain = await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: first.phone } });
      expect(sendAgain).toMatchObject({ status: 409, body: { message: 'EXISTING_USER' } });
    });

    it('lets exactly one of two simultaneous registrations of one phone through', async () => {
      const phone = uniquePhone();
      const sent = await call<{ otpToken: string }>(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
      await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: await latestCode(t.app, phone) } });
      const results = await Promise.all([
        call(t.app, 'POST', '/api/account', { body: registration(phone, { otpToken: sent.body.otpToken }) }),
        call(t.app, 'POST', '/api/account', { body: registration(phone, { otpToken: sent.body.otpToken }) }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const rows = await t.services.database.db.selectFrom('members').select('id').where('username', '=', phone).execute();
      expect(rows).toHaveLength(1);
    });

    it('answers 400 for broken JSON and wrong types, never 500', async () => {
      const broken = await call(t.app, 'POST', '/api/account', { rawBody: '{"name": ' });
      expect(broken).toMatchObject({ status: 400, body: { message: 'KEY_INVALID' } });
      const array = await call(t.app, 'POST', '/api/login', { body: [1, 2] });
      expect(array.status).toBe(400);
      const empty = await call(t.app, 'POST', '/api/login', { rawBody: '' });
      expect(empty).toMatchObject({ status: 400, body: { message: 'KEY_MISSING' } });
      const text = await call(t.app, 'POST', '/api/login', { rawBody: 'username=1', headers: { 'content-type': 'text/plain' } });
      expect(text).toMatchObject({ status: 400, body: { message: 'KEY_INVALID' } });
      const xml = await call(t.app, 'POST', '/api/login', { rawBody: '<a/>', headers: { 'content-type': 'application/xml' } });
      expect(xml).toMatchObject({ status: 415, body: { message: 'UNSUPPORTED_MEDIA_TYPE' } });
      const huge = await call(t.app, 'POST', '/api/login', { body: { username: 'x'.repeat(2_000_000), password: 'y' } });
      expect(huge).toMatchObject({ status: 413, body: { message: 'PAYLOAD_TOO_LARGE' } });
    });
  });

  describe('OTP', () => {
    it('verifies a right code once, and then answers OTP_VERIFIED on send to the client holding its token only', async () => {
      const phone = uniquePhone();
      const sent = await call<{ otpToken: string; otpRef: string; code: string }>(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
      expect(sent.status).toBe(200);
      expect(sent.body.code).toBe('OTP_SENT');
      expect(sent.body.otpRef).toMatch(/^[A-Z]{4}$/);
      const outbox = await call<{ messages: Array<{ phoneNumber: string; text: string }> }>(t.app, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
      expect(outbox.body.messages[0]?.text).toContain(sent.body.otpRef);
      expect(outbox.body.messages[0]?.text).toMatch(/^รหัส OTP/);
      const code = await latestCode(t.app, phone);
      const ok = await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: code } });
      expect(ok).toMatchObject({ status: 200, body: { code: 'OTP_CODE_VALID' } });
      const again = await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: code } });
      expect(again).toMatchObject({ status: 409, body: { message: 'OTP_VERIFIED' } });
      const resend = await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone, otpToken: sent.body.otpToken } });
      expect(resend).toMatchObject({ status: 200, body: { code: 'OTP_VERIFIED', otpToken: sent.body.otpToken, otpRef: sent.body.otpRef } });
      // Someone else asking for the same phone is not told it is verified (and gets no token).
      const stranger = await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
      expect(stranger.body.code).not.toBe('OTP_VERIFIED');
      expect(stranger.body.otpToken).not.toBe(sent.body.otpToken);
    });

    it('writes the SMS in the language of the request', async () => {
      const lao = uniquePhone();
      await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: lao }, headers: { 'accept-language': 'lo' } });
      const english = uniquePhone();
      await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: english }, headers: { 'accept-language': 'en' } });
      const text = async (phone: string) => (await call<{ messages: Array<{ text: string }> }>(t.app, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`)).body.messages[0]?.text ?? '';
      expect(await text(lao)).toMatch(/^ລະຫັດ OTP/);
      expect(await text(english)).toMatch(/^Your OTP code is \d{6}/);
    });

    it('blocks a code after too many wrong tries, even the right one', async () => {
      const phone = uniquePhone();
      const sent = await call<{ otpToken: string }>(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
      const code = await latestCode(t.app, phone);
      const wrong = code === '000000' ? '111111' : '000000';
      const answers: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: wrong } });
        answers.push(String(res.body.message));
      }
      expect(answers).toEqual(['OTP_CODE_INVALID', 'OTP_CODE_INVALID', 'OTP_CODE_INVALID', 'OTP_CODE_INVALID', 'OTP_BLOCK']);
      const right = await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: code } });
      expect(right).toMatchObject({ status: 429, body: { message: 'OTP_BLOCK' } });
    });

    it('counts parallel guesses atomically', async () => {
      const phone = uniquePhone();
      const sent = await call<{ otpToken: string }>(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
      const code = await latestCode(t.app, phone);
      const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
      await Promise.all(guesses.map((otpCode) => call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode } })));
      const row = await t.services.database.db.selectFrom('otp_requests').select('attempts').where('token', '=', sent.body.otpToken).executeTakeFirstOrThrow();
      expect(row.attempts).toBe(20);
      const right = await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: code } });
      expect(right.body.message).toBe('OTP_BLOCK');
    });

    it('answers OTP_EXPIRED for an old code and OTP_TOKEN_INVALID for an unknown token', async () => {
      const phone = uniquePhone();
      const sent = await call<{ otpToken: string }>(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
      await t.services.database.db.updateTable('otp_requests').set({ expires_at: new Date(Date.now() - 1000) }).where('token', '=', sent.body.otpToken).execute();
      const expired = await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: await latestCode(t.app, phone) } });
      expect(expired).toMatchObject({ status: 400, body: { message: 'OTP_EXPIRED' } });
      const unknown = await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: 'x'.repeat(43), otpCode: '123456' } });
      expect(unknown).toMatchObject({ status: 400, body: { message: 'OTP_TOKEN_INVALID' } });
      const malformed = await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: '../../etc', otpCode: '123456' } });
      expect(malformed).toMatchObject({ status: 400, body: { message: 'OTP_TOKEN_INVALID' } });
    });

    it('limits how often one phone can be sent a code', async () => {
      const phone = uniquePhone();
      expect((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } })).status).toBe(200);
      const soon = await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
      expect(soon).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
      expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
      const badPhone = await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: '12345' } });
      expect(badPhone).toMatchObject({ status: 400, body: { message: 'PHONE_NUMBER_REQUIRE_10_DIGIT' } });
    });
  });

  describe('login and sessions', () => {
    it('logs the demo member in', async () => {
      const token = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
      const profile = await call(t.app, 'GET', '/api/account/profile', { token });
      expect(profile.body).toMatchObject({ username: DEMO_MEMBER.username, bankAccountNo: '1234567890' });
    });

    it('gives the same answer for an unknown phone and a wrong password', async () => {
      const { phone } = await registerMember(t.app);
      const wrongPassword = await call(t.app, 'POST', '/api/login', { body: { username: phone, password: 'not-it-at-all' } });
      const unknownPhone = await call(t.app, 'POST', '/api/login', { body: { username: uniquePhone(), password: 'not-it-at-all' } });
      expect(wrongPassword.status).toBe(400);
      expect(unknownPhone.status).toBe(wrongPassword.status);
      expect(unknownPhone.body).toEqual(wrongPassword.body);
      expect(wrongPassword.body).toEqual({ message: 'WRONG_CREDENTIAL' });
    });

    it('rate limits repeated failures, even when the right password follows', async () => {
      const { phone, password } = await registerMember(t.app);
      for (let i = 0; i < 5; i++) {
        expect((await call(t.app, 'POST', '/api/login', { body: { username: phone, password: 'wrong-password' } })).status).toBe(400);
      }
      const limited = await call(t.app, 'POST', '/api/login', { body: { username: phone, password } });
      expect(limited).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('ends the session on logout', async () => {
      const token = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
      expect((await call(t.app, 'POST', '/api/logout', { token })).status).toBe(200);
      const after = await call(t.app, 'GET', '/api/account/profile', { token });
      expect(after).toMatchObject({ status: 401, body: { message: 'invalid-token' } });
    });

    it('answers invalid-token for missing or malformed tokens and EXPIRED_AUTH_TOKEN for expired ones', async () => {
      expect((await call(t.app, 'GET', '/api/account/profile')).body).toEqual({ message: 'invalid-token' });
      const malformed = await call(t.app, 'GET', '/api/account/profile', { headers: { authorization: 'Bearer <script>' } });
      expect(malformed).toMatchObject({ status: 401, body: { message: 'invalid-token' } });
      const token = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
      await t.services.database.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('revoked_at', 'is', null).execute();
      const expired = await call(t.app, 'GET', '/api/account/profile', { token });
      expect(expired).toMatchObject({ status: 401, body: { message: 'EXPIRED_AUTH_TOKEN' } });
    });

    it('changes the password, refuses a wrong old one, and revokes the other sessions', async () => {
      const { phone, password } = await registerMember(t.app);
      const here = await login(t.app, phone, password);
      const elsewhere = await login(t.app, phone, password);
      const wrongOld = await call(t.app, 'PUT', '/api/account/changepwd', { token: here, body: { oldPassword: 'nope-nope', newPassword: 'another1' } });
      expect(wrongOld).toMatchObject({ status: 400, body: { message: 'WRONG_PASSWORD' } });
      const short = await call(t.app, 'PUT', '/api/account/changepwd', { token: here, body: { oldPassword: password, newPassword: '12' } });
      expect(short).toMatchObject({ status: 400, body: { message: 'PASSWORD_TOO_SHORT' } });
      const ok = await call(t.app, 'PUT', '/api/account/changepwd', { token: here, body: { oldPassword: password, newPassword: 'another1' } });
      expect(ok.status).toBe(200);
      expect((await call(t.app, 'GET', '/api/account/profile', { token: here })).status).toBe(200);
      expect((await call(t.app, 'GET', '/api/account/profile', { token: elsewhere })).body).toEqual({ message: 'invalid-token' });
      expect((await call(t.app, 'POST', '/api/login', { body: { username: phone, password } })).status).toBe(400);
      await login(t.app, phone, 'another1');
    });
  });

  describe('profile', () => {
    it('changes the name but not the bank details', async () => {
      const { phone, password } = await registerMember(t.app);
      const token = await login(t.app, phone, password);
      const profile = (await call(t.app, 'GET', '/api/account/profile', { token })).body as { bankCode: string; bankAccountName: string; bankAccountNo: string };
      const renamed = await call(t.app, 'PUT', '/api/account/profile', { token, body: { ...pick(profile), name: 'New Name' } });
      expect(renamed).toMatchObject({ status: 200, body: { name: 'New Name' } });
      const moved = await call(t.app, 'PUT', '/api/account/profile', { token, body: { ...pick(profile), name: 'New Name', bankAccountNo: '1112223334' } });
      expect(moved).toMatchObject({ status: 403, body: { message: 'BANK_DETAILS_LOCKED' } });
    });

    it('corrects a KTB account name only to English letters', async () => {
      const { phone, password } = await registerMember(t.app, { bankCode: 'KBANK', bankAccountName: 'สมหญิง ใจดี' });
      const token = await login(t.app, phone, password);
      const wrongBank = await call(t.app, 'PUT', '/api/account/bankAccountName', { token, body: { bankCode: 'KTB', bankAccountName: 'SOMYING JAIDEE' } });
      expect(wrongBank).toMatchObject({ status: 400, body: { message: 'INVALID_BANK' } });
      const ktb = await registerMember(t.app, { bankCode: 'KTB', bankAccountName: 'SOMYING JAIDEE' });
      const ktbToken = await login(t.app, ktb.phone, ktb.password);
      const thai = await call(t.app, 'PUT', '/api/account/bankAccountName', { token: ktbToken, body: { bankCode: 'KTB', bankAccountName: 'สมหญิง' } });
      expect(thai).toMatchObject({ status: 400, body: { message: 'BANK_ACCOUNT_NAME_ENG' } });
      const ok = await call(t.app, 'PUT', '/api/account/bankAccountName', { token: ktbToken, body: { bankCode: 'KTB', bankAccountName: 'somying  jai-dee' } });
      expect(ok.status).toBe(400);
      const fine = await call(t.app, 'PUT', '/api/account/bankAccountName', { token: ktbToken, body: { bankCode: 'KTB', bankAccountName: 'somying jaidee' } });
      expect(fine).toMatchObject({ status: 200, body: { bankAccountName: 'SOMYING JAIDEE' } });
    });
  });

  describe('forgot password', () => {
    it('resets the password with the SMS code and ends every session', async () => {
      const { phone, password } = await registerMember(t.app);
      const token = await login(t.app, phone, password);
      const sent = await call<{ otpToken: string; otpRef: string }>(t.app, 'POST', '/api/password/forgot/send', { body: { phoneNumber: phone } });
      expect(sent.status).toBe(200);
      const code = await latestCode(t.app, phone);
      const wrong = await call(t.app, 'POST', '/api/password/forgot/reset', { body: { otpToken: sent.body.otpToken, otpCode: code === '999999' ? '111111' : '999999', newPassword: 'fresh-pass' } });
      expect(wrong.body.message).toBe('OTP_CODE_INVALID');
      const reset = await call(t.app, 'POST', '/api/password/forgot/reset', { body: { otpToken: sent.body.otpToken, otpCode: code, newPassword: 'fresh-pass' } });
      expect(reset.status).toBe(200);
      expect((await call(t.app, 'GET', '/api/account/profile', { token })).status).toBe(401);
      await login(t.app, phone, 'fresh-pass');
      const reuse = await call(t.app, 'POST', '/api/password/forgot/reset', { body: { otpToken: sent.body.otpToken, otpCode: code, newPassword: 'other-pass' } });
      expect(reuse).toMatchObject({ status: 400, body: { message: 'OTP_TOKEN_INVALID' } });
    });

    it('does not reveal whether a phone is registered', async () => {
      const phone = uniquePhone();
      const sent = await call<{ otpToken: string; otpRef: string }>(t.app, 'POST', '/api/password/forgot/send', { body: { phoneNumber: phone } });
      expect(sent.status).toBe(200);
      expect(Object.keys(sent.body).sort()).toEqual(['otpRef', 'otpToken']);
      const outbox = await call<{ messages: unknown[] }>(t.app, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
      expect(outbox.body.messages).toEqual([]);
      const guess = await call(t.app, 'POST', '/api/password/forgot/reset', { body: { otpToken: sent.body.otpToken, otpCode: '123456', newPassword: 'fresh-pass' } });
      expect(guess).toMatchObject({ status: 400, body: { message: 'OTP_CODE_INVALID' } });
    });
  });
});

function pick(p: { bankCode: string; bankAccountName: string; bankAccountNo: string }) {
  return { bankCode: p.bankCode, bankAccountName: p.bankAccountName, bankAccountNo: p.bankAccountNo };
}
