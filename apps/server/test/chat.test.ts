import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKinds, login, OPERATOR_TOKEN, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
const EXE = Buffer.concat([Buffer.from('MZ'), randomBytes(500)]);

/** multipart/form-data with one file field. */
function multipart(filename: string, bytes: Buffer, field = 'file') {
  const boundary = `----mw${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-requested-with': 'XMLHttpRequest' } };
}

interface Conv {
  _id: string;
  sender: string;
  message: { message_type: string; payload: Record<string, unknown> };
  session_id: string;
  clientId?: string | null;
}

const text = (message: string, extra: Record<string, unknown> = {}) => ({ sender: 'customer', message: { message_type: 'text', payload: { message } }, ...extra });

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(dbKinds)('live chat on %s', (kind) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startApp(kind, { CHAT_MESSAGES_PER_MINUTE: '25' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const history = async (who: Record<string, unknown>, limit = 10, skip = 0, token?: string) =>
    call<Conv[]>(t.app, 'POST', '/api/chat/history', { body: { limit, skip, ...who }, ...(token ? { token } : {}) });

  it('answers the prefix; a guest chats with the sandbox bot, every kind shown, history newest first in pages', async () => {
    expect((await call(t.app, 'GET', '/api/chat/config')).body).toEqual({ PREFIX: 'mw-chat' });
    const guestId = randomUUID();
    const sent = await call<{ createdAt: string }>(t.app, 'POST', '/api/chat/send-message', { body: text('  hello  ', { guestId, clientId: 'c1' }) });
    expect(sent.status).toBe(200);
    expect(Date.parse(sent.body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const all = await until(() => history({ guestId }, 10), (r) => r.body.length >= 5);
    expect(all.body.map((m) => m.message.message_type)).toEqual(['quick_replies', 'generic', 'buttons', 'text', 'text']);
    expect(all.body[4]).toMatchObject({ sender: 'customer', message: { payload: { message: 'hello' } }, clientId: 'c1' });
    expect(new Set(all.body.map((m) => m.session_id)).size).toBe(1);
    // The same client id again: stored once.
    await call(t.app, 'POST', '/api/chat/send-message', { body: text('hello', { guestId, clientId: 'c1' }) });
    // A postback (a pressed button) gets the bot's answer.
    await call(t.app, 'POST', '/api/chat/send-message', { body: { sender: 'customer', message: { message_type: 'postback', payload: { message: 'Deposit', payload: 'DEPOSIT' } }, guestId } });
    const more = await until(() => history({ guestId }, 100), (r) => r.body.length >= 7);
    expect(more.body).toHaveLength(7);
    expect(more.body[0]).toMatchObject({ sender: 'bot', message: { message_type: 'text' } });
    // Pages of 10, newest first.
    for (let i = 0; i < 6; i += 1) await call(t.app, 'POST', '/api/chat/send-message', { body: text(`m${i}`, { guestId }) });
    const first = await history({ guestId }, 10, 0);
    const second = await history({ guestId }, 10, 10);
    expect(first.body).toHaveLength(10);
    expect(second.body).toHaveLength(3);
    expect(first.body[0]?.message.payload.message).toBe('m5');
    expect(new Set([...first.body, ...second.body].map((m) => m._id)).size).toBe(13);
  });

  it('keeps conversations apart: another guest, a guest naming a member, a member naming another, a malformed guest id', async () => {
    const a = randomUUID();
    await call(t.app, 'POST', '/api/chat/send-message', { body: text('secret of a', { guestId: a }) });
    expect((await history({ guestId: randomUUID() })).body).toEqual([]);
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    expect(await history({ userId: m.id })).toMatchObject({ status: 403, body: { message: 'CHAT_FORBIDDEN' } });
    expect(await call(t.app, 'POST', '/api/chat/send-message', { body: text('x', { userId: m.id, guestId: randomUUID() }) })).toMatchObject({ status: 403 });
    const other = await registerMember(t.app);
    expect(await history({ userId: other.id }, 10, 0, token)).toMatchObject({ status: 403, body: { message: 'CHAT_FORBIDDEN' } });
    expect(await history({ guestId: 'guest-1' })).toMatchObject({ status: 401, body: { message: 'CHAT_NO_IDENTITY' } });
    expect(await history({})).toMatchObject({ status: 401, body: { message: 'CHAT_NO_IDENTITY' } });
    // The member's own conversation does not hold the guest's messages.
    expect((await history({ userId: m.id }, 10, 0, token)).body.some((c) => c.message.payload.message === 'secret of a')).toBe(false);
  });

  it('a guest who logs in keeps the conversation; the guest id alone then reads nothing of it', async () => {
    const guestId = randomUUID();
    await call(t.app, 'POST', '/api/chat/send-message', { body: text('my deposit is late', { guestId }) });
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    await call(t.app, 'POST', '/api/chat/send-message', { token, body: text('earlier as a member', { userId: m.id }) });
    const merged = await until(() => history({ userId: m.id, guestId }, 50, 0, token), (r) => r.body.some((c) => c.message.payload.message === 'my deposit is late'));
    expect(merged.body.map((c) => c.message.payload.message)).toEqual(expect.arrayContaining(['my deposit is late', 'earlier as a member']));
    expect((await history({ guestId })).body.some((c) => c.message.payload.message === 'my deposit is late')).toBe(false);
    // Support sees one conversation for the member.
    const threads = (await t.app.inject({ method: 'GET', url: '/api/operator/chat/conversations?limit=100', headers: operator })).json() as Array<{ userId: string | null }>;
    expect(threads.filter((c) => c.userId === m.id)).toHaveLength(1);
  });

  it('refuses empty, 2001 characters, NUL; stores script payloads as data', async () => {
    const guestId = randomUUID();
    const send = (message: string) => call(t.app, 'POST', '/api/chat/send-message', { body: text(message, { guestId }) });
    expect(await send('   ')).toMatchObject({ status: 400, body: { message: 'CHAT_MESSAGE_EMPTY' } });
    expect(await send('ก'.repeat(2001))).toMatchObject({ status: 400, body: { message: 'CHAT_MESSAGE_TOO_LONG' } });
    expect((await send(`  ${'ก'.repeat(2000)}  `)).status).toBe(200);
    expect(await send('a\u0000b')).toMatchObject({ status: 400, body: { message: 'KEY_INVALID' } });
    const xss = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    expect((await send(xss)).status).toBe(200);
    expect((await history({ guestId }, 1)).body[0]?.message.payload.message).toBe(xss);
  });

  it('uploads: sniffed images and videos within 10 / 20 MB, served only by signed link to the conversation', async () => {
    const guestId = randomUUID();
    const upload = (path: string, name: string, bytes: Buffer) => t.app.inject({ method: 'POST', url: path, ...multipart(name, bytes) });
    const ok = await upload('/api/chat/upload-image', 'slip.png', PNG);
    expect(ok.statusCode).toBe(200);
    const path = (ok.json() as { path: string }).path;
    expect(path).toMatch(/^\/api\/chat\/files\/[0-9a-f]{24}$/);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    expect((await upload('/api/chat/upload-image', 'setup.png', EXE)).json()).toEqual({ message: 'CHAT_FILE_UNSUPPORTED' });
    expect((await upload('/api/chat/upload-image', 'noextension', PNG)).json()).toEqual({ message: 'CHAT_FILE_UNSUPPORTED' });
    expect((await upload('/api/chat/upload-video', 'clip.png', PNG)).json()).toEqual({ message: 'CHAT_FILE_UNSUPPORTED' });
    const big = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(25 * 1024 * 1024)]);
    const tooBig = await upload('/api/chat/upload-video', 'clip.mp4', big);
    expect({ status: tooBig.statusCode, body: tooBig.json() }).toMatchObject({ status: 413, body: { message: 'CHAT_FILE_TOO_LARGE' } });
    const video = await upload('/api/chat/upload-video', 'clip.mp4', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), randomBytes(1000)]));
    expect(video.statusCode).toBe(200);
    // Sent in a media message: the conversation's history carries a working signed link.
    const media = { sender: 'customer', guestId, message: { message_type: 'media', payload: { url: path, filePath: path, fileType: 'image', name: 'slip.png' } } };
    expect((await call(t.app, 'POST', '/api/chat/send-message', { body: media })).status).toBe(200);
    const shown = (await history({ guestId }, 1)).body[0];
    const url = String(shown?.message.payload.url);
    expect(url).toMatch(/\?exp=\d+&sig=[0-9a-f]{64}$/);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // Another conversation cannot send that file as its own.
    expect(await call(t.app, 'POST', '/api/chat/send-message', { body: { ...media, guestId: randomUUID() } })).toMatchObject({ status: 400, body: { message: 'CHAT_FILE_UNKNOWN' } });
  });

  it('limits messages per sender per minute', async () => {
    const guestId = randomUUID();
    const answers = [];
    for (let i = 0; i < 27; i += 1) answers.push((await call(t.app, 'POST', '/api/chat/send-message', { body: text(`n${i}`, { guestId }) })).status);
    expect(answers.slice(0, 25).every((s) => s === 200)).toBe(true);
    expect(answers.slice(25)).toEqual([429, 429]);
  });

  it('socket: joins only its own room, gets support replies once, and what was sent during a short drop', async () => {
    const guestId = randomUUID();
    await call(t.app, 'POST', '/api/chat/send-message', { body: text('need help', { guestId }) });
    const thread = ((await t.app.inject({ method: 'GET', url: '/api/operator/chat/conversations?limit=100', headers: operator })).json() as Array<{ id: string; guestId: string; unread: number }>).find((c) => c.guestId === guestId);
    expect(thread?.unread).toBe(1);
    const client: Socket = connect(base, { auth: { guestId }, transports: ['websocket'] });
    const got: Conv[] = [];
    client.on('messaging', (c: Conv) => got.push(c));
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('connect_error', reject);
    });
    expect(await client.emitWithAck('join', `mw-chat-${randomUUID()}`)).toEqual({ ok: false, message: 'CHAT_FORBIDDEN' });
    expect(await client.emitWithAck('join', `mw-chat-${guestId}`)).toEqual({ ok: true });
    const reply = (message: string) => t.app.inject({ method: 'POST', url: `/api/operator/chat/conversations/${thread?.id}/messages`, headers: operator, payload: { message: { message_type: 'text', payload: { message } } } });
    expect((await reply('hi, how can we help?')).statusCode).toBe(200);
    await until(async () => got.length, (n) => n >= 1);
    // A short drop: the transport closes under the client, support writes twice, the client comes back.
    client.io.engine.close();
    await reply('are you there?');
    await reply('we found your deposit');
    await until(async () => got.length, (n) => n >= 3, 8000);
    expect(got.map((c) => c.message.payload.message)).toEqual(['hi, how can we help?', 'are you there?', 'we found your deposit']);
    expect(new Set(got.map((c) => c._id)).size).toBe(3);
    client.close();
    // Without a guest id or token the handshake is refused.
    const stranger = connect(base, { transports: ['websocket'], reconnection: false });
    const refused = await new Promise<string>((resolve) => stranger.once('connect_error', (error) => resolve(error.message)));
    expect(refused).toBe('CHAT_NO_IDENTITY');
    stranger.close();
    // Support reads it; closing the session makes the next message start a new one.
    expect((await t.app.inject({ method: 'PUT', url: `/api/operator/chat/conversations/${thread?.id}/read`, headers: operator })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/api/operator/chat/conversations/${thread?.id}/close`, headers: operator })).statusCode).toBe(200);
    await call(t.app, 'POST', '/api/chat/send-message', { body: text('one more thing', { guestId }) });
    const sessions = new Set((await history({ guestId }, 50)).body.map((c) => c.session_id));
    expect(sessions.size).toBe(2);
    expect((await t.app.inject({ method: 'GET', url: '/api/operator/chat/conversations?limit=100' })).statusCode).toBe(403);
  });

  it('socket as a member: the token says who; support\'s reply arrives; another member\'s room is refused', async () => {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    await call(t.app, 'POST', '/api/chat/send-message', { token, body: text('member here', { userId: m.id }) });
    const thread = ((await t.app.inject({ method: 'GET', url: '/api/operator/chat/conversations?limit=100', headers: operator })).json() as Array<{ id: string; userId: string | null }>).find((c) => c.userId === m.id);
    const client: Socket = connect(base, { auth: { token }, transports: ['websocket'] });
    const got: Conv[] = [];
    client.on('messaging', (c: Conv) => got.push(c));
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('connect_error', reject);
    });
    expect(await client.emitWithAck('join', `mw-chat-${m.id}`)).toEqual({ ok: true });
    const other = await registerMember(t.app);
    expect(await client.emitWithAck('join', `mw-chat-${other.id}`)).toEqual({ ok: false, message: 'CHAT_FORBIDDEN' });
    await t.app.inject({ method: 'POST', url: `/api/operator/chat/conversations/${thread?.id}/messages`, headers: operator, payload: { message: { message_type: 'quick_replies', payload: { message: 'ok?', buttons: [{ type: 'postback', title: 'Yes', payload: 'YES' }] } } } });
    await until(async () => got.length, (n) => n >= 1);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ sender: 'support', message: { message_type: 'quick_replies' } });
    client.close();
    // A wrong token is refused at the handshake.
    const forged = connect(base, { auth: { token: 'x'.repeat(43) }, transports: ['websocket'], reconnection: false });
    expect(await new Promise<string>((resolve) => forged.once('connect_error', (error) => resolve(error.message)))).toBe('CHAT_NO_IDENTITY');
    forged.close();
  });
});
