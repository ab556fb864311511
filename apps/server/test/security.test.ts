import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpointList } from '@mw/contract/endpoints';
import { stringVariants } from '../../../packages/contract/test/schema-walk';
import { DEMO_MEMBER } from '../src/modules/demo';
import { DEMO_OPERATOR_PASSWORD } from '../src/modules/operators/operator-service';
import { operatorLogin, useTestClock } from './operator-helpers';
import { call, concrete, dbKinds, dropSchema, latestCode, login, registerMember, registration, startApp, uniquePhone, verifyPhone, type TestApp } from './helpers';

/** Percent-encodes every UTF-8 byte (a lone surrogate becomes U+FFFD, as a browser would send it). */
const encodeBytes = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

describe.each(dbKinds)('registration bound to the client that verified the phone, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses an attacker who knows the phone but not the token, even right after the victim verified', async () => {
    const victim = uniquePhone();
    const victimToken = await verifyPhone(t.app, victim);
    // The attacker verified a phone of their own: that token is no good for the victim's phone.
    const attackerPhone = uniquePhone();
    const attackerToken = await verifyPhone(t.app, attackerPhone);
    const attempts = [
      registration(victim),
      registration(victim, { otpToken: 'x'.repeat(43) }),
      registration(victim, { otpToken: attackerToken }),
      registration(victim, { otpToken: '' }),
    ];
    for (const body of attempts) {
      const res = await call(t.app, 'POST', '/api/account', { body });
      expect(res).toMatchObject({ status: 403, body: { message: 'UNVERIFIED_OTP' } });
    }
    // Asking for a code for the victim's phone does not say it is verified, nor hand out the token.
    const probe = await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: victim } });
    expect(probe.body.code).not.toBe('OTP_VERIFIED');
    expect(JSON.stringify(probe.body)).not.toContain(victimToken);
    expect(await t.services.database.db.selectFrom('members').select('id').where('username', '=', victim).executeTakeFirst()).toBeUndefined();

    // The victim registers normally, with their own bank account.
    const own = await call<{ _id: string }>(t.app, 'POST', '/api/account', { body: registration(victim, { otpToken: victimToken, bankAccountNo: '4440001234' }) });
    expect(own.status).toBe(200);
    const row = await t.services.database.db.selectFrom('members').select(['id', 'bank_account_no']).where('username', '=', victim).executeTakeFirstOrThrow();
    expect(row).toEqual({ id: own.body._id, bank_account_no: '4440001234' });
  });

  it('uses the token up: it registers once, and a failed registration leaves it usable', async () => {
    const phone = uniquePhone();
    const otpToken = await verifyPhone(t.app, phone);
    // Refused for another reason (bank account taken): nothing written, the token still good.
    const taken = await call(t.app, 'POST', '/api/account', { body: registration(phone, { otpToken, bankAccountNo: '1234567890' }) });
    expect(taken).toMatchObject({ status: 409, body: { message: 'EXISTING_BANK' } });
    expect((await call(t.app, 'POST', '/api/account', { body: registration(phone, { otpToken }) })).status).toBe(200);
    const row = await t.services.database.db.selectFrom('otp_requests').select('consumed_at').where('token', '=', otpToken).executeTakeFirstOrThrow();
    expect(row.consumed_at).not.toBeNull();
    // Used up: once the phone's member is gone the same token cannot create another one.
    await t.services.database.db.updateTable('members').set({ username: `x${phone}` }).where('username', '=', phone).execute();
    const again = await call(t.app, 'POST', '/api/account', { body: registration(phone, { otpToken }) });
    expect(again).toMatchObject({ status: 403, body: { message: 'UNVERIFIED_OTP' } });
  });

  it('refuses a token verified more than 30 minutes ago', async () => {
    const phone = uniquePhone();
    const otpToken = await verifyPhone(t.app, phone);
    await t.services.database.db.updateTable('otp_requests').set({ verified_at: new Date(Date.now() - 31 * 60_000) }).where('token', '=', otpToken).execute();
    const res = await call(t.app, 'POST', '/api/account', { body: registration(phone, { otpToken }) });
    expect(res).toMatchObject({ status: 403, body: { message: 'UNVERIFIED_OTP' } });
  });

  it('lets the attacker loop lose the race: the victim registers with the token while a stranger keeps trying', async () => {
    const victim = uniquePhone();
    const token = await verifyPhone(t.app, victim);
    const loop = Array.from({ length: 10 }, () => call(t.app, 'POST', '/api/account', { body: registration(victim, { bankAccountNo: '8889990000' }) }));
    const [own, ...attacks] = await Promise.all([call(t.app, 'POST', '/api/account', { body: registration(victim, { otpToken: token }) }), ...loop]);
    expect(own.status).toBe(200);
    expect(attacks.every((a) => a.status === 403 || a.status === 409)).toBe(true);
    const row = await t.services.database.db.selectFrom('members').select('bank_account_no').where('username', '=', victim).executeTakeFirstOrThrow();
    expect(row.bank_account_no).not.toBe('8889990000');
  });

  it('registers without a token while registerOTP is off', async () => {
    await t.services.settings.set('registerOTP', false);
    try {
      expect((await call(t.app, 'POST', '/api/account', { body: registration(uniquePhone()) })).status).toBe(200);
    } finally {
      await t.services.settings.set('registerOTP', true);
    }
  });
});

describe('client addresses and limits', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY says so', async () => {
    const t = await startApp('embedded');
    try {
      const { phone, password } = await registerMember(t.app);
      // A different made-up X-Forwarded-For on each try: still one address, locked after 5.
      for (let i = 0; i < 5; i++) {
        const res = await call(t.app, 'POST', '/api/login', { body: { username: phone, password: 'wrong-guess' }, headers: { 'x-forwarded-for': `203.0.113.${i}` }, remoteAddress: '198.51.100.7' });
        expect(res.status).toBe(400);
      }
      const forged = await call(t.app, 'POST', '/api/login', { body: { username: phone, password }, headers: { 'x-forwarded-for': '203.0.113.99' }, remoteAddress: '198.51.100.7' });
      expect(forged).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
    } finally {
      await t.close();
    }

    const behindProxy = await startApp('embedded', { TRUST_PROXY: '10.0.0.0/8' });
    try {
      const { phone, password } = await registerMember(behindProxy.app);
      for (let i = 0; i < 5; i++) {
        await call(behindProxy.app, 'POST', '/api/login', { body: { username: phone, password: 'wrong-guess' }, headers: { 'x-forwarded-for': '203.0.113.5' }, remoteAddress: '10.1.2.3' });
      }
      // The proxy is trusted: the client behind it is 203.0.113.5, and only that client is locked out.
      const locked = await call(behindProxy.app, 'POST', '/api/login', { body: { username: phone, password }, headers: { 'x-forwarded-for': '203.0.113.5' }, remoteAddress: '10.1.2.3' });
      expect(locked.status).toBe(429);
      const member = await call(behindProxy.app, 'POST', '/api/login', { body: { username: phone, password }, headers: { 'x-forwarded-for': '198.51.100.20' }, remoteAddress: '10.1.2.3' });
      expect(member.status).toBe(200);
      // A forged header from an address that is not a trusted proxy is ignored.
      for (let i = 0; i < 5; i++) {
        await call(behindProxy.app, 'POST', '/api/login', { body: { username: phone, password: 'wrong-guess' }, headers: { 'x-forwarded-for': `203.0.113.${50 + i}` }, remoteAddress: '192.0.2.9' });
      }
      const direct = await call(behindProxy.app, 'POST', '/api/login', { body: { username: phone, password }, headers: { 'x-forwarded-for': '203.0.113.77' }, remoteAddress: '192.0.2.9' });
      expect(direct.status).toBe(429);
    } finally {
      await behindProxy.close();
    }
  });

  it('does not let 5 wrong passwords from one address keep the member out from another; a higher per-phone ceiling still holds', async () => {
    const t = await startApp('embedded', { LOGIN_FAILS_PER_PHONE_HOUR: '12' });
    try {
      const { phone, password } = await registerMember(t.app);
      for (let i = 0; i < 5; i++) {
        expect((await call(t.app, 'POST', '/api/login', { body: { username: phone, password: 'wrong-guess' }, remoteAddress: '203.0.113.1' })).status).toBe(400);
      }
      expect((await call(t.app, 'POST', '/api/login', { body: { username: phone, password }, remoteAddress: '203.0.113.1' })).status).toBe(429);
      expect((await call(t.app, 'POST', '/api/login', { body: { username: phone, password }, remoteAddress: '198.51.100.2' })).status).toBe(200);
      // Guesses spread over many addresses meet the per-phone ceiling (12 an hour here).
      for (let i = 0; i < 7; i++) {
        await call(t.app, 'POST', '/api/login', { body: { username: phone, password: 'wrong-guess' }, remoteAddress: `192.0.2.${i + 10}` });
      }
      const ceiling = await call(t.app, 'POST', '/api/login', { body: { username: phone, password }, remoteAddress: '198.51.100.3' });
      expect(ceiling).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT' } });
    } finally {
      await t.close();
    }
  });

  it('cuts off 50 OTP sends to 50 phones from one address, forgot-password included, and keeps a site-wide ceiling', async () => {
    // The per-address hour here, not the per-address share of the site's minute (the next test's).
    const t = await startApp('embedded', { OTP_SENDS_PER_IP_HOUR: '10', OTP_SENDS_GLOBAL_MINUTE: '120', OTP_SENDS_GLOBAL_SHARE_PERCENT: '100' });
    try {
      const answers: Array<{ status: number; message: unknown }> = [];
      for (let i = 0; i < 50; i++) {
        const path = i % 2 === 0 ? '/api/otp/send' : '/api/password/forgot/send';
        const res = await call(t.app, 'POST', path, { body: { phoneNumber: uniquePhone() }, remoteAddress: '203.0.113.40' });
        answers.push({ status: res.status, message: res.body.message });
      }
      expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
      expect(answers.slice(10).every((a) => a.status === 429 && a.message === 'REQUEST_LIMIT')).toBe(true);
      // What the sandbox service's SMS gateway received (this app's own sandbox).
      const health = (await (await fetch(`${t.sandbox?.url ?? ''}/health`)).json()) as { systems: { sms: { messages: number } } };
      expect(health.systems.sms.messages).toBeGreaterThan(0);
      expect(health.systems.sms.messages).toBeLessThanOrEqual(10);
      // Another address is not affected.
      expect((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() }, remoteAddress: '198.51.100.40' })).status).toBe(200);
    } finally {
      await t.close();
    }

    const site = await startApp('embedded', { OTP_SENDS_GLOBAL_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await call(site.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() }, remoteAddress: `198.51.100.${i + 1}` });
        statuses.push(res.status);
        if (res.status === 429) expect(res.body.message).toBe('REQUEST_LIMIT_1MIN');
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await site.close();
    }
  });

  it("does not let a stranger's OTP requests for a phone use up the owner's allowance; a per-phone ceiling still holds", async () => {
    const t = await startApp('embedded', { OTP_SENDS_PER_PHONE_HOUR: '4', OTP_SENDS_PER_HOUR: '2', OTP_RESEND_SECONDS: '30' });
    try {
      const victim = uniquePhone();
      // The stranger, from one address: its burst and hourly limits stop it, not the victim.
      const stranger = [];
      for (let i = 0; i < 3; i++) stranger.push((await call(t.app, 'POST', '/api/password/forgot/send', { body: { phoneNumber: victim }, remoteAddress: '203.0.113.70' })).status);
      expect(stranger).toEqual([200, 429, 429]);
      expect((await call(t.app, 'POST', '/api/password/forgot/send', { body: { phoneNumber: victim }, remoteAddress: '198.51.100.70' })).status).toBe(200);
      // Many addresses together meet the per-phone ceiling (4 an hour here).
      for (let i = 0; i < 2; i++) await call(t.app, 'POST', '/api/password/forgot/send', { body: { phoneNumber: victim }, remoteAddress: `192.0.2.${70 + i}` });
      const ceiling = await call(t.app, 'POST', '/api/password/forgot/send', { body: { phoneNumber: victim }, remoteAddress: '198.51.100.71' });
      expect(ceiling).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT' } });
    } finally {
      await t.close();
    }
  });

  it('counts only sends that went out against the site-wide ceiling', async () => {
    const t = await startApp('embedded', { OTP_SENDS_PER_IP_HOUR: '2', OTP_SENDS_GLOBAL_MINUTE: '4', OTP_SENDS_GLOBAL_SHARE_PERCENT: '100' });
    try {
      const flood = [];
      for (let i = 0; i < 20; i++) flood.push((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() }, remoteAddress: '203.0.113.80' })).status);
      expect(flood.filter((s) => s === 200)).toHaveLength(2);
      // 18 refused requests used nothing of the site's 4: two other addresses still get their codes.
      expect((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() }, remoteAddress: '198.51.100.80' })).status).toBe(200);
      expect((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() }, remoteAddress: '198.51.100.81' })).status).toBe(200);
      expect((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() }, remoteAddress: '198.51.100.82' })).body.message).toBe('REQUEST_LIMIT_1MIN');
    } finally {
      await t.close();
    }
  });

  describe('at the default limits, behind carrier-grade NAT', () => {
    // One app for the three (each uses addresses of its own): the defaults helpers.ts raises, put back.
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp('embedded', { OTP_SENDS_PER_IP_HOUR: '200', OTP_SENDS_GLOBAL_MINUTE: '300', ACCOUNT_CHECKS_PER_IP_MINUTE: '200', ACCOUNT_CHECKS_PER_DEVICE_MINUTE: '20', LOGIN_SLOW_AFTER_PER_IP_MINUTE: '20', OPERATOR_IDLE_MINUTES: '1440' });
      await t.services.settings.set('registerOTP', false);
      useTestClock(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('keeps a few addresses from using up the site-wide SMS minute: each takes at most its share', async () => {
      const sent = await Promise.all(
        Array.from({ length: 12 }, async (_, a) => {
          let ok = 0;
          for (let i = 0; i < 25; i++) if ((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() }, remoteAddress: `203.0.113.${100 + a}` })).status === 200) ok += 1;
          return ok;
        }),
      );
      expect(sent).toEqual(Array.from({ length: 12 }, () => 15));
      // The twelve used 180 of 300: a newcomer elsewhere still gets a code, for registration and reset.
      expect((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() }, remoteAddress: '198.51.100.200' })).status).toBe(200);
      expect((await call(t.app, 'POST', '/api/password/forgot/send', { body: { phoneNumber: DEMO_MEMBER.username }, remoteAddress: '198.51.100.201' })).status).toBe(200);
    });

    it('lets 200 players behind one address log in within a minute, 50 of them mistyping once first', async () => {
      const nat = '100.64.0.1';
      // The 200 are registered through the service (their SMS codes are not this test's subject, and would use up the site's minute).
      const players = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const phone = uniquePhone();
          await t.services.accounts.register({ ...(registration(phone) as unknown as Parameters<typeof t.services.accounts.register>[0]), otpToken: undefined });
          return { phone, password: 'secret123' };
        }),
      );
      const started = Date.now();
      const typos = await Promise.all(players.slice(0, 50).map((p) => call(t.app, 'POST', '/api/login', { body: { username: p.phone, password: `${p.password}x` }, remoteAddress: nat })));
      expect(typos.every((r) => r.status === 400)).toBe(true);
      const logins = await Promise.all(players.map((p) => call(t.app, 'POST', '/api/login', { body: { username: p.phone, password: p.password }, remoteAddress: nat })));
      const refused = logins.filter((r) => r.status !== 200);
      expect(refused.length).toBeLessThanOrEqual(4); // at most 2 %
      expect(Date.now() - started).toBeLessThan(60_000);
      // A single attacker behind the same address still meets the per-phone limit (5 a minute).
      const victim = players[0];
      if (!victim) throw new Error('no player');
      const guesses = [];
      for (let i = 0; i < 7; i++) guesses.push((await call(t.app, 'POST', '/api/login', { body: { username: victim.phone, password: `guess-${i}` }, remoteAddress: nat })).status);
      expect(guesses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
      expect(guesses.slice(5)).toEqual([429, 429]);
    }, 120_000);

    it('does not lock an operator out from a known address for failures from addresses they never signed in from', async () => {
      await operatorLogin(t, 'finance'); // from 127.0.0.1: a known address from now on
      for (let a = 0; a < 5; a++) {
        for (let i = 0; i < 5; i++) await call(t.app, 'POST', '/api/admin/login', { body: { username: 'finance', password: `guess-${a}-${i}-long-enough` }, remoteAddress: `203.0.114.${a + 1}` });
      }
      // 25 failures from strangers: the username is locked for new addresses…
      expect((await call(t.app, 'POST', '/api/admin/login', { body: { username: 'finance', password: DEMO_OPERATOR_PASSWORD }, remoteAddress: '198.51.100.9' })).body).toMatchObject({ message: 'REQUEST_LIMIT' });
      // …not for the operator at their usual address (password, then TOTP).
      expect(await operatorLogin(t, 'finance')).toMatch(/.+/);
    });
  });

  it('counts a burst of parallel login guesses before checking them', async () => {
    const t = await startApp('embedded');
    try {
      const { phone, password } = await registerMember(t.app);
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          call(t.app, 'POST', '/api/login', { body: { username: phone, password: i === 20 ? password : `wrong-${i}` }, remoteAddress: '203.0.113.90' }),
        ),
      );
      const checked = burst.filter((r) => r.status !== 429);
      expect(checked.length).toBeLessThanOrEqual(5);
      expect(burst.filter((r) => r.status === 429).every((r) => r.body.message === 'REQUEST_LIMIT_1MIN')).toBe(true);
      // The member, elsewhere, is not locked out.
      expect((await call(t.app, 'POST', '/api/login', { body: { username: phone, password }, remoteAddress: '198.51.100.90' })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('counts OTP sends that answer EXISTING_USER with the registration checks', async () => {
    const t = await startApp('embedded', { ACCOUNT_CHECKS_PER_IP_MINUTE: '5' });
    try {
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: DEMO_MEMBER.username }, remoteAddress: '203.0.113.95' })).status);
      expect(statuses).toEqual([409, 409, 409, 409, 409, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it('limits registration checks per address', async () => {
    const t = await startApp('embedded', { ACCOUNT_CHECKS_PER_IP_MINUTE: '5' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        statuses.push((await call(t.app, 'POST', '/api/account/validate', { body: registration(DEMO_MEMBER.username), remoteAddress: '203.0.113.60' })).status);
      }
      expect(statuses).toEqual([409, 409, 409, 409, 409, 429, 429, 429]);
      const create = await call(t.app, 'POST', '/api/account', { body: registration(uniquePhone()), remoteAddress: '203.0.113.60' });
      expect(create).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
      expect((await call(t.app, 'POST', '/api/account/validate', { body: registration(DEMO_MEMBER.username), remoteAddress: '203.0.113.61' })).status).toBe(409);
    } finally {
      await t.close();
    }
  });
});

describe('no 500 on odd text', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startApp('embedded');
    token = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 400 KEY_INVALID for NUL in every string field of every request schema, body and path', async () => {
    const wrong: string[] = [];
    let tried = 0;
    for (const [name, def] of endpointList) {
      if (def.body && !def.multipart) {
        for (const variant of stringVariants(def.body as z.ZodType, 'a\u0000b')) {
          tried += 1;
          const res = await call(t.app, def.method, concrete(def.path), { token, body: variant.value });
          if (res.status !== 400 || res.body.message !== 'KEY_INVALID') wrong.push(`${name} ${variant.path}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
      if (def.params) {
        for (const variant of stringVariants(def.params as z.ZodType, 'a\u0000b')) {
          tried += 1;
          const values = variant.value as Record<string, string>;
          const url = def.path.replace(/:(\w+)/g, (_m, key: string) => encodeURIComponent(values[key] ?? 'x'));
          const res = await call(t.app, def.method, url, { token, ...(def.body && !def.multipart ? { body: {} } : {}) });
          if (res.status !== 400 || res.body.message !== 'KEY_INVALID') wrong.push(`${name} params ${variant.path}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(tried).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  });

  it('answers the operator, sandbox and login paths without a 500 for NUL and control characters', async () => {
    const operator = { authorization: 'Bearer operator-token-for-tests' };
    const probes = [
      await call(t.app, 'POST', `/api/operator/withdrawals/${encodeURIComponent('a\u0000b')}/complete`, { headers: operator }),
      await call(t.app, 'POST', `/api/operator/withdrawals/x/reject`, { headers: operator, body: { note: 'a\u0000b' } }),
      await call(t.app, 'GET', `/api/sandbox/sms?phoneNumber=${encodeURIComponent('08\u00001234567')}`),
      await call(t.app, 'POST', '/api/login', { body: { username: '0812345678\u0000', password: 'demo1234' } }),
      await call(t.app, 'POST', '/api/login', { body: { username: '081234\n5678', password: 'demo1234' } }),
      await call(t.app, 'POST', '/api/account/validate', { body: registration(uniquePhone(), { name: 'Nok\u0007' }) }),
      await call(t.app, 'PUT', '/api/account/profile', { token, body: { name: 'a\ud800b', bankCode: 'KBANK', bankAccountName: 'DEMO PLAYER', bankAccountNo: '1234567890' } }),
      await call(t.app, 'PUT', '/api/account/profile', { token, body: { name: 'a \u009b31m', bankCode: 'KBANK', bankAccountName: 'DEMO PLAYER', bankAccountNo: '1234567890' } }),
      await call(t.app, 'GET', `/api/statement/slip/reference/${encodeURIComponent('\u0000')}`, { token }),
    ];
    expect(probes.map((p) => [p.status, p.body.message])).toEqual(Array.from({ length: probes.length }, () => [400, 'KEY_INVALID']));
  });

  it('answers hundreds of hostile strings in every call with a coded 4xx or a success, never a 5xx', async () => {
    const hostile = [
      '\u0000',
      'a\u0000b',
      '\u0001\u0002\u0003',
      '\u001b[31mred',
      '\u007f',
      '\u009b31m',
      '\u202eevil\u202c',
      '\u200f\u200e\u061c',
      '🎰💰🧧',
      '👨‍👩‍👧‍👦'.repeat(50),
      '\ud800',
      '\udfff\ud800',
      'x'.repeat(100_000),
      "' OR 1=1 --",
      '<script>alert(1)</script>',
      '%00',
      '../../etc/passwd',
      '${{7*7}}',
      'สมชาย\u0000',
      'ສົມໃຈ',
      '\uFEFF0812345678',
      '\r\n\r\nHTTP/1.1 200 OK',
    ];
    const bad: string[] = [];
    let tried = 0;
    for (const [name, def] of endpointList) {
      if (def.path.startsWith('/api/chat')) continue; // covered once the chat domain exists
      const bodies: unknown[] = [];
      if (def.body && !def.multipart) {
        for (const text of hostile) for (const variant of stringVariants(def.body as z.ZodType, text)) bodies.push(variant.value);
        bodies.push('not an object', [1, 2, 3], { ['\u0000']: 1 }, null);
      }
      const urls = def.params ? hostile.map((text) => def.path.replace(/:(\w+)/g, () => encodeBytes(text))) : [concrete(def.path)];
      for (const url of urls) {
        for (const body of bodies.length > 0 ? bodies : [undefined]) {
          tried += 1;
          const res = await call(t.app, def.method, url, { token, ...(body !== undefined ? { body } : {}) });
          if (res.status >= 500 && !(res.status === 501 && res.body.message === 'NOT_IMPLEMENTED') && !(res.status === 502 || res.status === 504)) {
            bad.push(`${name} ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
          }
          if (res.status >= 400 && typeof res.body?.message !== 'string') bad.push(`${name} ${res.status} without a code`);
        }
      }
    }
    expect(tried).toBeGreaterThan(300);
    expect(bad).toEqual([]);
  });
});

describe('request and response hygiene', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('embedded', { REQUEST_TIMEOUT_MS: '1000', HSTS_MAX_AGE: '31536000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends no-store on every API answer, a Permissions-Policy and HSTS when configured', async () => {
    const token = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
    const answers = [
      await call(t.app, 'GET', '/api/wallet/account/PG', { token }),
      await call(t.app, 'GET', '/api/lookup/banks'),
      await call(t.app, 'GET', '/api/wallet'),
      await call(t.app, 'GET', '/api/nothing'),
      await call(t.app, 'POST', '/api/login', { body: { username: 1 } }),
    ];
    for (const res of answers) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['permissions-policy']).toContain('camera=()');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
    expect((await call(t.app, 'GET', '/healthz')).headers['cache-control']).not.toBe('no-store');
  });

  it('answers unknown API paths in any letter case with a JSON 404, never the web app', async () => {
    for (const path of ['/API/WALLET', '/Api/wallet', '/api', '/API', '/api/Wallet', '/api/nothing/here?x=1']) {
      const res = await call(t.app, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ message: 'NOT_FOUND' });
      expect(String(res.headers['content-type'])).toContain('application/json');
    }
  });

  it('treats /api written any other way as the API: its headers, the site switch, JSON 404s', async () => {
    const token = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
    for (const path of ['/%61pi/wallet/account/PG', '/%41PI/wallet']) {
      const res = await call(t.app, 'GET', path, { token });
      expect(res.headers['cache-control'], path).toBe('no-store');
    }
    for (const path of ['/%41PI/WALLET', '//api/wallet', '/x/../api/nothing', '/api%2Fnothing', '/api;x/wallet', '/./API/x']) {
      const res = await call(t.app, 'GET', path);
      expect(String(res.headers['content-type']), path).toContain('application/json');
      expect(res.status, path).toBeGreaterThanOrEqual(400);
    }
    await t.services.settings.set('siteActive', false);
    try {
      expect((await call(t.app, 'GET', '/%61pi/lookup/banks')).status).toBe(410);
      expect((await call(t.app, 'POST', '/%61pi/login', { body: { username: DEMO_MEMBER.username, password: DEMO_MEMBER.password } })).status).toBe(410);
    } finally {
      await t.services.settings.set('siteActive', true);
    }
  });

  it("answers the framework's own errors in the { message: CODE } shape without echoing the path", async () => {
    const badEscape = await call(t.app, 'GET', '/api/wallet/activate/%zz<script>');
    expect(badEscape).toMatchObject({ status: 400, body: { message: 'KEY_INVALID' } });
    const longParam = await call(t.app, 'GET', `/api/wallet/activate/${'A'.repeat(500)}`);
    expect(longParam).toMatchObject({ status: 414, body: { message: 'URI_TOO_LONG' } });
    for (const res of [badEscape, longParam]) {
      expect(res.headers['permissions-policy']).toContain('camera=()');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(Object.keys(res.body as object)).toEqual(['message']);
      expect(JSON.stringify(res.body)).not.toContain('script');
    }
  });

  it('closes a request whose body never finishes with 408 REQUEST_TIMEOUT, and answers malformed HTTP in the same shape', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const raw = (text: string, waitMs: number) =>
      new Promise<{ answer: string; closedAfterMs: number }>((resolve, reject) => {
        const started = Date.now();
        const socket = connect(port, '127.0.0.1', () => socket.write(text));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
        socket.on('error', reject);
        setTimeout(() => {
          socket.destroy();
          resolve({ answer, closedAfterMs: Date.now() - started });
        }, waitMs);
      });
    const slow = await raw('POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username":', 5_000);
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.answer).toContain('{"message":"REQUEST_TIMEOUT"}');
    expect(slow.closedAfterMs).toBeLessThan(4_000);
    const slowHeaders = await raw('POST /api/login HTTP/1.1\r\nHost: x\r\n', 6_000);
    expect(slowHeaders.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(slowHeaders.closedAfterMs).toBeLessThan(3_500);
    const broken = await raw('GARBAGE\r\n\r\n', 3_000);
    expect(broken.answer).toMatch(/^HTTP\/1\.1 400/);
    expect(broken.answer.toLowerCase()).toContain('permissions-policy:');
    expect(broken.answer).toContain('{"message":"KEY_INVALID"}');
    const hugeHeader = await raw(`GET /api/lookup/banks HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 3_000);
    expect(hugeHeader.answer).toMatch(/^HTTP\/1\.1 431/);
    expect(hugeHeader.answer).toContain('{"message":"HEADERS_TOO_LARGE"}');
  });
});

describe('production without sandboxes', () => {
  let gateway: Server;
  let received: Array<{ headers: IncomingMessage['headers']; body: string }>;
  let t: TestApp;
  beforeAll(async () => {
    received = [];
    gateway = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"queued"}');
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const { port } = gateway.address() as AddressInfo;
    t = await startApp('embedded', {
      NODE_ENV: 'production',
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: `http://127.0.0.1:${port}/send`,
      SMS_HTTP_BEARER_TOKEN: 'gateway-secret',
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
  });

  it('starts without ALLOW_SANDBOX_IN_PRODUCTION, with no sandbox routes, no demo top-up and no demo member', async () => {
    expect(t.services.sandboxSms).toBeNull();
    expect(t.services.sandboxGames).toBeNull();
    expect(await call(t.app, 'GET', `/api/sandbox/sms?phoneNumber=${DEMO_MEMBER.username}`)).toMatchObject({ status: 404, body: { message: 'NOT_FOUND' } });
    expect(t.app.hasRoute({ method: 'GET', url: '/sandbox/games/:code/lobby' })).toBe(false);
    expect((await call(t.app, 'POST', '/sandbox/games/PG/login', { body: {} })).status).toBe(404);
    expect(await call(t.app, 'POST', '/api/login', { body: { username: DEMO_MEMBER.username, password: DEMO_MEMBER.password } })).toMatchObject({ status: 400, body: { message: 'WRONG_CREDENTIAL' } });
    expect((await t.services.database.db.selectFrom('games').select('code').execute()).length).toBe(0);
    expect((await call(t.app, 'GET', '/api/lookup/banks')).status).toBe(200);
    // No demo content: the operator writes the site's own texts.
    expect((await call(t.app, 'GET', '/api/lookup/conditions')).body).toEqual([]);
  });

  it('sends codes through the HTTP gateway and registers with them', async () => {
    const phone = uniquePhone();
    const sent = await call<{ otpToken: string; otpRef: string }>(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
    expect(sent.status).toBe(200);
    const message = received.at(-1);
    expect(message?.headers.authorization).toBe('Bearer gateway-secret');
    const body = JSON.parse(message?.body ?? '{}') as { to: string; text: string };
    expect(body.to).toBe(`66${phone.slice(1)}`);
    expect(body.text).toContain(sent.body.otpRef);
    const code = /\b(\d{6})\b/.exec(body.text)?.[1] ?? '';
    expect((await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: code } })).status).toBe(200);
    const created = await call(t.app, 'POST', '/api/account', { body: registration(phone, { otpToken: sent.body.otpToken }) });
    expect(created.status).toBe(200);
    const memberToken = await login(t.app, phone, 'secret123');
    // No demo top-up: the call does not exist here.
    expect(await call(t.app, 'POST', '/api/wallet/add', { token: memberToken, body: { amount: 100 } })).toMatchObject({ status: 404, body: { message: 'NOT_FOUND' } });
  });
});

describe('the HTTP SMS gateway adapter', () => {
  it('answers OTP_SEND_FAIL when the gateway refuses, is silent or does not say sent', async () => {
    let mode: 'fail' | 'slow' | 'nope' | 'ok' = 'fail';
    const forms: Array<{ type: string; authorization: string; body: string }> = [];
    const gateway = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        forms.push({ type: String(req.headers['content-type']), authorization: String(req.headers.authorization), body });
        if (mode === 'fail') res.writeHead(500).end('error');
        else if (mode === 'slow') setTimeout(() => res.writeHead(200).end('OK sent'), 1_500);
        else res.writeHead(200).end(mode === 'nope' ? 'ERR quota' : 'OK sent');
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const { port } = gateway.address() as AddressInfo;
    const t = await startApp('embedded', {
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: `http://127.0.0.1:${port}/sms`,
      SMS_HTTP_CONTENT_TYPE: 'application/x-www-form-urlencoded',
      SMS_HTTP_BODY: 'msisdn={{phoneIntl}}&message={{text}}&sender={{sender}}',
      SMS_HTTP_BASIC_AUTH: 'wallet:s3cret',
      SMS_HTTP_TIMEOUT_MS: '500',
      SMS_HTTP_SUCCESS_MATCH: '^OK',
      OTP_RESEND_SECONDS: '0',
    });
    try {
      const send = () => call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: uniquePhone() } });
      expect(await send()).toMatchObject({ status: 502, body: { message: 'OTP_SEND_FAIL' } });
      mode = 'slow';
      expect(await send()).toMatchObject({ status: 502, body: { message: 'OTP_SEND_FAIL' } });
      mode = 'nope';
      expect(await send()).toMatchObject({ status: 502, body: { message: 'OTP_SEND_FAIL' } });
      mode = 'ok';
      expect((await send()).status).toBe(200);
      const last = forms.at(-1);
      expect(last?.type).toBe('application/x-www-form-urlencoded');
      expect(last?.authorization).toBe(`Basic ${Buffer.from('wallet:s3cret').toString('base64')}`);
      const params = new URLSearchParams(last?.body ?? '');
      expect(params.get('msisdn')).toMatch(/^668\d{8}$/);
      expect(params.get('message')).toMatch(/รหัส OTP ของคุณคือ \d{6}/);
      expect(params.get('sender')).toBe('GoldenWallet');
    } finally {
      await t.close();
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
    }
  });
});

describe('a production start on a data folder a development run seeded', () => {
  it('retires the demo member: it cannot log in, and a later development run brings it back', async () => {
    const schema = `t_retire_${randomBytes(4).toString('hex')}`;
    const dev = await startApp('postgres', {}, schema);
    const devToken = await login(dev.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
    await dev.close();
    const prod = await startApp('postgres', { NODE_ENV: 'production', SMS_HTTP_URL: 'http://127.0.0.1:9/none' }, schema);
    try {
      expect(await call(prod.app, 'POST', '/api/login', { body: { username: DEMO_MEMBER.username, password: DEMO_MEMBER.password } })).toMatchObject({ status: 400, body: { message: 'WRONG_CREDENTIAL' } });
      expect((await call(prod.app, 'GET', '/api/account/profile', { token: devToken })).status).toBe(401);
    } finally {
      await prod.close();
    }
    const again = await startApp('postgres', {}, schema);
    try {
      expect((await call(again.app, 'POST', '/api/login', { body: { username: DEMO_MEMBER.username, password: DEMO_MEMBER.password } })).status).toBe(200);
    } finally {
      await again.close();
      await dropSchema(schema);
    }
  });
});

// The sandbox outbox keeps working in development: the README's registration path.
describe('the embedded default', () => {
  it('keeps every sandbox and the demo member', async () => {
    const t = await startApp('embedded');
    try {
      const phone = uniquePhone();
      await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
      expect(await latestCode(t.app, phone)).toMatch(/^\d{6}$/);
      expect(t.services.sandboxGames).not.toBeNull();
      const token = await login(t.app, DEMO_MEMBER.username, DEMO_MEMBER.password);
      expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 10 } })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
