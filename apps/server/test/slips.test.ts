import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { buildThaiQr } from '../src/lib/emvco';
import { qrPng } from './images';
import { buildSlipPayload, crc16ccitt, tlv } from '../src/lib/emvco';
import { call, dbKinds, login, OPERATOR_TOKEN, reconcileAll, registerMember, startApp, type TestApp } from './helpers';
import { operatorLogin } from './operator-helpers';

/** A slip QR payload with any reference at all (a forger's: the bank apps print letters and digits only), with a good CRC. */
function forgedSlipPayload(sendingBank: string, transRef: string): string {
  const covered = `${tlv('00', tlv('00', '000001') + tlv('01', sendingBank) + tlv('02', transRef)) + tlv('51', 'TH')}9104`;
  return covered + crc16ccitt(covered);
}

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

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
    t = await startApp(kind, { SLIP_MAX_BYTES: '2000000', SLIP_RECHECK_INTERVAL_MS: '0' });
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
  async function transfer(from: { bankCode: string; accountNo: string }, to: { bank: string; no: string }, amount: number, at?: Date, transRef?: string) {
    const sent = await call<{ transRef: string }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
      body: { fromBankCode: from.bankCode, fromAccountNo: from.accountNo, toBankCode: to.bank, toAccountNo: to.no, amount, ...(at ? { at: at.toISOString() } : {}), ...(transRef ? { transRef } : {}) },
    });
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
    // Again: refused, saying when and how much that transfer was credited (contract error-details.ts).
    const again = await upload(m.token, png);
    expect(again).toMatchObject({ status: 409, body: { message: 'SLIP_REFNO_DUPLICATED', status: 'FAILED', creditedAmount: 456.78 } });
    expect(Math.abs(Date.parse(String(again.body.creditedAt)) - Date.now())).toBeLessThan(60_000);
    // Someone else's upload of it learns nothing about that credit.
    const stranger = await member();
    const theirs = await upload(stranger.token, png);
    expect(theirs.body).not.toHaveProperty('creditedAt');
    expect(theirs.body).not.toHaveProperty('creditedAmount');
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
    const pending = await upload(m.token, await qrPng(buildSlipPayload({ sendingBank: '004', transRef: `2611${Date.now()}` })));
    expect(pending).toMatchObject({ status: 200, body: { status: 'PENDING', note: 'UNSTABLE_REFNO_ON_SLIP' } });
    await t.services.deposits.sandboxBank?.setLookupFault('captcha');
    try {
      expect((await upload(m.token, (await transfer(m, GSB, 5)).png)).body).toMatchObject({ message: 'TRIPPLE_WRONG_CAPTCHA' });
    } finally {
      await t.services.deposits.sandboxBank?.setLookupFault('none');
    }
  });

  it('is closed in the daily window an operator sets (Asia/Bangkok), and when switched off', async () => {
    const m = await member();
    const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    const bangkok = new Date(Date.now() + 7 * 3600_000);
    const now = bangkok.getUTCHours() * 60 + bangkok.getUTCMinutes();
    // A change applies once a second person approves it (four-eyes.test.ts): the approval runs it
    // here. A person asks (the automation key asks nothing of a second person).
    const finance = { authorization: `Bearer ${await operatorLogin(t, 'finance')}` };
    const put = async (body: unknown) => {
      const asked = await t.app.inject({ method: 'PUT', url: '/api/operator/slip-settings', headers: finance, payload: body as Record<string, unknown> });
      if (asked.statusCode !== 202) return asked;
      await t.services.approvals.approve(asked.json<{ approvalId: string }>().approvalId, { username: 'checker', via: 'session' });
      return { statusCode: 200 };
    };
    try {
      // A window around now (wrapping midnight when it must).
      expect((await put({ uploadEnabled: true, closedFrom: hhmm((now + 1440 - 5) % 1440), closedTo: hhmm((now + 5) % 1440), maxAgeMinutes: 60 })).statusCode).toBe(200);
      expect(await upload(m.token, (await transfer(m, GSB, 5)).png)).toMatchObject({ status: 403, body: { message: 'SLIP_UPLOAD_CLOSED' } });
      expect((await put({ uploadEnabled: false, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 })).statusCode).toBe(200);
      expect(await upload(m.token, (await transfer(m, GSB, 5)).png)).toMatchObject({ status: 403, body: { message: 'SLIP_UPLOAD_CLOSED' } });
      for (const bad of [{ uploadEnabled: true, closedFrom: '24:00', closedTo: '00:00', maxAgeMinutes: 60 }, { uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 0 }, {}]) {
        expect((await put(bad)).statusCode).toBe(400);
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/operator/slip-settings', headers: operator })).json()).toEqual({ uploadEnabled: false, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
    } finally {
      await put({ uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
    }
    expect(await wallet(m.token)).toBe(0);
  });

  /** A slip of a transfer the bank does not know yet (the reference a test chose); KBANK (004) sends it. */
  const unknownSlip = async () => {
    const transRef = `2611${Date.now()}${Math.floor(Math.random() * 1e6)}`.slice(0, 20);
    return { transRef, png: await qrPng(buildSlipPayload({ sendingBank: '004', transRef })) };
  };
  const slipsOf = async (token: string) =>
    (await call<{ slips: Array<{ _id: string; status: string; note: string | null; amount: number; link: string; reference: string }> }>(t.app, 'POST', '/api/statement/slip', { token, body: { page: 1, limit: 20 } })).body.slips;

  it('settles a slip in progress by itself: credited once the bank knows the transfer, failed when it never does', async () => {
    const m = await member();
    const kbankMember = { bankCode: 'KBANK', accountNo: m.accountNo };
    // The member's registered bank decides who may send: a slip from their own account only.
    const own = m.bankCode === 'KBANK' ? kbankMember : null;
    const waiting = await unknownSlip();
    const first = await upload(m.token, waiting.png);
    expect(first).toMatchObject({ status: 200, body: { status: 'PENDING', note: 'UNSTABLE_REFNO_ON_SLIP' } });
    // Another upload of the same slip while it is in progress is a duplicate.
    expect((await upload(m.token, waiting.png)).body).toMatchObject({ message: 'SLIP_REFNO_DUPLICATED' });
    // The transfer reaches the bank's records: the next round credits it (a minute later, with one round claiming it).
    await transfer(own ?? { bankCode: 'KBANK', accountNo: m.accountNo }, GSB, 321, undefined, waiting.transRef);
    const later = Date.now() + 60_000;
    const rounds = await Promise.all([t.services.deposits.slips.recheck({ at: later }), t.services.deposits.slips.recheck({ at: later })]);
    expect(rounds.reduce((n, r) => n + r.checked, 0)).toBeGreaterThanOrEqual(1);
    const after = (await slipsOf(m.token)).find((x) => x._id === first.body._id);
    if (m.bankCode === 'KBANK') {
      expect(after).toMatchObject({ status: 'SUCCESS', amount: 321, note: null });
      expect(await wallet(m.token)).toBe(321);
    } else {
      // Sent from a KBANK account that is not the member's: the same checks as an upload.
      expect(after).toMatchObject({ status: 'FAILED', note: 'NOT_MATCH' });
      expect(await wallet(m.token)).toBe(0);
    }
    // A slip whose reference the bank never learns fails after SLIP_PENDING_MAX_MINUTES (30).
    const never = await unknownSlip();
    const stuck = await upload(m.token, never.png);
    await t.services.deposits.slips.recheck({ at: Date.now() + 10 * 60_000 });
    expect((await slipsOf(m.token)).find((x) => x._id === stuck.body._id)).toMatchObject({ status: 'PENDING' });
    await t.services.deposits.slips.recheck({ at: Date.now() + 31 * 60_000 });
    expect((await slipsOf(m.token)).find((x) => x._id === stuck.body._id)).toMatchObject({ status: 'FAILED', note: 'UNSTABLE_REFNO_ON_SLIP' });
  });

  it('re-checks a slip sent from the member\'s own account and counts its age to the upload, not to the check', async () => {
    const m = await member();
    const transRef = `2611${Date.now()}`.slice(0, 18) + 'AB';
    const sendingBank = Object.entries((await import('../src/lib/emvco')).SLIP_BANK_CODES).find(([, code]) => code === m.bankCode)?.[0];
    if (!sendingBank) return; // the member's bank prints no slip QR in this build
    const up = await upload(m.token, await qrPng(buildSlipPayload({ sendingBank, transRef })));
    expect(up.body).toMatchObject({ status: 'PENDING' });
    // Made 50 minutes before the upload: within the hour when the slip came, though checked 20 minutes later.
    await transfer(m, GSB, 77.5, new Date(Date.now() - 50 * 60_000), transRef);
    await t.services.deposits.slips.recheck({ at: Date.now() + 20 * 60_000 });
    expect((await slipsOf(m.token)).find((x) => x._id === up.body._id)).toMatchObject({ status: 'SUCCESS', amount: 77.5 });
    expect(await wallet(m.token)).toBe(77.5);
    // The bank feed or another slip of the same transfer moves nothing more.
    expect((await upload(m.token, (await t.app.inject({ method: 'GET', url: `/api/sandbox/bank/transfers/${transRef}/slip.png` })).rawPayload)).body).toMatchObject({ message: 'SLIP_REFNO_DUPLICATED' });
    expect(await wallet(m.token)).toBe(77.5);
  });

  it('lets an operator list slips, approve one in progress once (bank\'s amount when it knows it) and reject another', async () => {
    const m = await member();
    const a = await unknownSlip();
    const b = await unknownSlip();
    const slipA = (await upload(m.token, a.png)).body._id as string;
    const slipB = (await upload(m.token, b.png)).body._id as string;
    expect((await t.app.inject({ method: 'GET', url: '/api/operator/slips?status=PENDING' })).statusCode).toBe(401);
    const list = await t.app.inject({ method: 'GET', url: '/api/operator/slips?status=PENDING', headers: operator });
    const listed = (list.json() as { slips: Array<{ id: string; status: string; link: string; transferKey: string }> }).slips;
    expect(listed.map((x) => x.id)).toEqual(expect.arrayContaining([slipA, slipB]));
    expect(listed.every((x) => x.status === 'PENDING')).toBe(true);
    // The operator's link shows the image.
    const img = await t.app.inject({ method: 'GET', url: listed.find((x) => x.id === slipA)?.link ?? '' });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    // The bank does not know A: the operator must say how much arrived.
    const noAmount = await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipA}/approve`, headers: operator, payload: {} });
    expect(noAmount.json()).toMatchObject({ message: 'KEY_MISSING' });
    for (const bad of [-5, 0, 1.234, 'abc']) {
      expect((await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipA}/approve`, headers: operator, payload: { amount: bad } })).statusCode).toBe(400);
    }
    // …and the bank's own reference of it.
    expect((await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipA}/approve`, headers: operator, payload: { amount: 250 } })).json()).toMatchObject({ message: 'KEY_MISSING', fields: [{ path: 'bankRef' }] });
    const approvals = await Promise.all(Array.from({ length: 5 }, () => t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipA}/approve`, headers: operator, payload: { amount: 250, bankRef: a.transRef } })));
    expect(approvals.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect(approvals.every((r) => r.statusCode === 200 || (r.json() as { message: string }).message === 'SLIP_NOT_PENDING')).toBe(true);
    expect(await wallet(m.token)).toBe(250);
    const rejected = await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipB}/reject`, headers: operator, payload: { reason: 'INVALID_SLIP' } });
    expect(rejected.json()).toMatchObject({ status: 'FAILED', note: 'INVALID_SLIP' });
    expect((await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipB}/approve`, headers: operator, payload: { amount: 5 } })).json()).toMatchObject({ message: 'SLIP_NOT_PENDING' });
    expect((await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipA}/reject`, headers: operator, payload: {} })).json()).toMatchObject({ message: 'SLIP_NOT_PENDING' });
    expect((await t.app.inject({ method: 'POST', url: '/api/operator/slips/nope/reject', headers: operator, payload: {} })).statusCode).toBe(404);
    // The transfer the operator credited, arriving later at the bank, moves nothing more.
    await transfer({ bankCode: 'KBANK', accountNo: '1234567890' }, GSB, 250, undefined, a.transRef);
    expect(await wallet(m.token)).toBe(250);
    expect(await wallet(m.token)).toBe(250);
  });

  it('a slip credited with the amount an operator typed is a manual credit: above the threshold a second person approves it', async () => {
    const finance = await operatorLogin(t, 'finance');
    const owner = await operatorLogin(t, 'owner');
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const m = await member();
    const big = await unknownSlip();
    const slipId = (await upload(m.token, big.png)).body._id as string;
    // ฿25,000.50 typed on a slip the bank does not know: nothing is credited on one person's word.
    const asked = await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipId}/approve`, headers: as(finance), payload: { amount: '25000.50', bankRef: big.transRef } });
    expect(asked.statusCode).toBe(202);
    const approvalId = (asked.json() as { approvalId: string }).approvalId;
    expect(await wallet(m.token)).toBe(0);
    expect((await slipsOf(m.token)).find((x) => x._id === slipId)).toMatchObject({ status: 'PENDING' });
    const pending = await call<{ approvals: Array<{ id: string; action: string; amount: number; currency: string; memberId: string }> }>(t.app, 'GET', '/api/operator/approvals?status=pending', { headers: as(owner) });
    expect(pending.body.approvals.find((a) => a.id === approvalId)).toMatchObject({ action: 'deposit.slip-approve', amount: 25_000.5, currency: 'THB', memberId: m.id });
    // The maker cannot be the checker; another person's approval credits it, once.
    expect((await call(t.app, 'POST', `/api/operator/approvals/${approvalId}/approve`, { headers: as(finance) })).body).toMatchObject({ message: 'SAME_OPERATOR' });
    const approved = await Promise.all([1, 2].map(() => call<{ result: { status: number; body: { status: string } } }>(t.app, 'POST', `/api/operator/approvals/${approvalId}/approve`, { headers: as(owner) })));
    expect(approved.map((a) => a.body.result)).toEqual([expect.objectContaining({ status: 200 }), expect.objectContaining({ status: 200 })]);
    expect(await wallet(m.token)).toBe(25_000.5);
    // A typed amount under the threshold is credited at once.
    const small = await unknownSlip();
    const smallId = (await upload(m.token, small.png)).body._id as string;
    expect((await t.app.inject({ method: 'POST', url: `/api/operator/slips/${smallId}/approve`, headers: as(finance), payload: { amount: 150, bankRef: small.transRef } })).statusCode).toBe(200);
    expect(await wallet(m.token)).toBe(25_150.5);
    // The transfers the operators saw reach the bank's records (so the day reconciles), moving nothing more.
    await transfer({ bankCode: 'KBANK', accountNo: '1234567890' }, GSB, 25_000.5, undefined, big.transRef);
    await transfer({ bankCode: 'KBANK', accountNo: '1234567890' }, GSB, 150, undefined, small.transRef);
    expect(await wallet(m.token)).toBe(25_150.5);
  });

  it('keeps slip images private: a signed, short-lived link for the owner only', async () => {
    const m = await member();
    const other = await member();
    const { png } = await transfer(m, GSB, 12);
    const up = await upload(m.token, png);
    const reference = up.body.reference as string;
    const mine = await call<{ url: string }>(t.app, 'GET', `/api/statement/slip/reference/${reference}`, { token: m.token });
    expect(mine.status).toBe(200);
    const image = await t.app.inject({ method: 'GET', url: mine.body.url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['cache-control']).toBe('private, no-store');
    expect(image.rawPayload.equals(png)).toBe(true);
    // Someone else's reference is not found; no token is unauthorised.
    expect((await call(t.app, 'GET', `/api/statement/slip/reference/${reference}`, { token: other.token })).status).toBe(404);
    expect((await call(t.app, 'GET', `/api/statement/slip/reference/${reference}`, {})).status).toBe(401);
    // A link changed in any way, or expired, shows nothing.
    const url = new URL(mine.body.url, 'http://x');
    const sig = url.searchParams.get('sig') ?? '';
    const exp = Number(url.searchParams.get('exp'));
    const forged = [
      `${url.pathname}?exp=${exp + 3600}&sig=${sig}`,
      `${url.pathname}?exp=${exp}&sig=${sig.replace(/^./, (c) => (c === '0' ? '1' : '0'))}`,
      `${url.pathname}?exp=${exp}`,
      `/api/slips/${(await slipsOf(other.token))[0]?._id ?? 'x'}/image?exp=${exp}&sig=${sig}`,
    ];
    for (const path of forged) expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    const { SlipLinks } = await import('../src/modules/deposit/slip-links');
    const past = new SlipLinks('k'.repeat(32), 300, () => Date.now() - 3600_000);
    const future = new SlipLinks('k'.repeat(32), 300);
    const id = up.body._id as string;
    const old = new URL(past.url(id), 'http://x');
    expect(future.verify(id, old.searchParams.get('exp') ?? '', old.searchParams.get('sig') ?? '')).toBe(false);
    const fresh = new URL(future.url(id), 'http://x');
    expect(future.verify(id, fresh.searchParams.get('exp') ?? '', fresh.searchParams.get('sig') ?? '')).toBe(true);
    expect(future.verify('another', fresh.searchParams.get('exp') ?? '', fresh.searchParams.get('sig') ?? '')).toBe(false);
    // The history carries a working link as well.
    const link = (await slipsOf(m.token)).find((x) => x.reference === reference)?.link ?? '';
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
  });

  it('answers an empty file part with UPLOADED_FILE_NOT_EXIST and a bank error with UNKNOW_ERROR', async () => {
    const m = await member();
    expect(await upload(m.token, Buffer.alloc(0))).toEqual({ status: 400, body: { message: 'UPLOADED_FILE_NOT_EXIST' } });
    const wrongField = multipart('image', 'slip.png', (await transfer(m, GSB, 3)).png);
    const res = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...wrongField.headers, authorization: `Bearer ${m.token}`, 'x-requested-with': 'XMLHttpRequest' }, payload: wrongField.payload });
    expect(res.json()).toEqual({ message: 'SLIP_NO_FILE' });
    await t.services.deposits.sandboxBank?.setLookupFault('error');
    try {
      expect(await upload(m.token, (await transfer(m, GSB, 5)).png)).toMatchObject({ status: 502, body: { message: 'UNKNOW_ERROR', status: 'FAILED' } });
    } finally {
      await t.services.deposits.sandboxBank?.setLookupFault('none');
    }
    expect(await wallet(m.token)).toBe(0);
  });

  it('approves only what an upload would pass when the bank knows the transfer: not another member\'s, not another currency', async () => {
    const a = await member();
    const b = await member();
    const refA = (await unknownSlip());
    const slipA = (await upload(a.token, refA.png)).body._id as string;
    // The reference turns out to be B's transfer from B's own account.
    const sendingBankOfB = b.bankCode === 'KBANK' ? b : { bankCode: 'KBANK', accountNo: b.accountNo };
    await transfer(sendingBankOfB, GSB, 300, undefined, refA.transRef);
    const approved = await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipA}/approve`, headers: operator, payload: {} });
    expect(approved.statusCode).toBe(409);
    expect((approved.json() as { message: string }).message).toBe('NOT_MATCH');
    expect(await wallet(a.token)).toBe(0);
    // A transfer in kip to a baht member: refused as well, whatever amount the operator says.
    const refC = await unknownSlip();
    const slipC = (await upload(a.token, refC.png)).body._id as string;
    await t.app.inject({ method: 'POST', url: '/api/sandbox/bank/transfers', payload: { fromBankCode: 'KBANK', fromAccountNo: a.accountNo, toBankCode: 'GSB', toAccountNo: GSB.no, amount: 50_000, currency: 'LAK', transRef: refC.transRef } });
    const lak = await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipC}/approve`, headers: operator, payload: { amount: 1 } });
    expect(lak.statusCode).toBe(409);
    expect(await wallet(a.token)).toBe(0);
    // Rejected, the slips free the reference: B's own slip of the transfer still credits B.
    await t.app.inject({ method: 'POST', url: `/api/operator/slips/${slipA}/reject`, headers: operator, payload: { reason: 'NOT_MATCH' } });
    if (b.bankCode === 'KBANK') {
      const own = await upload(b.token, (await t.app.inject({ method: 'GET', url: `/api/sandbox/bank/transfers/${refA.transRef}/slip.png` })).rawPayload);
      expect(own.body).toMatchObject({ status: 'SUCCESS', amount: 300 });
    }
  });

  it('a member\'s own slip in progress that the bank did not know never holds back their confirmed slip of that transfer', async () => {
    const m = await member();
    const { transRef, png } = await transfer({ bankCode: 'KBANK', accountNo: m.accountNo }, GSB, 321);
    // The reference in lower case: a bank's format, but not a transfer the bank knows: in progress.
    const early = await upload(m.token, await qrPng(forgedSlipPayload('004', transRef.toLowerCase())));
    expect(early).toMatchObject({ status: 200, body: { status: 'PENDING', note: 'UNSTABLE_REFNO_ON_SLIP' } });
    expect(await upload(m.token, png)).toMatchObject({ status: 200, body: { status: 'SUCCESS', amount: 321 } });
    expect(await wallet(m.token)).toBe(321);
    const rows = await t.services.database.db.selectFrom('slips').select(['status', 'note']).where('member_id', '=', m.id).orderBy('created_at').execute();
    expect(rows).toEqual([{ status: 'FAILED', note: 'SLIP_REFNO_DUPLICATED' }, { status: 'SUCCESS', note: null }]);
    // Nothing is credited again later.
    await t.services.deposits.slips.recheck({ at: Date.now() + 3600_000 });
    expect(await wallet(m.token)).toBe(321);
  });

  it('refuses a forged reference (a real one plus `:X0`, `%`, a space, unicode, NUL, too long) with INVALID_SLIP: nothing is credited again, never a 500', async () => {
    const m = await member();
    const { transRef, png } = await transfer({ bankCode: 'KBANK', accountNo: m.accountNo }, GSB, 1000);
    expect((await upload(m.token, png)).body).toMatchObject({ status: 'SUCCESS', amount: 1000 });
    const credited = await wallet(m.token);
    const variants = [`${transRef}:X0`, `${transRef}:X1`, `${transRef}%`, `${transRef}%00`, `${transRef} `, ` ${transRef}`, `${transRef}\u00e9`, `${transRef}\u0e01`, `${transRef}\u0000`, `${transRef}\n`, `${transRef}/..`, 'A'.repeat(41), 'AB12', `KBANK:${transRef}`];
    for (const ref of variants) {
      const answer = await upload(m.token, await qrPng(forgedSlipPayload('004', ref)));
      // The QR is read back as written (NUL, new line and unicode included) and refused as no bank's reference.
      expect({ ref, status: answer.status, message: answer.body.message }).toEqual({ ref, status: 400, message: 'INVALID_SLIP' });
    }
    // Nothing of them is in progress to be re-checked or approved later, and nothing moved.
    const pending = await t.services.database.db.selectFrom('slips').select('id').where('member_id', '=', m.id).where('status', '=', 'PENDING').execute();
    expect(pending).toEqual([]);
    await t.services.deposits.slips.recheck({ at: Date.now() + 3600_000 });
    expect(await wallet(m.token)).toBe(credited);
    // The slip table itself refuses a transfer that is not a bank's reference.
    await expect(
      t.services.database.db.insertInto('slips').values({ id: `forged${Date.now()}`, member_id: m.id, reference: 'SLFORGED', amount: 0, status: 'PENDING', note: null, image_path: null, transfer_bank: 'KBANK', transfer_ref: `${transRef}:X0` }).execute(),
    ).rejects.toThrow();
  });

  it('replays of a real slip\'s reference in another case or with the same letters credit nothing twice', async () => {
    const m = await member();
    expect(m.bankCode).toBe('KBANK');
    const { transRef, png } = await transfer(m, GSB, 500);
    expect((await upload(m.token, png)).body).toMatchObject({ status: 'SUCCESS', amount: 500 });
    // The same reference in lower case (a well-formed reference the bank does not know): in progress, never credited.
    const lower = await upload(m.token, await qrPng(buildSlipPayload({ sendingBank: '004', transRef: transRef.toLowerCase() })));
    expect(lower).toMatchObject({ status: 409, body: { message: 'SLIP_REFNO_DUPLICATED' } });
    // One character off (changed, added, dropped): refused at upload too, never left for an operator.
    const last = transRef.slice(-1) === '7' ? '8' : '7';
    for (const variant of [`${transRef.slice(0, -1)}${last}`, `${transRef}X`, transRef.slice(0, -1)]) {
      expect(await upload(m.token, await qrPng(buildSlipPayload({ sendingBank: '004', transRef: variant })))).toMatchObject({ status: 409, body: { message: 'SLIP_REFNO_DUPLICATED' } });
    }
    expect(await upload(m.token, png)).toMatchObject({ status: 409, body: { message: 'SLIP_REFNO_DUPLICATED' } });
    await t.services.deposits.slips.recheck({ at: Date.now() + 3600_000 });
    for (const s of await t.services.database.db.selectFrom('slips').select('id').where('member_id', '=', m.id).where('status', '=', 'PENDING').execute()) {
      const approved = await t.app.inject({ method: 'POST', url: `/api/operator/slips/${s.id}/approve`, headers: operator, payload: { amount: 500, bankRef: transRef } });
      expect(approved.statusCode).toBe(409);
    }
    expect(await wallet(m.token)).toBe(500);
  });

  it('never lets a slip in progress squat a transfer: its sender is credited by their own slip or the bank feed; the squatter\'s slip fails', async () => {
    const owner = await member();
    const squatter = await member();
    expect(owner.bankCode).toBe('KBANK');
    // The squatter learns a reference before the transfer reaches the bank, and uploads its slip first.
    const early = await unknownSlip();
    const squat = await upload(squatter.token, early.png);
    expect(squat.body).toMatchObject({ status: 'PENDING', note: 'UNSTABLE_REFNO_ON_SLIP' });
    // The owner's transfer arrives; their own slip is credited at once.
    await transfer(owner, GSB, 321, undefined, early.transRef);
    expect((await upload(owner.token, early.png)).body).toMatchObject({ status: 'SUCCESS', amount: 321 });
    expect(await wallet(owner.token)).toBe(321);
    // The squatter's slip, asked again, fails: not from their account; and it cannot be approved.
    expect((await t.app.inject({ method: 'POST', url: `/api/operator/slips/${squat.body._id as string}/approve`, headers: operator, payload: {} })).json()).toMatchObject({ message: 'NOT_MATCH' });
    await t.services.deposits.slips.recheck({ at: Date.now() + 3600_000 });
    expect((await slipsOf(squatter.token)).find((x) => x._id === squat.body._id)).toMatchObject({ status: 'FAILED', note: 'NOT_MATCH' });
    expect(await wallet(squatter.token)).toBe(0);

    // The same with the bank feed (an AUTO account): a slip in progress does not stop it crediting the sender.
    const early2 = await unknownSlip();
    const squat2 = await upload(squatter.token, early2.png);
    expect(squat2.body).toMatchObject({ status: 'PENDING' });
    const fed = await call<{ feed: { status: number } | null }>(t.app, 'POST', '/api/sandbox/bank/transfers', { body: { fromBankCode: 'KBANK', fromAccountNo: owner.accountNo, toBankCode: 'KBANK', toAccountNo: '0451234567', amount: 12, transRef: early2.transRef } });
    expect(fed.body.feed).toEqual({ status: 200 });
    expect(await wallet(owner.token)).toBe(333);
    await t.services.deposits.slips.recheck({ at: Date.now() + 3600_000 });
    expect((await slipsOf(squatter.token)).find((x) => x._id === squat2.body._id)).toMatchObject({ status: 'FAILED' });
    expect(await wallet(squatter.token)).toBe(0);

    // A slip of someone else's transfer the bank knows holds nothing: the sender's own slip still credits.
    const known = await transfer(owner, GSB, 7);
    expect((await upload(squatter.token, known.png)).body).toMatchObject({ message: 'NOT_MATCH', amount: 0 });
    expect((await upload(owner.token, known.png)).body).toMatchObject({ status: 'SUCCESS', amount: 7 });
  });

  it('does not tell the amount of someone else\'s transfer, and refuses a transfer dated in the future', async () => {
    const m = await member();
    const stranger = { bankCode: 'KTB', accountNo: '5556667778' };
    const foreign = await upload(m.token, (await transfer(stranger, GSB, 123.45)).png);
    expect(foreign.body).toMatchObject({ message: 'NOT_MATCH', amount: 0 });
    const ahead = await upload(m.token, (await transfer(m, GSB, 10, new Date(Date.now() + 3 * 86_400_000))).png);
    expect(ahead.body).toMatchObject({ message: 'INVALID_SLIP' });
    expect(await wallet(m.token)).toBe(0);
  });

  it('ends reconciled: every credited slip matches its bank transfer once', async () => {
    const report = await reconcileAll(t);
    expect(report.breaches).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checked.systems.bank.credits).toBeGreaterThan(0);
  });
});

describe('slip rules from configuration', () => {
  it('answers the configured window and age until an operator sets their own', async () => {
    const t = await startApp('embedded', { SLIP_CLOSED_FROM: '01:00', SLIP_CLOSED_TO: '02:30', SLIP_MAX_AGE_MINUTES: '5' });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/lookup/slip' })).json()).toEqual({ uploadEnabled: true, closedFrom: '01:00', closedTo: '02:30', maxAgeMinutes: 5 });
      await t.services.deposits.slips.setRules({ uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
      expect((await t.app.inject({ method: 'GET', url: '/api/lookup/slip' })).json()).toMatchObject({ closedFrom: '00:00', maxAgeMinutes: 60 });
    } finally {
      await t.close();
    }
  });
});

describe('slip upload limits and the retention of refused images', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('embedded', { SLIP_RECHECK_INTERVAL_MS: '0', SLIP_UPLOADS_PER_MEMBER_MINUTE: '2', SLIP_UPLOADS_PER_MEMBER_HOUR: '100', SLIP_UPLOADS_PER_IP_MINUTE: '3' });
    await t.services.settings.set('slip', { uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
  });
  afterAll(async () => {
    await t?.close();
  });
  const upload = async (token: string, bytes: Buffer, remoteAddress: string) => {
    const form = multipart('file', 'slip.png', bytes);
    const res = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', remoteAddress, headers: { ...form.headers, authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' }, payload: form.payload });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };
  const member = async () => {
    const m = await registerMember(t.app);
    return { ...m, token: await login(t.app, m.phone, m.password) };
  };

  it('counts every upload, refused ones too, per member and per address', async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    const noQr = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#fff' } }).png().toBuffer();
    expect((await upload(a.token, noQr, '10.0.0.1')).status).toBe(400);
    expect((await upload(a.token, noQr, '10.0.0.1')).status).toBe(400);
    // The member's third in the minute, from anywhere.
    expect(await upload(a.token, noQr, '10.0.0.9')).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
    // Another member behind the same address: the address has had 2, the backstop is 3.
    expect((await upload(b.token, noQr, '10.0.0.1')).status).toBe(400);
    expect(await upload(c.token, noQr, '10.0.0.1')).toMatchObject({ status: 429, body: { message: 'REQUEST_LIMIT_1MIN' } });
    // Elsewhere, the third member is not held back.
    expect((await upload(c.token, noQr, '10.0.0.2')).status).toBe(400);
  });

  it('drops the images of refused slips after the retention, keeping their rows and every other image', async () => {
    const m = await member();
    // A slip whose transfer reference no bank issues: refused, and kept as a refused slip.
    expect(await upload(m.token, await qrPng(forgedSlipPayload('004', 'ABCDEF123:X0')), '10.0.1.1')).toMatchObject({ status: 400, body: { message: 'INVALID_SLIP' } });
    const db = t.services.database.db;
    const before = await db.selectFrom('slips').select(['id', 'image']).where('member_id', '=', m.id).execute();
    expect(before).toHaveLength(1);
    expect(before[0]?.image).not.toBeNull();
    expect(await t.services.deposits.slips.dropRefusedImages(30)).toBe(0);
    expect(await t.services.deposits.slips.dropRefusedImages(30, Date.now() + 31 * 86_400_000)).toBeGreaterThanOrEqual(1);
    const after = await db.selectFrom('slips').select(['id', 'image', 'status']).where('member_id', '=', m.id).execute();
    expect(after).toEqual([{ id: before[0]?.id, image: null, status: 'FAILED' }]);
  });
});
