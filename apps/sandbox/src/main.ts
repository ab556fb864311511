/**
 * The outside world as its own process (issue 36, first part): a transfer-wallet game provider API
 * over HTTP, with its own storage (in memory, or a JSON file with SANDBOX_DATA_FILE), never our
 * database. Protocol and fault control: docs/sandbox.md.
 *
 *   npm run sandbox            SANDBOX_PORT (3100), SANDBOX_GAME_SECRET (sandbox-game-secret)
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type FaultMode = 'none' | 'refuse' | 'delay' | 'timeout' | 'drop' | 'down';
const FAULT_MODES: readonly FaultMode[] = ['none', 'refuse', 'delay', 'timeout', 'drop', 'down'];

interface Player {
  username: string;
  password: string;
  balance: number;
}

interface Transfer {
  requestId: string;
  code: string;
  username: string;
  direction: 'in' | 'out';
  amount: number;
  /** APPLIED: the money moved; ABSENT: refused, or asked about before it came (never applied later). */
  status: 'APPLIED' | 'ABSENT';
  answer: { status: number; body: Record<string, unknown> };
  at: string;
}

interface Store {
  players: Record<string, Player>;
  transfers: Record<string, Transfer>;
}

const port = Number(process.env.SANDBOX_PORT ?? 3100);
const secret = process.env.SANDBOX_GAME_SECRET ?? 'sandbox-game-secret';
const dataFile = process.env.SANDBOX_DATA_FILE;
const WINDOW_S = 300;

const store: Store = dataFile && existsSync(dataFile) ? (JSON.parse(readFileSync(dataFile, 'utf8')) as Store) : { players: {}, transfers: {} };
const save = (): void => {
  if (dataFile) writeFileSync(dataFile, JSON.stringify(store));
};
const faults = new Map<string, { mode: FaultMode; latencyMs: number }>();

const playerKey = (code: string, username: string): string => `${code}:${username}`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 65_536) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** X-Signature = hex HMAC-SHA256 of `${X-Timestamp}.${raw body}`, the timestamp within 300 s. */
function signed(req: IncomingMessage, raw: string): boolean {
  const timestamp = String(req.headers['x-timestamp'] ?? '');
  const signature = String(req.headers['x-signature'] ?? '');
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > WINDOW_S) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= 100 ? value : null;
}

/** One game call; answers [status, body]. The body is parsed JSON. */
function game(code: string, action: string, body: Record<string, unknown>): [number, Record<string, unknown>] {
  if (action === 'players') {
    const username = str(body.username) ?? `${code.toLowerCase()}${randomBytes(4).toString('hex')}`;
    const key = playerKey(code, username);
    const player = store.players[key] ?? { username, password: randomBytes(6).toString('hex'), balance: 0 };
    store.players[key] = player;
    return [200, { status: 'OK', username: player.username, password: player.password }];
  }
  if (action === 'check-transfer') {
    const requestId = str(body.requestId);
    if (!requestId) return [400, { status: 'BAD_REQUEST' }];
    const found = store.transfers[requestId];
    if (found) return [200, { status: found.status, requestId, amount: found.amount, direction: found.direction }];
    // Asked about before it came: it is ABSENT now and for ever (a late transfer with this id is refused).
    store.transfers[requestId] = { requestId, code, username: '', direction: 'in', amount: 0, status: 'ABSENT', answer: { status: 409, body: { status: 'TRANSFER_CLOSED' } }, at: new Date().toISOString() };
    return [200, { status: 'ABSENT', requestId }];
  }
  const username = str(body.username);
  const player = username ? store.players[playerKey(code, username)] : undefined;
  if (action === 'balance') {
    if (!player) return [404, { status: 'PLAYER_NOT_FOUND' }];
    return [200, { status: 'OK', balance: player.balance }];
  }
  if (action === 'password') {
    if (!player) return [404, { status: 'PLAYER_NOT_FOUND' }];
    player.password = randomBytes(6).toString('hex');
    return [200, { status: 'OK', username: player.username, password: player.password }];
  }
  if (action === 'transfer') {
    const requestId = str(body.requestId);
    const amount = body.amount;
    const direction = body.direction;
    if (!requestId || typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0 || (direction !== 'in' && direction !== 'out')) return [400, { status: 'BAD_REQUEST' }];
    const seen = store.transfers[requestId];
    if (seen) return [seen.answer.status, seen.answer.body];
    if (!player) return [404, { status: 'PLAYER_NOT_FOUND' }];
    let answer: Transfer['answer'];
    if (direction === 'out' && player.balance < amount) answer = { status: 409, body: { status: 'INSUFFICIENT_FUNDS', balance: player.balance } };
    else {
      player.balance += direction === 'in' ? amount : -amount;
      answer = { status: 200, body: { status: 'OK', requestId, balance: player.balance } };
    }
    store.transfers[requestId] = { requestId, code, username: player.username, direction, amount, status: answer.status === 200 ? 'APPLIED' : 'ABSENT', answer, at: new Date().toISOString() };
    return [answer.status, answer.body];
  }
  return [404, { status: 'NOT_FOUND' }];
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const raw = await readBody(req);
  if (req.method === 'GET' && url.pathname === '/health') return send(res, 200, { ok: true, players: Object.keys(store.players).length, transfers: Object.keys(store.transfers).length });
  const control = /^\/control\/games\/([A-Z0-9]{1,20})\/fault$/.exec(url.pathname);
  if (req.method === 'PUT' && control) {
    const body = JSON.parse(raw || '{}') as { mode?: unknown; latencyMs?: unknown };
    const mode = FAULT_MODES.find((m) => m === body.mode);
    const latencyMs = typeof body.latencyMs === 'number' && body.latencyMs >= 0 && body.latencyMs <= 60_000 ? body.latencyMs : 0;
    if (!mode) return send(res, 400, { status: 'BAD_REQUEST' });
    faults.set(control[1] as string, { mode, latencyMs });
    return send(res, 200, { code: control[1], mode, latencyMs });
  }
  const call = /^\/games\/([A-Z0-9]{1,20})\/([a-z-]+)$/.exec(url.pathname);
  if (req.method !== 'POST' || !call) return send(res, 404, { status: 'NOT_FOUND' });
  const code = call[1] as string;
  const action = call[2] as string;
  const fault = faults.get(code) ?? { mode: 'none', latencyMs: 0 };
  if (fault.mode === 'down') return void req.socket.destroy();
  if (fault.mode === 'timeout') return; // never answers
  if (fault.latencyMs > 0 || fault.mode === 'delay') await sleep(fault.latencyMs || 1_000);
  if (fault.mode === 'refuse') return send(res, 503, { status: 'UNAVAILABLE' });
  if (!signed(req, raw)) return send(res, 401, { status: 'INVALID_SIGNATURE' });
  let body: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    body = parsed as Record<string, unknown>;
  } catch {
    return send(res, 400, { status: 'BAD_REQUEST' });
  }
  const [status, answer] = game(code, action, body);
  save();
  // Applied, then the answer is lost on the way back.
  if (fault.mode === 'drop') return void req.socket.destroy();
  send(res, status, answer);
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => send(res, 500, { status: 'ERROR' }));
});
server.listen(port, () => console.log(`sandbox listening on ${port}`));
const stop = (): void => {
  server.close();
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
