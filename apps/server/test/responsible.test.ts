import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { call, dbKinds, login, OPERATOR_TOKEN, reconcileAll, registerMember, registration, startApp, uniquePhone, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const HOUR = 3_600_000;

interface State {
  limits: { day: number | null; week: number | null; month: number | null };
  pending: Array<{ period: string; amount: number | null; effectiveAt: string }>;
  used: { day: number; week: number; month: number };
  left: { day: number | null; week: number | null; month: number | null };
  timeOutUntil: string | null;
  selfExcludedUntil: string | null;
  realityCheckMinutes: number;
  held: Array<{ id: string; amount: number; reason: string; status: string }>;
}

function multipart(bytes: Buffer) {
  const boundary = `----rp${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slip.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-requested-with': 'XMLHttpRequest' } };
}

describe.each(dbKinds)('responsible play on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { DEPOSIT_RECONCILE_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0' });
    await t.services.settings.set('slip', { uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    await clock(0);
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true, total: 0 });
    const report = await reconcileAll(t);
    expect(report.breaches).toEqual([]);
  });

  const clock = async (offsetMs: number) => {
    const res = await call(t.app, 'PUT', '/api/operator/sandbox/clock', { headers: operator, body: { offsetMs } });
    expect(res.status).toBe(200);
  };
  async function member() {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    const profile = (await call<{ bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token })).body;
    return { ...m, token, bankCode: profile.bankCode, accountNo: profile.bankAccountNo };
  }
  const state = async (token: string) => {
    const res = await call<State>(t.app, 'GET', '/api/responsible', { token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const setLimits = (token: string, body: Record<string, unknown>) => call<State>(t.app, 'PUT', '/api/responsible/limits', { token, body });
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;
  const qr = (token: string, provider: string, amount: number) => call<{ hasQrcode: boolean; qrcodeId: string | null }>(t.app, 'POST', `/api/qrcode/${provider}`, { token, body: { amount } });
  const bankFeed = (m: { bankCode: string; accountNo: string }, amount: number) =>
    call<{ transRef: string; feed: { status: number } | null }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
      body: { fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: 'KBANK', toAccountNo: '0451234567', amount },
    });
  const heldQueue = async () => (await call<{ deposits: Array<{ id: string; memberId: string; amount: number; reason: string; status: string }> }>(t.app, 'GET', '/api/operator/deposits/held', { headers: operator })).body.deposits;

  it('refuses a registration under 20 (UNDERAGE), a birth date that is no day (BIRTH_DATE_INVALID), and one without it (KEY_MISSING)', async () => {
    const today = new Date(Date.now() + 7 * HOUR);
    const nineteen = `${today.getUTCFullYear() - 19}-01-01`;
    const almost = new Date(Date.UTC(today.getUTCFullYear() - 20, today.getUTCMonth(), today.getUTCDate() + 1)).toISOString().slice(0, 10);
    for (const birthDate of [nineteen, almost, '2999-01-01']) {
      const res = await call(t.app, 'POST', '/api/account', { body: registration(uniquePhone(), { birthDate }) });
      expect(res, birthDate).toMatchObject({ status: 400, body: { message: 'UNDERAGE' } });
      const checked = await call(t.app, 'POST', '/api/account/validate', { body: registration(uniquePhone(), { birthDate }) });
      expect(checked.body).toMatchObject({ message: 'UNDERAGE' });
    }
    for (const birthDate of ['1990-02-30', '90-01-01', '1990/01/01']) {
      expect((await call(t.app, 'POST', '/api/account', { body: registration(uniquePhone(), { birthDate }) })).body).toMatchObject({ message: 'BIRTH_DATE_INVALID' });
    }
    // Spec section 7's registration has no birth date: without one it registers (BIRTH_DATE_REQUIRED is off by default)…
    await expect(registerMember(t.app, { birthDate: undefined })).resolves.toMatchObject({ id: expect.any(String) });
    // …and a deployment that requires it refuses the registration without one.
    const strict = await startApp('embedded', { BIRTH_DATE_REQUIRED: 'true' });
    try {
      const { birthDate: _none, ...bare } = registration(uniquePhone());
      expect(await call(strict.app, 'POST', '/api/account', { body: bare })).toMatchObject({ status: 400, body: { message: 'KEY_MISSING' } });
    } finally {
      await strict.close();
    }
    // Exactly 20 today is old enough.
    const twenty = new Date(Date.UTC(today.getUTCFullYear() - 20, today.getUTCMonth(), today.getUTCDate())).toISOString().slice(0, 10);
    await expect(registerMember(t.app, { birthDate: twenty })).resolves.toMatchObject({ id: expect.any(String) });
  });

  it('the demo top-up holds a day limit of 1,000 under a burst: twelve ฿500 top-ups at once credit two', async () => {
    const m = await member();
    expect((await setLimits(m.token, { day: 1000 })).status).toBe(200);
    const burst = await Promise.all(Array.from({ length: 12 }, () => call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 500 } })));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(2);
    expect(burst.filter((r) => r.status !== 200).every((r) => r.status === 403 && (r.body as { message?: string }).message === 'DEPOSIT_LIMIT')).toBe(true);
    expect(await wallet(m.token)).toBe(1000);
  });

  it('gift links at once against a limit: each is credited, refused unredeemed (DEPOSIT_LIMIT) or redeemed and held (DEPOSIT_HELD), never held under another code', async () => {
    const m = await member();
    expect((await setLimits(m.token, { day: 1000 })).status).toBe(200);
    const lookup = await call<{ wallets: Array<{ mode: string; publicKey?: string; walletAccountName?: string }> }>(t.app, 'GET', '/api/lookup/deposit', { token: m.token });
    const gift = lookup.body.wallets.find((w) => w.mode !== 'AUTO' && w.publicKey);
    const seal = (link: string) => `${publicEncrypt({ key: gift?.publicKey ?? '', padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(link, 'utf8')).toString('base64')}::${gift?.walletAccountName ?? ''}`;
    const links = await Promise.all(Array.from({ length: 8 }, async () => seal((await call<{ link: string }>(t.app, 'POST', '/api/sandbox/ewallet/vouchers', { body: { amount: 300 } })).body.link)));
    const answers = await Promise.all(links.map((link) => call<{ message?: string; reference?: string }>(t.app, 'POST', '/api/wallet/truelink', { token: m.token, body: { link } })));
    const codes = answers.map((a) => (a.status === 200 ? 'OK' : `${a.status} ${a.body.message ?? ''}`));
    expect(codes.every((c) => c === 'OK' || c === '403 DEPOSIT_LIMIT' || c === '403 DEPOSIT_HELD'), codes.join(', ')).toBe(true);
    expect(await wallet(m.token)).toBe(300 * codes.filter((c) => c === 'OK').length);
    expect(await wallet(m.token)).toBeLessThanOrEqual(1000);
    // Every held one answered as held, with the reference of what support sees.
    const held = (await state(m.token)).held;
    expect(held).toHaveLength(codes.filter((c) => c === '403 DEPOSIT_HELD').length);
  });

  it('a day limit of 500: a QR for 600 is refused, 300 then 300 refuses the second, a bank transfer beyond it is held, then released once', async () => {
    const m = await member();
    expect((await setLimits(m.token, { day: 500 })).body).toMatchObject({ limits: { day: 500, week: null, month: null }, pending: [] });
    expect(await qr(m.token, 'KBANK', 600)).toMatchObject({ status: 403, body: { message: 'DEPOSIT_LIMIT', left: 500, period: 'day', limit: 500 } });
    const first = await qr(m.token, 'KBANK', 300);
    expect(first.body.hasQrcode).toBe(true);
    // Still open (asked for, not paid): it counts.
    expect(await qr(m.token, 'WW', 300)).toMatchObject({ status: 403, body: { message: 'DEPOSIT_LIMIT', left: 200 } });
    expect((await call(t.app, 'POST', `/api/sandbox/payments/${first.body.qrcodeId}/pay`)).status).toBe(200);
    expect(await wallet(m.token)).toBe(300);
    expect(await qr(m.token, 'KBANK', 300)).toMatchObject({ status: 403, body: { message: 'DEPOSIT_LIMIT', left: 200 } });
    expect((await state(m.token)).used).toEqual({ day: 300, week: 300, month: 300 });
    // The demo top-up asks for money too.
    expect(await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 250 } })).toMatchObject({ status: 403, body: { message: 'DEPOSIT_LIMIT', left: 200 } });

    // Money that arrives anyway over the limit is held, once, whatever repeats.
    const sent = await bankFeed(m, 250);
    expect(sent.body.feed?.status).toBe(200);
    expect(await wallet(m.token)).toBe(300);
    const s = await state(m.token);
    expect(s.held).toEqual([expect.objectContaining({ amount: 250, reason: 'DEPOSIT_LIMIT', status: 'HELD' })]);
    const statement = await call<{ statements: Array<{ statementType: string; status: string; amount: number; note?: string }> }>(t.app, 'POST', '/api/statement', { token: m.token, body: { page: 1, limit: 10 } });
    expect(statement.body.statements[0]).toMatchObject({ statementType: 'deposit', status: 'PENDING', amount: 250, note: 'DEPOSIT_LIMIT' });
    // The bank reports it again, five times at once: still one held record, nothing credited.
    const again = { ...sent.body, amount: 25_000, at: new Date(), currency: 'THB' as const } as unknown as Parameters<TestApp['services']['deposits']['bank']['feed']>[0];
    const repeats = await Promise.all(Array.from({ length: 5 }, () => t.services.deposits.bank.feed(again)));
    expect(repeats.every((r) => r.result === 'duplicate')).toBe(true);
    expect(await wallet(m.token)).toBe(300);
    const queue = (await heldQueue()).filter((h) => h.memberId === m.id);
    expect(queue).toHaveLength(1);
    const heldId = queue[0]?.id ?? '';
    // Released only when the limit allows it (or by an owner's force).
    expect(await call(t.app, 'POST', `/api/operator/deposits/held/${heldId}/release`, { headers: operator })).toMatchObject({ status: 403, body: { message: 'DEPOSIT_LIMIT' } });
    await clock(25 * HOUR);
    const released = await Promise.all(Array.from({ length: 5 }, () => call(t.app, 'POST', `/api/operator/deposits/held/${heldId}/release`, { headers: operator })));
    expect(released.filter((r) => r.status === 200)).toHaveLength(1);
    expect(released.filter((r) => r.status !== 200).every((r) => (r.body as { message: string }).message === 'NO_HELD_DEPOSIT')).toBe(true);
    expect(await wallet(m.token)).toBe(550);
    expect((await state(m.token)).used.day).toBe(250);
    expect(await call(t.app, 'POST', `/api/operator/deposits/held/${heldId}/return`, { headers: operator })).toMatchObject({ status: 404, body: { message: 'NO_HELD_DEPOSIT' } });
  });

  it('a raise waits 24 hours on the sandbox clock (cancellable); a decrease applies at once; removal waits too', async () => {
    const m = await member();
    await setLimits(m.token, { day: 500, week: 2000 });
    const raised = (await setLimits(m.token, { day: 1000 })).body;
    expect(raised.limits.day).toBe(500);
    expect(raised.pending).toEqual([expect.objectContaining({ period: 'day', amount: 1000 })]);
    expect(await qr(m.token, 'KBANK', 800)).toMatchObject({ status: 403, body: { message: 'DEPOSIT_LIMIT', left: 500 } });
    await clock(23 * HOUR);
    expect((await state(m.token)).limits.day).toBe(500);
    expect(await qr(m.token, 'KBANK', 800)).toMatchObject({ status: 403 });
    await clock(24 * HOUR + 60_000);
    const after = await state(m.token);
    expect(after.limits.day).toBe(1000);
    expect(after.pending).toEqual([]);
    await clock(0);
    // Lower: at once.
    expect((await setLimits(m.token, { day: 100 })).body.limits.day).toBe(100);
    // Removal waits, and can be cancelled.
    const removing = (await setLimits(m.token, { week: null })).body;
    expect(removing).toMatchObject({ limits: { week: 2000 }, pending: [expect.objectContaining({ period: 'week', amount: null })] });
    expect((await call<State>(t.app, 'DELETE', '/api/responsible/limits/pending/week', { token: m.token })).body.pending).toEqual([]);
    expect(await call(t.app, 'DELETE', '/api/responsible/limits/pending/week', { token: m.token })).toMatchObject({ status: 404, body: { message: 'NO_PENDING_LIMIT' } });
    expect((await call(t.app, 'PUT', '/api/responsible/limits', { token: m.token, body: { day: -1 } })).status).toBe(400);
    expect((await call(t.app, 'PUT', '/api/responsible/reality-check', { token: m.token, body: { minutes: 30 } })).status).toBe(200);
    expect((await call(t.app, 'PUT', '/api/responsible/reality-check', { token: m.token, body: { minutes: 20 } })).status).toBe(400);
    expect((await state(m.token)).realityCheckMinutes).toBe(30);
  });

  it('holds a gateway payment, an e-wallet transfer and a slip over the limit; refuses a gift link before redeeming it; manual credits over it need the owner', async () => {
    const m = await member();
    const open = await qr(m.token, 'KBANK', 200);
    await setLimits(m.token, { day: 100 });
    // The QR was asked for before the lower limit: its payment is held.
    expect((await call(t.app, 'POST', `/api/sandbox/payments/${open.body.qrcodeId}/pay`)).status).toBe(200);
    expect(await wallet(m.token)).toBe(0);
    // The e-wallet's AUTO feed.
    const ew = await call<{ transferId: string; feed: { status: number } }>(t.app, 'POST', '/api/sandbox/ewallet/transfers', { body: { fromPhone: m.phone, amount: 150 } });
    expect(ew.body.feed.status).toBe(200);
    expect((await call(t.app, 'POST', `/api/sandbox/ewallet/transfers/${ew.body.transferId}/redeliver`, { body: { times: 5 } })).status).toBe(200);
    // A slip of a transfer into a MANUAL account.
    const transfer = await call<{ transRef: string }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
      body: { fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: 'GSB', toAccountNo: '020123456789', amount: 120 },
    });
    const png = (await t.app.inject({ method: 'GET', url: `/api/sandbox/bank/transfers/${transfer.body.transRef}/slip.png` })).rawPayload;
    const form = multipart(png);
    const slip = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...form.headers, authorization: `Bearer ${m.token}` }, payload: form.payload });
    expect(slip.statusCode).toBe(200);
    const again = multipart(png);
    expect((await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...again.headers, authorization: `Bearer ${m.token}` }, payload: again.payload })).json()).toMatchObject({ message: 'SLIP_REFNO_DUPLICATED' });
    expect(await wallet(m.token)).toBe(0);
    expect((await state(m.token)).held.map((h) => h.amount).sort((a, b) => a - b)).toEqual([120, 150, 200]);

    // The gift link: refused before the voucher is redeemed (it stays usable).
    const voucher = (await call<{ link: string; hash: string }>(t.app, 'POST', '/api/sandbox/ewallet/vouchers', { body: { amount: 150 } })).body;
    const lookup = await call<{ wallets: Array<{ mode: string; publicKey?: string; walletAccountName?: string }> }>(t.app, 'GET', '/api/lookup/deposit', { token: m.token });
    const gift = lookup.body.wallets.find((w) => w.mode !== 'AUTO' && w.publicKey);
    expect(gift?.publicKey).toBeTruthy();
    const cipher = publicEncrypt({ key: gift?.publicKey ?? '', padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(voucher.link, 'utf8'));
    const sealed = `${cipher.toString('base64')}::${gift?.walletAccountName ?? ''}`;
    expect(await call(t.app, 'POST', '/api/wallet/truelink', { token: m.token, body: { link: sealed } })).toMatchObject({ status: 403, body: { message: 'DEPOSIT_LIMIT', left: 100 } });
    // Not redeemed: after the limit is raised (and its 24 hours), the same voucher still deposits.
    await setLimits(m.token, { day: 1000 });
    await clock(24 * HOUR + 60_000);
    expect((await call(t.app, 'POST', '/api/wallet/truelink', { token: m.token, body: { link: sealed } })).status).toBe(200);
    expect(await wallet(m.token)).toBe(150);
    // Lower again at once (the clock stays a day ahead): 150 used of 250.
    expect((await setLimits(m.token, { day: 250 })).body).toMatchObject({ limits: { day: 250 }, used: { day: 150 }, left: { day: 100 } });

    // Manual credits: refused over the limit; the owner (the operator token) may insist.
    const manual = (body: Record<string, unknown>, key: string) => call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': key }, body: { memberId: m.id, currency: 'THB', note: 'test', ...body } });
    expect(await manual({ amount: 150 }, `rp-${Date.now()}-a`)).toMatchObject({ status: 403, body: { message: 'DEPOSIT_LIMIT' } });
    expect((await manual({ amount: 50 }, `rp-${Date.now()}-b`)).status).toBe(200);
    expect((await manual({ amount: 150, overLimit: true }, `rp-${Date.now()}-c`)).status).toBe(200);
    expect(await wallet(m.token)).toBe(350);

    // Returned: never credited, not held any more.
    const [firstHeld] = (await heldQueue()).filter((h) => h.memberId === m.id);
    expect((await call(t.app, 'POST', `/api/operator/deposits/held/${firstHeld?.id}/return`, { headers: operator })).status).toBe(200);
    expect((await call(t.app, 'POST', `/api/operator/deposits/held/${firstHeld?.id}/release`, { headers: operator, body: { force: true } })).status).toBe(404);
    // An owner's force releases over the limit.
    const [second] = (await heldQueue()).filter((h) => h.memberId === m.id);
    expect((await call(t.app, 'POST', `/api/operator/deposits/held/${second?.id}/release`, { headers: operator, body: { force: true } })).status).toBe(200);
    expect(await wallet(m.token)).toBe(350 + (second?.amount ?? 0));
    expect((await state(m.token)).held.filter((h) => h.status === 'HELD')).toHaveLength(1);
  });

  it('a time-out ends every session, refuses deposits and games, lets the member withdraw, and cannot be shortened or lifted', async () => {
    const m = await member();
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: m.token, body: { amount: 500 } })).status).toBe(200);
    const other = await login(t.app, m.phone, m.password);
    const took = await call<{ until: string }>(t.app, 'POST', '/api/responsible/time-out', { token: m.token, body: { days: 7 } });
    expect(took.status).toBe(200);
    expect(new Date(took.body.until).getTime()).toBeGreaterThan(Date.now() + 7 * 24 * HOUR - 60_000);
    for (const token of [m.token, other]) expect((await call(t.app, 'GET', '/api/wallet', { token })).status).toBe(401);
    const token = await login(t.app, m.phone, m.password);
    expect(await call(t.app, 'POST', '/api/qrcode/KBANK', { token, body: { amount: 100 } })).toMatchObject({ status: 403, body: { message: 'TIME_OUT', until: took.body.until } });
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 10 } })).body).toMatchObject({ message: 'TIME_OUT' });
    expect((await call(t.app, 'GET', '/api/wallet/activate/PG', { token })).body).toMatchObject({ message: 'TIME_OUT' });
    expect((await call(t.app, 'GET', '/api/bonus', { token })).body).toMatchObject({ message: 'TIME_OUT' });
    expect((await call(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: 200 } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/wallet', { token })).status).toBe(200);
    expect((await state(token)).timeOutUntil).toBe(took.body.until);
    // Money that arrives meanwhile is held.
    expect((await bankFeed(m, 40)).body.feed?.status).toBe(200);
    expect((await state(token)).held).toEqual([expect.objectContaining({ amount: 40, reason: 'TIME_OUT', status: 'HELD' })]);
    // Not shortened by the member, not lifted by an operator (audited).
    expect(await call(t.app, 'POST', '/api/responsible/time-out', { token, body: { days: 1 } })).toMatchObject({ status: 409, body: { message: 'BREAK_ALREADY_LONGER' } });
    expect(await call(t.app, 'DELETE', `/api/operator/members/${m.id}/responsible/break`, { headers: operator })).toMatchObject({ status: 403, body: { message: 'EXCLUSION_CANNOT_BE_LIFTED' } });
    const audit = await t.services.database.db.selectFrom('audit_log').select(['entity', 'target']).where('target', '=', m.id).execute();
    expect(audit).toEqual([expect.objectContaining({ entity: 'responsible-break-lift-refused' })]);
    // The database itself refuses an earlier end.
    await expect(t.services.database.db.updateTable('responsible_settings').set({ time_out_until: null }).where('member_id', '=', m.id).execute()).rejects.toThrow();
    // A self-exclusion (longer) may follow; then it is SELF_EXCLUDED.
    const excluded = await call<{ until: string }>(t.app, 'POST', '/api/responsible/self-exclusion', { token, body: { months: 6 } });
    expect(excluded.status).toBe(200);
    const again = await login(t.app, m.phone, m.password);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: again, body: { amount: 10 } })).body).toMatchObject({ message: 'SELF_EXCLUDED', until: excluded.body.until });
    // Over after its end on the sandbox clock.
    await clock(200 * 24 * HOUR);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: again, body: { amount: 10 } })).status).toBe(200);
  });
});
