import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '@mw/contract/chat';
import { openChatSocket, uploadAttachment } from '../src/features/chat/chatClient';
import { guestSession, renewGuestId, storedGuestId } from '../src/features/chat/guestId';
import { mockApi, ok } from './helpers';

/** A socket.io client stand-in: the test fires its events. */
const fakeSocket = vi.hoisted(() => {
  const listeners = new Map<string, Array<(...args: unknown[]) => void>>();
  return {
    listeners,
    fire: (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((l) => l(...args)),
    socket: {
      connected: true,
      active: true,
      recovered: true,
      on(event: string, listener: (...args: unknown[]) => void) {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      },
      emit: () => undefined,
      connect: () => undefined,
      close: () => undefined,
    },
  };
});
vi.mock('socket.io-client', () => ({ io: () => fakeSocket.socket }));

const SIGNED = '0b6f7a52-3c1d-4e8f-9a2b-1c2d3e4f5a6b.AAAAAAAAAAAAAAAAAAAAAA';

/** An XMLHttpRequest stand-in that keeps what was sent and answers 200 with a path. */
class FakeXhr {
  static sent: FormData[] = [];
  upload = { onprogress: null, onload: null };
  status = 200;
  responseText = JSON.stringify({ path: '/api/chat/files/0123456789abcdef01234567' });
  timeout = 0;
  onload: (() => void) | null = null;
  open(): void {}
  setRequestHeader(): void {}
  send(form: FormData): void {
    FakeXhr.sent.push(form);
    queueMicrotask(() => this.onload?.());
  }
  abort(): void {}
}

describe('chat guest sessions', () => {
  afterEach(() => {
    localStorage.clear();
    FakeXhr.sent = [];
  });

  it('asks the server for a session, sending what is stored (an older bare UUID is adopted by the server), and keeps the answer', async () => {
    localStorage.setItem('guest-id', '0b6f7a52-3c1d-4e8f-9a2b-1c2d3e4f5a6b');
    const api = mockApi({ 'POST /api/chat/guest': ok({ guestId: SIGNED }) });
    expect(await guestSession()).toBe(SIGNED);
    expect(api.callsTo('POST', '/api/chat/guest')[0]?.body).toEqual({ guestId: '0b6f7a52-3c1d-4e8f-9a2b-1c2d3e4f5a6b' });
    expect(storedGuestId()).toBe(SIGNED);
    // After a member took the conversation over, the next guest session is a new one.
    renewGuestId();
    expect(storedGuestId()).toBeNull();
    await guestSession();
    expect(api.callsTo('POST', '/api/chat/guest')[1]?.body).toEqual({ guestId: null });
  });

  it("a guest's upload carries the session in the field guestId before the file; a member's does not", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', { type: 'image/png' });
    await uploadAttachment({ kind: 'guest', guestId: SIGNED }, 'image', file, () => undefined);
    await uploadAttachment({ kind: 'member', userId: 'm1', guestId: SIGNED }, 'image', file, () => undefined);
    expect([...(FakeXhr.sent[0]?.keys() ?? [])]).toEqual(['guestId', 'file']);
    expect(FakeXhr.sent[0]?.get('guestId')).toBe(SIGNED);
    expect([...(FakeXhr.sent[1]?.keys() ?? [])]).toEqual(['file']);
  });

  it('hands each message over once, though the socket delivers it twice (a recovered connection replays while live delivery goes on)', () => {
    const got: Conversation[] = [];
    const stop = openChatSocket('mw-chat', { kind: 'guest', guestId: SIGNED }, { onMessage: (c) => got.push(c), onState: () => undefined, resync: () => undefined });
    const message = (id: string, text: string) => ({ _id: id, sender: 'support', message: { message_type: 'text', payload: { message: text } }, createdAt: new Date().toISOString(), session_id: 's', userId: null, guestId: null, username: null, name: null, deviceToken: null });
    fakeSocket.fire('messaging', message('m1', 'one'), '1-0');
    fakeSocket.fire('messaging', message('m2', 'two'), '2-0');
    fakeSocket.fire('messaging', message('m1', 'one'), '1-0');
    fakeSocket.fire('messaging', { nonsense: true });
    expect(got.map((c) => c._id)).toEqual(['m1', 'm2']);
    stop();
  });
});
