import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { call, dbKinds, dropSchema, login, registerMember, startApp, type TestApp } from './helpers';

describe.each(dbKinds)('game activity on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { ROUND_IMPORT_INTERVAL_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A member with 500 baht in the PG game account. */
  async function player() {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 500 } })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/wallet/activate/PG', { token })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 500 } })).status).toBe(200);
    const account = await t.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', m.id).where('game_code', '=', 'PG').executeTakeFirstOrThrow();
    return { ...m, token, username: account.username };
  }

  it('imports every settled round once, whoever imports and however often', async () => {
    const p = await player();
    const house = t.services.sandboxGames;
    if (!house) throw new Error('sandbox games expected');
    const played = await house.play('PG', p.username, 30, 1_000);
    expect(played.played).toBe(30);
    const since = new Date(Date.now() - 60_000);
    const imported = await Promise.all([t.services.activity.importAll(7), t.services.activity.importAll(7), t.services.activity.importAll()]);
    expect(imported.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30);
    expect(await t.services.activity.importAll()).toBe(0);
    const totals = await t.services.activity.totals(p.id, since, null, null);
    expect(totals).toEqual({ stakes: 30_000, wins: played.won, rounds: 30 });
    // Only the categories asked for: PG is a slot.
    expect((await t.services.activity.totals(p.id, since, null, ['sport'])).rounds).toBe(0);
    expect((await t.services.activity.totals(p.id, since, null, ['slot'])).rounds).toBe(30);
    // The provider's balance agrees with the rounds.
    expect(played.balance).toBe(50_000 - 30_000 + played.won);
  });
});

/**
 * Importers of the same feeds at once, as two server processes run them: two apps on one
 * PostgreSQL schema, four importers (two in each), fifty times with new rounds each time. A
 * deadlock (or any other failure) fails the import, and every settled round is imported once.
 */
describe('game activity imports at once on postgres, two processes', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startApp('postgres', { ROUND_IMPORT_INTERVAL_MS: '0' }, schema);
    b = await startApp('postgres', { ROUND_IMPORT_INTERVAL_MS: '0' }, schema);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dropSchema(schema);
  });

  it('four importers, fifty times: no deadlock, every round once', async () => {
    const house = a.services.sandboxGames;
    if (!house) throw new Error('sandbox games expected');
    // Players at two providers (three at one), so pages of several feeds and members interleave.
    const players: Array<{ id: string; game: string; username: string }> = [];
    for (const game of ['PG', 'PG', 'PG', 'JOKER']) {
      const m = await registerMember(a.app);
      const token = await login(a.app, m.phone, m.password);
      expect((await call(a.app, 'POST', '/api/wallet/add', { token, body: { amount: 100_000 } })).status).toBe(200);
      expect((await call(a.app, 'GET', `/api/wallet/activate/${game}`, { token })).status).toBe(200);
      expect((await call(a.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: game, amount: 100_000 } })).status).toBe(200);
      const row = await a.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', m.id).where('game_code', '=', game).executeTakeFirstOrThrow();
      players.push({ id: m.id, game, username: row.username });
    }
    const since = new Date(Date.now() - 60_000);
    let played = 0;
    for (let i = 0; i < 50; i++) {
      for (const p of players) played += (await house.play(p.game, p.username, 20, 100)).played;
      // Small pages, so each importer writes several pages while the others do too.
      await Promise.all([a.services.activity.importAll(3), b.services.activity.importAll(3), a.services.activity.importAll(7), b.services.activity.importAll()]);
    }
    expect(played).toBe(50 * 20 * players.length);
    let rounds = 0;
    for (const p of players) rounds += (await a.services.activity.totals(p.id, since, null, null)).rounds;
    expect(rounds).toBe(played);
    expect(await b.services.activity.importAll()).toBe(0);
  }, 180_000);
});
