import { constants, publicEncrypt, webcrypto } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { signWebhook } from '../src/providers/payments/signing';
import { call, dbKinds, login, OPERATOR_TOKEN, reconcileAll, recordOutside, registerMember, startApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
/** Our e-wallet account in the demo channels (gift and AUTO). */
const OUR_WALLET = { name: 'GOLDEN WALLET', phone: '0891234567' };

interface Wallets {
  wallets: Array<{ walletAccountName: string; mode: string; publicKey?: string; walletAccountNo?: string }>;
}

/** The body's `link` as the web app makes it: base64(RSA-OAEP-SHA256(link)) + '::' + account name. */
function sealed(publicKey: string, link: string, accountName = OUR_WALLET.name): string {
  const cipher = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(link, 'utf8'));
  return `${cipher.toString('base64')}::${accountName}`;
}

/** The same with WebCrypto, as a browser does it (SPKI PEM imported as RSA-OAEP / SHA-256). */
async function sealedInBrowserStyle(publicKey: string, link: string): Promise<string> {
  const der = Buffer.from(publicKey.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const key = await webcrypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const cipher = await webcrypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(link));
  return `${Buffer.from(cipher).toString('base64')}::${OUR_WALLET.name}`;
}

async function suite(kind: 'embedded' | 'postgres', env: Record<string, string> = {}) {
  const t = await startApp(kind, { DEPOSIT_RECONCILE_INTERVAL_MS: '0', ...env });
  const member = async () => {
    const m = await registerMember(t.app);
    return { ...m, token: await login(t.app, m.phone, m.password) };
  };
  const publicKey = async (token: string) => {
    const lookup = await call<Wallets>(t.app, 'GET', '/api/lookup/deposit', { token });
    const gift = lookup.body.wallets.find((w) => w.mode !== 'AUTO');
    if (!gift?.publicKey) throw new Error('no gift wallet with a public key');
    return gift.publicKey;
  };
  const voucher = async (amount: number | string, extra: Record<string, unknown> = {}) =>
    (await call<{ link: string; hash: string }>(t.app, 'POST', '/api/sandbox/ewallet/vouchers', { body: { amount, ...extra } })).body;
  const send = async (token: string, link: string, key?: string) =>
    call<Record<string, unknown>>(t.app, 'POST', '/api/wallet/truelink', { token, body: { link }, ...(key ? { headers: { 'idempotency-key': key } } : {}) });
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;
  const fault = async (mode: 'none' | 'down' | 'hang') => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/operator/sandbox/ewallet/fault', headers: operator, payload: { mode } });
    expect(res.statusCode).toBe(200);
  };
  return { t, member, publicKey, voucher, send, wallet, fault };
}

describe.each(dbKinds)('e-wallet deposits on %s', (kind) => {
  let k: Awaited<ReturnType<typeof suite>>;
  beforeAll(async () => {
    k = await suite(kind);
  });
  afterAll(async () => {
    await k?.t.close();
  });
  afterEach(async () => {
    expect(await checkInvariants(k.t.services.database.db)).toMatchObject({ ok: true });
  });

  it('publishes an RSA public key on each e-wallet and credits a voucher once, with the voucher\'s amount', async () => {
    const m = await k.member();
    const lookup = await call<Wallets>(k.t.app, 'GET', '/api/lookup/deposit', { token: m.token });
    expect(lookup.body.wallets.length).toBeGreaterThan(0);
    for (const w of lookup.body.wallets) expect(w.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n?$/);
    const key = await k.publicKey(m.token);
    const { link } = await k.voucher(150.25);
    expect(link).toMatch(/^https:\/\/gift\.truemoney\.com\/campaign\/\?v=[A-Za-z0-9]{20,64}$/);
    const first = await k.send(m.token, await sealedInBrowserStyle(key, link));
    expect(first).toMatchObject({ status: 200, body: { ok: true, amount: 150.25, wallet: { amount: 150.25 } } });
    // Again (a fresh encryption of the same link): already redeemed.
    expect((await k.send(m.token, sealed(key, link))).body).toEqual({ message: 'TRUELINK_DUPLICATE' });
    // By someone else: the same.
    const other = await k.member();
    expect((await k.send(other.token, sealed(key, link))).body).toEqual({ message: 'TRUELINK_DUPLICATE' });
    expect(await k.wallet(m.token)).toBe(150.25);
    expect(await k.wallet(other.token)).toBe(0);
    // The statement shows the deposit from the e-wallet.
    const statement = await call<{ statements: Array<{ statementType: string; from: string; amount: number; status: string }> }>(k.t.app, 'POST', '/api/statement', { token: m.token, body: { page: 1, limit: 10 } });
    expect(statement.body.statements[0]).toMatchObject({ statementType: 'deposit', from: 'TRUEWALLET', amount: 150.25, status: 'SUCCESS' });
  });

  it('credits one link sent ten times at once exactly once', async () => {
    const m = await k.member();
    const key = await k.publicKey(m.token);
    const { link } = await k.voucher(99);
    const answers = await Promise.all(Array.from({ length: 10 }, () => k.send(m.token, sealed(key, link))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.message === 'TRUELINK_DUPLICATE')).toHaveLength(9);
    expect(await k.wallet(m.token)).toBe(99);
    // Two members at once with one link: one of them.
    const a = await k.member();
    const b = await k.member();
    const { link: shared } = await k.voucher(10);
    const both = await Promise.all([k.send(a.token, sealed(key, shared)), k.send(b.token, sealed(key, shared))]);
    expect(both.map((x) => x.status).sort()).toEqual([200, 409]);
    expect((await k.wallet(a.token)) + (await k.wallet(b.token))).toBe(10);
  });

  it('answers a retry with the same Idempotency-Key as the first time', async () => {
    const m = await k.member();
    const key = await k.publicKey(m.token);
    const { link } = await k.voucher(20);
    const body = sealed(key, link);
    const first = await k.send(m.token, body, 'b7a0c5e2-4f1d-4c8a-9e3b-1d2f3a4b5c6d');
    const again = await k.send(m.token, body, 'b7a0c5e2-4f1d-4c8a-9e3b-1d2f3a4b5c6d');
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await k.wallet(m.token)).toBe(20);
  });

  it('answers a refused voucher sent with an Idempotency-Key with its refusal, and a retry with the same refusal', async () => {
    const m = await k.member();
    const key = await k.publicKey(m.token);
    const body = sealed(key, (await k.voucher(30, { expiresInSeconds: -60 })).link);
    const first = await k.send(m.token, body, 'refused-voucher-key-0001');
    expect(first).toMatchObject({ status: 400, body: { message: 'TRUELINK_INVALID' } });
    const again = await k.send(m.token, body, 'refused-voucher-key-0001');
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(await k.wallet(m.token)).toBe(0);
  });

  it('refuses made-up, malformed, expired, emptied and own vouchers, and vouchers under 2 baht — nothing moves', async () => {
    const m = await k.member();
    const key = await k.publicKey(m.token);
    const invalid = { status: 400, body: { message: 'TRUELINK_INVALID' } };
    expect(await k.send(m.token, sealed(key, 'https://gift.truemoney.com/campaign/?v=0123456789abcdefMADEUP'))).toMatchObject(invalid);
    for (const text of ['hello', 'https://gift.truemoney.com/campaign/?v=', 'http://gift.truemoney.com/campaign/?v=abcdefghij12', 'https://gift.truemoney.com.evil.example/campaign/?v=abcdefghij12', 'javascript:alert(1)']) {
      expect(await k.send(m.token, sealed(key, text))).toMatchObject(invalid);
    }
    // Not encrypted, not base64, no account part, encrypted for another key.
    const { link } = await k.voucher(30);
    expect(await k.send(m.token, `${link}::${OUR_WALLET.name}`)).toMatchObject(invalid);
    expect(await k.send(m.token, `!!!notbase64::${OUR_WALLET.name}`)).toMatchObject(invalid);
    expect(await k.send(m.token, sealed(key, link).split('::')[0] ?? '')).toMatchObject(invalid);
    // Control characters in the decoded link or the account name: refused with the link's code, never a 500.
    expect(await k.send(m.token, sealed(key, `${link}\u0000`))).toMatchObject(invalid);
    expect(await k.send(m.token, sealed(key, link.replace('?v=', '?v=\u0000')))).toMatchObject(invalid);
    // (the contract's check of the body's text answers first here)
    expect(await k.send(m.token, sealed(key, link, `${OUR_WALLET.name}\u0000`))).toMatchObject({ status: 400, body: { message: 'KEY_INVALID' } });
    const { generateKeyPairSync } = await import('node:crypto');
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(await k.send(m.token, sealed(stranger, link))).toMatchObject(invalid);
    // An account name that is not one of our gift e-wallets.
    expect((await k.send(m.token, sealed(key, link, 'SOMEONE ELSE'))).body).toEqual({ message: 'NO_WALLET' });
    // Expired; made by our own wallet; emptied by another wallet.
    expect(await k.send(m.token, sealed(key, (await k.voucher(30, { expiresInSeconds: -60 })).link))).toMatchObject(invalid);
    expect(await k.send(m.token, sealed(key, (await k.voucher(30, { fromPhone: OUR_WALLET.phone })).link))).toMatchObject(invalid);
    const emptied = await k.voucher(30);
    const sandbox = k.t.services.deposits.sandboxEwallet;
    await sandbox?.redeem(emptied.hash, '0811111111');
    expect(await k.send(m.token, sealed(key, emptied.link))).toMatchObject(invalid);
    // Under the minimum: refused, and the voucher is left for its sender.
    const small = await k.voucher(1.99);
    expect(await k.send(m.token, sealed(key, small.link))).toMatchObject({ status: 400, body: { message: 'DEPOSIT_MINIMUM', minimum: 2 } });
    expect((await sandbox?.verify(small.hash, OUR_WALLET.phone))?.status).toBe('AVAILABLE');
    // Wrong types and sizes of the body.
    for (const body of [{}, { link: 5 }, { link: 'x'.repeat(5000) }, { link: ['a'] }]) {
      expect((await call(k.t.app, 'POST', '/api/wallet/truelink', { token: m.token, body })).status).toBe(400);
    }
    // The link that was refused for the wrong account can still be redeemed properly afterwards.
    expect((await k.send(m.token, sealed(key, link))).status).toBe(200);
    expect(await k.wallet(m.token)).toBe(30);
  });

  it('AUTO mode: a transfer from the member\'s phone to our e-wallet credits once per transfer id; unknown phones are held', async () => {
    const m = await k.member();
    const sent = await call<{ transferId: string; feed: { status: number } }>(k.t.app, 'POST', '/api/sandbox/ewallet/transfers', { body: { fromPhone: m.phone, amount: 75 } });
    expect(sent.body.feed).toEqual({ status: 200 });
    expect(await k.wallet(m.token)).toBe(75);
    const again = await call<{ deliveries: Array<{ status: number }> }>(k.t.app, 'POST', `/api/sandbox/ewallet/transfers/${sent.body.transferId}/redeliver`, { body: { times: 6 } });
    expect(again.body.deliveries.every((d) => d.status === 200)).toBe(true);
    expect(await k.wallet(m.token)).toBe(75);
    const stranger = await call<{ transferId: string }>(k.t.app, 'POST', '/api/sandbox/ewallet/transfers', { body: { fromPhone: '0900000001', amount: 5 } });
    const held = await k.t.app.inject({ method: 'GET', url: '/api/operator/deposits/unmatched', headers: operator });
    expect((held.json() as { deposits: Array<{ reference: string; reason: string }> }).deposits).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'NO_MEMBER' })]));
    expect(stranger.status).toBe(200);
    // A forged or unsigned webhook changes nothing.
    const body = JSON.stringify({ transferId: 'TWFORGED0001', fromPhone: m.phone, toPhone: OUR_WALLET.phone, amount: '1000.00', currency: 'THB', at: new Date().toISOString() });
    const ts = Math.floor(Date.now() / 1000);
    const forged = await k.t.app.inject({ method: 'POST', url: '/api/webhooks/ewallet/TRUEWALLET', headers: { 'content-type': 'application/json', 'x-timestamp': String(ts), 'x-signature': signWebhook('not-the-secret-0000', ts, body) }, payload: body });
    expect(forged.statusCode).toBe(401);
    await recordOutside(k.t, '/api/webhooks/ewallet/TRUEWALLET', JSON.parse(body));
    const genuine = await k.t.app.inject({ method: 'POST', url: '/api/webhooks/ewallet/TRUEWALLET', headers: { 'content-type': 'application/json', 'x-timestamp': String(ts), 'x-signature': signWebhook(k.t.services.deposits.webhookSecrets.ewallet, ts, body) }, payload: body });
    expect(genuine.json()).toMatchObject({ ok: true, result: 'credited' });
    expect(await k.wallet(m.token)).toBe(1075);
  });

  it('a redemption answered "this wallet took it already" is credited, never refused: an earlier attempt\'s answer was lost', async () => {
    const m = await k.member();
    const key = await k.publicKey(m.token);
    const sandbox = k.t.services.deposits.sandboxEwallet;
    if (!sandbox) throw new Error('sandbox e-wallet expected');
    const v = await k.voucher(45);
    // The service's look first sees the voucher available; by the time it redeems, our wallet holds it
    // (an earlier attempt redeemed it and its answer never came back), so the e-wallet answers TARGET_USER_REDEEMED.
    const original = sandbox.verify.bind(sandbox);
    const stale = await original(v.hash, OUR_WALLET.phone);
    expect(stale.status).toBe('AVAILABLE');
    await sandbox.redeem(v.hash, OUR_WALLET.phone);
    let looks = 0;
    sandbox.verify = async (hash, mobile, signal) => (++looks === 1 ? stale : original(hash, mobile, signal));
    try {
      expect((await k.send(m.token, sealed(key, v.link))).body).toMatchObject({ ok: true, amount: 45 });
    } finally {
      sandbox.verify = original;
    }
    expect(looks).toBe(2);
    expect(await k.wallet(m.token)).toBe(45);
    // Sent again: the voucher is the member's already, nothing more.
    expect((await k.send(m.token, sealed(key, v.link))).status).not.toBe(200);
    expect(await k.wallet(m.token)).toBe(45);
  });

  it('settles a voucher whose redemption answer was lost: the member\'s retry or the reconciler credits it once; an untouched claim is released', async () => {
    const m = await k.member();
    const key = await k.publicKey(m.token);
    const db = k.t.services.database.db;
    const sandbox = k.t.services.deposits.sandboxEwallet;
    // Claimed, redeemed by our wallet, then the answer was lost (a crash or a timeout after the e-wallet acted).
    const lost = await k.voucher(40);
    await db.insertInto('ewallet_redemptions').values({ hash: lost.hash, member_id: m.id, channel: 'EWALLET-GIFT', status: 'REDEEMING', amount: null, operation_id: null }).execute();
    await sandbox?.redeem(lost.hash, OUR_WALLET.phone);
    // Someone else sending it now: it is the member's.
    const other = await k.member();
    expect((await k.send(other.token, sealed(key, lost.link))).body).toEqual({ message: 'TRUELINK_DUPLICATE' });
    expect((await k.send(m.token, sealed(key, lost.link))).body).toMatchObject({ ok: true, amount: 40 });
    expect(await k.wallet(m.token)).toBe(40);
    // The same, settled by the reconciler (no retry); and a claim whose voucher was never redeemed is released.
    const lost2 = await k.voucher(12);
    const untouched = await k.voucher(13);
    const old = new Date(Date.now() - 3600_000);
    await db
      .insertInto('ewallet_redemptions')
      .values([
        { hash: lost2.hash, member_id: m.id, channel: 'EWALLET-GIFT', status: 'REDEEMING', amount: null, operation_id: null, updated_at: old },
        { hash: untouched.hash, member_id: m.id, channel: 'EWALLET-GIFT', status: 'REDEEMING', amount: null, operation_id: null, updated_at: old },
      ])
      .execute();
    await sandbox?.redeem(lost2.hash, OUR_WALLET.phone);
    const settled = await k.t.services.deposits.ewallet.reconcile();
    expect(settled).toMatchObject({ credited: 1, released: 1 });
    expect(await k.t.services.deposits.ewallet.reconcile()).toMatchObject({ credited: 0, released: 0 });
    expect(await k.wallet(m.token)).toBe(52);
    // The released voucher can be sent by anyone now.
    expect((await k.send(other.token, sealed(key, untouched.link))).body).toMatchObject({ ok: true, amount: 13 });
  });

  it('ends reconciled: every credited voucher and transfer matches the e-wallet\'s record once', async () => {
    const report = await reconcileAll(k.t);
    expect(report.breaches).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checked.systems.voucher.credits).toBeGreaterThan(0);
    expect(report.checked.systems.ewallet.credits).toBeGreaterThan(0);
  });
});

describe('e-wallet breaker', () => {
  let k: Awaited<ReturnType<typeof suite>>;
  beforeAll(async () => {
    k = await suite('embedded', { EWALLET_TIMEOUT_MS: '1500', EWALLET_BREAKER_FAILURES: '2', EWALLET_BREAKER_OPEN_MS: '2000' });
  });
  afterAll(async () => {
    await k?.fault('none');
    await k?.t.close();
  });

  it('answers TRUELINK_UNAVAILABLE when the e-wallet is down or silent, at once once the breaker is open, and recovers', async () => {
    const m = await k.member();
    const key = await k.publicKey(m.token);
    const { link } = await k.voucher(50);
    const body = sealed(key, link);
    await k.fault('hang');
    // Silent: each of the first two calls is given up after the timeout.
    for (let i = 0; i < 2; i++) expect(await k.send(m.token, body)).toMatchObject({ status: 503, body: { message: 'TRUELINK_UNAVAILABLE' } });
    // Open: the answer comes without waiting for the e-wallet (well under the 1.5 s timeout).
    const started = Date.now();
    expect(await k.send(m.token, body)).toMatchObject({ status: 503, body: { message: 'TRUELINK_UNAVAILABLE' } });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await k.wallet(m.token)).toBe(0);
    // The service is back and the breaker lets a trial through after its open time: the member's retry works.
    await k.fault('none');
    await new Promise((r) => setTimeout(r, 2100));
    expect((await k.send(m.token, body)).body).toMatchObject({ ok: true, amount: 50 });
    // Down (an error at once) counts the same.
    await k.fault('down');
    const second = await k.voucher(5);
    expect((await k.send(m.token, sealed(key, second.link))).body).toEqual({ message: 'TRUELINK_UNAVAILABLE' });
    await k.fault('none');
    expect(await k.wallet(m.token)).toBe(50);
    expect(await checkInvariants(k.t.services.database.db)).toMatchObject({ ok: true });
    expect(await reconcileAll(k.t)).toMatchObject({ ok: true, breaches: [] });
  });
});
