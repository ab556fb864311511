import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { call, dbKinds, startApp, type TestApp } from './helpers';
import { newOperator, operatorLogin, useTestClock } from './operator-helpers';

/** Waits for `event` on `socket` (or fails after `ms`). */
function next<T>(socket: Socket, event: string, ms = 4_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (value: T) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/** Live queues (issue 32): every operator's socket, whatever the role, hears that a queue changed and who took an item; only the inbox roles hear chat. */
describe.each(dbKinds)('live queues and claims on %s', (kind) => {
  let t: TestApp;
  let base: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440' });
    useTestClock(t);
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t?.close();
  });

  const open = async (token: string): Promise<Socket> => {
    const socket = connect(base, { path: '/socket.io', auth: { operatorToken: token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await next(socket, 'connect');
    return socket;
  };

  it('a finance and a marketing socket hear `queues` after a state change, and a claim with the claimer\'s name; marketing hears no chat', async () => {
    const finance = await open(await operatorLogin(t, 'finance'));
    const marketing = await open(await operatorLogin(t, 'marketing'));
    const chatHeard: unknown[] = [];
    marketing.on('inbox', (conversation: unknown) => chatHeard.push(conversation));

    const heard = Promise.all([next(finance, 'queues'), next(marketing, 'queues')]);
    const guest = await call<{ guestId: string }>(t.app, 'POST', '/api/chat/guest', { body: {} });
    expect(guest.status).toBe(200);
    await call(t.app, 'POST', '/api/chat/send-message', { body: { guestId: guest.body.guestId, clientId: 'c1', message: { message_type: 'text', payload: { text: 'hello' } } } });
    await heard;

    const claimed = next<{ kind: string; id: string; operator: string; until: number }>(marketing, 'claim');
    finance.emit('claim', { kind: 'withdrawal', id: 'w-1', until: Date.now() + 10 * 60_000 });
    const claim = await claimed;
    expect(claim).toMatchObject({ kind: 'withdrawal', id: 'w-1', operator: 'finance' });
    // A claim lasts at most two minutes (renewed while its operator is on the item).
    expect(claim.until).toBeLessThanOrEqual(Date.now() + 2 * 60_000 + 1_000);
    expect(chatHeard).toEqual([]);
  });

  it('a revoked operator\'s socket closes within a second of logout, disable and password change, and cannot come back', async () => {
    const owner = await operatorLogin(t, 'owner');
    const cases: Array<[string, (token: string, id: string, password: string) => Promise<unknown>]> = [
      ['logout', (token) => call(t.app, 'POST', '/api/admin/logout', { token })],
      ['disable', (_token, id) => call(t.app, 'POST', `/api/operator/operators/${id}/disable`, { token: owner })],
      ['password', (token, _id, password) => call(t.app, 'PUT', '/api/admin/password', { token, body: { oldPassword: password, newPassword: `${password}-new-one` } })],
      ['role', (_token, id) => call(t.app, 'PUT', `/api/operator/operators/${id}/role`, { token: owner, body: { role: 'finance' } })],
    ];
    for (const [what, revoke] of cases) {
      const op = await newOperator(t, 'support', owner);
      const token = await operatorLogin(t, op.username, op.password, op.secret);
      const socket = await open(token);
      const closed = next<string>(socket, 'disconnect', 1_000);
      const started = Date.now();
      const answer = (await revoke(token, op.id, op.password)) as { status: number };
      expect(answer.status, what).toBeLessThan(300);
      expect(await closed, what).toBe('io server disconnect');
      expect(Date.now() - started, what).toBeLessThan(1_000);
      if (what === 'role') continue;
      // The old token opens nothing any more.
      const again = connect(base, { path: '/socket.io', auth: { operatorToken: token }, transports: ['websocket'], reconnection: false });
      sockets.push(again);
      expect((await next<Error>(again, 'connect_error')).message, what).toBe('CHAT_NO_IDENTITY');
    }
  });

  it('refuses a socket without a valid operator token', async () => {
    const socket = connect(base, { path: '/socket.io', auth: { operatorToken: 'not-a-session-token-at-all' }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const error = await next<Error>(socket, 'connect_error');
    expect(error.message).toBe('CHAT_NO_IDENTITY');
  });
});
