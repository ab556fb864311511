import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { parseThaiQr } from '../src/lib/emvco';
import { signWebhook } from '../src/providers/payments/signing';
import { call, dbKinds, reconcileAll, recordOutside, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let keySeq = 0;
const newKey = () => `dep-key-${Date.now()}-${++keySeq}`;

interface QrState {
  hasQrcode: boolean;
  qrcodeId: string | null;
  qrcode: string | null;
  amount: number | null;
  expireIn: number | null;
  payload?: string | null;
  message?: string;
}

/** Deposit helpers bound to a suite's app. */
function kit(app: () => TestApp) {
  const a = () => app().app;
  return {
    async member(overrides: Record<string, unknown> = {}) {
      const m = await registerMember(a(), overrides);
      const token = await login(a(), m.phone, m.password);
      const profile = (await call<{ bankCode: string; bankAccountNo: string }>(a(), 'GET', '/api/account/profile', { token })).body;
      return { ...m, token, bankCode: profile.bankCode, accountNo: profile.bankAccountNo };
    },
    wallet: async (token: string) => (await call<{ wallet: { amount: number } }>(a(), 'GET', '/api/wallet', { token })).body.wallet.amount,
    createQr: (token: string, provider: string, amount: unknown) => call<QrState>(a(), 'POST', `/api/qrcode/${provider}`, { token, body: { amount } }),
    pay: (qrcodeId: string) => call(a(), 'POST', `/api/sandbox/payments/${qrcodeId}/pay`),
    redeliver: (qrcodeId: string, times: number) => call<{ deliveries: Array<{ status: number }> }>(a(), 'POST', `/api/sandbox/payments/${qrcodeId}/redeliver`, { body: { times } }),
    /** A webhook as a gateway would send it, signed with `secret` at `timestamp`. */
    async webhook(path: string, body: unknown, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
      // What the message claims is in the outside system's books (the reconciliation reads them).
      await recordOutside(app(), path, body);
      const raw = JSON.stringify(body);
      return call(a(), 'POST', path, { rawBody: raw, headers: { 'x-timestamp': String(timestamp), 'x-signature': signWebhook(secret, timestamp, raw) } });
    },
    bankTransfer: (body: Record<string, unknown>) => call<{ transRef: string; feed: { status: number } | null }>(a(), 'POST', '/api/sandbox/bank/transfers', { body }),
    deposits: async (token: string) =>
      (await call<{ statements: Array<{ statementType: string; from: string; amount: number; status: string }> }>(a(), 'POST', '/api/statement', { token, body: { page: 1, limit: 50 } })).body.statements.filter(
        (s) => s.statementType === 'deposit',
      ),
    invariants: async () => {
      const report = await checkInvariants(app().services.database.db);
      expect(report).toMatchObject({ ok: true, total: 0, mixedCurrencyTransactions: [] });
    },
    secrets: () => app().services.deposits.webhookSecrets,
  };
}

describe.each(dbKinds)('deposits on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const k = kit(() => t);
  afterEach(async () => {
    await k.invariants();
  });

  it('shows the channels of every mode in the member\'s currency', async () => {
    const m = await k.member();
    const res = await call<{ banks: Array<{ bankCode: string; mode: string; bankType: string; currency: string; bank: { nameEN: string } }>; wallets: Array<{ mode: string; walletAccountNo?: string }>; isManual: boolean }>(
      t.app,
      'GET',
      '/api/lookup/deposit',
      { token: m.token },
    );
    expect(res.status).toBe(200);
    const modes = res.body.banks.map((b) => `${b.bankCode}:${b.mode}`);
    expect(modes).toEqual(expect.arrayContaining(['KBANK:AUTO', 'KBANK:SMS', 'SCB:AUTO', 'GSB:MANUAL', 'WW:AUTO', 'PAYTIMZ:AUTO', 'PAYONEX:AUTO', 'ZPAY:AUTO']));
    expect(modes.some((m2) => m2.startsWith('BCEL'))).toBe(false);
    expect(res.body.banks.every((b) => b.currency === 'BAHT')).toBe(true);
    expect(res.body.banks.find((b) => b.bankCode === 'KBANK')?.bank.nameEN).toBe('Kasikornbank');
    expect(res.body.wallets.map((w) => w.mode).sort()).toEqual(['AUTO', 'GIFT']);
    expect(res.body.wallets.find((w) => w.mode === 'AUTO')?.walletAccountNo).toMatch(/^\d{10}$/);
    expect(res.body).toMatchObject({ isManual: false, demoTopUp: true });
    expect((await call(t.app, 'GET', '/api/lookup/deposit')).status).toBe(401);
  });

  it('creates a real Thai QR for the amount, one open per provider, and refuses bad amounts', async () => {
    const m = await k.member();
    for (const [amount, code] of [
      [99.99, 'DEPOSIT_MINIMUM'],
      [-1, 'KEY_INVALID'],
      ['100.001', 'KEY_INVALID'],
      [1e12, 'KEY_INVALID'],
      [true, 'KEY_INVALID'],
      [100_001, 'DEPOSIT_MAXIMUM'],
    ] as const) {
      const res = await k.createQr(m.token, 'WW', amount);
      expect({ amount, status: res.status, code: res.body.message }).toEqual({ amount, status: 400, code });
    }
    expect((await k.createQr(m.token, 'WW', 99)).body).toMatchObject({ message: 'DEPOSIT_MINIMUM', minimum: 100 });
    expect((await k.createQr(m.token, 'SCB', 100)).body).toMatchObject({ message: 'NO_CHANNEL' });
    expect((await k.createQr(m.token, 'NOPE', 100)).status).toBe(404);
    const created = await k.createQr(m.token, 'WW', '150.25');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ hasQrcode: true, amount: 150.25 });
    expect(created.body.expireIn).toBeGreaterThan(590);
    expect(created.body.expireIn).toBeLessThanOrEqual(600);
    const qr = parseThaiQr(created.body.payload ?? '');
    expect(qr).toMatchObject({ pointOfInitiation: 'dynamic', amountSatang: 15_025, currency: '764', country: 'TH', crcValid: true });
    expect(qr.merchant).toMatchObject({ kind: 'billPayment', ref2: 'WW' });
    expect(created.body.qrcode).toMatch(/^<svg[^>]*>/);
    expect(created.body.qrcode).not.toMatch(/script|href|on\w+=/i);
    expect((await k.createQr(m.token, 'WW', 200)).body).toMatchObject({ message: 'QR_ALREADY_OPEN' });
    const again = await call<QrState>(t.app, 'GET', '/api/qrcode/WW', { token: m.token });
    expect(again.body).toMatchObject({ hasQrcode: true, qrcodeId: created.body.qrcodeId, amount: 150.25, payload: created.body.payload });
    // Another provider is independent; KBANK (its SMS mode) takes 1 baht.
    expect((await k.createQr(m.token, 'KBANK', 1)).body).toMatchObject({ hasQrcode: true, amount: 1 });
    expect((await call<QrState>(t.app, 'GET', '/api/qrcode/PAYTIMZ', { token: m.token })).body).toMatchObject({ hasQrcode: false, qrcodeId: null });
  });

  it('credits a paid QR once: paid, paid again, redelivered 20 and then 50 times at once', async () => {
    const m = await k.member();
    const { body } = await k.createQr(m.token, 'PAYTIMZ', 10);
    const id = body.qrcodeId ?? '';
    const paid = await k.pay(id);
    expect(paid).toMatchObject({ status: 200, body: { webhook: { status: 200 } } });
    expect(await k.wallet(m.token)).toBe(10);
    expect((await k.pay(id)).body).toMatchObject({ message: 'QR_ALREADY_PAID' });
    const twenty = await k.redeliver(id, 20);
    expect(twenty.body.deliveries.map((d) => d.status)).toEqual(Array.from({ length: 20 }, () => 200));
    await k.redeliver(id, 50);
    expect(await k.wallet(m.token)).toBe(10);
    expect(await k.deposits(m.token)).toEqual([expect.objectContaining({ from: 'PAYTIMZ', amount: 10, status: 'SUCCESS' })]);
    expect((await call<QrState>(t.app, 'GET', '/api/qrcode/PAYTIMZ', { token: m.token })).body.hasQrcode).toBe(false);
  });

  it('lets a member cancel only their own open QR; the gateway then refuses payment', async () => {
    const m = await k.member();
    const other = await k.member();
    const { body } = await k.createQr(m.token, 'ZPAY', 50);
    const id = body.qrcodeId ?? '';
    expect((await call(t.app, 'DELETE', `/api/qrcode/${id}`, { token: other.token })).body).toEqual({ message: 'NO_QRCODE' });
    expect((await call(t.app, 'DELETE', `/api/qrcode/${id}`, { token: m.token })).body).toEqual({ ok: true });
    expect((await call(t.app, 'DELETE', `/api/qrcode/${id}`, { token: m.token })).status).toBe(404);
    expect((await k.pay(id)).body).toMatchObject({ message: 'QR_CANCELLED' });
    expect(await k.wallet(m.token)).toBe(0);
    // A new one can be opened after the cancel.
    expect((await k.createQr(m.token, 'ZPAY', 50)).body.hasQrcode).toBe(true);
  });

  it('drops an expired QR: the gateway refuses to take money for it and a new one can be made', async () => {
    const m = await k.member();
    const { body } = await k.createQr(m.token, 'WW', 100);
    const id = body.qrcodeId ?? '';
    const past = new Date(Date.now() - 1000);
    await t.services.database.db.updateTable('qr_codes').set({ expires_at: past }).where('id', '=', id).execute();
    await t.services.deposits.sandboxGateway?.expire(await t.services.deposits.qr.gatewayRef(id));
    expect((await call<QrState>(t.app, 'GET', '/api/qrcode/WW', { token: m.token })).body.hasQrcode).toBe(false);
    expect((await k.pay(id)).body).toMatchObject({ message: 'QR_EXPIRED' });
    expect(await k.wallet(m.token)).toBe(0);
    expect((await k.createQr(m.token, 'WW', 100)).body.hasQrcode).toBe(true);
  });

  it('refuses forged, stale and unsigned webhooks and changes nothing', async () => {
    const m = await k.member();
    const { body } = await k.createQr(m.token, 'WW', 300);
    const reference = (await t.services.database.db.selectFrom('qr_codes').select('reference').where('id', '=', body.qrcodeId ?? '').executeTakeFirstOrThrow()).reference;
    const message = { event: 'payment.succeeded', paymentId: 'PAYFORGED1', provider: 'WW', reference, amount: '300.00', currency: 'THB' };
    const path = '/api/webhooks/payments/WW';
    expect((await k.webhook(path, message, 'not-the-secret-at-all')).body).toEqual({ message: 'INVALID_SIGNATURE' });
    expect((await k.webhook(path, message, k.secrets().payments, Math.floor(Date.now() / 1000) - 301)).body).toEqual({ message: 'STALE_WEBHOOK' });
    expect((await k.webhook(path, message, k.secrets().payments, Math.floor(Date.now() / 1000) + 400)).status).toBe(401);
    expect((await k.webhook(path, message, k.secrets().bank)).status).toBe(401);
    expect((await call(t.app, 'POST', path, { body: message })).status).toBe(401);
    const raw = JSON.stringify(message);
    const ts = Math.floor(Date.now() / 1000);
    // Signed, then one byte changed.
    expect((await call(t.app, 'POST', path, { rawBody: raw.replace('300.00', '900.00'), headers: { 'x-timestamp': String(ts), 'x-signature': signWebhook(k.secrets().payments, ts, raw) } })).status).toBe(401);
    expect(await k.wallet(m.token)).toBe(0);
    // The real one credits; a second message for another payment of the same QR is another payment.
    expect((await k.webhook(path, message, k.secrets().payments)).body).toMatchObject({ ok: true, credited: true });
    expect((await k.webhook(path, message, k.secrets().payments)).body).toMatchObject({ ok: true, credited: false, duplicate: true });
    expect(await k.wallet(m.token)).toBe(300);
    // Valid signature, nonsense inside: a clear 400 and nothing moves.
    expect((await k.webhook(path, { ...message, paymentId: 'PAYX', amount: '-5' }, k.secrets().payments)).status).toBe(400);
    expect((await k.webhook(path, { ...message, paymentId: 'PAYY', provider: 'ZPAY' }, k.secrets().payments)).status).toBe(400);
    expect(await k.wallet(m.token)).toBe(300);
  });

  it('takes the gateway\'s word: a payment for a cancelled QR is credited with the amount paid', async () => {
    const m = await k.member();
    const { body } = await k.createQr(m.token, 'PAYONEX', 100);
    const row = await t.services.database.db.selectFrom('qr_codes').select('reference').where('id', '=', body.qrcodeId ?? '').executeTakeFirstOrThrow();
    await call(t.app, 'DELETE', `/api/qrcode/${body.qrcodeId}`, { token: m.token });
    const message = { event: 'payment.succeeded', paymentId: `PAYLATE${Date.now()}`, provider: 'PAYONEX', reference: row.reference, amount: '99.50', currency: 'THB' };
    expect((await k.webhook('/api/webhooks/payments/PAYONEX', message, k.secrets().payments)).body).toMatchObject({ credited: true });
    expect(await k.wallet(m.token)).toBe(99.5);
    // Other events are acknowledged and move nothing.
    expect((await k.webhook('/api/webhooks/payments/PAYONEX', { ...message, event: 'payment.expired', paymentId: 'PAYZ' }, k.secrets().payments)).body).toMatchObject({ credited: false });
    expect(await k.wallet(m.token)).toBe(99.5);
  });

  it('holds a payment for no QR of ours until an operator assigns it, then never again', async () => {
    const m = await k.member();
    const other = await k.member();
    const paymentId = `PAYORPHAN${Date.now()}`;
    const message = { event: 'payment.succeeded', paymentId, provider: 'WW', reference: 'NOSUCHREF123', amount: '250.00', currency: 'THB' };
    expect((await k.webhook('/api/webhooks/payments/WW', message, k.secrets().payments)).body).toMatchObject({ unmatched: true, credited: false });
    const list = await call<{ deposits: Array<{ id: string; reference: string; reason: string; amount: number }> }>(t.app, 'GET', '/api/operator/deposits/unmatched', { headers: operator });
    const held = list.body.deposits.find((d) => d.reference === paymentId);
    expect(held).toMatchObject({ reason: 'UNKNOWN_QR', amount: 250 });
    expect((await call(t.app, 'GET', '/api/operator/deposits/unmatched')).status).toBe(401);
    const assign = (memberId: string) => call(t.app, 'POST', `/api/operator/deposits/${held?.id}/assign`, { headers: operator, body: { memberId } });
    const [a, b] = await Promise.all([assign(m.id), assign(m.id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await assign(other.id)).body).toMatchObject({ message: 'DEPOSIT_ALREADY_ASSIGNED' });
    expect((await assign('nobody')).status).toBe(404);
    expect((await call(t.app, 'POST', '/api/operator/deposits/nope/assign', { headers: operator, body: { memberId: m.id } })).body).toEqual({ message: 'NO_DEPOSIT' });
    // The gateway repeats itself: the money was credited already.
    await k.webhook('/api/webhooks/payments/WW', message, k.secrets().payments);
    expect(await k.wallet(m.token)).toBe(250);
    expect(await k.wallet(other.token)).toBe(0);
  });

  it('credits an automatic bank deposit from the member\'s registered account once, in the statement as KBANK', async () => {
    const m = await k.member();
    const sent = await k.bankTransfer({ fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: 'KBANK', toAccountNo: '0451234567', amount: 1234.56 });
    expect(sent.status).toBe(200);
    expect(sent.body.feed).toEqual({ status: 200 });
    expect(await k.wallet(m.token)).toBe(1234.56);
    const repeats = await Promise.all(Array.from({ length: 10 }, () => t.services.deposits.sandboxBank?.redeliver(m.bankCode, sent.body.transRef, 5)));
    expect(repeats.flat().every((r) => r?.status === 200)).toBe(true);
    expect(await k.wallet(m.token)).toBe(1234.56);
    expect(await k.deposits(m.token)).toEqual([expect.objectContaining({ from: 'KBANK', amount: 1234.56, status: 'SUCCESS' })]);
    // A transfer into an account without the feed (GSB, manual) is not reported: nothing moves.
    const manual = await k.bankTransfer({ fromBankCode: m.bankCode, fromAccountNo: m.accountNo, toBankCode: 'GSB', toAccountNo: '020123456789', amount: 50 });
    expect(manual.body.feed).toBeNull();
    expect(await k.wallet(m.token)).toBe(1234.56);
  });

  it('holds a bank deposit from an unknown account until assigned; the feed repeating it credits nothing more', async () => {
    const m = await k.member();
    const sent = await k.bankTransfer({ fromBankCode: 'SCB', fromAccountNo: '5550001112', toBankCode: 'SCB', toAccountNo: '4071234567', amount: 700 });
    const held = (await call<{ deposits: Array<{ id: string; reference: string; reason: string; fromAccountNo: string }> }>(t.app, 'GET', '/api/operator/deposits/unmatched', { headers: operator })).body.deposits.find(
      (d) => d.reference === `SCB:${sent.body.transRef}`,
    );
    expect(held).toMatchObject({ reason: 'NO_MEMBER', fromAccountNo: '5550001112' });
    expect((await call(t.app, 'POST', `/api/operator/deposits/${held?.id}/assign`, { headers: operator, body: { memberId: m.id } })).status).toBe(200);
    await t.services.deposits.sandboxBank?.redeliver('SCB', sent.body.transRef, 3);
    expect(await k.wallet(m.token)).toBe(700);
    const after = (await call<{ deposits: Array<{ id: string }> }>(t.app, 'GET', '/api/operator/deposits/unmatched', { headers: operator })).body.deposits;
    expect(after.some((d) => d.id === held?.id)).toBe(false);
  });

  it('refuses a forged bank feed', async () => {
    const m = await k.member();
    const forged = { transRef: 'FAKE000000001', fromBankCode: m.bankCode, fromAccountNo: m.accountNo, fromName: 'X', toBankCode: 'KBANK', toAccountNo: '0451234567', toName: 'Y', amount: '9999.00', currency: 'THB', at: new Date().toISOString() };
    expect((await k.webhook('/api/webhooks/bank/KBANK', forged, k.secrets().payments)).status).toBe(401);
    expect((await k.webhook('/api/webhooks/bank/KBANK', forged, 'guessed-secret-000000')).status).toBe(401);
    expect(await k.wallet(m.token)).toBe(0);
  });

  it('records a manual deposit once per Idempotency-Key', async () => {
    const m = await k.member();
    const body = { memberId: m.id, amount: 80, currency: 'BAHT', note: 'cash at the counter' };
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: operator, body })).body).toMatchObject({ message: 'KEY_MISSING' });
    const key = newKey();
    const first = await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': key }, body });
    const second = await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': key }, body });
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': key }, body: { ...body, amount: 81 } })).body).toMatchObject({ message: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': newKey() }, body: { ...body, currency: 'LAK' } })).body).toMatchObject({ message: 'CURRENCY_MISMATCH' });
    expect(await k.wallet(m.token)).toBe(80);
    expect(await k.deposits(m.token)).toEqual([expect.objectContaining({ from: 'MANUAL', amount: 80 })]);
  });
  it('ends reconciled: every credited deposit matches its outside record once', async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
    const report = await reconcileAll(t);
    expect(report.breaches).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe.each(dbKinds)('deposit edge cases on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { DEPOSIT_RECONCILE_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const k = kit(() => t);
  afterEach(async () => {
    await k.invariants();
  });
  const feed = (m: { bankCode: string; accountNo: string }, to: { bank: string; no: string }, extra: Record<string, unknown> = {}) => ({
    transRef: `T${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    fromBankCode: m.bankCode,
    fromAccountNo: m.accountNo,
    fromName: 'SOMCHAI',
    toBankCode: to.bank,
    toAccountNo: to.no,
    toName: 'GOLDEN WALLET',
    amount: '40.00',
    currency: 'THB',
    at: new Date().toISOString(),
    ...extra,
  });
  const unmatched = async () => (await call<{ deposits: Array<{ id: string; reference: string; reason: string; fromName: string | null }> }>(t.app, 'GET', '/api/operator/deposits/unmatched', { headers: operator })).body.deposits;

  it('credits by itself only into an active AUTO account: a manual one is held, the QR account ignored', async () => {
    const m = await k.member();
    const gsb = feed(m, { bank: 'GSB', no: '020123456789' });
    expect((await k.webhook('/api/webhooks/bank/GSB', gsb, k.secrets().bank)).body).toMatchObject({ result: 'held' });
    expect((await unmatched()).find((d) => d.reference === `${m.bankCode}:${gsb.transRef.toUpperCase()}`)).toMatchObject({ reason: 'CHANNEL_NOT_AUTO' });
    expect((await k.webhook('/api/webhooks/bank/KBANK', feed(m, { bank: 'KBANK', no: '0459876543' }), k.secrets().bank)).body).toMatchObject({ result: 'ignored' });
    await call(t.app, 'PUT', '/api/operator/deposit-channels/SCB-AUTO', { headers: operator, body: { kind: 'bank', bankCode: 'SCB', mode: 'AUTO', accountName: 'GOLDEN WALLET CO LTD', accountNo: '4071234567', active: false, sort: 3 } });
    expect((await k.webhook('/api/webhooks/bank/SCB', feed(m, { bank: 'SCB', no: '4071234567' }), k.secrets().bank)).body).toMatchObject({ result: 'held' });
    // Switching it back on needs a second person (four-eyes.test.ts): here, through the service.
    const scb = (await t.services.deposits.channels.all()).find((c) => c.id === 'SCB-AUTO');
    if (scb) await t.services.deposits.channels.upsert({ ...scb, active: true });
    expect(await k.wallet(m.token)).toBe(0);
  });

  it('names a transfer the same whatever the case of its reference, and keeps control characters out of names', async () => {
    const m = await k.member();
    const one = feed(m, { bank: 'KBANK', no: '0451234567' }, { transRef: `case${Date.now()}ab` });
    expect((await k.webhook('/api/webhooks/bank/KBANK', one, k.secrets().bank)).body).toMatchObject({ result: 'credited' });
    expect((await k.webhook('/api/webhooks/bank/KBANK', { ...one, transRef: one.transRef.toUpperCase() }, k.secrets().bank)).body).toMatchObject({ result: 'duplicate' });
    expect(await k.wallet(m.token)).toBe(40);
    const stranger = { bankCode: 'KTB', accountNo: '6660001112' };
    const named = feed(stranger, { bank: 'KBANK', no: '0451234567' }, { fromName: 'A\u0000B\u202EC\u0007' });
    expect((await k.webhook('/api/webhooks/bank/KBANK', named, k.secrets().bank)).body).toMatchObject({ result: 'held' });
    expect((await unmatched()).find((d) => d.reference === `KTB:${named.transRef.toUpperCase()}`)?.fromName).toBe('ABC');
  });

  it('holds money from an inactive member, and refuses crediting one by hand', async () => {
    const m = await k.member();
    await t.services.database.db.updateTable('members').set({ status: 'inactive' }).where('id', '=', m.id).execute();
    expect((await k.webhook('/api/webhooks/bank/KBANK', feed(m, { bank: 'KBANK', no: '0451234567' }), k.secrets().bank)).body).toMatchObject({ result: 'held' });
    const manual = await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': newKey() }, body: { memberId: m.id, amount: 5, currency: 'BAHT', note: 'x' } });
    expect(manual).toMatchObject({ status: 403, body: { message: 'INACTIVE_USER' } });
    const held = (await unmatched()).find((d) => d.reason === 'INACTIVE_MEMBER');
    expect((await call(t.app, 'POST', `/api/operator/deposits/${held?.id}/assign`, { headers: operator, body: { memberId: m.id } })).body).toEqual({ message: 'INACTIVE_USER' });
    await t.services.database.db.updateTable('members').set({ status: 'active' }).where('id', '=', m.id).execute();
  });

  it('keeps an operator\'s Idempotency-Key to one deposit whoever it names', async () => {
    const a = await k.member();
    const b = await k.member();
    const key = newKey();
    const body = (memberId: string) => ({ memberId, amount: 10, currency: 'BAHT', note: 'counter' });
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': key }, body: body(a.id) })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': key }, body: body(b.id) })).body).toMatchObject({ message: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await k.wallet(b.token)).toBe(0);
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': newKey() }, body: body('nosuchmember') })).body).toEqual({ message: 'NO_USER' });
    // A member's own key cannot take an operator's.
    expect((await call(t.app, 'POST', '/api/wallet/add', { token: b.token, headers: { 'idempotency-key': `operator:${key}` }, body: { amount: 1 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/operator/deposits', { headers: { ...operator, 'idempotency-key': `x${key}` }, body: body(b.id) })).status).toBe(200);
  });

  it('credits a payment whose webhook never came when the reconciler asks the gateway, once', async () => {
    const m = await k.member();
    const { body } = await k.createQr(m.token, 'WW', 120);
    const ref = (await t.services.database.db.selectFrom('qr_codes').select('gateway_ref').where('id', '=', body.qrcodeId ?? '').executeTakeFirstOrThrow()).gateway_ref ?? '';
    // The customer paid; the delivery was lost (our process died while it came in).
    await t.services.deposits.sandboxGateway?.pay(ref, false);
    expect(await t.services.deposits.qr.reconcile(0)).toBeGreaterThanOrEqual(1);
    expect(await t.services.deposits.qr.reconcile(0)).toBe(0);
    expect(await k.wallet(m.token)).toBe(120);
    await k.redeliver(body.qrcodeId ?? '', 3);
    expect(await k.wallet(m.token)).toBe(120);
  });

  it('settles an unmatched payment when the same payment id later names a real QR', async () => {
    const m = await k.member();
    const { body } = await k.createQr(m.token, 'PAYTIMZ', 30);
    const reference = (await t.services.database.db.selectFrom('qr_codes').select('reference').where('id', '=', body.qrcodeId ?? '').executeTakeFirstOrThrow()).reference;
    const paymentId = `PAYFIRST${Date.now()}`;
    const message = { event: 'payment.succeeded', paymentId, provider: 'PAYTIMZ', reference: 'WRONGREF', amount: '30.00', currency: 'THB' };
    await k.webhook('/api/webhooks/payments/PAYTIMZ', message, k.secrets().payments);
    expect((await unmatched()).some((d) => d.reference === paymentId)).toBe(true);
    await k.webhook('/api/webhooks/payments/PAYTIMZ', { ...message, reference }, k.secrets().payments);
    expect(await k.wallet(m.token)).toBe(30);
    expect((await unmatched()).some((d) => d.reference === paymentId)).toBe(false);
  });

  it('frees a QR slot whose create was cut off before the gateway answered', async () => {
    const m = await k.member();
    await t.services.database.db
      .insertInto('qr_codes')
      .values({ id: `cut${Date.now()}`, member_id: m.id, provider: 'ZPAY', reference: `CUT${Date.now()}`, amount: 1000, currency: 'BAHT', payload: null, gateway_ref: null, status: 'OPEN', expires_at: new Date(Date.now() + 500_000), paid_amount: null, operation_id: null, created_at: new Date(Date.now() - 120_000) })
      .execute();
    expect((await k.createQr(m.token, 'ZPAY', 10)).body.hasQrcode).toBe(true);
  });

  it('takes a webhook timestamp up to 300 s either way, signed as sent', async () => {
    const m = await k.member();
    const now = Math.floor(Date.now() / 1000);
    const f = (extra: Record<string, unknown>) => feed({ bankCode: 'KTB', accountNo: '7770001112' }, { bank: 'KBANK', no: '0451234567' }, extra);
    expect((await k.webhook('/api/webhooks/bank/KBANK', f({}), k.secrets().bank, now - 299)).status).toBe(200);
    expect((await k.webhook('/api/webhooks/bank/KBANK', f({}), k.secrets().bank, now + 299)).status).toBe(200);
    expect((await k.webhook('/api/webhooks/bank/KBANK', f({}), k.secrets().bank, now + 302)).status).toBe(401);
    expect((await k.webhook('/api/webhooks/bank/KBANK', f({}), k.secrets().bank, now - 302)).status).toBe(401);
    expect(await k.wallet(m.token)).toBe(0);
  });
  it('ends reconciled: every credited deposit matches its outside record once', async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
    const report = await reconcileAll(t);
    expect(report.breaches).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe.each(dbKinds)('LAK deposits on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { LAOS_MODE: 'true' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const k = kit(() => t);
  const laoPhone = () => `20${String(Date.now()).slice(-6)}${Math.floor(Math.random() * 90 + 10)}`;

  it('lands a LAK member\'s BCEL deposit in a LAK wallet, and holds a baht deposit from them', async () => {
    const m = await k.member({ username: laoPhone(), bankCode: 'BCEL', currency: 'LAK' });
    const lookup = await call<{ banks: Array<{ bankCode: string; currency: string }> }>(t.app, 'GET', '/api/lookup/deposit', { token: m.token });
    expect(lookup.body.banks).toEqual([expect.objectContaining({ bankCode: 'BCEL', currency: 'LAK' })]);
    const sent = await k.bankTransfer({ fromBankCode: 'BCEL', fromAccountNo: m.accountNo, toBankCode: 'BCEL', toAccountNo: '0100001234567', amount: 50000 });
    expect(sent.body.feed).toEqual({ status: 200 });
    expect(await k.wallet(m.token)).toBe(50000);
    const wallet = await t.services.database.db.selectFrom('ledger_accounts').select(['currency', 'balance']).where('id', '=', `m:${m.id}:wallet`).executeTakeFirstOrThrow();
    expect(wallet).toMatchObject({ currency: 'LAK' });
    expect(Number(wallet.balance)).toBe(5_000_000);
    // Baht into a Thai account from a LAK member: no exchange, held for the operator.
    await k.bankTransfer({ fromBankCode: 'BCEL', fromAccountNo: m.accountNo, toBankCode: 'KBANK', toAccountNo: '0451234567', amount: 100 });
    const held = (await call<{ deposits: Array<{ reason: string; fromAccountNo: string; id: string }> }>(t.app, 'GET', '/api/operator/deposits/unmatched', { headers: operator })).body.deposits.find(
      (d) => d.fromAccountNo === m.accountNo,
    );
    expect(held).toMatchObject({ reason: 'CURRENCY_MISMATCH' });
    expect((await call(t.app, 'POST', `/api/operator/deposits/${held?.id}/assign`, { headers: operator, body: { memberId: m.id } })).body).toMatchObject({ message: 'CURRENCY_MISMATCH' });
    expect(await k.wallet(m.token)).toBe(50000);
    // A LAK member has no baht QR provider.
    expect((await k.createQr(m.token, 'WW', 100)).body).toMatchObject({ message: 'NO_CHANNEL' });
    const report = await checkInvariants(t.services.database.db);
    expect(report).toMatchObject({ ok: true, mixedCurrencyTransactions: [] });
    expect(report.totals).toMatchObject({ THB: 0, LAK: 0 });
  });
  it('ends reconciled: every credited deposit matches its outside record once', async () => {
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
    const report = await reconcileAll(t);
    expect(report.breaches).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
