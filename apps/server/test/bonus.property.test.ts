import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../src/money/ledger';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

type Step =
  | { kind: 'deposit'; amount: number }
  | { kind: 'activate'; code: 'WELCOME20' | 'DAILY10' | 'WEEKLY15' }
  | { kind: 'toGame'; amount: number }
  | { kind: 'fromGame'; amount: number }
  | { kind: 'play'; spins: number; stake: number; multiplier: 0 | 1 | 2 }
  | { kind: 'withdraw'; amount: number }
  | { kind: 'clear' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('deposit' as const), amount: fc.integer({ min: 50, max: 1500 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('activate' as const), code: fc.constantFrom('WELCOME20' as const, 'DAILY10' as const, 'WEEKLY15' as const) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('toGame' as const), amount: fc.integer({ min: 10, max: 2000 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('fromGame' as const), amount: fc.integer({ min: 10, max: 2000 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('play' as const), spins: fc.integer({ min: 1, max: 40 }), stake: fc.constantFrom(1000, 5000, 20_000), multiplier: fc.constantFrom(0 as const, 1 as const, 2 as const) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('withdraw' as const), amount: fc.integer({ min: 100, max: 2000 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('clear' as const) }), weight: 1 },
);

/**
 * Random play, bonus and withdrawal sequences of one member: no withdrawal ever goes through while
 * a bonus condition is open (and a BONUS_CONDITION refusal means one is), money is conserved —
 * wallet + game account + withdrawals held = deposits + bonuses − forfeits + wins − stakes — and
 * the ledger check holds.
 */
describe.each(dbKinds)('bonus sequences on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { ROUND_IMPORT_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never pays a withdrawal under an open condition and conserves money', async () => {
    // What the sequences exercised (a fixed seed: the same histories every run).
    const seen = { activated: 0, refusedUnderCondition: 0, withdrawn: 0, played: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 22 }), async (steps) => {
        const m = await registerMember(t.app);
        const token = await login(t.app, m.phone, m.password);
        await call(t.app, 'GET', '/api/wallet/activate/PG', { token });
        const username = (await t.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', m.id).executeTakeFirstOrThrow()).username;
        const db = t.services.database.db;
        const open = async () => (await db.selectFrom('bonus_receipts').select('id').where('member_id', '=', m.id).where('status', '=', 'ACTIVE').executeTakeFirst()) !== undefined;
        const wallet = async () => Math.round((await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount * 100);
        let inflow = 0; // deposits + bonuses − forfeits + wins − stakes − withdrawals (satang)
        for (const step of steps) {
          switch (step.kind) {
            case 'deposit': {
              if ((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: step.amount } })).status === 200) inflow += step.amount * 100;
              break;
            }
            case 'activate': {
              const before = await wallet();
              const res = await call(t.app, 'GET', `/api/bonus/activate/${step.code}`, { token });
              if (res.status === 200) {
                seen.activated += 1;
                inflow += (await wallet()) - before;
              }
              break;
            }
            case 'toGame':
            case 'fromGame': {
              const body = step.kind === 'toGame' ? { from: 'WALLET', to: 'PG', amount: step.amount } : { from: 'PG', to: 'WALLET', amount: step.amount };
              await call(t.app, 'POST', '/api/wallet/transfer', { token, body });
              break;
            }
            case 'play': {
              for (let i = 0; i < step.spins; i++) {
                const after = await t.services.sandboxGames?.spin('PG', username, step.stake, step.multiplier);
                if (after === null || after === undefined) break;
                inflow += step.stake * step.multiplier - step.stake;
                seen.played += 1;
              }
              break;
            }
            case 'withdraw': {
              const res = await call<{ message?: string }>(t.app, 'POST', '/api/wallet/withdraw', { token, body: { amount: step.amount } });
              if (res.status === 200) {
                expect(await open()).toBe(false);
                inflow -= step.amount * 100;
                seen.withdrawn += 1;
              }
              if (res.body.message === 'BONUS_CONDITION') {
                expect(await open()).toBe(true);
                seen.refusedUnderCondition += 1;
              }
              break;
            }
            case 'clear': {
              const before = await wallet();
              if ((await call(t.app, 'GET', '/api/bonus/clear', { token })).status === 200) inflow -= before - (await wallet());
              break;
            }
          }
        }
        // Conservation: what the member holds (wallet + the provider's game balance) is what came in.
        const inGame = (await t.services.sandboxGames?.accountBalance('PG', username)) ?? 0;
        expect((await wallet()) + inGame).toBe(inflow);
      }),
      { numRuns: 25, seed: 20261123 },
    );
    expect(seen.activated).toBeGreaterThan(0);
    expect(seen.refusedUnderCondition).toBeGreaterThan(0);
    expect(seen.withdrawn).toBeGreaterThan(0);
    expect(seen.played).toBeGreaterThan(0);
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  }, 300_000);
});
