import { randomBytes, randomUUID } from 'node:crypto';
import { moduleDb } from '../src/db/database';
import type { ChatDb } from '../src/modules/chat/tables';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatFiles } from '../src/modules/chat/chat-files';
import { FileObjectStore } from '../src/modules/chat/chat-store';
import { SignedLinks } from '../src/platform/signed-links';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { call, dbKinds, dropSchema, login, OPERATOR_TOKEN, REDIS_URL, registerMember, startApp, type TestApp } from './helpers';

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
// A real image (uploads are decoded), and a PNG signature followed by junk (refused).
const PNG = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#e3b341' } }).png().toBuffer();
const JUNK_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200_000)]);
const EXE = Buffer.concat([Buffer.from('MZ'), randomBytes(500)]);

/** multipart/form-data with one file field, after the given text fields (a guest's `guestId`). */
function multipart(filename: string, bytes: Buffer, field = 'file', fields: Record<string, string> = {}) {
  const boundary = `----mw${randomBytes(8).toString('hex')}`;
  const texts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('');
  const head = Buffer.from(`${texts}--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
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
    // The attachment cleaner off: the retention tests run it themselves.
    t = await startApp(kind, { CHAT_MESSAGES_PER_MINUTE: '25', CHAT_FILE_CLEAN_INTERVAL_MINUTES: '0' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A guest session the server issued. */
  const guest = async (remoteAddress?: string): Promise<string> => {
    const issued = await call<{ guestId: string }>(t.app, 'POST', '/api/chat/guest', { body: {}, ...(remoteAddress ? { remoteAddress } : {}) });
    expect(issued.status).toBe(200);
    return issued.body.guestId;
  };
  /** A guest session that has written (a guest uploads only into a conversation they started). */
  const writer = async (remoteAddress?: string, app = t.app): Promise<string> => {
    const issued = await call<{ guestId: string }>(app, 'POST', '/api/chat/guest', { body: {}, ...(remoteAddress ? { remoteAddress } : {}) });
    const guestId = issued.body.guestId;
    expect((await call(app, 'POST', '/api/chat/send-message', { body: text('hello', { guestId }), ...(remoteAddress ? { remoteAddress } : {}) })).status).toBe(200);
    return guestId;
  };
  const uuidOf = (session: string) => session.split('.')[0] ?? '';
  const forge = (session: string) => `${uuidOf(session)}.${'A'.repeat(22)}`;

  const history = async (who: Record<string, unknown>, limit = 10, skip = 0, token?: string) =>
    call<Conv[]>(t.app, 'POST', '/api/chat/history', { body: { limit, skip, ...who }, ...(token ? { token } : {}) });

  it('answers the prefix; a guest chats with the sandbox bot, every kind shown, history newest first in pages', async () => {
    expect((await call(t.app, 'GET', '/api/chat/config')).body).toEqual({ PREFIX: 'mw-chat' });
    const guestId = await guest();
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
    const a = await guest();
    await call(t.app, 'POST', '/api/chat/send-message', { body: text('secret of a', { guestId: a }) });
    expect((await history({ guestId: await guest() })).body).toEqual([]);
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    expect(await history({ userId: m.id })).toMatchObject({ status: 403, body: { message: 'CHAT_FORBIDDEN' } });
    expect(await call(t.app, 'POST', '/api/chat/send-message', { body: text('x', { userId: m.id, guestId: await guest() }) })).toMatchObject({ status: 403 });
    const other = await registerMember(t.app);
    expect(await history({ userId: other.id }, 10, 0, token)).toMatchObject({ status: 403, body: { message: 'CHAT_FORBIDDEN' } });
    expect(await history({ guestId: 'guest-1' })).toMatchObject({ status: 401, body: { message: 'CHAT_GUEST_INVALID' } });
    // A guest id the server did not sign: a bare UUID, or another guest's uuid with a made-up signature.
    expect(await history({ guestId: randomUUID() })).toMatchObject({ status: 401, body: { message: 'CHAT_GUEST_INVALID' } });
    expect(await history({ guestId: forge(a) })).toMatchObject({ status: 401, body: { message: 'CHAT_GUEST_INVALID' } });
    expect(await history({})).toMatchObject({ status: 401, body: { message: 'CHAT_NO_IDENTITY' } });
    // The member's own conversation does not hold the guest's messages.
    expect((await history({ userId: m.id }, 10, 0, token)).body.some((c) => c.message.payload.message === 'secret of a')).toBe(false);
  });

  it('a guest who logs in keeps the conversation; the guest id alone then reads nothing of it', async () => {
    const guestId = await guest();
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
    const guestId = await guest();
    const send = (message: string) => call(t.app, 'POST', '/api/chat/send-message', { body: text(message, { guestId }) });
    expect(await send('   ')).toMatchObject({ status: 400, body: { message: 'CHAT_MESSAGE_EMPTY' } });
    expect(await send('ก'.repeat(2001))).toMatchObject({ status: 400, body: { message: 'CHAT_MESSAGE_TOO_LONG' } });
    expect((await send(`  ${'ก'.repeat(2000)}  `)).status).toBe(200);
    expect(await send('a\u0000b')).toMatchObject({ status: 400, body: { message: 'KEY_INVALID' } });
    const xss = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    expect((await send(xss)).status).toBe(200);
    expect((await history({ guestId }, 1)).body[0]?.message.payload.message).toBe(xss);
  });

  it('uploads: decoded images and sniffed videos within 10 / 20 MB, served only by signed link to the conversation', async () => {
    // Before a message of their own, a guest uploads nothing.
    const silent = await guest();
    const early = await t.app.inject({ method: 'POST', url: '/api/chat/upload-image', ...multipart('slip.png', PNG, 'file', { guestId: silent }) });
    expect({ status: early.statusCode, body: early.json() as unknown }).toEqual({ status: 403, body: { message: 'CHAT_WRITE_FIRST' } });
    const guestId = await writer();
    const upload = (path: string, name: string, bytes: Buffer) => t.app.inject({ method: 'POST', url: path, ...multipart(name, bytes, 'file', { guestId }) });
    const ok = await upload('/api/chat/upload-image', 'slip.png', PNG);
    expect(ok.statusCode).toBe(200);
    const path = (ok.json() as { path: string }).path;
    expect(path).toMatch(/^\/api\/chat\/files\/[0-9a-f]{24}$/);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    expect((await upload('/api/chat/upload-image', 'setup.png', EXE)).json()).toEqual({ message: 'CHAT_FILE_UNSUPPORTED' });
    // A PNG signature followed by junk is no image.
    expect((await upload('/api/chat/upload-image', 'junk.png', JUNK_PNG)).json()).toEqual({ message: 'CHAT_FILE_UNSUPPORTED' });
    expect((await upload('/api/chat/upload-image', 'noextension', PNG)).json()).toEqual({ message: 'CHAT_FILE_UNSUPPORTED' });
    // A NUL and other control characters in the file's name are dropped from the name kept, never a 500.
    const odd = await upload('/api/chat/upload-image', 'a\u0000b\u0007.png', PNG);
    expect(odd.statusCode).toBe(200);
    const oddId = /([0-9a-f]{24})$/.exec((odd.json() as { path: string }).path)?.[1] ?? '';
    expect((await t.services.database.db.selectFrom('chat_files').select('name').where('id', '=', oddId).executeTakeFirstOrThrow()).name).toBe('ab.png');
    // The guest session and no file part at all: nothing to store.
    const boundary = `----mw${randomBytes(8).toString('hex')}`;
    const onlyGuest = await t.app.inject({
      method: 'POST',
      url: '/api/chat/upload-image',
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="guestId"\r\n\r\n${guestId}\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect({ status: onlyGuest.statusCode, body: onlyGuest.json() }).toEqual({ status: 400, body: { message: 'CHAT_NO_FILE' } });
    expect((await upload('/api/chat/upload-video', 'clip.png', PNG)).json()).toEqual({ message: 'CHAT_FILE_UNSUPPORTED' });
    const big = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(25 * 1024 * 1024)]);
    const tooBig = await upload('/api/chat/upload-video', 'clip.mp4', big);
    expect({ status: tooBig.statusCode, body: tooBig.json() }).toMatchObject({ status: 413, body: { message: 'CHAT_FILE_TOO_LARGE' } });
    const video = await upload('/api/chat/upload-video', 'clip.mp4', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), randomBytes(1000)]));
    expect(video.statusCode).toBe(200);
    // Sent in a media message: the conversation's history carries a working signed link.
    const media = { sender: 'customer', guestId, message: { message_type: 'media', payload: { url: path, filePath: path, fileType: 'image', name: 'slip.png' } } };
    expect((await call(t.app, 'POST', '/api/chat/send-message', { body: media })).status).toBe(200);
    // The newest media message (the sandbox bot may still be answering the guest's first words).
    const shown = (await history({ guestId }, 10)).body.find((c) => c.message.message_type === 'media');
    const url = String(shown?.message.payload.url);
    expect(url).toMatch(/\?exp=\d+&sig=[0-9a-f]{64}$/);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // Another conversation cannot send that file as its own, nor another sender's upload not yet sent.
    expect(await call(t.app, 'POST', '/api/chat/send-message', { body: { ...media, guestId: await guest() } })).toMatchObject({ status: 400, body: { message: 'CHAT_FILE_UNKNOWN' } });
    const unsent = (await upload('/api/chat/upload-image', 'mine.png', PNG).then((r) => r.json())) as { path: string };
    const foreign = { sender: 'customer', guestId: await writer(), message: { message_type: 'media', payload: { url: unsent.path, filePath: unsent.path, fileType: 'image', name: 'mine.png' } } };
    expect(await call(t.app, 'POST', '/api/chat/send-message', { body: foreign })).toMatchObject({ status: 400, body: { message: 'CHAT_FILE_UNKNOWN' } });
  });

  it('keeps members ahead of unanswered guests in the inbox, however many guests write after them', async () => {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    expect((await call(t.app, 'POST', '/api/chat/send-message', { token, body: text('my deposit?') })).status).toBe(200);
    const guests = [];
    for (let i = 0; i < 5; i++) guests.push(await writer(`10.9.0.${i + 1}`));
    const inbox = (await t.app.inject({ method: 'GET', url: '/api/operator/chat/conversations?limit=100', headers: operator })).json() as Array<{ userId: string | null; guestId: string | null }>;
    const memberAt = inbox.findIndex((c) => c.userId === m.id);
    const guestAt = guests.map((g) => inbox.findIndex((c) => c.guestId === uuidOf(g)));
    expect(memberAt).toBeGreaterThanOrEqual(0);
    expect(guestAt.every((at) => at > memberAt)).toBe(true);
  });

  it('limits messages per sender per minute', async () => {
    const guestId = await guest();
    const answers = [];
    for (let i = 0; i < 27; i += 1) answers.push((await call(t.app, 'POST', '/api/chat/send-message', { body: text(`n${i}`, { guestId }) })).status);
    expect(answers.slice(0, 25).every((s) => s === 200)).toBe(true);
    expect(answers.slice(25)).toEqual([429, 429]);
  });

  it('socket: joins only its own room, gets support replies once, and what was sent during a short drop', async () => {
    const guestId = await guest();
    await call(t.app, 'POST', '/api/chat/send-message', { body: text('need help', { guestId }) });
    const thread = ((await t.app.inject({ method: 'GET', url: '/api/operator/chat/conversations?limit=100', headers: operator })).json() as Array<{ id: string; guestId: string; unread: number }>).find((c) => c.guestId === uuidOf(guestId));
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
    expect(await client.emitWithAck('join', `mw-chat-${uuidOf(guestId)}`)).toEqual({ ok: true });
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
    // Nor with a forged guest session.
    const forger = connect(base, { auth: { guestId: forge(guestId) }, transports: ['websocket'], reconnection: false });
    expect(await new Promise<string>((resolve) => forger.once('connect_error', (error) => resolve(error.message)))).toBe('CHAT_NO_IDENTITY');
    forger.close();
    // Support reads it; closing the session makes the next message start a new one.
    expect((await t.app.inject({ method: 'PUT', url: `/api/operator/chat/conversations/${thread?.id}/read`, headers: operator })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/api/operator/chat/conversations/${thread?.id}/close`, headers: operator })).statusCode).toBe(200);
    await call(t.app, 'POST', '/api/chat/send-message', { body: text('one more thing', { guestId }) });
    const sessions = new Set((await history({ guestId }, 50)).body.map((c) => c.session_id));
    expect(sessions.size).toBe(2);
    expect((await t.app.inject({ method: 'GET', url: '/api/operator/chat/conversations?limit=100' })).statusCode).toBe(401);
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
  it('guest sessions: the server issues them, keeps its own, adopts a bare UUID of an earlier conversation once', async () => {
    const issued = await guest();
    expect(issued).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.[A-Za-z0-9_-]{22}$/);
    expect((await call(t.app, 'POST', '/api/chat/guest', { body: { guestId: issued } })).body).toEqual({ guestId: issued });
    // A conversation an older client started under a UUID it made itself (before chat/002).
    const legacy = randomUUID();
    await t.services.database.db.insertInto('chat_threads').values({ id: randomBytes(12).toString('hex'), member_id: null, guest_id: legacy, origin_guest_id: legacy, session_id: randomBytes(12).toString('hex') }).execute();
    const adopted = await call<{ guestId: string }>(t.app, 'POST', '/api/chat/guest', { body: { guestId: legacy } });
    expect(uuidOf(adopted.body.guestId)).toBe(legacy);
    expect((await history({ guestId: adopted.body.guestId })).status).toBe(200);
    // Once only; and a UUID nobody chatted under gets a session of its own.
    expect(uuidOf((await call<{ guestId: string }>(t.app, 'POST', '/api/chat/guest', { body: { guestId: legacy } })).body.guestId)).not.toBe(legacy);
    const unknown = randomUUID();
    expect(uuidOf((await call<{ guestId: string }>(t.app, 'POST', '/api/chat/guest', { body: { guestId: unknown } })).body.guestId)).not.toBe(unknown);
    expect((await call(t.app, 'POST', '/api/chat/guest', { body: { guestId: forge(issued) } })).body).not.toEqual({ guestId: forge(issued) });
    expect(await call(t.app, 'POST', '/api/chat/guest', { body: { guestId: 'x'.repeat(65) } })).toMatchObject({ status: 400 });
    expect(await call(t.app, 'POST', '/api/chat/guest', { body: { guestId: 7 } })).toMatchObject({ status: 400 });
  });

  it('uploads need a member token or a guest session the server issued', async () => {
    const upload = (fields: Record<string, string>, headers: Record<string, string> = {}) => {
      const form = multipart('a.png', PNG, 'file', fields);
      return t.app.inject({ method: 'POST', url: '/api/chat/upload-image', payload: form.payload, headers: { ...form.headers, ...headers } });
    };
    const refused = async (fields: Record<string, string>) => {
      const answer = await upload(fields);
      return { status: answer.statusCode, body: answer.json() as unknown };
    };
    expect(await refused({})).toEqual({ status: 401, body: { message: 'CHAT_NO_IDENTITY' } });
    expect(await refused({ guestId: randomUUID() })).toEqual({ status: 401, body: { message: 'CHAT_GUEST_INVALID' } });
    expect(await refused({ guestId: forge(await guest()) })).toEqual({ status: 401, body: { message: 'CHAT_GUEST_INVALID' } });
    expect((await upload({ guestId: await writer() })).statusCode).toBe(200);
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    expect((await upload({}, { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    // A token that is no longer valid is not an identity either.
    expect((await upload({}, { authorization: `Bearer ${'x'.repeat(43)}` })).statusCode).toBe(401);
  });

  it('limits uploads per sender and per address, messages per guest session and per address', async () => {
    const limited = await startApp(kind, { CHAT_UPLOADS_PER_HOUR: '2', CHAT_UPLOADS_PER_ADDRESS_PER_HOUR: '5', CHAT_MESSAGES_PER_MINUTE: '3', CHAT_MESSAGES_PER_ADDRESS_PER_MINUTE: '4', CHAT_BOT: 'off' });
    try {
      const issue = async (remoteAddress: string) => (await call<{ guestId: string }>(limited.app, 'POST', '/api/chat/guest', { body: {}, remoteAddress })).body.guestId;
      const upload = async (guestId: string, remoteAddress: string) => {
        const answer = await limited.app.inject({ method: 'POST', url: '/api/chat/upload-image', remoteAddress, ...multipart('a.png', PNG, 'file', { guestId }) });
        return answer.statusCode === 200 ? 200 : { status: answer.statusCode, message: (answer.json() as { message: string }).message };
      };
      const limit = { status: 429, message: 'REQUEST_LIMIT' };
      const [g1, g2, g3] = [await writer('10.1.0.1', limited.app), await writer('10.1.0.1', limited.app), await writer('10.1.0.1', limited.app)];
      // Per sender: two an hour.
      expect([await upload(g1, '10.1.0.1'), await upload(g1, '10.1.0.1'), await upload(g1, '10.1.0.1')]).toEqual([200, 200, limit]);
      // Per address: five an hour, whoever sends (the refused one above counted).
      expect([await upload(g2, '10.1.0.1'), await upload(g2, '10.1.0.1'), await upload(g3, '10.1.0.1')]).toEqual([200, 200, limit]);
      // Another address is not held back.
      expect(await upload(g3, '10.1.0.2')).toBe(200);

      const send = async (guestId: string, remoteAddress: string) => {
        const answer = await call<{ message?: string }>(limited.app, 'POST', '/api/chat/send-message', { body: text('hi', { guestId }), remoteAddress });
        return answer.status === 200 ? 200 : { status: answer.status, message: answer.body.message };
      };
      const flood = { status: 429, message: 'REQUEST_LIMIT_1MIN' };
      const [h1, h2] = [await issue('10.2.0.1'), await issue('10.2.0.1')];
      expect([await send(h1, '10.2.0.1'), await send(h1, '10.2.0.1'), await send(h1, '10.2.0.1'), await send(h1, '10.2.0.1')]).toEqual([200, 200, 200, flood]);
      expect(await send(h2, '10.2.0.1')).toEqual(flood);
      expect(await send(h2, '10.2.0.2')).toBe(200);
      // A forged session is no new key: refused before any counting.
      expect(await send(forge(h2), '10.2.0.3')).toEqual({ status: 401, message: 'CHAT_GUEST_INVALID' });
    } finally {
      await limited.close();
    }
  });

  it('retention: the cleaner deletes attachments past the retention period and unsent ones after an hour; rows from before the store are served, then cleaned', async () => {
    const db = t.services.database.db;
    const files = t.services.chat.files;
    const guestId = await writer();
    const uploadOne = async (name: string) => ((await t.app.inject({ method: 'POST', url: '/api/chat/upload-image', ...multipart(name, PNG, 'file', { guestId }) })).json() as { path: string }).path;
    const sent = await uploadOne('sent.png');
    expect((await call(t.app, 'POST', '/api/chat/send-message', { body: { sender: 'customer', guestId, message: { message_type: 'media', payload: { url: sent, filePath: sent, fileType: 'image', name: 'sent.png' } } } })).status).toBe(200);
    const unsent = await uploadOne('unsent.png');
    // A row written by chat/001, its bytes in the row.
    const legacy = randomBytes(12).toString('hex');
    await db.insertInto('chat_files').values({ id: legacy, thread_id: null, kind: 'image', mime: 'image/png', ext: 'png', size: PNG.length, name: 'legacy.png', bytes: PNG }).execute();
    const get = async (path: string) => (await t.app.inject({ method: 'GET', url: files.signed(path) })).statusCode;
    expect([await get(sent), await get(unsent), await get(ChatFiles.pathOf(legacy))]).toEqual([200, 200, 200]);

    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await db.updateTable('chat_files').set({ created_at: daysAgo(91) }).where('id', 'in', [ChatFiles.idOf(sent) ?? '', legacy]).execute();
    expect(await files.clean(90)).toBeGreaterThanOrEqual(2);
    expect([await get(sent), await get(unsent), await get(ChatFiles.pathOf(legacy))]).toEqual([404, 200, 404]);
    // The message stays in history; its link answers 404.
    expect((await history({ guestId }, 10)).body.some((c) => c.message.message_type === 'media')).toBe(true);
    // An upload no message named for more than an hour goes too.
    await db.updateTable('chat_files').set({ created_at: new Date(Date.now() - 61 * 60_000) }).where('id', '=', ChatFiles.idOf(unsent) ?? '').execute();
    expect(await files.clean(90)).toBeGreaterThanOrEqual(1);
    expect(await get(unsent)).toBe(404);
  });

  it('the file store keeps uploads as files under the data folder; the cleaner deletes them, and stray old files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mw-chat-files-'));
    try {
      const store = new FileObjectStore(dir);
      const files = new ChatFiles(moduleDb<ChatDb>(t.services.database), new SignedLinks('s'.repeat(32), 60, ChatFiles.pathOf), store);
      const id = ChatFiles.idOf((await files.save('image', 'a.png', PNG, 'guest:test')).path) ?? '';
      expect((await store.get(id))?.equals(PNG)).toBe(true);
      const kept = ChatFiles.idOf((await files.save('image', 'b.png', PNG, 'guest:test')).path) ?? '';
      const stray = randomBytes(12).toString('hex');
      await store.put(stray, PNG);
      const old = new Date(Date.now() - 100 * 86_400_000);
      await utimes(join(dir, stray.slice(-2), stray), old, old);
      await t.services.database.db.updateTable('chat_files').set({ created_at: old }).where('id', '=', id).execute();
      expect(await files.clean(90)).toBeGreaterThanOrEqual(1);
      expect(await store.get(id)).toBeNull();
      expect(await store.get(stray)).toBeNull();
      expect((await store.get(kept))?.equals(PNG)).toBe(true);
      expect((await readdir(dir, { recursive: true })).filter((f) => /[0-9a-f]{24}$/.test(f))).toEqual([join(kept.slice(-2), kept)]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const connected = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });

  it("logout closes that session's sockets (not the member's other sessions'), and the revoked token cannot come back", async () => {
    const m = await registerMember(t.app);
    const token = await login(t.app, m.phone, m.password);
    const otherToken = await login(t.app, m.phone, m.password);
    const a: Socket = connect(base, { auth: { token }, transports: ['websocket'], reconnection: false });
    const b: Socket = connect(base, { auth: { token: otherToken }, transports: ['websocket'], reconnection: false });
    await Promise.all([connected(a), connected(b)]);
    const closed = new Promise<string>((resolve) => a.once('disconnect', (reason) => resolve(reason)));
    expect((await call(t.app, 'POST', '/api/logout', { token })).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    await new Promise((r) => setTimeout(r, 200));
    expect(b.connected).toBe(true);
    const refused = new Promise<string>((resolve) => a.once('connect_error', (error) => resolve(error.message)));
    a.connect();
    expect(await refused).toBe('CHAT_NO_IDENTITY');
    a.close();
    b.close();
  });

  it.runIf(kind === 'postgres')('logout on another process closes the socket there too (Redis adapter)', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const prefix = `mw-chat-${randomBytes(3).toString('hex')}`;
    const env = { REDIS_URL, CHAT_PREFIX: prefix, CHAT_BOT: 'off' };
    const one = await startApp('postgres', env, schema);
    let two: TestApp | null = null;
    try {
      two = await startApp('postgres', env, schema);
      const oneBase = `http://127.0.0.1:${(one.app.server.address() as AddressInfo).port}`;
      const m = await registerMember(two.app);
      const token = await login(two.app, m.phone, m.password);
      const socket: Socket = connect(oneBase, { auth: { token }, transports: ['websocket'], reconnection: false });
      await connected(socket);
      expect(await socket.emitWithAck('join', `${prefix}-${m.id}`)).toEqual({ ok: true });
      const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
      expect((await call(two.app, 'POST', '/api/logout', { token })).status).toBe(200);
      expect(await closed).toBe('io server disconnect');
      socket.close();
    } finally {
      await two?.close();
      await one.close();
      await dropSchema(schema);
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });
});
