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

/** Issue 37 item 1: an operator's revocation closes that operator's inbox sockets at once (and only theirs). */
describe.each(dbKinds)('operator socket revocation on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let owner: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await startApp(kind, { OPERATOR_IDLE_MINUTES: '1440' });
    useTestClock(t);
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = await operatorLogin(t, 'owner');
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

  /** A guest's message: every inbox socket hears it. */
  const guestMessage = async (text: string): Promise<void> => {
    const guest = await call<{ guestId: string }>(t.app, 'POST', '/api/chat/guest', { body: {} });
    expect(guest.status).toBe(200);
    const sent = await call(t.app, 'POST', '/api/chat/send-message', { body: { sender: 'customer', guestId: guest.body.guestId, clientId: 'c1', message: { message_type: 'text', payload: { message: text } } } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  };

  /** Revokes through `revoke`; the victim's socket closes within a second and hears no later inbox event, a bystander's keeps hearing. */
  const expectClosed = async (victim: Socket, bystander: Socket, revoke: () => Promise<void>): Promise<void> => {
    const heard: unknown[] = [];
    victim.on('inbox', (conversation: unknown) => heard.push(conversation));
    const closed = next<string>(victim, 'disconnect', 1_000);
    const started = Date.now();
    await revoke();
    const reason = await closed;
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(reason).toBe('io server disconnect');
    const bystanderHeard = next(bystander, 'inbox');
    await guestMessage(`after-${started}`);
    await bystanderHeard;
    expect(heard).toEqual([]);
  };

  it('logout closes that session\'s inbox socket', async () => {
    const support = await operatorLogin(t, 'support');
    const socket = await open(support);
    const bystander = await open(owner);
    const before = next(socket, 'inbox');
    await guestMessage('before-logout');
    await before;
    await expectClosed(socket, bystander, async () => {
      expect((await call(t.app, 'POST', '/api/admin/logout', { token: support })).status).toBe(200);
    });
    // The token no longer opens a socket.
    const again = connect(base, { path: '/socket.io', auth: { operatorToken: support }, transports: ['websocket'], reconnection: false });
    sockets.push(again);
    expect((await next<Error>(again, 'connect_error')).message).toBe('CHAT_NO_IDENTITY');
  });

  it('disabling an operator closes every socket of theirs', async () => {
    const agent = await newOperator(t, 'support', owner);
    const token = await operatorLogin(t, agent.username, agent.password, agent.secret);
    const socket = await open(token);
    const bystander = await open(owner);
    await expectClosed(socket, bystander, async () => {
      expect((await call(t.app, 'POST', `/api/operator/operators/${agent.id}/disable`, { token: owner })).status).toBe(200);
    });
  });

  it('a password change closes the old sessions\' sockets', async () => {
    const agent = await newOperator(t, 'support', owner);
    const token = await operatorLogin(t, agent.username, agent.password, agent.secret);
    const socket = await open(token);
    const bystander = await open(owner);
    await expectClosed(socket, bystander, async () => {
      const changed = await call(t.app, 'PUT', '/api/admin/password', { token, body: { oldPassword: agent.password, newPassword: `${agent.password}-new` } });
      expect(changed.status).toBe(200);
    });
  });

  it('a role change and a TOTP reset close the operator\'s sockets', async () => {
    const agent = await newOperator(t, 'support', owner);
    const socket = await open(await operatorLogin(t, agent.username, agent.password, agent.secret));
    const bystander = await open(owner);
    await expectClosed(socket, bystander, async () => {
      expect((await call(t.app, 'PUT', `/api/operator/operators/${agent.id}/role`, { token: owner, body: { role: 'marketing' } })).status).toBe(200);
    });
    const other = await newOperator(t, 'support', owner);
    const second = await open(await operatorLogin(t, other.username, other.password, other.secret));
    await expectClosed(second, bystander, async () => {
      expect((await call(t.app, 'POST', `/api/operator/operators/${other.id}/reset-totp`, { token: owner })).status).toBe(200);
    });
  });
});
