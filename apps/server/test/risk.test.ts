import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, registerMember, startApp, type TestApp } from './helpers';
import { operatorLogin, useTestClock } from './operator-helpers';

interface Flag {
  id: string;
  kind: string;
  memberIds: string[];
  evidence: Record<string, unknown>;
  status: string;
  note: string | null;
  members: Array<{ id: string }>;
}

let seq = 0;
const deviceId = () => `device-${Date.now().toString(36)}-${++seq}-risktest`;

/**
 * Risk flags (issue 34): signals on members with their evidence, which never block a player, and
 * a second review of the withdrawals of a member with an open flag.
 */
describe.each(dbKinds)('risk flags on %s', (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const as = (role: string) => ({ authorization: `Bearer ${tokens[role]}` });
  const flagsOf = async (memberId: string, query = '') =>
    (await call<{ flags: Flag[]; total: number }>(t.app, 'GET', `/api/operator/risk/flags?memberId=${memberId}${query}`, { headers: as('support') })).body.flags;
  /** Registers and logs in from a device (its X-Device-Id) and an address. */
  const member = async (device: string, remoteAddress = '203.0.113.9') => {
    const headers = { 'x-device-id': device };
    const m = await registerMemberFrom(t, headers, remoteAddress);
    const login = await call<{ token: string }>(t.app, 'POST', '/api/login', { body: { username: m.phone, password: m.password }, headers, remoteAddress });
    expect(login.status).toBe(200);
    return { ...m, token: login.body.token, headers, remoteAddress };
  };

  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440', PAYOUT_SETTLE_INTERVAL_MS: '0' });
    useTestClock(t);
    for (const role of ['owner', 'finance', 'support']) tokens[role] = await operatorLogin(t, role);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('two members registering from one device and both taking the welcome bonus raise flags linking both; nothing is refused', async () => {
    const device = deviceId();
    const a = await member(device, '198.51.100.7');
    const b = await member(device, '198.51.100.8');
    const sameDevice = (await flagsOf(b.id, '&kind=same-device'))[0];
    expect(sameDevice).toMatchObject({ kind: 'same-device', status: 'open', evidence: { deviceId: device } });
    expect(sameDevice?.memberIds.sort()).toEqual([a.id, b.id].sort());
    expect(sameDevice?.members.map((m) => m.id).sort()).toEqual([a.id, b.id].sort());
    for (const m of [a, b]) {
      expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 500 }, headers: m.headers, remoteAddress: m.remoteAddress })).status).toBe(200);
      expect((await call(t.app, 'GET', '/api/bonus/activate/WELCOME20', { token: m.token, headers: m.headers, remoteAddress: m.remoteAddress })).status).toBe(200);
    }
    const shared = (await flagsOf(b.id, '&kind=shared-bonus&status=open'))[0];
    expect(shared).toMatchObject({ kind: 'shared-bonus', evidence: { code: 'WELCOME20', deviceId: device } });
    expect(shared?.memberIds.sort()).toEqual([a.id, b.id].sort());
    // Newest first, and the open list names the flag.
    const open = await call<{ flags: Flag[] }>(t.app, 'GET', '/api/operator/risk/flags?status=open', { headers: as('finance') });
    expect(open.body.flags[0]?.id).toBe(shared?.id);
  });

  it('a malformed X-Device-Id is ignored, never an error', async () => {
    for (const bad of ['', 'a'.repeat(200), 'bad id with spaces', '<script>']) {
      const ids: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const m = await registerMemberFrom(t, { 'x-device-id': bad }, '127.0.0.1');
        const login = await call(t.app, 'POST', '/api/login', { body: { username: m.phone, password: m.password }, headers: { 'x-device-id': bad } });
        expect(login.status).toBe(200);
        ids.push(m.id);
      }
      // Not taken as a device: two registrations with it share nothing.
      expect(await flagsOf(ids[1] ?? '', '&kind=same-device')).toEqual([]);
    }
  });

  it('deposit ฿1,000 and withdraw ฿1,000 with no play: a low-turnover flag, and the withdrawal waits for a second review', async () => {
    const m = await member(deviceId(), '203.0.113.50');
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 1000 } })).status).toBe(200);
    const asked = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 1000 }, headers: m.headers });
    expect(asked.status).toBe(200);
    const flag = (await flagsOf(m.id, '&kind=low-turnover'))[0];
    expect(flag).toMatchObject({ kind: 'low-turnover', memberIds: [m.id], status: 'open', evidence: { withdrawalId: asked.body.reference, withdrawal: 1000, stakes: 0, required: 1000, percent: 100, deposit: { amount: 1000 } } });
    // ฿1,000 is far under the four-eyes threshold: the open flag alone sends it to a second person.
    const approve = await call<{ status: string; approvalId: string }>(t.app, 'POST', `/api/operator/withdrawals/${asked.body.reference}/approve`, { headers: as('finance') });
    expect(approve).toMatchObject({ status: 202, body: { status: 'awaiting-approval' } });
    const pending = await call<{ approvals: Array<{ id: string; memberId: string }> }>(t.app, 'GET', '/api/operator/approvals?status=pending', { headers: as('owner') });
    expect(pending.body.approvals.find((a) => a.id === approve.body.approvalId)).toMatchObject({ memberId: m.id });
    const done = await call<{ result: { status: number; body: { payout: string } } }>(t.app, 'POST', `/api/operator/approvals/${approve.body.approvalId}/approve`, { headers: as('owner') });
    expect(done.body.result).toMatchObject({ status: 200, body: { payout: 'paid' } });
  });

  it('dismissing without a note is refused; with a note it is closed once and audited', async () => {
    const m = await member(deviceId(), '203.0.113.60');
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 300 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 300 } })).status).toBe(200);
    const flag = (await flagsOf(m.id, '&status=open'))[0] as Flag;
    for (const body of [undefined, {}, { note: '' }, { note: '   ' }]) {
      const refused = await call(t.app, 'POST', `/api/operator/risk/flags/${flag.id}/dismiss`, { headers: as('finance'), ...(body ? { body } : {}) });
      expect(refused).toMatchObject({ status: 400, body: { message: 'NOTE_REQUIRED' } });
    }
    expect((await call(t.app, 'POST', `/api/operator/risk/flags/${flag.id}/dismiss`, { headers: as('support'), body: { note: 'x' } })).status).toBe(403);
    const dismissed = await call<Flag>(t.app, 'POST', `/api/operator/risk/flags/${flag.id}/dismiss`, { headers: as('finance'), body: { note: 'a regular: cashed out a win from another day' } });
    expect(dismissed).toMatchObject({ status: 200, body: { id: flag.id, status: 'dismissed', note: 'a regular: cashed out a win from another day', decidedBy: 'finance' } });
    expect(await call(t.app, 'POST', `/api/operator/risk/flags/${flag.id}/resolve`, { headers: as('finance'), body: { note: 'again' } })).toMatchObject({ status: 409, body: { message: 'RISK_FLAG_CLOSED' } });
    expect((await call(t.app, 'POST', '/api/operator/risk/flags/nope/resolve', { headers: as('finance'), body: { note: 'x' } })).body).toEqual({ message: 'NO_RISK_FLAG' });
    const audit = await call<{ rows: Array<{ operator: string; target: string; before: unknown; after: unknown }> }>(t.app, 'GET', `/api/operator/audit?target=${flag.id}`, { headers: as('owner') });
    expect(audit.body.rows).toContainEqual(expect.objectContaining({ operator: 'finance', target: flag.id, before: expect.objectContaining({ status: 'open' }), after: { status: 'dismissed', note: 'a regular: cashed out a win from another day' } }));
    expect((await flagsOf(m.id, '&status=open')).map((f) => f.id)).not.toContain(flag.id);
    expect((await flagsOf(m.id, '&status=resolved')).map((f) => f.id)).toContain(flag.id);
  });

  it('registrations from one address within 24 h, one bank account number at two banks, and a name unlike the account\'s are flagged', async () => {
    const address = '203.0.113.77';
    const first = await registerMemberFrom(t, {}, address);
    const second = await registerMemberFrom(t, {}, address, { bankCode: 'SCB', bankAccountNo: first.accountNo, name: 'Malee', bankAccountName: 'SOMSAK DEE' });
    expect((await flagsOf(second.id, '&kind=same-address'))[0]?.memberIds.sort()).toEqual([first.id, second.id].sort());
    expect((await flagsOf(second.id, '&kind=same-bank-account'))[0]?.memberIds.sort()).toEqual([first.id, second.id].sort());
    expect((await flagsOf(second.id, '&kind=name-mismatch'))[0]).toMatchObject({ memberIds: [second.id], evidence: { name: 'Malee', bankAccountName: 'SOMSAK DEE' } });
    expect(await flagsOf(first.id, '&kind=name-mismatch')).toEqual([]);
  });

  it('many failed logins, then a success from a new device', async () => {
    const m = await member(deviceId(), '203.0.113.90');
    for (let i = 0; i < 5; i += 1) {
      expect((await call(t.app, 'POST', '/api/login', { body: { username: m.phone, password: 'wrong-one' }, remoteAddress: `198.51.100.${100 + i}` })).status).toBe(400);
    }
    expect((await call(t.app, 'POST', '/api/login', { body: { username: m.phone, password: m.password }, headers: { 'x-device-id': deviceId() }, remoteAddress: '198.51.100.200' })).status).toBe(200);
    expect((await flagsOf(m.id, '&kind=login-new-device'))[0]).toMatchObject({ memberIds: [m.id], evidence: { failures: 5 } });
  });

  it('the rules are the owner\'s settings with documented defaults, audited; a signal switched off raises nothing', async () => {
    const got = await call<Record<string, unknown>>(t.app, 'GET', '/api/operator/risk/rules', { headers: as('finance') });
    expect(got.body).toEqual({ sameBankAccount: true, sameDeviceRegistrations: 2, sameAddressRegistrations: 2, sameAddressHours: 24, sharedBonus: true, withdrawalTurnoverPercent: 100, failedLogins: 5, failedLoginMinutes: 60, nameMismatch: true });
    const changed = { ...got.body, withdrawalTurnoverPercent: 0 };
    expect((await call(t.app, 'PUT', '/api/operator/risk/rules', { headers: as('finance'), body: changed })).body).toEqual({ message: 'FORBIDDEN_ROLE' });
    expect((await call(t.app, 'PUT', '/api/operator/risk/rules', { headers: as('owner'), body: { ...changed, failedLogins: -1 } })).status).toBe(400);
    // Switching a signal off loosens the control: a second person applies it; tightening is at once.
    const loosened = await call<{ approvalId: string }>(t.app, 'PUT', '/api/operator/risk/rules', { headers: as('owner'), body: changed });
    expect(loosened.status).toBe(202);
    expect((await call(t.app, 'GET', '/api/operator/risk/rules', { headers: as('finance') })).body).toMatchObject({ withdrawalTurnoverPercent: 100 });
    expect((await call(t.app, 'POST', `/api/operator/approvals/${loosened.body.approvalId}/approve`, { headers: as('owner') })).body).toMatchObject({ message: 'SAME_OPERATOR' });
    const applied = await call<{ result: { status: number; body: unknown } }>(t.app, 'POST', `/api/operator/approvals/${loosened.body.approvalId}/approve`, { headers: as('finance') });
    expect(applied.body.result).toMatchObject({ status: 200, body: { withdrawalTurnoverPercent: 0 } });
    const audit = await call<{ rows: Array<{ target: string; before: unknown; after: unknown }> }>(t.app, 'GET', '/api/operator/audit?action=setting.change', { headers: as('owner') });
    expect(audit.body.rows.find((r) => r.target === 'riskRules')).toMatchObject({ before: { withdrawalTurnoverPercent: 100 }, after: { withdrawalTurnoverPercent: 0 } });
    const m = await member(deviceId(), '203.0.113.99');
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 500 } })).status).toBe(200);
    const asked = await call<{ reference: string }>(t.app, 'POST', '/api/wallet/withdraw', { token: m.token, body: { amount: 500 } });
    expect(await flagsOf(m.id, '&kind=low-turnover')).toEqual([]);
    expect((await call<{ payout: string }>(t.app, 'POST', `/api/operator/withdrawals/${asked.body.reference}/approve`, { headers: as('finance') })).body).toMatchObject({ payout: 'paid' });
    expect((await call(t.app, 'PUT', '/api/operator/risk/rules', { headers: as('owner'), body: got.body })).status).toBe(200);
  });

  it('member tags: set (audited) and the members list filtered by one', async () => {
    const m = await registerMember(t.app);
    const set = await call<{ tags: string[] }>(t.app, 'PUT', `/api/operator/members/${m.id}/tags`, { headers: as('support'), body: { tags: ['watch', 'VIP', 'vip'] } });
    expect(set).toMatchObject({ status: 200, body: { id: m.id, tags: ['vip', 'watch'] } });
    expect((await call(t.app, 'PUT', `/api/operator/members/${m.id}/tags`, { headers: as('support'), body: { tags: ['no spaces'] } })).status).toBe(400);
    const listed = await call<{ total: number; members: Array<{ id: string; tags: string[] }> }>(t.app, 'GET', '/api/operator/members?tag=vip', { headers: as('support') });
    expect(listed.body.members.map((x) => x.id)).toEqual([m.id]);
    expect(listed.body.members[0]?.tags).toEqual(['vip', 'watch']);
    expect((await call<{ members: unknown[] }>(t.app, 'GET', '/api/operator/members?tag=affiliate', { headers: as('support') })).body.members).toEqual([]);
    const audit = await call<{ rows: Array<{ target: string; after: unknown }> }>(t.app, 'GET', `/api/operator/audit?target=${m.id}`, { headers: as('owner') });
    expect(audit.body.rows).toContainEqual(expect.objectContaining({ target: m.id, after: { tags: ['vip', 'watch'] } }));
  });
});

let phones = 0;
/** Registers a member through the API with these headers from this address (the helpers' registerMember sends neither). */
async function registerMemberFrom(t: TestApp, headers: Record<string, string>, remoteAddress: string, overrides: Record<string, unknown> = {}): Promise<{ id: string; phone: string; password: string; accountNo: string }> {
  phones += 1;
  const phone = `09${String((Date.now() % 1_000_000) * 100 + phones).padStart(8, '0').slice(-8)}`;
  const sent = await call<{ otpToken: string }>(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } });
  const outbox = await call<{ messages: Array<{ text: string }> }>(t.app, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
  const code = /\b(\d{6})\b/.exec(outbox.body.messages[0]?.text ?? '')?.[1] ?? '';
  expect((await call(t.app, 'POST', '/api/otp/verify', { body: { otpToken: sent.body.otpToken, otpCode: code } })).status).toBe(200);
  const accountNo = (overrides.bankAccountNo as string | undefined) ?? `8${String(Date.now()).slice(-6)}${String(phones).padStart(3, '0')}`;
  const body = { name: 'Somchai', username: phone, password: 'secret123', sourceCode: 'FACEBOOK', inviteCode: '', bankCode: 'KBANK', bankAccountName: 'SOMCHAI JAIDEE', birthDate: '1990-01-15', ...overrides, bankAccountNo: accountNo, otpToken: sent.body.otpToken };
  const created = await call<{ _id: string }>(t.app, 'POST', '/api/account', { body, headers, remoteAddress });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { id: created.body._id, phone, password: 'secret123', accountNo };
}
