import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../src/providers/payments/signing';
import { DEMO_SEAMLESS } from '../src/modules/seamless';
import { checkInvariants } from '../src/money/ledger';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const CODE = DEMO_SEAMLESS.code;
const SECRET = DEMO_SEAMLESS.secret;
let seq = 0;
const txId = (what: string) => `${what}-${Date.now()}-${++seq}`;

interface Answer {
  status: string;
  balance: number;
  currency: string;
  transactionId: string | null;
}

/** The seamless-wallet API (issue 36) as an aggregator calls it: signed, repeated, reordered, forged. */
describe.each(dbKinds)('the seamless wallet on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (action: string, body: Record<string, unknown>, sign: { secret?: string; at?: number; signature?: string } = {}) => {
    const raw = JSON.stringify(body);
    const at = sign.at ?? Math.floor(Date.now() / 1000);
    const signature = sign.signature ?? signWebhook(sign.secret ?? SECRET, at, raw);
    return call<Answer>(t.app, 'POST', `/api/seamless/${CODE}/${action}`, { rawBody: raw, headers: { 'content-type': 'application/json', 'x-timestamp': String(at), 'x-signature': signature } });
  };

  /** A member with 500 baht in the wallet and an account at the seamless game: their player id there. */
  async function player(): Promise<{ id: string; playerId: string; token: string }> {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    expect((await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 500 } })).status).toBe(200);
    expect((await call(t.app, 'GET', `/api/wallet/activate/${CODE}`, { token })).status).toBe(200);
    const row = await t.services.database.db.selectFrom('member_games').select('username').where('member_id', '=', m.id).where('game_code', '=', CODE).executeTakeFirstOrThrow();
    return { id: m.id, playerId: row.username, token };
  }

  it('a bet sent 5 times at once with one transaction id debits once and every answer is the first', async () => {
    const p = await player();
    const balance = await send('balance', { requestId: txId('r'), playerId: p.playerId, currency: 'THB' });
    expect(balance).toMatchObject({ status: 200, body: { status: 'OK', balance: 50_000, currency: 'THB', transactionId: null } });
    const bet = { requestId: txId('r'), playerId: p.playerId, currency: 'THB', amount: 10_000, transactionId: txId('bet'), roundId: txId('round') };
    const answers = await Promise.all(Array.from({ length: 5 }, () => send('bet', bet)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const a of answers) expect(a.body).toEqual({ status: 'OK', balance: 40_000, currency: 'THB', transactionId: bet.transactionId });
    // Later, after other money moved, the repeat still answers the first answer.
    await send('win', { requestId: txId('r'), playerId: p.playerId, currency: 'THB', amount: 2_500, transactionId: txId('win'), roundId: bet.roundId });
    expect((await send('bet', bet)).body).toEqual({ status: 'OK', balance: 40_000, currency: 'THB', transactionId: bet.transactionId });
    expect((await send('balance', { requestId: txId('r'), playerId: p.playerId, currency: 'THB' })).body.balance).toBe(42_500);
    // The round counts as play (turnover, refunds, invites): stake and win as the bets and wins said.
    const round = await t.services.database.db.selectFrom('game_rounds').selectAll().where('provider', '=', CODE).where('round_id', '=', bet.roundId).executeTakeFirstOrThrow();
    expect({ member: round.member_id, stake: Number(round.stake), win: Number(round.win) }).toEqual({ member: p.id, stake: 10_000, win: 2_500 });
  });

  it('a bet over the balance is refused without moving money; a rollback returns a bet once', async () => {
    const p = await player();
    const tooMuch = await send('bet', { requestId: txId('r'), playerId: p.playerId, currency: 'THB', amount: 50_001, transactionId: txId('bet'), roundId: 'r1' });
    expect(tooMuch.body).toMatchObject({ status: 'INSUFFICIENT_FUNDS', balance: 50_000 });
    const bet = { requestId: txId('r'), playerId: p.playerId, currency: 'THB', amount: 20_000, transactionId: txId('bet'), roundId: txId('round') };
    expect((await send('bet', bet)).body.balance).toBe(30_000);
    const rollback = { requestId: txId('r'), playerId: p.playerId, currency: 'THB', transactionId: txId('rb'), referenceTransactionId: bet.transactionId, roundId: bet.roundId };
    const undone = await Promise.all([send('rollback', rollback), send('rollback', rollback), send('rollback', { ...rollback, transactionId: txId('rb2') })]);
    expect(undone.map((a) => [a.status, a.body.status])).toEqual([[200, 'OK'], [200, 'OK'], [200, 'OK']]);
    expect((await send('balance', { requestId: txId('r'), playerId: p.playerId, currency: 'THB' })).body.balance).toBe(50_000);
    // The bet again after its rollback: its first answer, nothing moves.
    expect((await send('bet', bet)).body).toMatchObject({ status: 'OK', balance: 30_000 });
    expect((await send('balance', { requestId: txId('r'), playerId: p.playerId, currency: 'THB' })).body.balance).toBe(50_000);
    const round = await t.services.database.db.selectFrom('game_rounds').select('stake').where('provider', '=', CODE).where('round_id', '=', bet.roundId).executeTakeFirstOrThrow();
    expect(Number(round.stake)).toBe(0);
  });

  it('a rollback before its bet answers OK and the bet, arriving later, is refused ROLLED_BACK; a win of an unknown round is booked', async () => {
    const p = await player();
    const betId = txId('bet');
    const early = await send('rollback', { requestId: txId('r'), playerId: p.playerId, currency: 'THB', transactionId: txId('rb'), referenceTransactionId: betId });
    expect(early.body).toMatchObject({ status: 'OK', balance: 50_000 });
    const late = { requestId: txId('r'), playerId: p.playerId, currency: 'THB', amount: 5_000, transactionId: betId, roundId: txId('round') };
    expect((await send('bet', late)).body).toEqual({ status: 'ROLLED_BACK', balance: 50_000, currency: 'THB', transactionId: betId });
    expect((await send('bet', late)).body.status).toBe('ROLLED_BACK');
    const win = await send('win', { requestId: txId('r'), playerId: p.playerId, currency: 'THB', amount: 1_234, transactionId: txId('win'), roundId: 'never-seen-round' + txId('x') });
    expect(win.body).toMatchObject({ status: 'OK', balance: 51_234 });
    expect((await send('rollback', { requestId: txId('r'), playerId: p.playerId, currency: 'THB', transactionId: txId('rb') })).status).toBe(400);
  });

  it('refuses forged and stale calls with 401 and moves nothing; names unknown players and providers', async () => {
    const p = await player();
    const bet = { requestId: txId('r'), playerId: p.playerId, currency: 'THB', amount: 1_000, transactionId: txId('bet'), roundId: 'r' };
    expect(await send('bet', bet, { secret: 'not-the-secret-of-this-provider' })).toMatchObject({ status: 401, body: { status: 'INVALID_SIGNATURE' } });
    expect(await send('bet', bet, { at: Math.floor(Date.now() / 1000) - 301 })).toMatchObject({ status: 401, body: { status: 'INVALID_SIGNATURE' } });
    expect(await send('bet', bet, { signature: '' })).toMatchObject({ status: 401, body: { status: 'INVALID_SIGNATURE' } });
    // A body changed after signing.
    const raw = JSON.stringify(bet);
    const at = Math.floor(Date.now() / 1000);
    const tampered = await call(t.app, 'POST', `/api/seamless/${CODE}/bet`, { rawBody: raw.replace('1000', '9000'), headers: { 'content-type': 'application/json', 'x-timestamp': String(at), 'x-signature': signWebhook(SECRET, at, raw) } });
    expect(tampered).toMatchObject({ status: 401, body: { status: 'INVALID_SIGNATURE' } });
    expect((await send('balance', { requestId: txId('r'), playerId: p.playerId, currency: 'THB' })).body.balance).toBe(50_000);
    expect((await send('bet', { ...bet, playerId: 'nobody-here' })).body).toMatchObject({ status: 'PLAYER_NOT_FOUND' });
    expect((await send('bet', { ...bet, currency: 'LAK' })).body).toEqual({ status: 'CURRENCY_MISMATCH' });
    expect((await send('bet', { ...bet, amount: -5 })).body).toEqual({ status: 'INVALID_REQUEST' });
    const other = await call(t.app, 'POST', '/api/seamless/PG/bet', { rawBody: raw, headers: { 'content-type': 'application/json', 'x-timestamp': String(at), 'x-signature': signWebhook(SECRET, at, raw) } });
    expect(other).toMatchObject({ status: 404, body: { status: 'PROVIDER_NOT_FOUND' } });
    expect(await checkInvariants(t.services.database.db)).toMatchObject({ ok: true });
  });

  /** The sandbox service's aggregator plays rounds at CIRCUS by calling our seamless API over HTTP. */
  const aggregator = async (path: string, body?: unknown, method = 'POST') => {
    const url = t.sandbox?.url ?? '';
    const res = await fetch(`${url}/control/aggregator/${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    return (await res.json()) as Record<string, { answer: { status: string; balance: number } | null } | unknown>;
  };
  const fault = (mode: string) => fetch(`${t.sandbox?.url ?? ''}/control/aggregator/${CODE}/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode }) });
  const wallet = async (token: string) => (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body.wallet.amount;

  it('shows the seamless game without a balance of its own and refuses transfers into it, moving nothing', async () => {
    const p = await player();
    const wallet = await call<{ wallet: { amount: number }; slots: Array<{ code: string; seamless?: boolean; amount: number; isActive: boolean }> }>(t.app, 'GET', '/api/wallet', { token: p.token });
    expect(wallet.body.slots.find((g) => g.code === CODE)).toMatchObject({ isActive: true, seamless: true, amount: 0 });
    expect(wallet.body.slots.find((g) => g.code === 'PG')?.seamless).toBeUndefined();
    for (const body of [{ from: 'WALLET', to: CODE, amount: 100 }, { from: 'PG', to: CODE, amount: 100 }]) {
      expect(await call(t.app, 'POST', '/api/wallet/transfer', { token: p.token, body })).toMatchObject({ status: 400, body: { message: 'TRANSFER_SEAMLESS' } });
    }
    // Out of it is not refused as such (a balance from before the game became seamless comes home): here there is none.
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token: p.token, body: { from: CODE, to: 'WALLET', amount: 100 } })).body).not.toMatchObject({ message: 'TRANSFER_SEAMLESS' });
    expect(await call(t.app, 'POST', '/api/wallet/transferAll', { token: p.token, body: { to: CODE } })).toMatchObject({ status: 400, body: { message: 'TRANSFER_SEAMLESS' } });
    expect((await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token: p.token })).body.wallet.amount).toBe(500);
  });

  it('the sandbox\'s demo slot plays a seamless game through the aggregator: its balance is the wallet, its spins move the wallet', async () => {
    const p = await player();
    const login = (await call<{ username: string; password: string }>(t.app, 'GET', `/api/wallet/account/${CODE}`, { token: p.token })).body;
    const launched = await call<{ link: string }>(t.app, 'GET', `/api/autoLogin/${CODE.toLowerCase()}/${login.username}/${login.password}`, { token: p.token });
    const link = new URL(launched.body.link);
    const token = link.searchParams.get('t') ?? '';
    const state = (await (await fetch(`${link.origin}/games/${CODE}/state?t=${token}`)).json()) as { balance: number };
    expect(state.balance).toBe(500);
    const spun = await fetch(`${link.origin}/games/${CODE}/spin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t: token, bet: 10 }) });
    const spin = (await spun.json()) as { balance: number; win: number };
    expect(spun.status).toBe(200);
    // The wallet moved by the stake and the win, as the operator answered; nothing sits at the game.
    expect(spin.balance).toBeCloseTo(500 - 10 + spin.win, 2);
    expect(await wallet(p.token)).toBeCloseTo(spin.balance, 2);
    const after = (await call<{ slots: Array<{ code: string; amount: number }> }>(t.app, 'GET', '/api/wallet', { token: p.token })).body.slots.find((g) => g.code === CODE);
    expect(after?.amount).toBe(0);
  });

  it('the sandbox aggregator\'s rounds move the wallet itself over the network: duplicated calls once, a reordered bet after its rollback refused', async () => {
    const p = await player();
    const first = await aggregator(`${CODE}/round`, { playerId: p.playerId, currency: 'THB', stake: 10_000, win: 4_000 });
    expect(first).toMatchObject({ bet: { answer: { status: 'OK', balance: 40_000 } }, win: { answer: { status: 'OK', balance: 44_000 } } });
    expect(await wallet(p.token)).toBe(440);
    // Every call sent twice (a network that repeats): moved once.
    await fault('duplicate');
    try {
      const twice = await aggregator(`${CODE}/round`, { playerId: p.playerId, currency: 'THB', stake: 5_000, win: 0, repeat: 3 });
      expect(twice).toMatchObject({ bet: { answer: { status: 'OK', balance: 39_000 } } });
    } finally {
      await fault('none');
    }
    expect(await wallet(p.token)).toBe(390);
    // Reordered: the bet is held back, gets no answer, so the aggregator rolls it back; the rollback
    // arrives first (a rollback of a bet never seen is OK and remembered), the bet after it is refused.
    await fault('reorder');
    try {
      const reordered = await aggregator(`${CODE}/round`, { playerId: p.playerId, currency: 'THB', stake: 7_000, win: 0 });
      expect(reordered).toMatchObject({ bet: { answer: null }, rollback: { answer: { status: 'OK', balance: 39_000 } } });
    } finally {
      await fault('none');
    }
    expect(await wallet(p.token)).toBe(390);
    const book = (await aggregator(`${CODE}/transactions`, undefined, 'GET')) as unknown as { transactions: Array<{ transactionId: string; action: string; answer: { status: string } | null }> };
    const ours = await t.services.database.db.selectFrom('seamless_transactions').select(['transaction_id', 'action', 'applied']).where('provider', '=', CODE).where('transaction_id', 'in', book.transactions.map((x) => x.transactionId)).execute();
    // Every transaction the aggregator was answered OK for is applied once on our side; the reordered bet is our tombstone.
    // (A rollback answered OK moved money only if its bet had: the reordered one moved nothing, and is recorded.)
    for (const txn of book.transactions.filter((x) => x.answer?.status === 'OK')) expect(ours.filter((o) => o.transaction_id === txn.transactionId && (o.applied || txn.action === 'rollback'))).toHaveLength(1);
    const reorderedBet = book.transactions.find((x) => x.action === 'bet' && x.answer === null);
    expect(ours.find((o) => o.transaction_id === reorderedBet?.transactionId)).toMatchObject({ applied: false });
    expect((await checkInvariants(t.services.database.db)).ok).toBe(true);

    // The game reconciliation asks the aggregator's report: its transactions match ours one to one;
    // a bet sent to our API that the aggregator never made is NOT_AT_PROVIDER.
    const direct = { requestId: txId('r'), playerId: p.playerId, currency: 'THB', amount: 1_000, transactionId: txId('direct'), roundId: txId('round') };
    expect((await send('bet', direct)).body.status).toBe('OK');
    const recon = await call<{ checked: string[]; unreachable: string[]; items: Array<{ kind: string; code: string; reference: string }> }>(t.app, 'GET', '/api/operator/reconciliation/games', { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(recon.body.checked).toContain(CODE);
    const circus = recon.body.items.filter((i) => i.code === CODE);
    for (const txn of book.transactions.filter((x) => x.answer?.status === 'OK')) expect(circus.find((i) => i.reference === txn.transactionId)).toBeUndefined();
    expect(circus.find((i) => i.reference === direct.transactionId)).toMatchObject({ kind: 'NOT_AT_PROVIDER' });
  });
});

describe('SEAMLESS_SECRETS', () => {
  it('reads CODE:secret pairs and stops the start on a malformed one, naming its code and never its secret', async () => {
    const { parseSeamlessSecrets } = await import('../src/modules/seamless');
    expect([...parseSeamlessSecrets(' amb:0123456789abcdef , PG:fedcba9876543210fedcba ')]).toEqual([['AMB', '0123456789abcdef'], ['PG', 'fedcba9876543210fedcba']]);
    expect(() => parseSeamlessSecrets('AMB:short')).toThrow(/AMB/);
    expect(() => parseSeamlessSecrets('AMB:short')).not.toThrow(/short/);
    expect(() => parseSeamlessSecrets('no-colon-here')).toThrow(/SEAMLESS_SECRETS/);
  });
});
