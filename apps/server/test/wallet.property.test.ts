import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, balances, checkInvariants, openMemberAccounts } from '../src/money/ledger';
import { AppError } from '../src/lib/errors';
import { newId } from '../src/lib/ids';
import type { FaultMode } from '../src/providers/games/sandbox-games';
import { dbKinds, startApp, type TestApp } from './helpers';

const GAMES = ['PG', 'JOKER', 'HUAYHD'] as const;
type Game = (typeof GAMES)[number];

type Step =
  | { kind: 'add'; member: number; amount: number }
  | { kind: 'in'; member: number; game: Game; amount: number; fault: FaultMode; retry: boolean }
  | { kind: 'out'; member: number; game: Game; amount: number; fault: FaultMode; retry: boolean }
  | { kind: 'withdraw'; member: number; amount: number; retry: boolean }
  | { kind: 'settle'; member: number; complete: boolean };

const memberIdx = fc.integer({ min: 0, max: 2 });
const satang = fc.integer({ min: 1, max: 60_000 });
const faultArb = fc.constantFrom<FaultMode>('none', 'none', 'none', 'down', 'error-after-take');
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), member: memberIdx, amount: fc.integer({ min: 100, max: 100_000 }) }),
  fc.record({ kind: fc.constant('in' as const), member: memberIdx, game: fc.constantFrom(...GAMES), amount: satang, fault: faultArb, retry: fc.boolean() }),
  fc.record({ kind: fc.constant('out' as const), member: memberIdx, game: fc.constantFrom(...GAMES), amount: satang, fault: faultArb, retry: fc.boolean() }),
  fc.record({ kind: fc.constant('withdraw' as const), member: memberIdx, amount: fc.integer({ min: 10_000, max: 60_000 }), retry: fc.boolean() }),
  fc.record({ kind: fc.constant('settle' as const), member: memberIdx, complete: fc.boolean() }),
);

/**
 * Random sequences of wallet operations over several members, with provider failures and
 * retried requests, against a model of what each balance must be. After every sequence the
 * ledger's invariants hold, every balance matches the model, and every provider balance matches
 * the ledger's copy.
 */
describe.each(dbKinds)('wallet properties on %s', (kind) => {
  let t: TestApp;
  let members: string[] = [];
  beforeAll(async () => {
    t = await startApp(kind, { RECONCILE_INTERVAL_MS: '0', PROVIDER_TIMEOUT_MS: '2000' });
    members = await newMembers();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function newMembers(): Promise<string[]> {
    const db = t.services.database.db;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = newId();
      await db
        .insertInto('members')
        .values({ id, username: `07${id.slice(0, 8).replace(/\D/g, '1').padEnd(8, '1')}`.slice(0, 10) + id.slice(-4), name: 'Prop', password_hash: 'x', source_code: null, inviter_id: null, bank_code: 'KBANK', bank_account_name: 'PROP', bank_account_no: `8${id.slice(-9).replace(/\D/g, '5')}`, currency: 'BAHT' })
        .execute();
      await openMemberAccounts(db, id);
      for (const g of GAMES) await t.services.games.activate(id, g);
      ids.push(id);
    }
    return ids;
  }

  it('keeps every balance where the model says, whatever fails', async () => {
    const { wallet, transfers, sandboxGames, games, payouts } = t.services;
    const db = t.services.database.db;
    let sequence = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 8 }), async (steps) => {
        sequence += 1;
        // The model starts from the balances the previous sequences left.
        const model = await Promise.all(
          members.map(async (id) => {
            const b = await balances(db, [account.wallet(id), account.withdrawal(id), ...GAMES.map((g) => account.game(id, g))]);
            const get = (a: string) => b.get(a)?.balance ?? 0;
            return {
              wallet: get(account.wallet(id)),
              heldBefore: get(account.withdrawal(id)),
              held: [] as Array<{ id: string; amount: number }>,
              games: Object.fromEntries(GAMES.map((g) => [g, get(account.game(id, g))])) as Record<Game, number>,
            };
          }),
        );
        for (const [n, step] of steps.entries()) {
          const m = model[step.member];
          const id = members[step.member];
          if (!m || !id) throw new Error('bad index');
          const key = { key: `prop-${sequence}-${n}`, hash: `h-${sequence}-${n}` };
          const run = async (fn: () => Promise<unknown>): Promise<string> => {
            try {
              await fn();
              return 'ok';
            } catch (error) {
              if (error instanceof AppError) return error.code;
              throw error;
            }
          };
          if (step.kind === 'add') {
            expect(await run(() => wallet.add(id, step.amount, key))).toBe('ok');
            m.wallet += step.amount;
          } else if (step.kind === 'in' || step.kind === 'out') {
            await sandboxGames?.setFault(step.game, { mode: step.fault, latencyMs: 0 });
            const from = step.kind === 'in' ? 'WALLET' : step.game;
            const to = step.kind === 'in' ? step.game : 'WALLET';
            const available = step.kind === 'in' ? m.wallet : m.games[step.game];
            const first = await run(() => transfers.transfer(id, from, to, step.amount, key));
            await sandboxGames?.setFault(step.game, { mode: 'none', latencyMs: 0 });
            if (step.amount < 100) expect(first).toBe('TRANSFER_MINIMUM');
            else if (available < step.amount) expect(first).toBe('MONEY_NOT_ENOUGH');
            else if (step.fault === 'down') expect(first).toBe('TRANSFER_FAIL');
            else expect(first).toBe('ok');
            if (first === 'ok') {
              if (step.kind === 'in') {
                m.wallet -= step.amount;
                m.games[step.game] += step.amount;
              } else {
                m.games[step.game] -= step.amount;
                m.wallet += step.amount;
              }
            }
            if (step.retry) {
              const again = await run(() => transfers.transfer(id, from, to, step.amount, key));
              // A recorded outcome is answered again; a refusal that recorded nothing is re-evaluated.
              if (first === 'ok' || first === 'TRANSFER_FAIL') expect(again).toBe(first);
            }
          } else if (step.kind === 'withdraw') {
            const first = await run(() => wallet.withdraw(id, step.amount, key));
            expect(first).toBe(m.wallet >= step.amount ? 'ok' : 'MONEY_NOT_ENOUGH');
            if (first === 'ok') {
              const op = await db.selectFrom('operations').select('id').where('member_id', '=', id).where('type', '=', 'withdraw').orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
              m.wallet -= step.amount;
              m.held.push({ id: op.id, amount: step.amount });
              if (step.retry) expect(await run(() => wallet.withdraw(id, step.amount, key))).toBe('ok');
            }
          } else {
            const held = m.held.shift();
            if (held) {
              if (step.complete) await payouts.complete(held.id, 'property', true);
              else {
                await payouts.reject(held.id, 'property', 'PROP');
                m.wallet += held.amount;
              }
            }
          }
        }
        for (const [i, id] of members.entries()) {
          const m = model[i];
          if (!m) continue;
          const ids = [account.wallet(id), account.withdrawal(id), account.inflight(id), ...GAMES.map((g) => account.game(id, g))];
          const b = await balances(db, ids);
          expect(b.get(account.wallet(id))?.balance).toBe(m.wallet);
          expect(b.get(account.inflight(id))?.balance).toBe(0);
          expect(b.get(account.withdrawal(id))?.balance).toBe(m.heldBefore + m.held.reduce((s, h) => s + h.amount, 0));
          for (const g of GAMES) {
            expect(b.get(account.game(id, g))?.balance).toBe(m.games[g]);
            const live = await games.provider(g).balance((await games.memberGame(id, g)).username);
            expect(live).toBe(m.games[g]);
          }
        }
      }),
      { numRuns: kind === 'embedded' ? Number(process.env.PROPERTY_RUNS ?? 1000) : Number(process.env.PROPERTY_RUNS_PG ?? 500) },
    );
    const report = await checkInvariants(db);
    expect(report).toMatchObject({ ok: true, total: 0 });
  }, 600_000);

  it('books every answered transfer of a concurrent burst exactly once (batched statements)', async () => {
    // Bursts of simultaneous transfers over the same members and games, some repeated with the
    // same Idempotency-Key at the same moment, some games down: they are group-committed, so
    // this is where a batch that lost, doubled or mixed up an item would show.
    const { transfers, sandboxGames, games, wallet } = t.services;
    const db = t.services.database.db;
    // Enough money that most batches go through whole; now and then one transfer too big for
    // its member makes its batch be re-run item by item.
    for (const [n, id] of members.entries()) await wallet.add(id, 5_000_000, { key: `burst-${kind}-topup-${n}`, hash: 'topup' });
    const amountArb = fc.oneof({ arbitrary: fc.integer({ min: 100, max: 40_000 }), weight: 19 }, { arbitrary: fc.constant(100_000_000), weight: 1 });
    const burstArb = fc.record({
      down: fc.subarray([...GAMES], { maxLength: 1 }),
      moves: fc.array(
        fc.record({ member: memberIdx, game: fc.constantFrom(...GAMES), out: fc.boolean(), amount: amountArb, copies: fc.constantFrom(1, 1, 1, 2, 3) }),
        { minLength: 2, maxLength: 12 },
      ),
    });
    let burst = 0;
    await fc.assert(
      fc.asyncProperty(burstArb, async ({ down, moves }) => {
        burst += 1;
        for (const g of down) await sandboxGames?.setFault(g, { mode: 'down', latencyMs: 0 });
        const ids = members.flatMap((id) => [account.wallet(id), ...GAMES.map((g) => account.game(id, g))]);
        const before = await balances(db, ids);
        const requests = moves.flatMap((m, n) => {
          const id = members[m.member] as string;
          const key = { key: `burst-${kind}-${burst}-${n}`, hash: `h-${n}` };
          const call = () => transfers.transfer(id, m.out ? m.game : 'WALLET', m.out ? 'WALLET' : m.game, m.amount, key);
          return Array.from({ length: m.copies }, () => ({ move: m, id, call }));
        });
        const answers = await Promise.all(
          requests.map(async (r) => {
            try {
              return { r, ref: (await r.call()).reference };
            } catch (error) {
              if (error instanceof AppError) return { r, code: error.code };
              throw error;
            }
          }),
        );
        for (const g of down) await sandboxGames?.setFault(g, { mode: 'none', latencyMs: 0 });
        // What the answers say moved: each operation once, however many requests carried it.
        const moved = new Map<string, number>();
        const seen = new Set<string>();
        for (const a of answers) {
          if (!('ref' in a) || a.ref === undefined) {
            // Refused (nothing moved), failed at a provider that is down (money returned), or a
            // copy that arrived while its first request was still running.
            expect(['MONEY_NOT_ENOUGH', 'TRANSFER_FAIL', 'REQUEST_IN_PROGRESS']).toContain(a.code);
            continue;
          }
          expect(down).not.toContain(a.r.move.game);
          if (seen.has(a.ref)) continue;
          seen.add(a.ref);
          const signed = a.r.move.out ? -a.r.move.amount : a.r.move.amount;
          moved.set(account.game(a.r.id, a.r.move.game), (moved.get(account.game(a.r.id, a.r.move.game)) ?? 0) + signed);
          moved.set(account.wallet(a.r.id), (moved.get(account.wallet(a.r.id)) ?? 0) - signed);
        }
        const after = await balances(db, [...ids, ...members.map((id) => account.inflight(id))]);
        for (const id of ids) expect((after.get(id)?.balance ?? 0) - (before.get(id)?.balance ?? 0)).toBe(moved.get(id) ?? 0);
        for (const id of members) {
          expect(after.get(account.inflight(id))?.balance).toBe(0);
          for (const g of GAMES) {
            const live = await games.provider(g).balance((await games.memberGame(id, g)).username);
            expect(live).toBe(after.get(account.game(id, g))?.balance);
          }
        }
      }),
      { numRuns: kind === 'embedded' ? Number(process.env.BURST_RUNS ?? 150) : Number(process.env.BURST_RUNS_PG ?? 150) },
    );
    const report = await checkInvariants(db);
    expect(report).toMatchObject({ ok: true, total: 0 });
  }, 600_000);
});
