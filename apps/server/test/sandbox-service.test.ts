import { spawn, type ChildProcess } from 'node:child_process';
import { sameConnection } from '../src/db/database';
import type { WalletDb } from '../src/modules/wallet/tables';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { ProviderError, withDeadline } from '../src/providers/games/game-provider';
import { GameReconciliation } from '../src/modules/wallet/game-reconciliation';
import { bankOf, ewalletOf, gatewayOf } from '../src/modules/deposit';
import { payoutProviderFor } from '../src/modules/wallet';
import { httpGameProvider } from '../src/providers/games/http-games';
import { EWalletUnavailable, VoucherRefused } from '../src/providers/ewallet/ewallet';
import { HttpEWallet } from '../src/providers/ewallet/http-ewallet';
import { verifyWebhook } from '../src/providers/payments/signing';
import { buildThaiQr, crc16ccitt, parseThaiQr, tlv } from '../src/lib/emvco';
import { GatewayError } from '../src/providers/payments/gateway';
import { HttpGateway } from '../src/providers/payments/http-gateway';
import { HttpBank } from '../src/providers/bank/http-bank';
import { HttpPayouts } from '../src/providers/bank/http-payouts';
import { PayoutUnavailable, PayoutUnknown } from '../src/providers/bank/payout';
import { BankLookupError } from '../src/providers/bank/bank';
import { startSandbox as startSandboxService } from '../../sandbox/src/server';
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

/** A sandbox service process of the describe block's own: started before its tests (and before the block's own beforeAll), stopped after. */
function ownSandbox(): { readonly url: string } {
  const sandbox = { url: '' };
  let proc: ChildProcess | undefined;
  beforeAll(async () => {
    const port = await freePort();
    sandbox.url = `http://127.0.0.1:${port}`;
    proc = await startSandbox(port);
  }, 20_000);
  afterAll(() => {
    proc?.kill('SIGTERM');
  });
  return sandbox;
}

describe('sandbox service (its own process) and the HTTP transfer-wallet adapter', () => {
  const sandbox = ownSandbox();
  const fault = (code: string, mode: string, latencyMs = 0) =>
    fetch(`${sandbox.url}/control/games/${code}/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode, latencyMs }) });

  it('answers GET /health and refuses unsigned, forged and stale calls with 401', async () => {
    expect((await (await fetch(`${sandbox.url}/health`)).json()) as unknown).toMatchObject({ ok: true });
    const body = JSON.stringify({});
    const unsigned = await fetch(`${sandbox.url}/games/JOKER/players`, { method: 'POST', body });
    expect(unsigned.status).toBe(401);
    const stale = String(Math.floor(Date.now() / 1000) - 301);
    const staleSig = createHmac('sha256', SECRET).update(`${stale}.${body}`).digest('hex');
    const old = await fetch(`${sandbox.url}/games/JOKER/players`, { method: 'POST', body, headers: { 'x-timestamp': stale, 'x-signature': staleSig } });
    expect(old.status).toBe(401);
    const now = String(Math.floor(Date.now() / 1000));
    const forged = createHmac('sha256', 'another-secret').update(`${now}.${body}`).digest('hex');
    expect((await fetch(`${sandbox.url}/games/JOKER/players`, { method: 'POST', body, headers: { 'x-timestamp': now, 'x-signature': forged } })).status).toBe(401);
  });

  it('opens a player, transfers in and out once per request id, and refuses what the balance does not cover', async () => {
    const game = httpGameProvider('JOKER', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 });
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
    const game = httpGameProvider('PG', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 });
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
    const game = withDeadline(httpGameProvider('SLOTXO', { url: sandbox.url, secret: SECRET, timeoutMs: 300 }), 500);
    const { username } = await game.openAccount('m3', 'THB');
    await fault('SLOTXO', 'timeout');
    await expect(game.transfer('in', username, 1_000, 'ref-timeout-1')).rejects.toMatchObject({ kind: 'unknown' });
    await fault('SLOTXO', 'none');
    expect(await game.lookupTransfer('ref-never-sent')).toBe('absent');
    await expect(game.transfer('in', username, 1_000, 'ref-never-sent')).rejects.toMatchObject({ kind: 'rejected' });
    expect(await game.balance(username)).toBe(0);
  });

  it('a redirect is not an answer: a transfer answered 3xx is in doubt (asked about), any other call unreachable', async () => {
    // A provider address that redirects every POST to the real one (a moved API, a proxy): the
    // POST is not followed, and what happened to the transfer is asked, never assumed.
    const redirecting = http.createServer((request, response) => {
      response.writeHead(307, { location: `${sandbox.url}${request.url ?? '/'}` });
      response.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const address = redirecting.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const game = httpGameProvider('PG', { url: `http://127.0.0.1:${port}`, secret: SECRET, timeoutMs: 2_000, breakerFailures: 100 });
      await expect(game.transfer('in', 'anyone', 1_000, 'ref-redirect-1')).rejects.toMatchObject({ kind: 'unknown' });
      await expect(game.balance('anyone')).rejects.toMatchObject({ kind: 'unreachable' });
      // Nothing reached the provider.
      expect(await httpGameProvider('PG', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 }).lookupTransfer('ref-redirect-1')).toBe('absent');
    } finally {
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });

  it('a provider that is down or refusing is unreachable (nothing happened), and the breaker opens after repeated failures', async () => {
    const game = httpGameProvider('UFABET', { url: sandbox.url, secret: SECRET, timeoutMs: 1_000, breakerFailures: 2, breakerOpenMs: 60_000 });
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
  const sandbox = ownSandbox();
  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}/control/games/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('launches a player into the demo slot: its spins move the provider\'s balance and come back in the round feed, once each', async () => {
    const game = httpGameProvider('PG', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000, returnUrl: 'http://localhost:3000/user/home' });
    const login = await game.openAccount('m5', 'THB');
    await game.transfer('in', login.username, 10_000, 'ref-play-1');
    await expect(game.launch({ ...login, password: 'wrong' })).rejects.toMatchObject({ kind: 'rejected' });
    const { link } = await game.launch(login);
    expect(link).toMatch(new RegExp(`^${sandbox.url}/games/PG/play\\?t=`));
    const pageHtml = await (await fetch(`${link}&lang=th`)).text();
    expect(pageHtml).toContain('ยอดเงิน');
    expect(pageHtml).toContain('href="http://localhost:3000/user/home"');
    const token = new URL(link).searchParams.get('t') ?? '';
    expect(await (await fetch(`${sandbox.url}/games/PG/state?t=${token}`)).json()).toMatchObject({ game: 'PG', balance: 100 });
    const spin = (bet: unknown) => fetch(`${sandbox.url}/games/PG/spin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t: token, bet }) });
    expect((await spin(7)).status).toBe(400);
    const spun = (await (await spin(10)).json()) as { balance: number; win: number };
    expect(spun.balance).toBe(100 - 10 + spun.win);
    expect((await fetch(`${sandbox.url}/games/PG/state?t=forged`)).status).toBe(401);
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
    expect(await httpGameProvider('JOKER', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 }).rounds(null, 100)).toEqual([]);
    expect(await control(`PG/players/${login.username}`)).toMatchObject({ status: 200, body: { balance: spun.balance * 100 - 1_000 } });
  });

  it('plays a kip player in kip: the page shows ₭ and kip stakes, a baht stake is refused', async () => {
    const game = httpGameProvider('JILI', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 });
    const login = await game.openAccount('m7', 'LAK');
    await game.transfer('in', login.username, 2_000_000, 'ref-kip-1');
    const { link } = await game.launch(login);
    const pageHtml = await (await fetch(link)).text();
    expect(pageHtml).toMatch(/data-currency="LAK">…<\/strong> ₭/);
    expect(pageHtml).toContain('data-bet="1000"');
    expect(pageHtml).not.toContain('฿');
    const token = new URL(link).searchParams.get('t') ?? '';
    expect(await (await fetch(`${sandbox.url}/games/JILI/state?t=${token}`)).json()).toMatchObject({ balance: 20_000, currency: 'LAK' });
    const spin = (bet: number) => fetch(`${sandbox.url}/games/JILI/spin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t: token, bet }) });
    expect((await spin(10)).status).toBe(400);
    const spun = (await (await spin(1_000)).json()) as { balance: number; win: number };
    expect(spun.balance).toBe(20_000 - 1_000 + spun.win);
    // A currency the provider does not hold is refused when the player is opened.
    const raw = JSON.stringify({ currency: 'USD' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${sandbox.url}/games/JILI/players`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': createHmac('sha256', SECRET).update(`${timestamp}.${raw}`).digest('hex') }, body: raw });
    expect(await res.json()).toEqual({ status: 'BAD_REQUEST', field: 'currency' });
  });

  it('a form-state game answers the login form its app posts; the lobby logs a player in by form', async () => {
    const game = httpGameProvider('UFABET', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 });
    const login = await game.openAccount('m6', 'THB');
    const target = await game.launch(login);
    expect(target.event).toEqual({ action: `${sandbox.url}/games/UFABET/login`, method: 'POST', fields: { username: login.username, password: login.password } });
    const form = new URLSearchParams({ username: login.username, password: login.password });
    const posted = await fetch(`${sandbox.url}/games/UFABET/login`, { method: 'POST', body: form, redirect: 'manual' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toMatch(/^\/games\/UFABET\/play\?t=/);
    expect((await fetch(`${sandbox.url}/games/UFABET/login`, { method: 'POST', body: new URLSearchParams({ username: login.username, password: 'x' }) })).status).toBe(401);
  });

  it('reports the transfers it applied in a period (the other side of reconciliation), and lists the faults set', async () => {
    const game = httpGameProvider('SLOTXO', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 });
    const { username } = await game.openAccount('m7', 'THB');
    await game.transfer('in', username, 2_000, 'ref-report-1');
    await expect(game.transfer('out', username, 9_000, 'ref-report-2')).rejects.toMatchObject({ kind: 'rejected' });
    const body = JSON.stringify({ from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() });
    const ts = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${sandbox.url}/games/SLOTXO/report`, { method: 'POST', body, headers: { 'x-timestamp': ts, 'x-signature': createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex') } });
    const answer = (await res.json()) as { transfers: Array<{ requestId: string; amount: number; direction: string }> };
    expect(answer.transfers).toEqual([expect.objectContaining({ requestId: 'ref-report-1', amount: 2_000, direction: 'in', username })]);
    await fetch(`${sandbox.url}/control/games/SLOTXO/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'delay', latencyMs: 5 }) });
    expect(await (await fetch(`${sandbox.url}/control/faults`)).json()).toEqual({ faults: [{ system: 'games', key: 'SLOTXO', mode: 'delay', latencyMs: 5 }] });
    await fetch(`${sandbox.url}/control/games/SLOTXO/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'none' }) });
  });
});

describe('the SMS gateway (sandbox service)', () => {
  const sandbox = ownSandbox();
  const send = async (body: unknown, token = 'sandbox-sms-token') => {
    const res = await fetch(`${sandbox.url}/sms/send`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const outbox = async (to: string) => ((await (await fetch(`${sandbox.url}/control/sms/messages?to=${to}`)).json()) as { messages: Array<{ text: string; from: string }> }).messages;

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
    const t = await startApp('embedded', { SANDBOX_URL: sandbox.url, OTP_RESEND_SECONDS: '0' });
    try {
      const phone = '0812000002';
      expect((await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: phone } })).status).toBe(200);
      const [message] = await outbox('66812000002');
      expect(message?.text).toMatch(/\d{6}/);
      // Read back through the server's sandbox route (what the demo's SMS panel shows).
      const shown = await call<{ messages: Array<{ text: string }> }>(t.app, 'GET', `/api/sandbox/sms?phoneNumber=${phone}`);
      expect(shown.body.messages[0]?.text).toBe(message?.text);
      await fetch(`${sandbox.url}/control/sms/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'refuse' }) });
      try {
        expect(await call(t.app, 'POST', '/api/otp/send', { body: { phoneNumber: '0812000003' } })).toMatchObject({ status: 502, body: { message: 'OTP_SEND_FAIL' } });
        expect(await outbox('66812000003')).toEqual([]);
      } finally {
        await fetch(`${sandbox.url}/control/sms/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'none' }) });
      }
    } finally {
      await t.close();
    }
  });
});

describe.each(dbKinds)('transfers to a game over HTTP (%s)', (kind) => {
  const sandbox = ownSandbox();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { GAME_PROVIDER: 'http', GAME_API_URL: sandbox.url, GAME_API_SECRET: SECRET, RECONCILE_INTERVAL_MS: '0', PROVIDER_TIMEOUT_MS: '3000' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  }, 60_000);

  it('a transfer whose answer is lost stays pending with its money in flight, and check-transfer settles it on both sides', async () => {
    const { phone, password } = await registerMember(t.app);
    const token = await login(t.app, phone, password);
    await call(t.app, 'POST', '/api/wallet/add', { token, body: { amount: 500 } });
    expect((await call(t.app, 'GET', '/api/wallet/activate/PG', { token })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 100 } })).body).toMatchObject({ wallet: { amount: 400 }, game: { code: 'PG', amount: 100 } });
    await fetch(`${sandbox.url}/control/games/PG/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'drop' }) });
    const lost = await call(t.app, 'POST', '/api/wallet/transfer', { token, body: { from: 'WALLET', to: 'PG', amount: 50 } });
    expect(lost).toMatchObject({ status: 504, body: { message: 'TRANSFER_PENDING' } });
    const pending = (await call<{ wallet: { amount: number } }>(t.app, 'GET', '/api/wallet', { token })).body;
    expect(pending.wallet.amount).toBe(350);
    await fetch(`${sandbox.url}/control/games/PG/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'none' }) });
    expect(await t.services.transfers.reconcile(0)).toBe(1);
    const wallet = (await call<{ wallet: { amount: number }; slots: Array<{ code: string; amount: number }> }>(t.app, 'GET', '/api/wallet', { token })).body;
    expect(wallet.wallet.amount).toBe(350);
    const { username } = (await call<{ username: string }>(t.app, 'GET', '/api/wallet/account/PG', { token })).body;
    expect(await httpGameProvider('PG', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 }).balance(username)).toBe(15_000);
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
    await httpGameProvider('PG', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 }).transfer('in', username, 700, 'outside-ref-1');
    const db = t.services.database.db;
    const out = await db.selectFrom('operations').select('id').where('member_id', '=', id).where('type', '=', 'transfer').where('source', '=', 'PG').executeTakeFirstOrThrow();
    await db.updateTable('operations').set({ amount: 3_001 }).where('id', '=', out.id).execute();
    await fetch(`${sandbox.url}/control/games/JOKER/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'refuse', on: ['report'] }) });
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
      await fetch(`${sandbox.url}/control/games/JOKER/fault`, { method: 'PUT', body: JSON.stringify({ mode: 'none' }) });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/operator/reconciliation/games?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).json()).toMatchObject({ message: 'KEY_INVALID' });
    // A provider whose report lists one of our references twice, and one that reports our PG transfer as its own.
    const pg = httpGameProvider('PG', { url: sandbox.url, secret: SECRET, timeoutMs: 2_000 });
    const period = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 1_000) };
    const listed = await pg.report?.(new Date(0), new Date(Date.now() + 3_600_000)) ?? [];
    const mine = listed.find((x) => x.reference === out.id);
    expect(mine).toBeDefined();
    const faked = await new GameReconciliation(sameConnection<WalletDb>(db), {
      codes: async () => ['PG', 'JILI'],
      report: async (code) => (code === 'PG' ? [...listed, ...(mine ? [mine] : [])] : mine ? [mine] : []),
    }, 'Asia/Bangkok', t.services.money.seamless).run(period);
    expect(faked.ok).toBe(false);
    expect(faked.items.filter((i) => i.reference === out.id).map((i) => `${String(i.kind)}:${String(i.code)}`).sort()).toEqual(['DUPLICATE_AT_PROVIDER:PG', 'UNKNOWN_TO_US:JILI']);
    // A game our transfers went to whose provider cannot be asked is named, never skipped.
    const unasked = await new GameReconciliation(sameConnection<WalletDb>(db), { codes: async () => [], report: async (code) => (code === 'PG' ? listed : null) }, 'Asia/Bangkok', t.services.money.seamless).run(period);
    expect(unasked).toMatchObject({ checked: ['PG'], unreachable: [] });
    const none = await new GameReconciliation(sameConnection<WalletDb>(db), { codes: async () => [], report: async () => null }, 'Asia/Bangkok', t.services.money.seamless).run(period);
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

  it('refuses EWALLET_PROVIDER=http or PAYMENT_GATEWAY=http without its URL or secret, and the sandbox e-wallet or gateways with the sandbox service off, naming the setting', () => {
    const base = { NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', EWALLET_PROVIDER: 'http' };
    expect(() => ewalletOf(loadConfig({ ...base, EWALLET_API_SECRET: 'a-long-secret' }))).toThrow(/EWALLET_API_URL \(the e-wallet API's base URL\): must be set/);
    expect(() => ewalletOf(loadConfig({ ...base, EWALLET_API_URL: 'http://wallet.example' }))).toThrow(/EWALLET_API_SECRET \(the secret of its signed calls\): must be set/);
    expect(() => ewalletOf(loadConfig(base))).toThrow(ConfigError);
    expect(ewalletOf(loadConfig({ ...base, EWALLET_API_URL: 'http://wallet.example', EWALLET_API_SECRET: 'a-long-secret' })).ewallet).toBeInstanceOf(HttpEWallet);
    expect(() => ewalletOf(loadConfig({ EWALLET_PROVIDER: 'sandbox', SMS_PROVIDER: 'http', SMS_HTTP_URL: 'http://sms.example', SANDBOX_URL: 'off' }))).toThrow(/SANDBOX_URL: must not be off when EWALLET_PROVIDER=sandbox/);
    expect(ewalletOf(loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'sandbox' })).ewallet).toBeNull();
    // The QR gateways alike.
    const gateways = { NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', PAYMENT_GATEWAY: 'http' };
    expect(() => gatewayOf(loadConfig({ ...gateways, PAYMENT_API_SECRET: 'a-long-secret' }))).toThrow(/PAYMENT_API_URL \(the gateway API's base URL\): must be set when PAYMENT_GATEWAY=http/);
    expect(() => gatewayOf(loadConfig({ ...gateways, PAYMENT_API_URL: 'http://pay.example' }))).toThrow(/PAYMENT_API_SECRET \(the secret of its signed calls\): must be set/);
    expect(gatewayOf(loadConfig({ ...gateways, PAYMENT_API_URL: 'http://pay.example', PAYMENT_API_SECRET: 'a-long-secret' })).gateway).toBeInstanceOf(HttpGateway);
    expect(() => bankOf(loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', BANK_PROVIDER: 'http', BANK_API_SECRET: 'a-long-secret' }))).toThrow(/BANK_API_URL \(the bank API's base URL\): must be set when BANK_PROVIDER=http/);
    expect(bankOf(loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', BANK_PROVIDER: 'http', BANK_API_URL: 'http://bank.example', BANK_API_SECRET: 'a-long-secret' })).bank).toBeInstanceOf(HttpBank);
    expect(() => payoutProviderFor(loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'sandbox', PAYOUT_PROVIDER: 'http', PAYOUT_API_URL: 'http://bank.example' }))).toThrow(/PAYOUT_API_SECRET \(the secret of its signed calls\): must be set when PAYOUT_PROVIDER=http/);
    expect(payoutProviderFor(loadConfig({ NODE_ENV: 'production', SMS_PROVIDER: 'sandbox' })).provider).toBeNull();
    expect(() => gatewayOf(loadConfig({ PAYMENT_GATEWAY: 'sandbox', SMS_PROVIDER: 'http', SMS_HTTP_URL: 'http://sms.example', SANDBOX_URL: 'off' }))).toThrow(/SANDBOX_URL: must not be off when PAYMENT_GATEWAY=sandbox/);
  });

  it('refuses the sandbox SMS gateway with the sandbox service switched off', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'sandbox', SANDBOX_URL: 'off' })).toThrow(/SANDBOX_URL: must not be off when SMS_PROVIDER=sandbox/);
    expect(loadConfig({ SMS_PROVIDER: 'http', SMS_HTTP_URL: 'http://sms.example', SANDBOX_URL: 'off' }).SMS_PROVIDER).toBe('http');
  });
});

describe('the e-wallet (sandbox service) and the HTTP e-wallet adapter', () => {
  const sandbox = ownSandbox();
  const secret = 'sandbox-ewallet-secret';
  const control = async (path: string, body: unknown, method = 'POST') => {
    const res = await fetch(`${sandbox.url}/control/ewallet/${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const voucher = async (amount: number, ownerPhone = '0899000001', expiresInSeconds = 3600) => String((await control('vouchers', { amount, ownerPhone, expiresInSeconds })).body.hash);
  const refusal = (promise: Promise<unknown>) => promise.then(() => 'OK', (error: unknown) => (error instanceof VoucherRefused ? error.code : error instanceof EWalletUnavailable ? 'UNAVAILABLE' : String(error)));

  it('refuses unsigned, forged and stale calls with 401 INVALID_SIGNATURE and redeems nothing', async () => {
    const hash = await voucher(500);
    const body = JSON.stringify({ hash, mobile: '0811000001' });
    const now = String(Math.floor(Date.now() / 1000));
    const stale = String(Math.floor(Date.now() / 1000) - 400);
    const signed: Array<Record<string, string>> = [{}, { 'x-timestamp': now, 'x-signature': createHmac('sha256', 'not-the-secret').update(`${now}.${body}`).digest('hex') }, { 'x-timestamp': stale, 'x-signature': createHmac('sha256', secret).update(`${stale}.${body}`).digest('hex') }];
    for (const headers of signed) {
      const res = await fetch(`${sandbox.url}/ewallet/vouchers/redeem`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      expect({ status: res.status, body: (await res.json()) as unknown }).toEqual({ status: 401, body: { status: 'INVALID_SIGNATURE' } });
    }
    expect((await new HttpEWallet({ url: sandbox.url, secret }).verify(hash, '0811000001')).status).toBe('AVAILABLE');
  });

  it('redeems a voucher whole and once (ten wallets at once: one takes it), answering each refusal by its code', async () => {
    const ewallet = new HttpEWallet({ url: sandbox.url, secret });
    const hash = await voucher(1234);
    const wallets = Array.from({ length: 10 }, (_, i) => `08110000${String(i).padStart(2, '0')}`);
    const answers = await Promise.all(wallets.map((w) => ewallet.redeem(hash, w).then((r) => r.amount, (e: unknown) => (e instanceof VoucherRefused ? e.code : 'ERROR'))));
    expect(answers.filter((a) => a === 1234)).toHaveLength(1);
    expect(answers.filter((a) => a === 'VOUCHER_OUT_OF_STOCK')).toHaveLength(9);
    const winner = wallets[answers.indexOf(1234)] ?? '';
    expect(await refusal(ewallet.redeem(hash, winner))).toBe('TARGET_USER_REDEEMED');
    expect(await ewallet.verify(hash, winner)).toMatchObject({ status: 'REDEEMED', redeemedBy: winner, amount: 1234, ownVoucher: false });
    expect(await refusal(ewallet.redeem(await voucher(100, '0811999999'), '0811999999'))).toBe('CANNOT_GET_OWN_VOUCHER');
    expect(await refusal(ewallet.redeem(await voucher(100, '0899000001', -60), winner))).toBe('VOUCHER_EXPIRED');
    expect(await refusal(ewallet.redeem('NoSuchVoucher0001', winner))).toBe('VOUCHER_NOT_FOUND');
    // The report lists what was redeemed in the period, with the wallet that took it.
    const listed = await ewallet.redeemedVouchers(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000));
    expect(listed.filter((v) => v.hash === hash)).toEqual([expect.objectContaining({ amount: 1234, redeemedBy: winner })]);
  });

  it('a refusing or silent e-wallet is unavailable (never a refusal of the voucher); reports and webhooks go on', async () => {
    const ewallet = new HttpEWallet({ url: sandbox.url, secret });
    const hash = await voucher(300);
    expect((await control('fault', { mode: 'refuse', on: ['verify', 'redeem'] }, 'PUT')).status).toBe(200);
    try {
      expect(await refusal(ewallet.redeem(hash, '0811000100'))).toBe('UNAVAILABLE');
      expect(await ewallet.transfers(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000))).toEqual(expect.any(Array));
      await control('fault', { mode: 'timeout', on: ['verify', 'redeem'] }, 'PUT');
      const started = Date.now();
      expect(await refusal(ewallet.verify(hash, '0811000100', AbortSignal.timeout(300)))).toBe('UNAVAILABLE');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await control('fault', { mode: 'none' }, 'PUT');
    }
    expect((await ewallet.verify(hash, '0811000100')).status).toBe('AVAILABLE');
    // No connection at all: unavailable too.
    expect(await refusal(new HttpEWallet({ url: `http://127.0.0.1:${await freePort()}`, secret }).verify(hash, '0811000100'))).toBe('UNAVAILABLE');
  });

  it('reports a transfer to the merchant\'s webhook, signed with its secret; a duplicate fault sends it twice, redeliver again', async () => {
    const received: Array<{ raw: string; timestamp: string; signature: string }> = [];
    const hook = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ raw, timestamp: String(req.headers['x-timestamp']), signature: String(req.headers['x-signature']) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const address = hook.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      expect((await control('merchant', { webhookUrl: `http://127.0.0.1:${port}/hook`, secret: 'merchant-secret-0001' }, 'PUT')).status).toBe(200);
      const sent = await control('transfers', { fromPhone: '0811000200', toPhone: '0899000009', amount: 7550 });
      expect(sent.body).toMatchObject({ amount: 7550, currency: 'THB', feed: { status: 200 } });
      expect(received).toHaveLength(1);
      const first = received[0];
      expect(first && verifyWebhook('merchant-secret-0001', { timestamp: first.timestamp, signature: first.signature }, first.raw)).toEqual({ ok: true });
      expect(JSON.parse(first?.raw ?? '{}')).toEqual({ transferId: sent.body.transferId, fromPhone: '0811000200', toPhone: '0899000009', amount: '75.50', currency: 'THB', at: sent.body.at });
      // Not reported when told so (a transfer recorded after the fact).
      expect((await control('transfers', { fromPhone: '0811000200', toPhone: '0899000009', amount: 100, report: false })).body.feed).toBeNull();
      expect(received).toHaveLength(1);
      await control('fault', { mode: 'duplicate', on: ['webhook'] }, 'PUT');
      await control('transfers', { fromPhone: '0811000200', toPhone: '0899000009', amount: 200 });
      await control('fault', { mode: 'none' }, 'PUT');
      expect(received).toHaveLength(3);
      expect((await control(`transfers/${String(sent.body.transferId)}/redeliver`, { times: 3 })).body).toEqual({ deliveries: [{ status: 200 }, { status: 200 }, { status: 200 }] });
      expect(received.filter((r) => r.raw.includes(String(sent.body.transferId)))).toHaveLength(4);
    } finally {
      hook.close();
    }
  });

  it('keeps its state in its own journal: a voucher redeemed before a restart stays redeemed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-ewallet-'));
    try {
      const first = await startSandboxService({ port: 0, dataDir, env: {} });
      const a = new HttpEWallet({ url: first.url, secret });
      const made = await fetch(`${first.url}/control/ewallet/vouchers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 900, ownerPhone: '0899000001', expiresInSeconds: 3600 }) });
      const { hash } = (await made.json()) as { hash: string };
      expect(await a.redeem(hash, '0811000300')).toEqual({ amount: 900 });
      await first.close();
      const second = await startSandboxService({ port: 0, dataDir, env: {} });
      try {
        expect(await new HttpEWallet({ url: second.url, secret }).verify(hash, '0811000300')).toMatchObject({ status: 'REDEEMED', redeemedBy: '0811000300' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the QR gateways (sandbox service) and the HTTP gateway adapter', () => {
  const sandbox = ownSandbox();
  const secret = 'sandbox-gateway-secret';
  const order = (reference: string, amount = 10_000) => ({ provider: 'WW' as const, reference, amount, currency: 'THB' as const, expiresAt: new Date(Date.now() + 600_000) });
  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}/control/gateway/${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('opens an order with a Thai QR for our reference and amount; the same reference answers the same order; unsigned calls are refused', async () => {
    const gateway = new HttpGateway({ url: sandbox.url, secret });
    const first = await gateway.createOrder(order('REFGW0001', 12_345));
    const qr = parseThaiQr(first.payload);
    expect(qr).toMatchObject({ crcValid: true, amountSatang: 12_345, currency: '764', merchant: { kind: 'billPayment', ref1: 'REFGW0001', ref2: 'WW' } });
    expect(await gateway.createOrder(order('REFGW0001', 12_345))).toEqual(first);
    await expect(gateway.createOrder(order('REFGW0001', 999))).rejects.toBeInstanceOf(GatewayError);
    await expect(gateway.createOrder({ ...order('REFGW0002'), currency: 'LAK' })).rejects.toBeInstanceOf(GatewayError);
    const unsigned = await fetch(`${sandbox.url}/gateway/WW/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'REFGW0003', amount: 100, currency: 'THB', expiresAt: new Date().toISOString() }) });
    expect({ status: unsigned.status, body: (await unsigned.json()) as unknown }).toEqual({ status: 401, body: { status: 'INVALID_SIGNATURE' } });
    await expect(new HttpGateway({ url: sandbox.url, secret: 'not-the-secret' }).createOrder(order('REFGW0004'))).rejects.toBeInstanceOf(GatewayError);
  });

  it('takes a payment once (ten at once: one is paid), refuses a cancelled or expired order, and answers status and the report', async () => {
    const gateway = new HttpGateway({ url: sandbox.url, secret });
    const { gatewayRef } = await gateway.createOrder(order('REFGW0010', 5_000));
    expect(await gateway.lookupOrder('WW', gatewayRef)).toEqual({ status: 'OPEN' });
    const pays = await Promise.all(Array.from({ length: 10 }, () => control(`orders/${gatewayRef}/pay`, { notify: false })));
    expect(pays.filter((p) => p.status === 200)).toHaveLength(1);
    expect(pays.filter((p) => p.status === 409).map((p) => p.body.status)).toEqual(Array(9).fill('QR_ALREADY_PAID'));
    const paid = await gateway.lookupOrder('WW', gatewayRef);
    expect(paid).toMatchObject({ status: 'PAID', reference: 'REFGW0010', amount: 5_000, currency: 'THB', paymentId: pays.find((p) => p.status === 200)?.body.paymentId });
    const listed = await gateway.payments(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000));
    expect(listed.filter((p) => p.reference === 'REFGW0010')).toHaveLength(1);
    // Cancelled, or past its time: the customer's app cannot pay it.
    const cancelled = await gateway.createOrder(order('REFGW0011'));
    await gateway.cancelOrder('WW', cancelled.gatewayRef);
    expect((await control(`orders/${cancelled.gatewayRef}/pay`, {})).body).toEqual({ status: 'QR_CANCELLED' });
    expect(await gateway.lookupOrder('WW', cancelled.gatewayRef)).toEqual({ status: 'CANCELLED' });
    const expired = await gateway.createOrder({ ...order('REFGW0012'), expiresAt: new Date(Date.now() - 1000) });
    expect((await control(`orders/${expired.gatewayRef}/pay`, {})).body).toEqual({ status: 'QR_EXPIRED' });
    expect(await gateway.lookupOrder('WW', 'WW-unknown')).toEqual({ status: 'UNKNOWN' });
    // One gateway down: its calls fail (QR_FAIL for the member), the others go on; the report fails whole.
    await fetch(`${sandbox.url}/control/gateway/ZPAY/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'refuse' }) });
    try {
      await expect(gateway.createOrder({ ...order('REFGW0013'), provider: 'ZPAY' })).rejects.toBeInstanceOf(GatewayError);
      expect((await gateway.createOrder(order('REFGW0013'))).gatewayRef).toMatch(/^WW-/);
      await expect(gateway.payments(new Date(Date.now() - 60_000), new Date())).rejects.toBeInstanceOf(GatewayError);
    } finally {
      await fetch(`${sandbox.url}/control/gateway/ZPAY/fault`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'none' }) });
    }
  });

  it('refuses an order whose QR does not ask for our payment (another amount, another reference, a second payee)', async () => {
    let lie: 'amount' | 'reference' | 'payee' | 'none' = 'amount';
    const liar = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        const { reference, amount } = JSON.parse(raw) as { reference: string; amount: number };
        const qr = buildThaiQr({ merchant: { kind: 'billPayment', billerId: '010556000000101', ref1: lie === 'reference' ? 'SOMEONEELSE' : reference, ref2: 'WW' }, amountSatang: lie === 'amount' ? 1 : amount, currency: '764', country: 'TH' });
        // A second merchant account (a PromptPay target) slipped in beside the bill payment, the CRC made again.
        const body = qr.slice(0, -8);
        const payload = lie === 'payee' ? `${body.replace(/^(000201010212)/, `$1${tlv('29', tlv('00', 'A000000677010111') + tlv('01', '0066812345678'))}`)}6304` : qr;
        const signed = lie === 'payee' ? `${payload}${crc16ccitt(payload)}` : payload;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'SUCCESS', gatewayRef: 'WW-liar', payload: signed }));
      });
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    const address = liar.address();
    try {
      const gateway = new HttpGateway({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, secret });
      await expect(gateway.createOrder(order('REFGW0020', 10_000))).rejects.toThrow(/does not ask for this payment/);
      lie = 'reference';
      await expect(gateway.createOrder(order('REFGW0021', 10_000))).rejects.toThrow(/does not ask for this payment/);
      lie = 'payee';
      await expect(gateway.createOrder(order('REFGW0022', 10_000))).rejects.toThrow(/does not ask for this payment/);
      // The same gateway telling the truth is believed (the check is not refusing everything).
      lie = 'none';
      expect((await gateway.createOrder(order('REFGW0023', 10_000))).gatewayRef).toBe('WW-liar');
    } finally {
      liar.close();
    }
  });
});

describe('the bank (sandbox service): slip look-ups, the feed and payouts over HTTP', () => {
  const sandbox = ownSandbox();
  const secret = 'sandbox-bank-secret';
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}/control/bank/${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const request = (reference: string, amount = 25_000) => ({ reference, bankCode: 'KBANK', accountNo: '1234567890', accountName: 'SOMCHAI', amount, currency: 'THB' as const });
  const kind = (promise: Promise<unknown>) => promise.then(() => 'OK', (e: unknown) => (e instanceof PayoutUnknown ? 'UNKNOWN' : e instanceof PayoutUnavailable ? 'UNAVAILABLE' : e instanceof BankLookupError ? e.kind : String(e)));

  it('looks a transfer up by sending bank and reference (the captcha wall and errors as the verifier knows them); unsigned calls are refused', async () => {
    const bank = new HttpBank({ url: sandbox.url, secret });
    const made = await control('POST', 'transfers', { fromBankCode: 'SCB', fromAccountNo: '4071234567', toBankCode: 'KBANK', toAccountNo: '0451234567', amount: 50_000, report: false });
    const transRef = String((made.body.transfer as { transRef: string }).transRef);
    expect(await bank.lookup('SCB', transRef)).toMatchObject({ transRef, amount: 50_000, currency: 'THB', toAccountNo: '0451234567' });
    expect(await bank.lookup('KBANK', transRef)).toBeNull();
    await control('PUT', 'lookup-fault', { mode: 'captcha' });
    expect(await kind(bank.lookup('SCB', transRef))).toBe('captcha');
    await control('PUT', 'lookup-fault', { mode: 'error' });
    expect(await kind(bank.lookup('SCB', transRef))).toBe('error');
    await control('PUT', 'lookup-fault', { mode: 'none' });
    expect(await kind(new HttpBank({ url: sandbox.url, secret: 'not-the-secret' }).lookup('SCB', transRef))).toBe('error');
    expect(await kind(new HttpBank({ url: `http://127.0.0.1:${await freePort()}`, secret }).lookup('SCB', transRef))).toBe('error');
    expect((await bank.transfers(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000))).map((t) => t.transRef)).toContain(transRef);
  });

  it('pays a reference once (ten sends at once: one transfer); a lost answer is unknown until asked; down is unavailable; a hang is unknown at the deadline', async () => {
    const payouts = new HttpPayouts({ url: sandbox.url, secret, timeoutMs: 1_000 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => payouts.send(request('W-ONCE-1'))));
    expect(new Set(answers.map((a) => a.bankRef)).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 'completed', amount: 25_000, currency: 'THB' });
    expect((await payouts.payouts(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000))).filter((p) => p.reference === 'W-ONCE-1')).toHaveLength(1);
    await control('PUT', 'payout-fault', { mode: 'lost' });
    expect(await kind(payouts.send(request('W-LOST-1')))).toBe('UNKNOWN');
    await control('PUT', 'payout-fault', { mode: 'none' });
    expect(await payouts.status('W-LOST-1')).toMatchObject({ status: 'completed' });
    await control('PUT', 'payout-fault', { mode: 'down' });
    expect(await kind(payouts.send(request('W-DOWN-1')))).toBe('UNAVAILABLE');
    await control('PUT', 'payout-fault', { mode: 'timeout' });
    const started = Date.now();
    expect(await kind(payouts.send(request('W-HANG-1')))).toBe('UNKNOWN');
    expect(Date.now() - started).toBeLessThan(5_000);
    await control('PUT', 'payout-fault', { mode: 'reject', failure: 'NAME_MISMATCH' });
    expect(await payouts.send(request('W-REJECT-1'))).toMatchObject({ status: 'failed', failure: 'NAME_MISMATCH' });
    await control('PUT', 'payout-fault', { mode: 'none' });
    // Neither the refused nor the hung call was recorded; the rejected one was, once.
    expect(await payouts.status('W-DOWN-1')).toBeNull();
    expect(await payouts.status('W-HANG-1')).toBeNull();
    expect(await payouts.send(request('W-REJECT-1'))).toMatchObject({ status: 'failed', failure: 'NAME_MISMATCH' });
  });

  it('a bank that keeps failing opens the payouts\' breaker: nothing is sent while it is open', async () => {
    const payouts = new HttpPayouts({ url: sandbox.url, secret, timeoutMs: 1_000 });
    await control('PUT', 'payout-fault', { mode: 'down' });
    try {
      for (let i = 0; i < 5; i++) expect(await kind(payouts.send(request(`W-BREAKER-${i}`)))).toBe('UNAVAILABLE');
    } finally {
      await control('PUT', 'payout-fault', { mode: 'none' });
    }
    // The bank is back, but the breaker is open: the call is refused here, never sent.
    expect(await kind(payouts.send(request('W-BREAKER-OPEN')))).toBe('UNAVAILABLE');
    expect(await new HttpPayouts({ url: sandbox.url, secret, timeoutMs: 1_000 }).status('W-BREAKER-OPEN')).toBeNull();
  });

  it('reports a transfer into a subscribed account by the feed, signed, with the receiving bank in the URL; the feed again on demand', async () => {
    const received: Array<{ url: string; raw: string; timestamp: string; signature: string }> = [];
    const hook = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ url: req.url ?? '', raw, timestamp: String(req.headers['x-timestamp']), signature: String(req.headers['x-signature']) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const address = hook.address();
    try {
      await control('PUT', 'merchant', { webhookUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/feed/{bankCode}`, secret: 'feed-secret-0001' });
      const sent = await control('POST', 'transfers', { fromBankCode: 'BBL', fromAccountNo: '1112223334', toBankCode: 'KBANK', toAccountNo: '0451234567', amount: 12_050 });
      expect(sent.body.feed).toEqual({ status: 200 });
      const [first] = received;
      expect(first?.url).toBe('/feed/KBANK');
      expect(first && verifyWebhook('feed-secret-0001', { timestamp: first.timestamp, signature: first.signature }, first.raw)).toEqual({ ok: true });
      expect(JSON.parse(first?.raw ?? '{}')).toMatchObject({ fromBankCode: 'BBL', toBankCode: 'KBANK', amount: '120.50', currency: 'THB' });
      const transRef = String((sent.body.transfer as { transRef: string }).transRef);
      expect((await control('POST', `transfers/BBL/${transRef}/redeliver`, { times: 2 })).body).toEqual({ deliveries: [{ status: 200 }, { status: 200 }] });
      expect(received).toHaveLength(3);
    } finally {
      hook.close();
    }
  });
});

type SandboxService = Awaited<ReturnType<typeof startSandboxService>>;

describe('the start\'s sandbox game faults (SANDBOX_GAME_FAULTS, SANDBOX_GAME_LATENCY_MS)', () => {
  it('are set once the sandbox answers, when it starts after the server; an operator\'s faults set meanwhile stand', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // The server first, its sandbox not up yet: the faults wait.
    const t = await startApp('embedded', { SANDBOX_URL: url, SANDBOX_GAME_FAULTS: 'PG:down,JOKER:timeout' });
    let sandbox: SandboxService | null = null;
    try {
      expect(t.services.sandboxStartFaultsPending).toBe(true);
      sandbox = await startSandboxService({ port, env: {} });
      const games = t.services.sandboxGames;
      if (!games) throw new Error('no sandbox games');
      const until = Date.now() + 5_000;
      while (t.services.sandboxStartFaultsPending && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(t.services.sandboxStartFaultsPending).toBe(false);
      const faults = await games.faults();
      expect([faults.get('PG'), faults.get('JOKER')]).toEqual(['down', 'timeout']);
    } finally {
      await t.close();
      await sandbox?.close();
    }
    // Another server whose sandbox is late, and an operator sets a fault before it answers: theirs stands.
    const port2 = await freePort();
    const t2 = await startApp('embedded', { SANDBOX_URL: `http://127.0.0.1:${port2}`, SANDBOX_GAME_FAULTS: 'PG:down' });
    let sandbox2: SandboxService | null = null;
    try {
      sandbox2 = await startSandboxService({ port: port2, env: {} });
      const set = await t2.app.inject({ method: 'PUT', url: '/api/operator/sandbox/games/PG/fault', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, payload: { mode: 'error-after-take' } });
      expect(set.statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 1_200));
      expect((await t2.services.sandboxGames?.faults())?.get('PG')).toBe('error-after-take');
    } finally {
      await t2.close();
      await sandbox2?.close();
    }
  });
});
