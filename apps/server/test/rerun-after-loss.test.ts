import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSlipPayload } from '../src/lib/emvco';
import { checkInvariants } from '../src/money/ledger';
import { qrPng } from './images';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

/**
 * A money call run again under its key after its answer was lost (docs/money.md): it answers as the
 * first time and moves nothing more, whatever happened since (a cancel, a recheck, a changed code);
 * the key with another request, its claim given back after a 5xx or an unkept refusal, is
 * IDEMPOTENCY_KEY_REUSED, never the other request's record. Written from an independent review.
 */

let seq = 0;
const newKey = (label: string) => `rerun-${label}-${Date.now()}-${++seq}`;

function multipart(field: string, bytes: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----rerun${Date.now()}${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="slip.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(dbKinds)('a money call run again after its answer was lost, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { SLIP_MAX_BYTES: '2000000', ROUND_IMPORT_INTERVAL_MS: '0', SLIP_RECHECK_INTERVAL_MS: '0', PROVIDER_TIMEOUT_MS: '100' });
    await t.services.deposits.slips.setRules({ uploadEnabled: true, closedFrom: '00:00', closedTo: '00:00', maxAgeMinutes: 60 });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });

  async function member(deposit: number) {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    if (deposit > 0) expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: deposit } })).status).toBe(200);
    return { ...m, token };
  }
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;
  const keyed = (token: string, url: string, key: string) => call<Record<string, unknown>>(t.app, 'GET', url, { token, headers: { 'idempotency-key': key } });
  /** The crash of phase (c): the kept answer turned back into a claim whose process died an hour ago. */
  async function lose(memberId: string, key: string) {
    const r = await sql`UPDATE idempotency_keys SET answer = NULL, answer_status = NULL, plan = '{"claim":true}'::jsonb, created_at = now() - interval '1 hour'
      WHERE member_id = ${memberId} AND key = ${`#${key}`}`.execute(t.services.database.db);
    expect(Number(r.numAffectedRows ?? 0n)).toBe(1);
  }
  const crashCredit = () => vi.spyOn(t.services.money.credits, 'credit').mockRejectedValueOnce(new Error('the process died here'));
  async function uploadSlip(token: string, bytes: Buffer, key?: string) {
    const form = multipart('file', bytes);
    const headers: Record<string, string> = { ...form.headers, authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' };
    if (key) headers['idempotency-key'] = key;
    const res = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers, payload: form.payload });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  }
  async function bankSlip(token: string, amount: number): Promise<Buffer> {
    const profile = (await call<{ bankCode: string; bankAccountNo: string }>(t.app, 'GET', '/api/account/profile', { token })).body;
    const sent = await call<{ transRef: string }>(t.app, 'POST', '/api/sandbox/bank/transfers', {
      body: { fromBankCode: profile.bankCode, fromAccountNo: profile.bankAccountNo, toBankCode: 'GSB', toAccountNo: '020123456789', amount },
    });
    expect(sent.status).toBe(200);
    return (await t.app.inject({ method: 'GET', url: `/api/sandbox/bank/transfers/${sent.body.transRef}/slip.png` })).rawPayload;
  }
  /** A credit code of this test's own (FREE50-like), so that its amounts may change. */
  async function creditCode(thb: number): Promise<string> {
    const code = `RERUN${Date.now().toString(36).toUpperCase()}${++seq}`;
    await sql`INSERT INTO promotions (code, kind, amounts, bonus_code, percent_fail, description, max_uses, max_per_member)
      VALUES (${code}, 'credit', ${JSON.stringify({ THB: thb * 100, LAK: 3_000_000 })}::jsonb, NULL, 0, '{"th":"x","la":"x","en":"x"}'::jsonb, NULL, 1)`.execute(t.services.database.db);
    return code;
  }

  it('a bonus activation run again after its receipt was cancelled answers as the first time', async () => {
    const m = await member(1000);
    const k = newKey('bonus');
    const first = await keyed(m.token, '/api/bonus/activate/WELCOME20', k);
    expect(first).toMatchObject({ status: 200, body: { isActive: true } });
    expect((await keyed(m.token, '/api/bonus/clear', newKey('clear'))).status).toBe(200);
    const before = await wallet(m.token);
    await lose(m.id, k);
    const rerun = await keyed(m.token, '/api/bonus/activate/WELCOME20', k);
    expect(await wallet(m.token)).toBe(before);
    expect({ status: rerun.status, body: rerun.body }, 'the re-run answers the first answer').toEqual({ status: first.status, body: first.body });
  });

  it('a promotion code: after a 500 gave the key back, the key with another code is IDEMPOTENCY_KEY_REUSED, not the first code\'s answer', async () => {
    const m = await member(1000);
    const k = newKey('promo-x');
    crashCredit();
    expect((await keyed(m.token, '/api/promotion/activate/FREE50', k)).status).toBe(500);
    const other = await keyed(m.token, '/api/promotion/activate/BOOST30', k);
    // Either refused as another request under a used key, or BOOST30 runs: never FREE50's answer.
    expect(other.body, JSON.stringify(other)).not.toMatchObject({ promotion: { code: 'FREE50' } });
  });

  it('a bonus activation: after a 500 gave the key back, the key with another bonus code is refused and moves nothing', async () => {
    const m = await member(1000);
    const k = newKey('bonus-x');
    crashCredit();
    expect((await keyed(m.token, '/api/bonus/activate/WELCOME20', k)).status).toBe(500);
    expect(await wallet(m.token)).toBe(1000);
    const other = await keyed(m.token, '/api/bonus/activate/DAILY10', k);
    // Run fresh, DAILY10 would be 409 BONUS_ALREADY_ACTIVE (WELCOME20's receipt is open); under a used key 409 IDEMPOTENCY_KEY_REUSED.
    expect(other.status, JSON.stringify(other.body)).toBe(409);
    expect(await wallet(m.token)).toBe(1000);
  });

  it('a slip upload: after a 409 gave the key back, another slip under the key is not answered with the old refusal', async () => {
    const m = await member(0);
    const a = await bankSlip(m.token, 40);
    expect((await uploadSlip(m.token, a)).body).toMatchObject({ status: 'SUCCESS' });
    const k = newKey('slip-x');
    const dup = await uploadSlip(m.token, a, k);
    expect(dup).toMatchObject({ status: 409, body: { message: 'SLIP_REFNO_DUPLICATED' } });
    const b = await bankSlip(m.token, 25);
    const second = await uploadSlip(m.token, b, k);
    // B is another request: refused as a reuse of the key (or run), never answered with A's refusal.
    expect(second.status === 200 || second.body.message === 'IDEMPOTENCY_KEY_REUSED', JSON.stringify(second.body)).toBe(true);
  });

  it('the promotion sweep credits a use cut off before its credit by what the code was worth when used, not its changed amount', async () => {
    const code = await creditCode(50);
    const m = await member(0);
    const k = newKey('promo-amt');
    crashCredit();
    expect((await keyed(m.token, `/api/promotion/activate/${code}`, k)).status).toBe(500);
    await sql`UPDATE promotions SET amounts = '{"THB": 8000, "LAK": 3000000}'::jsonb WHERE code = ${code}`.execute(t.services.database.db);
    await sql`UPDATE promotion_uses SET created_at = now() - interval '2 minutes' WHERE member_id = ${m.id}`.execute(t.services.database.db);
    await t.services.promotions.sweep();
    expect(await wallet(m.token), 'the use was worth 50 when the member used the code').toBe(50);
  });

  it('the promotion sweep credits a use whose currency the code no longer offers, once, and its key answers success', async () => {
    const code = await creditCode(50);
    const m = await member(0);
    const k = newKey('promo-gone');
    crashCredit();
    expect((await keyed(m.token, `/api/promotion/activate/${code}`, k)).status).toBe(500);
    await sql`UPDATE promotions SET amounts = '{"LAK": 3000000}'::jsonb WHERE code = ${code}`.execute(t.services.database.db);
    await sql`UPDATE promotion_uses SET created_at = now() - interval '2 minutes' WHERE member_id = ${m.id}`.execute(t.services.database.db);
    const swept = [await t.services.promotions.sweep(), await t.services.promotions.sweep(), await t.services.promotions.sweep()];
    const retry = await keyed(m.token, `/api/promotion/activate/${code}`, k);
    const stillOpen = await sql<{ n: string }>`SELECT count(*)::text AS n FROM promotion_uses WHERE member_id = ${m.id} AND NOT credited`.execute(t.services.database.db);
    const wal = await wallet(m.token);
    expect({ retry: retry.status, wallet: wal, open: Number(stillOpen.rows[0]?.n), sweptLast: swept[2] }, JSON.stringify({ swept, retry })).toEqual({ retry: 200, wallet: 50, open: 0, sweptLast: 0 });
  });

  it('a slip upload answered 200 in progress, failed by the recheck since: the re-run answers 200 again (the slip as it is now)', async () => {
    const m = await member(0);
    const transRef = `2611${Date.now()}${Math.floor(Math.random() * 1e6)}`.slice(0, 20);
    const png = await qrPng(buildSlipPayload({ sendingBank: '004', transRef }));
    const k = newKey('slip-pending');
    const first = await uploadSlip(m.token, png, k);
    expect(first).toMatchObject({ status: 200, body: { status: 'PENDING', note: 'UNSTABLE_REFNO_ON_SLIP' } });
    await t.services.deposits.slips.recheck({ at: Date.now() + 31 * 60_000, limit: 500 });
    await lose(m.id, k);
    const rerun = await uploadSlip(m.token, png, k);
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(first.status);
  });
});

describe('a database migrated by the interim bonus/006 (which once carried promotion_uses.credited)', () => {
  it('gets the flag from bonus/007 when it is missing, and credit codes work after the upgrade', async () => {
    const { dropSchema } = await import('./helpers');
    const schema = `t_rerun_${Date.now().toString(36)}`;
    // The database as the first bonus/006 left it: no credited column, bonus/007 not applied.
    const old = await startApp('postgres', {}, schema);
    await sql`ALTER TABLE promotion_uses DROP COLUMN credited`.execute(old.services.database.db);
    await sql`ALTER TABLE promotion_uses DROP COLUMN credit_amount, DROP COLUMN credit_currency, DROP COLUMN request_hash`.execute(old.services.database.db);
    await sql`ALTER TABLE bonus_receipts DROP COLUMN request_hash`.execute(old.services.database.db);
    await sql`DELETE FROM schema_migrations WHERE id = 'bonus/007_use_credit_and_request_hash'`.execute(old.services.database.db);
    await old.close();
    const t = await startApp('postgres', {}, schema);
    try {
      const m = await registerMember(t.app);
      const token = await login(t.app, m.phone, m.password);
      const used = await call(t.app, 'GET', '/api/promotion/activate/FREE50', { token, headers: { 'idempotency-key': `rerun-mig-${Date.now()}` } });
      expect(used.status, JSON.stringify(used.body)).toBe(200);
    } finally {
      await t.close();
      await dropSchema(schema);
    }
  });
});
