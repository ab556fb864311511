import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, balances, checkInvariants, openMemberAccounts } from '../src/money/ledger';
import { AppError } from '../src/lib/errors';
import { newId } from '../src/lib/ids';
import type { QrProvider } from '../src/providers/payments/gateway';
import { signWebhook } from '../src/providers/payments/signing';
import { dbKinds, reconcileAll, startApp, type TestApp } from './helpers';

const PROVIDERS: QrProvider[] = ['WW', 'PAYTIMZ', 'KBANK'];

type Step =
  | { kind: 'create'; member: number; provider: number; amount: number }
  | { kind: 'pay'; qr: number }
  | { kind: 'redeliver'; qr: number; times: number }
  | { kind: 'replayLater'; qr: number }
  | { kind: 'cancel'; qr: number }
  | { kind: 'expire'; qr: number }
  | { kind: 'forged'; qr: number; how: 'signature' | 'stale' | 'otherSecret' | 'tampered' }
  | { kind: 'flushLater' };

const idx = fc.integer({ min: 0, max: 7 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('create' as const), member: fc.integer({ min: 0, max: 1 }), provider: fc.integer({ min: 0, max: 2 }), amount: fc.integer({ min: 10_000, max: 500_000 }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('pay' as const), qr: idx }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('redeliver' as const), qr: idx, times: fc.integer({ min: 1, max: 8 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('replayLater' as const), qr: idx }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), qr: idx }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('expire' as const), qr: idx }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('forged' as const), qr: idx, how: fc.constantFrom('signature' as const, 'stale' as const, 'otherSecret' as const, 'tampered' as const) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('flushLater' as const) }), weight: 1 },
);

/**
 * Random webhook histories: QRs created, paid by the customer, their webhooks redelivered at
 * once, held back and delivered later in another order, cancelled or expired (before or after
 * payment), and forged or stale deliveries. Whatever happens, every QR the gateway says was paid
 * is credited exactly once with its amount, nothing else is credited, and the ledger holds.
 */
describe.each(dbKinds)('deposit webhook properties on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Phones and accounts from a counter (random ones met twice in a long run: a unique-key failure, not a finding). */
  let seq = Math.floor(Math.random() * 1e6) * 100;
  async function newMembers(): Promise<string[]> {
    const db = t.services.database.db;
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const id = newId();
      await db
        .insertInto('members')
        .values({ id, username: `06${String((seq += 1) % 1e8).padStart(8, '0')}`, name: 'Prop', password_hash: 'x', source_code: null, inviter_id: null, bank_code: 'KBANK', bank_account_name: 'PROP', bank_account_no: `7${String(seq % 1e9).padStart(9, '0')}`, currency: 'BAHT' })
        .execute();
      await openMemberAccounts(db, id);
      ids.push(id);
    }
    return ids;
  }

  it('credits every paid QR exactly once and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 4, maxLength: 24 }), async (steps) => {
        const { qr, sandboxGateway, webhookSecrets } = t.services.deposits;
        if (!sandboxGateway) throw new Error('sandbox gateway expected');
        const members = await newMembers();
        const qrs: Array<{ id: string; member: string; amount: number; paid: boolean; reference: string }> = [];
        const held: Array<{ body: string }> = [];
        const expected = new Map(members.map((m) => [m, 0]));
        const pick = (i: number) => (qrs.length === 0 ? undefined : qrs[i % qrs.length]);
        const deliver = (body: string, secret: string, timestamp = Math.floor(Date.now() / 1000), sign = body) =>
          t.app.inject({ method: 'POST', url: `/api/webhooks/payments/${(JSON.parse(body) as { provider: string }).provider}`, headers: { 'content-type': 'application/json', 'x-timestamp': String(timestamp), 'x-signature': signWebhook(secret, timestamp, sign) }, payload: body });
        const bodyOf = async (q: { id: string }) => {
          const order = await sandboxGateway.order(await qr.gatewayRef(q.id));
          return JSON.stringify({ event: 'payment.succeeded', paymentId: order.paymentId ?? `UNPAID${order.reference}`, provider: order.provider, reference: order.reference, amount: (order.amount / 100).toFixed(2), currency: 'THB' });
        };
        for (const step of steps) {
          if (step.kind === 'create') {
            const member = members[step.member] as string;
            try {
              const state = await qr.create(member, PROVIDERS[step.provider] as string, step.amount);
              if (state.qrcodeId) {
                const row = await t.services.database.db.selectFrom('qr_codes').select('reference').where('id', '=', state.qrcodeId).executeTakeFirstOrThrow();
                qrs.push({ id: state.qrcodeId, member, amount: step.amount, paid: false, reference: row.reference });
              }
            } catch (error) {
              if (!(error instanceof AppError) || error.code !== 'QR_ALREADY_OPEN') throw error;
            }
            continue;
          }
          if (step.kind === 'flushLater') {
            // Held-back deliveries arrive now, in reverse order, all at once.
            const late = held.splice(0).reverse();
            await Promise.all(late.map((h) => deliver(h.body, webhookSecrets.payments)));
            continue;
          }
          const q = pick(step.qr);
          if (!q) continue;
          if (step.kind === 'pay') {
            try {
              await sandboxGateway.pay(await qr.gatewayRef(q.id));
              q.paid = true;
              expected.set(q.member, (expected.get(q.member) ?? 0) + q.amount);
            } catch (error) {
              if (!(error instanceof AppError) || !['QR_ALREADY_PAID', 'QR_CANCELLED', 'QR_EXPIRED'].includes(error.code)) throw error;
            }
          } else if (step.kind === 'redeliver') {
            if (q.paid) await sandboxGateway.redeliver(await qr.gatewayRef(q.id), step.times);
          } else if (step.kind === 'replayLater') {
            if (q.paid) held.push({ body: await bodyOf(q) });
          } else if (step.kind === 'cancel') {
            await qr.cancel(q.member, q.id).catch((error: unknown) => {
              if (!(error instanceof AppError) || error.code !== 'NO_QRCODE') throw error;
            });
          } else if (step.kind === 'expire') {
            const past = new Date(Date.now() - 1000);
            await t.services.database.db.updateTable('qr_codes').set({ expires_at: past }).where('id', '=', q.id).execute();
            await sandboxGateway.expire(await qr.gatewayRef(q.id));
          } else {
            // A forgery claims this QR was paid (or paid more): refused with 401, nothing moves.
            const body = (await bodyOf(q)).replace(/"paymentId":"[^"]*"/, `"paymentId":"FORGED${newId()}"`);
            const now = Math.floor(Date.now() / 1000);
            const answer =
              step.how === 'signature'
                ? await deliver(body, 'x'.repeat(32))
                : step.how === 'stale'
                  ? await deliver(body, webhookSecrets.payments, now - 3600)
                  : step.how === 'otherSecret'
                    ? await deliver(body, webhookSecrets.bank)
                    : await deliver(body.replace(/"amount":"[^"]*"/, '"amount":"99999.00"'), webhookSecrets.payments, now, body);
            expect(answer.statusCode).toBe(401);
          }
        }
        await Promise.all(held.map((h) => deliver(h.body, webhookSecrets.payments)));
        const ids = members.map((m) => account.wallet(m));
        const found = await balances(t.services.database.db, ids);
        for (const m of members) expect({ member: m, wallet: found.get(account.wallet(m))?.balance }).toEqual({ member: m, wallet: expected.get(m) });
        // Each paid QR is one deposit operation of its amount.
        const ops = await t.services.database.db.selectFrom('operations').select(['member_id', 'amount']).where('member_id', 'in', members).where('type', '=', 'deposit').execute();
        expect(ops.length).toBe(qrs.filter((q) => q.paid).length);
      }),
      { numRuns: kind === 'embedded' ? 25 : 15 },
    );
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true, total: 0 });
    // Every credited payment matches the gateway's books once.
    const report = await reconcileAll(t);
    expect(report.breaches).toEqual([]);
    expect(report.checked.systems.gateway.credits).toBe(report.checked.matched);
  }, 240_000);
});
