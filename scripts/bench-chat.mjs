// Chat fan-out: 500 socket.io clients connected to one server process, support messages sent at a
// steady rate through the operator API (each stored, then delivered to one conversation's room),
// and the time from sending to the client's `messaging` event.
import { io } from 'socket.io-client';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function pool(items, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++];
        await work(item);
      }
    }),
  );
}

export async function chatBench(base, operatorToken, { clients = 500, rate = 200, seconds = 10 } = {}) {
  const json = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const operator = { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' };
  const prefix = (await (await fetch(`${base}/api/chat/config`)).json()).PREFIX;
  // Each guest's session is issued by the server (POST /api/chat/guest, signed `<uuid>.<signature>`),
  // as the app's chat bubble gets it; its conversation exists once it has been read.
  const guests = [];
  await pool(Array.from({ length: clients }, (_, i) => i), 16, async () => {
    const issued = await fetch(`${base}/api/chat/guest`, { method: 'POST', headers: json, body: JSON.stringify({ guestId: null }) });
    if (!issued.ok) throw new Error(`guest session ${issued.status}`);
    const { guestId } = await issued.json();
    const res = await fetch(`${base}/api/chat/history`, { method: 'POST', headers: json, body: JSON.stringify({ guestId, limit: 1, skip: 0 }) });
    if (!res.ok) throw new Error(`history ${res.status}`);
    guests.push(guestId);
  });
  const threadOf = new Map();
  const own = new Set(guests.flatMap((g) => [g, g.split('.')[0]]));
  for (let skip = 0; threadOf.size < clients && skip < clients * 2; skip += 100) {
    const page = await (await fetch(`${base}/api/operator/chat/conversations?limit=100&skip=${skip}`, { headers: operator })).json();
    if (!Array.isArray(page) || page.length === 0) break;
    for (const c of page) if (c.guestId && own.has(c.guestId)) threadOf.set(c.guestId, c.id);
  }
  const latencies = [];
  let delivered = 0;
  const sockets = [];
  await pool(guests, 50, async (guestId) => {
    const socket = io(base, { auth: { guestId }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    socket.on('messaging', (c) => {
      const sent = Number(c?.message?.payload?.message);
      if (Number.isFinite(sent)) {
        latencies.push(performance.now() - sent);
        delivered += 1;
      }
    });
    await new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const answer = await socket.emitWithAck('join', `${prefix}-${guestId}`);
    if (!answer?.ok) throw new Error('join refused');
  });
  const threads = guests.map((g) => threadOf.get(g) ?? threadOf.get(g.split('.')[0])).filter(Boolean);
  let sent = 0;
  let errors = 0;
  const inFlight = new Set();
  const started = performance.now();
  const end = started + seconds * 1000;
  const interval = 1000 / rate;
  for (let at = started; at < end; at += interval) {
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    const thread = threads[sent % threads.length];
    const body = JSON.stringify({ message: { message_type: 'text', payload: { message: String(performance.now()) } } });
    const p = fetch(`${base}/api/operator/chat/conversations/${thread}/messages`, { method: 'POST', headers: operator, body })
      .then((r) => {
        if (!r.ok) errors += 1;
        return r.arrayBuffer();
      })
      .catch(() => {
        errors += 1;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    sent += 1;
  }
  await Promise.all(inFlight);
  const sendSeconds = (performance.now() - started) / 1000;
  for (let i = 0; i < 50 && delivered < sent - errors; i++) await sleep(100);
  for (const s of sockets) s.close();
  latencies.sort((a, b) => a - b);
  const pct = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN);
  return { clients: sockets.length, sent, delivered, errors, rate: sent / sendSeconds, deliveredPerSecond: delivered / sendSeconds, p50: pct(50), p99: pct(99) };
}
