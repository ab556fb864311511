/**
 * An SMS gateway, as most Thai and Lao gateways are: one POST per message, the number in
 * international form, the text and a sender name, a bearer token. It delivers nothing: it keeps
 * each message (journaled) so a demo or a test can read the one-time code a member would have
 * received. Protocol: docs/sandbox.md.
 *
 * - `POST /sms/send` `Authorization: Bearer {token}`, JSON `{to, from, text}`: `to` is digits with
 *   the country code (66…, 856…: 8–18 digits), `from` 1–32 characters, `text` 1–480
 *   characters. Answers `200 {status: "SENT", messageId}`; `401 {status: "UNAUTHORIZED"}`;
 *   `400 {status: "BAD_REQUEST", field}`. A message is never sent twice by the gateway, but a
 *   client that retries after a lost answer sends a second one (as with a real gateway).
 * - Control (unsigned, sandbox only): `GET /control/sms/messages?to=66812345678&limit=20` (newest
 *   first, at most 50).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { defineSystem, json, type Answer, type SandboxRequest, type SystemContext } from '../kit';

export interface SmsMessage {
  messageId: string;
  to: string;
  from: string;
  text: string;
  at: string;
}

export interface SmsState {
  messages: SmsMessage[];
}

export type SmsEvent = { type: 'sent'; message: SmsMessage };

/** Messages kept per number (the oldest go first): a demo reads the last few. */
const KEEP_PER_NUMBER = 50;

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(req: SandboxRequest, token: string, ctx: SystemContext<SmsEvent>): Answer {
  if (req.method !== 'POST' || req.parts.length !== 1 || req.parts[0] !== 'send') return json(404, { status: 'NOT_FOUND' });
  const auth = String(req.headers.authorization ?? '');
  if (!auth.startsWith('Bearer ') || !sameToken(auth.slice(7), token)) return json(401, { status: 'UNAUTHORIZED' });
  const body = req.body;
  if (!body) return json(400, { status: 'BAD_REQUEST', field: 'body' });
  const to = typeof body.to === 'string' ? body.to : '';
  if (!/^[1-9]\d{7,17}$/.test(to)) return json(400, { status: 'BAD_REQUEST', field: 'to' });
  const from = typeof body.from === 'string' ? body.from : '';
  if (from.length < 1 || from.length > 32) return json(400, { status: 'BAD_REQUEST', field: 'from' });
  const text = typeof body.text === 'string' ? body.text : '';
  if (text.length < 1 || text.length > 480) return json(400, { status: 'BAD_REQUEST', field: 'text' });
  const message: SmsMessage = { messageId: `SMS${randomBytes(8).toString('hex').toUpperCase()}`, to, from, text, at: new Date(ctx.now()).toISOString() };
  ctx.commit({ type: 'sent', message });
  return json(200, { status: 'SENT', messageId: message.messageId });
}

function control(req: SandboxRequest, state: SmsState): Answer {
  if (req.method !== 'GET' || req.parts.length !== 1 || req.parts[0] !== 'messages') return json(404, { status: 'NOT_FOUND' });
  const to = req.query.get('to') ?? '';
  if (!/^\d{8,18}$/.test(to)) return json(400, { status: 'BAD_REQUEST', field: 'to' });
  const limit = Math.min(Math.max(Number(req.query.get('limit')) || 20, 1), KEEP_PER_NUMBER);
  const mine = state.messages.filter((m) => m.to === to).slice(-limit).reverse();
  return json(200, { messages: mine });
}

export function smsSystem(token: string) {
  return defineSystem<SmsState, SmsEvent>({
    name: 'sms',
    initial: () => ({ messages: [] }),
    apply(state, event) {
      state.messages.push(event.message);
      // Keep the list bounded: drop a number's oldest beyond KEEP_PER_NUMBER (checked now and then).
      if (state.messages.length % 1_000 === 0) {
        const counts = new Map<string, number>();
        state.messages = state.messages.reverse().filter((m) => {
          const n = (counts.get(m.to) ?? 0) + 1;
          counts.set(m.to, n);
          return n <= KEEP_PER_NUMBER;
        }).reverse();
      }
    },
    handle: (req, _state, ctx) => send(req, token, ctx),
    control: (req, state) => control(req, state),
    summary: (state) => ({ messages: state.messages.length }),
  });
}
