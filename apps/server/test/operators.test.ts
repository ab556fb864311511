import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpCode } from '../src/modules/operators/totp';
import { DEMO_TOTP_SECRET } from '../src/modules/operators/operator-service';
import { call, dbKinds, OPERATOR_TOKEN, startApp, type TestApp } from './helpers';
import { advance, codeNow, newOperator, operatorLogin, useTestClock } from './operator-helpers';

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC 4226 and RFC 6238 test vectors (SHA-1, 6 digits)', () => {
    const secret = Buffer.from('12345678901234567890');
    expect([0, 1, 2, 3, 9].map((c) => hotp(secret, c))).toEqual(['755224', '287082', '359152', '969429', '520489']);
    const b32 = base32Encode(secret);
    expect(b32).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(b32)).toEqual(secret);
    // RFC 6238 appendix B (8 digits there; the last 6 here).
    expect(totpCode(b32, new Date(59_000))).toBe('287082');
    expect(totpCode(b32, new Date(1_111_111_109_000))).toBe('081804');
    expect(totpCode(b32, new Date(1_234_567_890_000))).toBe('005924');
  });

  it('accepts one step either side and nothing further', () => {
    const at = new Date(1_700_000_000_000);
    const step = Math.floor(at.getTime() / 30_000);
    for (const delta of [-1, 0, 1]) expect(matchTotp(DEMO_TOTP_SECRET, totpCode(DEMO_TOTP_SECRET, new Date(at.getTime() + delta * 30_000)), at)).toBe(step + delta);
    for (const delta of [-2, 2]) expect(matchTotp(DEMO_TOTP_SECRET, totpCode(DEMO_TOTP_SECRET, new Date(at.getTime() + delta * 30_000)), at)).toBeNull();
    expect(matchTotp(DEMO_TOTP_SECRET, '12345', at)).toBeNull();
    expect(otpauthUri('Golden Wallet', 'owner', DEMO_TOTP_SECRET)).toBe('otpauth://totp/Golden%20Wallet:owner?secret=JBSWY3DPEHPK3PXP&issuer=Golden%20Wallet&algorithm=SHA1&digits=6&period=30');
  });
});

describe.each(dbKinds)('operators on %s', (kind) => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440', ADMIN_LOGIN_FAILS_PER_USERNAME_HOUR: '1000' });
    useTestClock(t);
    owner = await operatorLogin(t, 'owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (body: unknown, remoteAddress?: string) => call<{ challenge: string; message?: string }>(t.app, 'POST', '/api/admin/login', { body, ...(remoteAddress ? { remoteAddress } : {}) });
  const totp = (challenge: string, code: string) => call<{ token?: string; message?: string; operator?: unknown }>(t.app, 'POST', '/api/admin/login/totp', { body: { challenge, code } });

  it('logs the demo operators in with password and TOTP; /me says who and which role', async () => {
    for (const role of ['owner', 'finance', 'support', 'marketing'] as const) {
      advance(t);
      const first = await login({ username: role, password: 'demo-operator-1' });
      expect(first.status).toBe(200);
      const second = await totp(first.body.challenge, codeNow(t));
      expect(second).toMatchObject({ status: 200, body: { operator: { username: role, role } } });
      const me = await call(t.app, 'GET', '/api/admin/me', { token: second.body.token as string });
      expect(me).toMatchObject({ status: 200, body: { username: role, role, via: 'session' } });
    }
    expect(await call(t.app, 'GET', '/api/admin/me', { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).toMatchObject({ status: 200, body: { username: 'api-key', role: 'owner', via: 'api-key' } });
    expect(await call(t.app, 'GET', '/api/admin/me')).toMatchObject({ status: 401, body: { message: 'UNAUTHORIZED' } });
  });

  it('answers a wrong username and a wrong password alike, and a member token is no operator token', async () => {
    const wrongPassword = await login({ username: 'finance', password: 'not-the-password' });
    const wrongUser = await login({ username: 'nobody-here', password: 'demo-operator-1' });
    expect(wrongPassword).toEqual({ ...wrongPassword, status: 401, body: { message: 'WRONG_CREDENTIAL' } });
    expect(wrongUser.status).toBe(401);
    expect(wrongUser.body).toEqual(wrongPassword.body);
    expect((await login({ username: 'finance' })).status).toBe(400);
    expect(await call(t.app, 'GET', '/api/operator/withdrawals', { token: 'a'.repeat(43) })).toMatchObject({ status: 401, body: { message: 'UNAUTHORIZED' } });
  });

  it('refuses a wrong code, a replayed code and a code outside the window; 5 wrong codes void the challenge', async () => {
    advance(t);
    const first = await login({ username: 'support', password: 'demo-operator-1' });
    // Outside the window: two steps away.
    const far = totpCode(DEMO_TOTP_SECRET, new Date(t.services.operators.clock.now().getTime() + 60_000));
    expect(await totp(first.body.challenge, far)).toMatchObject({ status: 401, body: { message: 'WRONG_TOTP' } });
    const code = codeNow(t);
    expect((await totp(first.body.challenge, code)).status).toBe(200);
    // The challenge is used up.
    expect(await totp(first.body.challenge, code)).toMatchObject({ status: 401, body: { message: 'CHALLENGE_INVALID' } });
    // The same code signs in again while its own 30-second step lasts (a second tab, a second probe)…
    const second = await login({ username: 'support', password: 'demo-operator-1' });
    expect((await totp(second.body.challenge, code)).status).toBe(200);
    // …but not once that step has passed, though the ±1 window would still take it: a replay.
    advance(t);
    const again = await login({ username: 'support', password: 'demo-operator-1' });
    expect(await totp(again.body.challenge, code)).toMatchObject({ status: 401, body: { message: 'WRONG_TOTP' } });
    // A code of a step before the one used is refused too.
    const older = totpCode(DEMO_TOTP_SECRET, new Date(t.services.operators.clock.now().getTime() - 60_000));
    expect(await totp(again.body.challenge, older)).toMatchObject({ status: 401, body: { message: 'WRONG_TOTP' } });
    for (let i = 0; i < 3; i += 1) expect((await totp(again.body.challenge, '000000')).body.message).toBe('WRONG_TOTP');
    // Five wrong: even the right code of a later step no longer opens it.
    advance(t);
    expect(await totp(again.body.challenge, codeNow(t))).toMatchObject({ status: 401, body: { message: 'CHALLENGE_INVALID' } });
    const audit = await call<{ rows: Array<{ action: string; after: { reason: string } }> }>(t.app, 'GET', '/api/operator/audit?operator=support&action=totp.failed&limit=10', { token: owner });
    expect(audit.body.rows.map((r) => r.after.reason)).toContain('REPLAYED_TOTP');
    expect(audit.body.rows).toHaveLength(6);
  });

  it('lets a challenge expire after 5 minutes', async () => {
    advance(t);
    const first = await login({ username: 'marketing', password: 'demo-operator-1' });
    advance(t, 301_000);
    expect(await totp(first.body.challenge, codeNow(t))).toMatchObject({ status: 401, body: { message: 'CHALLENGE_INVALID' } });
  });

  it('limits failed logins per username and address, with a per-address backstop', async () => {
    const address = '198.51.100.7';
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push((await login({ username: 'finance', password: 'wrong-password!' }, address)).status);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
    // Another address still reaches the password check for the same username.
    expect((await login({ username: 'finance', password: 'wrong-password!' }, '198.51.100.8')).status).toBe(401);
  });

  it('ends a session at its idle time and at its life, and at logout', async () => {
    const idle = await startApp(kind, { OPERATOR_IDLE_MINUTES: '30', OPERATOR_SESSION_HOURS: '1' });
    try {
      useTestClock(idle);
      const token = await operatorLogin(idle, 'finance');
      expect((await call(idle.app, 'GET', '/api/operator/withdrawals', { token })).status).toBe(200);
      advance(idle, 29 * 60_000);
      expect((await call(idle.app, 'GET', '/api/operator/withdrawals', { token })).status).toBe(200);
      advance(idle, 29 * 60_000);
      expect((await call(idle.app, 'GET', '/api/operator/withdrawals', { token })).status).toBe(200);
      advance(idle, 31 * 60_000);
      expect(await call(idle.app, 'GET', '/api/operator/withdrawals', { token })).toMatchObject({ status: 401, body: { message: 'SESSION_EXPIRED' } });
      // Life: used every 20 minutes, it still ends after an hour.
      const busy = await operatorLogin(idle, 'finance');
      for (let i = 0; i < 2; i += 1) {
        advance(idle, 20 * 60_000);
        expect((await call(idle.app, 'GET', '/api/operator/withdrawals', { token: busy })).status).toBe(200);
      }
      advance(idle, 21 * 60_000);
      expect(await call(idle.app, 'GET', '/api/operator/withdrawals', { token: busy })).toMatchObject({ status: 401, body: { message: 'SESSION_EXPIRED' } });
      const leaving = await operatorLogin(idle, 'finance');
      expect(await call(idle.app, 'POST', '/api/admin/logout', { token: leaving })).toMatchObject({ status: 200, body: { ok: true } });
      expect(await call(idle.app, 'GET', '/api/operator/withdrawals', { token: leaving })).toMatchObject({ status: 401, body: { message: 'UNAUTHORIZED' } });
    } finally {
      await idle.close();
    }
  });

  it('creates an operator with a one-time enrolment; disabling them stops their open session at its next call', async () => {
    const created = await call<{ operator: { id: string; status: string }; enrolment: { token: string; link: string } }>(t.app, 'POST', '/api/operator/operators', {
      token: owner,
      body: { username: 'Nok.Support', name: 'Nok', role: 'support' },
    });
    expect(created).toMatchObject({ status: 200, body: { operator: { username: 'nok.support', name: 'Nok', role: 'support', status: 'pending-enrolment' } } });
    expect(created.body.enrolment.link).toBe(`http://localhost:3000/admin/enrol/${created.body.enrolment.token}`);
    expect((await call(t.app, 'POST', '/api/operator/operators', { token: owner, body: { username: 'nok.support', role: 'finance' } })).body).toEqual({ message: 'OPERATOR_EXISTS' });
    expect((await call(t.app, 'POST', '/api/operator/operators', { token: owner, body: { username: 'x', role: 'finance' } })).body).toEqual({ message: 'USERNAME_INVALID' });
    // Not enrolled yet: no login.
    expect((await login({ username: 'nok.support', password: 'whatever-password' })).status).toBe(401);
    const path = `/api/admin/enrol/${created.body.enrolment.token}`;
    const shown = await call<{ secret: string; otpauthUri: string; qrDataUrl: string }>(t.app, 'GET', path);
    expect(shown.status).toBe(200);
    expect(shown.body.otpauthUri).toContain(`secret=${shown.body.secret}`);
    expect(shown.body.qrDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await call(t.app, 'GET', path)).toMatchObject({ status: 409, body: { message: 'ENROLMENT_SHOWN' } });
    advance(t);
    expect((await call(t.app, 'POST', path, { body: { password: 'short', code: codeNow(t, shown.body.secret) } })).body).toEqual({ message: 'OPERATOR_PASSWORD_INVALID' });
    expect((await call(t.app, 'POST', path, { body: { password: 'a-long-enough-password', code: '000000' } })).body).toEqual({ message: 'WRONG_TOTP' });
    expect(await call(t.app, 'POST', path, { body: { password: 'a-long-enough-password', code: codeNow(t, shown.body.secret) } })).toMatchObject({ status: 200 });
    expect(await call(t.app, 'POST', path, { body: { password: 'a-long-enough-password', code: codeNow(t, shown.body.secret) } })).toMatchObject({ status: 404, body: { message: 'ENROLMENT_INVALID' } });

    const session = await operatorLogin(t, 'nok.support', 'a-long-enough-password', shown.body.secret);
    expect((await call(t.app, 'GET', '/api/operator/chat/conversations', { token: session })).status).toBe(200);
    const id = created.body.operator.id;
    expect(await call(t.app, 'POST', `/api/operator/operators/${id}/disable`, { token: owner })).toMatchObject({ status: 200, body: { status: 'disabled' } });
    expect(await call(t.app, 'GET', '/api/operator/chat/conversations', { token: session })).toMatchObject({ status: 401, body: { message: 'UNAUTHORIZED' } });
    advance(t);
    expect(await login({ username: 'nok.support', password: 'a-long-enough-password' })).toMatchObject({ status: 403, body: { message: 'OPERATOR_DISABLED' } });
    expect(await call(t.app, 'POST', `/api/operator/operators/${id}/enable`, { token: owner })).toMatchObject({ status: 200, body: { status: 'active' } });
    const back = await operatorLogin(t, 'nok.support', 'a-long-enough-password', shown.body.secret);
    // Role change applies to the open session at once.
    expect((await call(t.app, 'GET', '/api/operator/withdrawals', { token: back })).body).toEqual({ message: 'FORBIDDEN_ROLE' });
    expect(await call(t.app, 'PUT', `/api/operator/operators/${id}/role`, { token: owner, body: { role: 'finance' } })).toMatchObject({ status: 200, body: { role: 'finance' } });
    expect((await call(t.app, 'GET', '/api/operator/withdrawals', { token: back })).status).toBe(200);
    expect((await call(t.app, 'POST', `/api/operator/operators/nope/disable`, { token: owner })).body).toEqual({ message: 'NO_OPERATOR' });
  });

  it('changes the own password: every session of theirs ends, the answer is a new one', async () => {
    const op = await newOperator(t, 'marketing', owner);
    const one = await operatorLogin(t, op.username, op.password, op.secret);
    const two = await operatorLogin(t, op.username, op.password, op.secret);
    expect((await call(t.app, 'PUT', '/api/admin/password', { token: one, body: { oldPassword: 'wrong-password-1', newPassword: 'a-brand-new-password' } })).body).toEqual({ message: 'WRONG_PASSWORD' });
    const changed = await call<{ token: string }>(t.app, 'PUT', '/api/admin/password', { token: one, body: { oldPassword: op.password, newPassword: 'a-brand-new-password' } });
    expect(changed.status).toBe(200);
    for (const old of [one, two]) expect((await call(t.app, 'GET', '/api/operator/bonuses', { token: old })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/operator/bonuses', { token: changed.body.token })).status).toBe(200);
    expect(await call(t.app, 'PUT', '/api/admin/password', { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, body: { oldPassword: 'x', newPassword: 'y' } })).toMatchObject({ status: 401 });
  });

  it('resets TOTP through a new enrolment, and keeps an active owner', async () => {
    const op = await newOperator(t, 'finance', owner);
    const session = await operatorLogin(t, op.username, op.password, op.secret);
    const reset = await call<{ enrolment: { token: string }; operator: { status: string } }>(t.app, 'POST', `/api/operator/operators/${op.id}/reset-totp`, { token: owner });
    expect(reset).toMatchObject({ status: 200, body: { operator: { status: 'pending-enrolment' } } });
    expect((await call(t.app, 'GET', '/api/operator/withdrawals', { token: session })).status).toBe(401);
    const shown = await call<{ secret: string }>(t.app, 'GET', `/api/admin/enrol/${reset.body.enrolment.token}`);
    expect(shown.body.secret).not.toBe(op.secret);
    advance(t);
    expect((await call(t.app, 'POST', `/api/admin/enrol/${reset.body.enrolment.token}`, { body: { password: 'the-second-password', code: codeNow(t, shown.body.secret) } })).status).toBe(200);
    await operatorLogin(t, op.username, 'the-second-password', shown.body.secret);

    const me = await call<{ id: string }>(t.app, 'GET', '/api/admin/me', { token: owner });
    expect((await call(t.app, 'POST', `/api/operator/operators/${me.body.id}/disable`, { token: owner })).body).toEqual({ message: 'OWN_ACCOUNT' });
    // The api-key may not disable the only owners there are.
    const list = await call<{ operators: Array<{ id: string; role: string; status: string }> }>(t.app, 'GET', '/api/operator/operators', { token: owner });
    const owners = list.body.operators.filter((o) => o.role === 'owner' && o.status === 'active');
    expect(owners).toHaveLength(1);
    expect((await call(t.app, 'PUT', `/api/operator/operators/${me.body.id}/role`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, body: { role: 'support' } })).body).toEqual({ message: 'LAST_OWNER' });
  });
});

describe('demo operators without SEED_DEMO', () => {
  it('are retired: the documented password no longer logs in', async () => {
    const t = await startApp('embedded');
    try {
      useTestClock(t);
      await operatorLogin(t, 'owner');
      await t.services.operators.retireDemo();
      expect((await call(t.app, 'POST', '/api/admin/login', { body: { username: 'owner', password: 'demo-operator-1' } })).status).toBe(401);
      await t.services.operators.seedDemo();
      await operatorLogin(t, 'owner');
    } finally {
      await t.close();
    }
  });
});

describe('operators on a terminated site', () => {
  it('still log in and bring the site back', async () => {
    const t = await startApp('embedded');
    try {
      useTestClock(t);
      const owner = await operatorLogin(t, 'owner');
      expect((await call(t.app, 'PUT', '/api/operator/settings/siteActive', { token: owner, body: { value: false } })).status).toBe(200);
      expect((await call(t.app, 'GET', '/api/lookup/active')).status).toBe(410);
      const again = await operatorLogin(t, 'owner');
      expect((await call(t.app, 'GET', '/api/admin/me', { token: again })).status).toBe(200);
      expect((await call(t.app, 'PUT', '/api/operator/settings/siteActive', { token: again, body: { value: true } })).status).toBe(200);
      expect((await call(t.app, 'GET', '/api/lookup/active')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
