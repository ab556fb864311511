import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, login, registerMember, startApp, type TestApp } from './helpers';

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
