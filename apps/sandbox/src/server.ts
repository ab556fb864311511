/**
 * The sandbox service's HTTP server: routes `/{system}/…` to each system's protocol and
 * `/control/{system}/…` to its control API, injects the faults set per system and key, and keeps
 * each system's journal (SANDBOX_DATA_DIR/{system}.jsonl, replayed at start; memory only without
 * a data dir). Started by `npm run sandbox` (main.ts), by the server beside itself outside
 * production, and in-process by the tests (`startSandbox({ port: 0 })`).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { FAULT_MODES, signature, type Answer, type Fault, type FaultMode, type Mounted, type SandboxRequest, type SystemFactory } from './kit';
import { allSystems } from './systems';

export interface SandboxOptions {
  /** 0: any free port. */
  port?: number;
  host?: string;
  /** Where the journals live; none: memory only (lost at exit). */
  dataDir?: string;
  /** The systems to play (default: all of them, configured from `env`). */
  systems?: SystemFactory[];
  env?: Record<string, string | undefined>;
}

export interface Sandbox {
  url: string;
  port: number;
  close(): Promise<void>;
}

const NONE: Fault = { mode: 'none', latencyMs: 0 };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1_048_576) {
        req.destroy();
        reject(new Error('body over 1 MB'));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    req.on('close', () => reject(new Error('closed before the body ended')));
  });
}

function parseObject(raw: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function reply(res: ServerResponse, answer: Answer): void {
  const text = Buffer.isBuffer(answer.body) || (typeof answer.body === 'string' && answer.type) ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json', ...(answer.location ? { location: answer.location } : {}) });
  res.end(text);
}

/** A signed outbound POST, subject to the sender's fault: drop, duplicate, reorder, delay, refuse. */
function outbound(faultOf: (system: string, key: string) => Fault) {
  const held = new Map<string, () => Promise<void>>();
  return (system: string) =>
    async (url: string, body: unknown, secret: string, key = '*'): Promise<{ status: number; body: unknown } | null> => {
      // A fault set only on some calls (`on`) leaves webhooks alone unless `webhook` is one of them.
      const set = faultOf(system, key);
      const fault = set.on && !set.on.includes('webhook') ? NONE : set;
      const raw = JSON.stringify(body);
      const once = async (): Promise<{ status: number; body: unknown } | null> => {
        const timestamp = String(Math.floor(Date.now() / 1000));
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature(secret, timestamp, raw) },
            body: raw,
            signal: AbortSignal.timeout(10_000),
          });
          const text = await res.text();
          return { status: res.status, body: parseObject(text) ?? text };
        } catch {
          return null;
        }
      };
      if (fault.mode === 'refuse' || fault.mode === 'down' || fault.mode === 'timeout' || fault.mode === 'drop') return null;
      if (fault.mode === 'delay') await sleep(fault.latencyMs || 1_000);
      if (fault.mode === 'reorder') {
        const slot = `${system}:${key}`;
        const before = held.get(slot);
        if (!before) {
          held.set(slot, async () => void (await once()));
          return null;
        }
        held.delete(slot);
        const answer = await once();
        await before();
        return answer;
      }
      const answer = await once();
      if (fault.mode === 'duplicate') await once();
      return answer;
    };
}

/**
 * The systems' journals, each an append-only file kept open (one write per event: opening and
 * closing the file for every event cost most of the sandbox's time per transfer). The folder may
 * have been removed under a running sandbox (a test's data dir): looked at once a second, it is
 * made again and the journal reopened.
 */
class Journals {
  private readonly open = new Map<string, { fd: number; checked: number }>();

  write(path: string, text: string, dir: string | undefined): void {
    let file = this.open.get(path);
    const now = Date.now();
    if (file && now - file.checked > 1_000) {
      file.checked = now;
      if (!existsSync(path)) {
        closeSync(file.fd);
        this.open.delete(path);
        file = undefined;
      }
    }
    if (!file) {
      if (dir && !existsSync(dir)) mkdirSync(dir, { recursive: true });
      file = { fd: openSync(path, 'a'), checked: now };
      this.open.set(path, file);
    }
    writeSync(file.fd, text);
  }

  closeAll(): void {
    for (const { fd } of this.open.values()) closeSync(fd);
    this.open.clear();
  }
}

/** A journal's events; only the last line can be torn (killed mid-write): that call never answered, so it never happened. */
function readJournal(path: string): unknown[] {
  const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line.trim());
  const events: unknown[] = [];
  lines.forEach((line, i) => {
    try {
      events.push(JSON.parse(line));
    } catch (error) {
      if (i !== lines.length - 1) throw error;
    }
  });
  return events;
}

/** PUT /control/{system}/fault or /control/{system}/{key}/fault {mode, latencyMs?}. */
function setFault(faults: Map<string, Fault>, system: string, parts: string[], body: Record<string, unknown> | null): Answer {
  const mode = FAULT_MODES.find((m) => m === body?.mode);
  const latency = body?.latencyMs;
  const latencyMs = typeof latency === 'number' && latency >= 0 && latency <= 60_000 ? latency : 0;
  const on = body?.on;
  const only = Array.isArray(on) && on.length > 0 && on.length <= 10 && on.every((a) => typeof a === 'string' && a.length <= 40) ? (on as string[]) : undefined;
  if (!mode || (on !== undefined && !only)) return { status: 400, body: { status: 'BAD_REQUEST', modes: FAULT_MODES } };
  const key = parts.length === 2 ? (parts[0] as string) : '*';
  if (mode === 'none') faults.delete(`${system}:${key}`);
  else faults.set(`${system}:${key}`, { mode: mode satisfies FaultMode, latencyMs, ...(only ? { on: only } : {}) });
  return { status: 200, body: { system, key, code: key, mode, latencyMs, ...(only ? { on: only } : {}) } };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const env = options.env ?? process.env;
  const faults = new Map<string, Fault>();
  const faultOf = (system: string, key: string): Fault => faults.get(`${system}:${key}`) ?? faults.get(`${system}:*`) ?? NONE;
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });

  const sendOut = outbound(faultOf);

  /** Set once the server listens. */
  let selfUrl = '';
  const mounted = new Map<string, Mounted>();
  const journal = new Journals();
  for (const factory of options.systems ?? allSystems(env)) {
    const name = factory.name;
    const path = options.dataDir ? join(options.dataDir, `${name}.jsonl`) : null;
    const replay = path && existsSync(path) ? readJournal(path) : [];
    mounted.set(
      name,
      factory.mount({
        replay,
        append: (line) => {
          if (!path) return;
          journal.write(path, `${JSON.stringify(line)}\n`, options.dataDir);
        },
        send: sendOut(name),
        fault: (key) => faultOf(name, key),
        now: () => Date.now(),
        self: () => selfUrl,
      }),
    );
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const raw = await readBody(req);
    let segments: string[];
    try {
      segments = url.pathname.split('/').filter(Boolean).map((part) => decodeURIComponent(part));
    } catch {
      return reply(res, { status: 400, body: { status: 'BAD_REQUEST' } });
    }
    if (req.method === 'GET' && url.pathname === '/health') {
      const systems = Object.fromEntries([...mounted].map(([name, system]) => [name, system.summary()]));
      // The server that started it (SANDBOX_PARENT_PID): a server starting after that one died must not adopt it (it is about to stop).
      const parent = Number(env.SANDBOX_PARENT_PID ?? 0) || null;
      return reply(res, { status: 200, body: { ok: true, parent, systems } });
    }
    const isControl = segments[0] === 'control';
    if (isControl && req.method === 'GET' && segments.length === 2 && segments[1] === 'faults') {
      const list = [...faults].map(([at, fault]) => ({ system: at.slice(0, at.indexOf(':')), key: at.slice(at.indexOf(':') + 1), ...fault }));
      return reply(res, { status: 200, body: { faults: list } });
    }
    const system = mounted.get((isControl ? segments[1] : segments[0]) ?? '');
    if (!system) return reply(res, { status: 404, body: { status: 'NOT_FOUND' } });
    const parts = segments.slice(isControl ? 2 : 1);
    const request: SandboxRequest = { method: req.method ?? 'GET', parts, query: url.searchParams, headers: req.headers, raw, body: parseObject(raw) };
    if (isControl) {
      if (req.method === 'PUT' && parts[parts.length - 1] === 'fault' && parts.length <= 2) return reply(res, setFault(faults, system.name, parts, request.body));
      return reply(res, await system.control(request));
    }
    const set = faultOf(system.name, system.faultKey(parts));
    const fault = set.on && !set.on.includes(parts[parts.length - 1] ?? '') ? NONE : set;
    if (fault.mode === 'down') return void req.socket.destroy();
    if (fault.mode === 'timeout') return; // never answers, does nothing
    if (fault.latencyMs > 0 || fault.mode === 'delay') await sleep(fault.latencyMs || 1_000);
    if (fault.mode === 'refuse') return reply(res, { status: 503, body: { status: 'UNAVAILABLE' } });
    const answer = await system.handle(request);
    // Applied, then the answer is lost on the way back.
    if (fault.mode === 'drop' || answer.fail === 'drop') return void req.socket.destroy();
    if (answer.fail === 'hang') return; // the caller's deadline ends it
    reply(res, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => reply(res, { status: 500, body: { status: 'ERROR' } }));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  selfUrl = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          journal.closeAll();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
