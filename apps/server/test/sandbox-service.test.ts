import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { ProviderError, withDeadline } from '../src/providers/games/game-provider';
import { GameReconciliation } from '../src/modules/wallet/game-reconciliation';
import { httpGameProvider } from '../src/providers/games/http-games';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const SECRET = 'test-sandbox-secret';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

let child: ChildProcess;
let base = '';

async function startSandbox(port: number): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/sandbox/src/main.ts'], {
    env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_GAME_SECRET: SECRET, SANDBOX_DATA_DIR: 'memory' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return proc;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('sandbox did not start');
}

const fault = (code: string, mode: string, latencyMs = 0) =>
  fetch(`${base}/control/games/${code}/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, latencyMs }) });

describe('sandbox service (its own process) and the HTTP transfer-wallet adapter', () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = await startSandbox(port);
  }, 20_000);
  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('answers GET /health and refuses unsigned, forged and stale calls with 401', async () => {
    expect((await (await fetch(`${base}/health`)).json()) as unknown).toMatchObject({ ok: true });
    const body = JSON.stringify({});
    const unsigned = await fetch(`${base}/games/JOKER/players`, { method: 'POST', body });
    expect(unsigned.status).toBe(401);
    const stale = String(Math.floor(Date.now() / 1000) - 301);
    const staleSig = createHmac('sha256', SECRET).update(`${stale}.${body}`).digest('hex');
    const old = await fetch(`${base}/games/JOKER/players`, { method: 'POST', body, headers: { 'x-timestamp': stale, 'x-signature': staleSig } });
    expect(old.status).toBe(401);
    const now = String(Math.floor(Date.now() / 1000));
    const forged = createHmac('sha256', 'another-secret').update(`${now}.${body}`).digest('hex');
    expect((await fetch(`${base}/games/JOKER/players`, { method: 'POST', body, headers: { 'x-timestamp': now, 'x-signature': forged } })).status).toBe(401);
  });

  it('opens a player, transfers in and out once per request id, and refuses what the balance does not cover', async () => {
    const game = httpGameProvider('JOKER', { url: base, secret: SECRET, timeoutMs: 2_000 });
    const { username } = await game.openAccount('m1', 'THB');
    expect(await game.balance(username)).toBe(0);
    expect(await game.transfer('in', username, 10_000, 'ref-in-1')).toEqual({ balance: 10_000 });
    // The same request id again: the first answer, nothing moves.
    expect(await game.transfer('in', username, 10_000, 'ref-in-1')).toEqual({ balance: 10_000 });
    expect(await game.balance(username)).toBe(10_000);
    expect(await game.transfer('out', username, 4_000, 'ref-out-1')).toEqual({ balance: 6_000 });
    await expect(game.transfer('out', username, 7_000, 'ref-out-2')).rejects.toMatchObject({ kind: 'rejected' });
    expect(await game.lookupTransfer('ref-out-2')).toBe('absent');
    expect(await game.lookupTransfer('ref-in-1')).toBe('applied');
    expect(await game.balance(username)).toBe(6_000);
    await expect(game.balance('nobody')).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('a transfer applied whose answer is dropped is in doubt, and "check transfer" settles it as applied', async () => {
    const game = httpGameProvider('PG', { url: base, secret: SECRET, timeoutMs: 2_000 });
    const { username } = await game.openAccount('m2', 'THB');
    await fault('PG', 'drop');
    const error = await game.transfer('in', username, 5_000, 'ref-drop-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('unknown');
    await fault('PG', 'none');
    expect(await game.lookupTransfer('ref-drop-1')).toBe('applied');
    expect(await game.balance(username)).toBe(5_000);
  });

  it('past the deadline a transfer is in doubt; one asked about before it arrived is absent and refused for ever', async () => {
    const game = withDeadline(httpGameProvider('SLOTXO', { url: base, secret: SECRET, timeoutMs: 300 }), 500);
    const { username } = await game.openAccount('m3', 'THB');
    await fault('SLOTXO', 'timeout');
    await expect(game.transfer('in', username, 1_000, 'ref-timeout-1')).rejects.toMatchObject({ kind: 'unknown' });
    await fault('SLOTXO', 'none');
    expect(await game.lookupTransfer('ref-never-sent')).toBe('absent');
    await expect(game.transfer('in', username, 1_000, 'ref-never-sent')).rejects.toMatchObject({ kind: 'rejected' });
    expect(await game.balance(username)).toBe(0);
  });

  it('a provider that is down or refusing is unreachable (nothing happened), and the breaker opens after repeated failures', async () => {
    const game = httpGameProvider('UFABET', { url: base, secret: SECRET, timeoutMs: 1_000, breakerFailures: 2, breakerOpenMs: 60_000 });
    const { username } = await game.openAccount('m4', 'THB');
    await fault('UFABET', 'refuse');
    await expect(game.transfer('in', username, 1_000, 'ref-refused-1')).rejects.toMatchObject({ kind: 'unreachable' });
    expect(await game.lookupTransfer('ref-refused-1').catch((e: unknown) => e)).toBeInstanceOf(ProviderError);
    await fault('UFABET', 'none');
    // Open: fails at once without asking, although the provider is back.
    await expect(game.balance(username)).rejects.toMatchObject({ kind: 'unreachable', message: expect.stringContaining('circuit open') as unknown });
    const down = httpGameProvider('IMI', { url: `http://127.0.0.1:${await freePort()}`, secret: SECRET, timeoutMs: 1_000 });
    await expect(down.transfer('in', 'x', 1_000, 'ref-down-1')).rejects.toMatchObject({ kind: 'unreachable' });
  });
});

describe('the game provider\'s member side, round feed and report (sandbox service)', () => {
  let proc: ChildProcess;
  let url = '';
  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${url}/control/games/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    proc = await startSandbox(port);
  }, 20_000);
  afterAll(() => {
    proc.kill('SIGTERM');
  });

  it('launches a player into the demo slot: its spins move the provider\'s balance and come back in the round feed, once each', async () => {
    const game = httpGameProvider('PG', { url, secret: SECRET, timeoutMs: 2_000, returnUrl: 'http://localhost:3000/user/home' });
    const login = await game.openAccount('m5', 'THB');
    await game.transfer('in', login.username, 10_000, 'ref-play-1');
    await expect(game.launch({ ...login, password: 'wrong' })).rejects.toMatchObject({ kind: 'rejected' });
    const { link } = await game.launch(login);
    expect(link).toMatch(new RegExp(`^${url}/games/PG/play\\?t=`));
    const pageHtml = await (await fetch(`${link}&lang=th`)).text();
    expect(pageHtml).toContain('ยอดเงิน');
    expect(pageHtml).toContain('href="http://localhost:3000/user/home"');
    const token = new URL(link).searchParams.get('t') ?? '';
    expect(await (await fetch(`${url}/games/PG/state?t=${token}`)).json()).toMatchObject({ game: 'PG', balance: 100 });
    const spin = (bet: unknown) => fetch(`${url}/games/PG/spin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t: token, bet }) });
    expect((await spin(7)).status).toBe(400);
    const spun = (await (await spin(10)).json()) as { balance: number; win: number };
    expect(spun.balance).toBe(100 - 10 + spun.win);
    expect((await fetch(`${url}/games/PG/state?t=forged`)).status).toBe(401);
    // A round played by the control API, dated last week.
    const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString();
    expect(await control('PG/spin', { username: login.username, stake: 1_000, multiplier: 0, settledAt: lastWeek })).toMatchObject({ status: 200, body: { balance: spun.balance * 100 - 1_000 } });
    expect((await control('PG/spin', { username: login.username, stake: 1_000_000, multiplier: 0 })).status).toBe(409);
    const first = await game.rounds(null, 1);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ username: login.username, stake: 1_000, win: spun.win * 100 });
    const rest = await game.rounds(first[0]?.cursor ?? null, 100);
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatchObject({ stake: 1_000, win: 0 });
    expect(rest[0]?.settledAt.toISOString()).toBe(lastWeek);
    expect(await game.rounds(rest[0]?.cursor ?? null, 100)).toEqual([]);
    // Other games' rounds are not in this game's feed.
    expect(await httpGameProvider('JOKER', { url, secret: SECRET, timeoutMs: 2_000 }).rounds(null, 100)).toEqual([]);
    expect(await control(`PG/players/${login.username}`)).toMatchObject({ status: 200, body: { balance: spun.balance * 100 - 1_000 } });
  });

  it('plays a kip player in kip: the page shows ₭ and kip stakes, a baht stake is refused', async () => {
    const game = httpGameProvider('JILI', { url, secret: SECRET, timeoutMs: 2_000 });
    const login = await game.openAccount('m7', 'LAK');
    await game.transfer('in', login.username, 2_000_000, 'ref-kip-1');
    const { link } = await game.launch(login);
    const pageHtml = await (await fetch(link)).text();
    expect(pageHtml).toMatch(/data-currency="LAK">…<\/strong> ₭/);
    expect(pageHtml).toContain('data-bet="1000"');
    expect(pageHtml).not.toContain('฿');
    const token = new URL(link).searchParams.get('t') ?? '';
    expect(await (await fetch(`${url}/games/JILI/state?t=${token}`)).json()).toMatchObject({ balance: 20_000, currency: 'LAK' });
    const spin = (bet: number) => fetch(`${url}/games/JILI/spin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t: token, bet }) });
    expect((await spin(10)).status).toBe(400);
    const spun = (await (await spin(1_000)).json()) as { balance: number; win: number };
    expect(spun.balance).toBe(20_000 - 1_000 + spun.win);
    // A currency the provider does not hold is refused when the player is opened.
    const raw = JSON.stringify({ currency: 'USD' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${url}/games/JILI/players`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': createHmac('sha256', SECRET).update(`${timestamp}.${raw}`).digest('hex') }, body: raw });
    expect(await res.json()).toEqual({ status: 'BAD_REQUEST', field: 'currency' });
  });

  it('a form-state game answers the login form its app posts; the lobby logs a player in by form', async () => {
    const game = httpGameProvider('UFABET', { url, secret: SECRET, timeoutMs: 2_000 });
    const login = await game.openAccount('m6', 'THB');
    const target = await game.launch(login);
    expect(target.event).toEqual({ action: `${url}/games/UFABET/login`, method: 'POST', fields: { username: login.username, password: login.password } });
    const form = new URLSearchParams({ username: login.username, password: login.password });
    const posted = await fetch(`${url}/games/UFABET/login`, { method: 'POST', body: form, redirect: 'manual' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toMatch(/^\/games\/UFABET\/play\?t=/);
    expect((await fetch(`${url}/games/UFABET/login`, { method: 'POST', body: new URLSearchParams({ username: login.username, password: 'x' }) })).status).toBe(401);
  });

  it('reports the transfers it applied in a period (the other side of reconciliation), and lists the faults set', async () => {
    const game = httpGameProvider('SLOTXO', { url, secret: SECRET, timeoutMs: 2_000 });
    const { username } = await game.openAccount('m7', 'THB');
    await game.transfer('in', username, 2_000, 'ref-report-1');
    await expect(game.transfer('out', username, 9_000, 'ref-report-2')).rejects.toMatchObject({ kind: 'rejected' });
    const body = JSON.stringify({ from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() });
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${url}/games/SLOTXO/report`, { method: 'POST', body, headers: { 'x-timestamp': ts, 'x-signature': createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex') } });
    const answer = (await res.json()) as { transfers: Array<{ requestId: string; amount: number; direction: string }> };
    expect(answer.transfers).toEqual([expect.objectContaining({ requestId: 'ref-report-1', amount: 2_000, direction: 'in', username })]);
    await fetch(`${url}/control/games/SLOTXO/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'delay', latencyMs: 5 }) });
    expect(await (await fetch(`${url}/control/faults`)).json()).toEqual({ faults: [{ system: 'games', key: 'SLOTXO', mode: 'delay', latencyMs: 5 }] });
    await fetch(`${url}/control/games/SLOTXO/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'none' }) });
  });
});

describe('the SMS gateway (sandbox service)', () => {
  let proc: ChildProcess;
  let url = '';
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    proc = await startSandbox(port);
  }, 20_000);
  afterAll(() => {
    proc.kill('SIGTERM');
  });
  const send = async (body: unknown, token = 'sandbox-sms-token') => {
    const res = await fetch(`${url}/sms/send`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const outbox = async (to: string) => ((await (await fetch(`${url}/control/sms/messages?to=${to}`)).json()) as { messages: Array<{ text: string; from: string }> }).messages;

  it('keeps what it is sent with the right token, newest first; refuses a wrong token and a malformed number', async () => {
    expect(await send({ to: '66812000001', from: 'Wallet', text: 'one' }, 'not-the-token')).toEqual({ status: 401, body: { status: 'UNAUTHORIZED' } });
    expect(await send({ to: '0812000001', from: 'Wallet', text: 'one' })).toEqual({ status: 400, body: { status: 'BAD_REQUEST', field: 'to' } });
    expect(await send({ to: '66812000001', from: 'GoldenWalletGoldenWalletGoldenWal', text: 'one' })).toEqual({ status: 400, body: { status: 'BAD_REQUEST', field: 'from' } });
    expect(await send({ to: '66812000001', from: 'Wallet', text: '' })).toEqual({ status: 400, body: { status: 'BAD_REQUEST', field: 'text' } });
    const first = await send({ to: '66812000001', from: 'Wallet', text: 'one' });
    expect(first).toMatchObject({ status: 200, body: { status: 'SENT', messageId: expect.stringMatching(/^SMS[0-9A-F]{16}$/) } });
    expect((await send({ to: '66812000001', from: 'Wallet', text: 'two' })).status).toBe(200);
    expect((await send({ to: '8562055512345', from: 'Wallet', text: 'ສະບາຍດີ' })).status).toBe(200);
    expect((await outbox('66812000001')).map((m) => m.text)).toEqual(['two', 'one']);
    expect((await outbox('8562055512345')).map((m) => m.text)).toEqual(['ສະບາຍດີ']);
  });

  it('the server sends one-time codes through it over HTTP; a refusing gateway answers OTP_SEND_FAIL and its code is not kept', async () => {
    const t = await startApp('embedded', { SANDBOX_URL: url, OTP_RESEND_SECONDS: '0' });
    try {
      const phone = '0812000002';
      expect((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } })).status).toBe(200);
      const [message] = await outbox('66812000002');
      expect(message?.text).toMatch(/\d{6}/);
      // Read back through the server's sandbox route (what the demo's SMS panel shows).
      const shown = await call<{ messages: Array<{ text: string }> }>(t.app, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
      expect(shown.body.messages[0]?.text).toBe(message?.text);
      await fetch(`${url}/control/sms/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'refuse' }) });
      try {
        expect(await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: '0812000003' } })).toMatchObject({ status: 502, body: { message: 'OTP_SEND_FAIL' } });
        expect(await outbox('66812000003')).toEqual([]);
      } finally {
        await fetch(`${url}/control/sms/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'none' }) });
      }
    } finally {
      await t.close();
    }
  });
});

describe.each(dbKinds)('transfers to a game over HTTP (%s)', (kind) => {
  let t: TestApp;
  let proc: ChildProcess;
  let url = '';
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    proc = await startSandbox(port);
    t = await startApp(kind, { GAME_PROVIDER: 'http', GAME_API_URL: url, GAME_API_SECRET: SECRET, RECONCILE_INTERVAL_MS: '0', PROVIDER_TIMEOUT_MS: '3000' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    proc.kill('SIGTERM');
  }, 60_000);

  it('a transfer whose answer is lost stays pending with its money in flight, and check-transfer settles it on both sides', async () => {
    const { phone, password } = await registerMember(t.app);
    const token = await login(t.app, phone, password);
    await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 500 } });
    expect((await call(t.app, 'GET', '/api/wallet/activate/PG', { token })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 100 } })).body).toMatchObject({ wallet: { amount: 400 }, game: { code: 'PG', amount: 100 } });
    await fetch(`${url}/control/games/PG/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'drop' }) });
    const lost = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 50 } });
    expect(lost).toMatchObject({ status: 504, body: { message: 'TRANSFER_PENDING' } });
    const pending = (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body;
    expect(pending.wallet.amount).toBe(350);
    await fetch(`${url}/control/games/PG/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'none' }) });
    expect(await t.services.transfers.reconcile(0)).toBe(1);
    const wallet = (await call<{ wallet: { amount: number }; slots: Array<{ code: string; amount: number }> }>(t.app, 'GET', '/api/wallet', { token })).body;
    expect(wallet.wallet.amount).toBe(350);
    const { username } = (await call<{ username: string }>(t.app, 'GET', '/api/wallet/account/PG', { token })).body;
    expect(await httpGameProvider('PG', { url, secret: SECRET, timeoutMs: 2_000 }).balance(username)).toBe(15_000);
    expect(wallet.slots.find((s) => s.code === 'PG')?.amount).toBe(150);
  }, 30_000);

  it('reconciles our transfers with each provider\'s report: one we never booked, an amount that differs, a provider that does not answer', async () => {
    type Recon = { ok: boolean; checked: string[]; unreachable: string[]; days: Array<{ code: string; currency: string; matched: number; open: number }>; items: Array<Record<string, unknown>> };
    const recon = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/operator/reconciliation/games', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      expect(res.statusCode).toBe(200);
      return res.json<Recon>();
    };
    const { phone, password, id } = await registerMember(t.app);
    const token = await login(t.app, phone, password);
    await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 500 } });
    expect((await call(t.app, 'GET', '/api/wallet/activate/PG', { token })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 100 } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'PG', to: 'WALLET', amount: 30 } })).status).toBe(200);
    const clean = await recon();
    expect(clean).toMatchObject({ ok: true, unreachable: [], items: [] });
    expect(clean.checked).toContain('PG');
    expect(clean.days.find((d) => d.code === 'PG')).toMatchObject({ currency: 'THB', open: 0 });
    expect(clean.days.find((d) => d.code === 'PG')?.matched).toBeGreaterThanOrEqual(2);

    // The provider applies a transfer we never asked for; one of ours is recorded with another amount; JOKER's report does not come back.
    const { username } = (await call<{ username: string }>(t.app, 'GET', '/api/wallet/account/PG', { token })).body;
    await httpGameProvider('PG', { url, secret: SECRET, timeoutMs: 2_000 }).transfer('in', username, 700, 'outside-ref-1');
    const db = t.services.database.db;
    const out = await db.selectFrom('operations').select('id').where('member_id', '=', id).where('type', '=', 'transfer').where('source', '=', 'PG').executeTakeFirstOrThrow();
    await db.updateTable('operations').set({ amount: 3_001 }).where('id', '=', out.id).execute();
    await fetch(`${url}/control/games/JOKER/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'refuse', on: ['report'] }) });
    try {
      const seen = await recon();
      expect(seen.ok).toBe(false);
      expect(seen.unreachable).toEqual(['JOKER']);
      expect(seen.checked).not.toContain('JOKER');
      expect(seen.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'UNKNOWN_TO_US', code: 'PG', reference: 'outside-ref-1', amount: null, currency: 'THB', memberId: id, theirs: { username, direction: 'in', amount: 7 } }),
          expect.objectContaining({ kind: 'AMOUNT_MISMATCH', code: 'PG', reference: out.id, amount: 30.01, currency: 'THB', memberId: id, theirs: { username, direction: 'out', amount: 30 } }),
        ]),
      );
      expect(seen.items).toHaveLength(2);
    } finally {
      await db.updateTable('operations').set({ amount: 3_000 }).where('id', '=', out.id).execute();
      await fetch(`${url}/control/games/JOKER/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'none' }) });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/operator/reconciliation/games?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).json()).toMatchObject({ message: 'KEY_INVALID' });
    // A provider whose report lists one of our references twice, and one that reports our PG transfer as its own.
    const pg = httpGameProvider('PG', { url, secret: SECRET, timeoutMs: 2_000 });
    const period = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 1_000) };
    const listed = await pg.report?.(new Date(0), new Date(Date.now() + 3_600_000)) ?? [];
    const mine = listed.find((x) => x.reference === out.id);
    expect(mine).toBeDefined();
    const faked = await new GameReconciliation(db, {
      codes: async () => ['PG', 'JILI'],
      report: async (code) => (code === 'PG' ? [...listed, ...(mine ? [mine] : [])] : mine ? [mine] : []),
    }, 'Asia/Bangkok').run(period);
    expect(faked.ok).toBe(false);
    expect(faked.items.filter((i) => i.reference === out.id).map((i) => `${String(i.kind)}:${String(i.code)}`).sort()).toEqual(['DUPLICATE_AT_PROVIDER:PG', 'UNKNOWN_TO_US:JILI']);
    // A game our transfers went to whose provider cannot be asked is named, never skipped.
    const unasked = await new GameReconciliation(db, { codes: async () => [], report: async (code) => (code === 'PG' ? listed : null) }, 'Asia/Bangkok').run(period);
    expect(unasked).toMatchObject({ checked: ['PG'], unreachable: [] });
    const none = await new GameReconciliation(db, { codes: async () => [], report: async () => null }, 'Asia/Bangkok').run(period);
    expect(none.ok).toBe(false);
    expect(none.unreachable).toContain('PG');
  }, 30_000);
});

describe('game provider configuration', () => {
  it('refuses GAME_PROVIDER=http without its URL or secret, naming the missing setting', () => {
    const base = { NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', GAME_PROVIDER: 'http' };
    expect(() => loadConfig({ ...base, GAME_API_SECRET: 'a-long-secret' })).toThrow(/GAME_API_URL: must be set/);
    expect(() => loadConfig({ ...base, GAME_API_URL: 'http://games.example' })).toThrow(/GAME_API_SECRET: must be set/);
    expect(() => loadConfig(base)).toThrow(ConfigError);
    expect(loadConfig({ ...base, GAME_API_URL: 'http://games.example', GAME_API_SECRET: 'a-long-secret' }).GAME_PROVIDER).toBe('http');
  });

  it('refuses a SANDBOX_PORT fetch would never connect to (4190 is a Fetch "bad port")', async () => {
    expect(() => loadConfig({ SANDBOX_PORT: '4190' })).toThrow(/SANDBOX_PORT: is a port fetch refuses/);
    expect(((await fetch('http://127.0.0.1:4190/').catch((e: unknown) => e)) as { cause?: { message?: string } }).cause?.message).toBe('bad port');
    expect(loadConfig({ SANDBOX_PORT: '5190' }).SANDBOX_PORT).toBe(5190);
  });

  it('refuses the sandbox SMS gateway with the sandbox service switched off', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'sandbox', SANDBOX_URL: 'off' })).toThrow(/SANDBOX_URL: must not be off when SMS_PROVIDER=sandbox/);
    expect(loadConfig({ SMS_PROVIDER: 'http', SMS_HTTP_URL: 'http://sms.example', SANDBOX_URL: 'off' }).SMS_PROVIDER).toBe('http');
  });
});
