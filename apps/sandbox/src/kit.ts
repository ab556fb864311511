/**
 * The sandbox service's parts: every outside system it plays (games, gateways, the bank, the
 * e-wallet, SMS) is a `SandboxSystem` — its own state, changed only by events it journals, an HTTP
 * protocol under `/{name}/…`, and a control API under `/control/{name}/…`. The server
 * (server.ts) routes, injects faults, and keeps each system's journal: an append-only JSON-lines
 * file per system in SANDBOX_DATA_DIR (or memory only), replayed at start. Never our database.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Faults, per system and key (a game code, a bank code, or `*` for the whole system):
 * - refuse: 503 before doing anything; delay: answer after latencyMs; timeout: never answer, do nothing;
 * - drop: apply the call, then close the connection without an answer; down: close every connection at once;
 * - duplicate / reorder (outbound webhooks and callbacks): send each twice / hold each until the next is sent.
 */
export type FaultMode = 'none' | 'refuse' | 'delay' | 'timeout' | 'drop' | 'down' | 'duplicate' | 'reorder';
export const FAULT_MODES: readonly FaultMode[] = ['none', 'refuse', 'delay', 'timeout', 'drop', 'down', 'duplicate', 'reorder'];

export interface Fault {
  mode: FaultMode;
  latencyMs: number;
  /** Only calls whose last path segment is one of these (e.g. `transfer`; `webhook` for the webhooks a system sends); every call when absent. */
  on?: string[];
}

export interface SandboxRequest {
  method: string;
  /** The path's segments after `/{system}` (or `/control/{system}`), decoded. */
  parts: string[];
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  raw: string;
  /** The body parsed as a JSON object, or null. */
  body: Record<string, unknown> | null;
}

export interface Answer {
  status: number;
  /** JSON (any value), a string (sent as is with `type`), or bytes (a Buffer, with `type`). */
  body: unknown;
  /** Content type (default application/json; a string body is sent as is). */
  type?: string;
  /** A redirect's target (Location). */
  location?: string;
  /** The system's own failure: `drop` closes the connection without an answer (what it did stays done); `hang` never answers. */
  fail?: 'drop' | 'hang';
}

export const json = (status: number, body: unknown): Answer => ({ status, body });

/** What a system may do: change its state (journaled), send calls out (subject to faults), read faults. */
export interface SystemContext<Event> {
  /** Journals the event (when the sandbox has a data dir), then applies it to the state. */
  commit(event: Event): void;
  /** POSTs a signed JSON body to `url` (X-Timestamp, X-Signature), honouring the fault on `key`. Answers the status, or null when it never got one. */
  send(url: string, body: unknown, secret: string, key?: string): Promise<{ status: number; body: unknown } | null>;
  fault(key: string): Fault;
  /** The sandbox's clock (ms). */
  now(): number;
  /** The sandbox's own base URL (one system asking another, as two services of one provider do). */
  self(): string;
}

export interface SandboxSystem<State, Event> {
  readonly name: string;
  initial(): State;
  /** Applies one journaled event; must be deterministic (replayed at start). */
  apply(state: State, event: Event): void;
  /** The system's protocol: `/{name}/…`. The fault key of a call is `faultKey(parts)` (default `*`). */
  handle(req: SandboxRequest, state: State, ctx: SystemContext<Event>): Promise<Answer> | Answer;
  faultKey?(parts: string[]): string;
  /** The control API: `/control/{name}/…` (unsigned; sandbox only). */
  control?(req: SandboxRequest, state: State, ctx: SystemContext<Event>): Promise<Answer> | Answer;
  /** Counts for GET /health. */
  summary?(state: State): Record<string, number>;
}

/** A system with its state and journal bound (what the server routes to); see `mount`. */
export interface Mounted {
  readonly name: string;
  handle(req: SandboxRequest): Promise<Answer>;
  control(req: SandboxRequest): Promise<Answer>;
  faultKey(parts: string[]): string;
  summary(): Record<string, number>;
}

/** What the server lends a system as it mounts it. */
export interface MountEnv {
  /** The journal lines already written (replayed at start), and the writer of new ones. */
  replay: unknown[];
  append(line: unknown): void;
  send: SystemContext<never>['send'];
  fault(key: string): Fault;
  now(): number;
  self(): string;
}

/** Binds a system to its state and journal: replays the journal, then serves. */
export function mount<State, Event>(system: SandboxSystem<State, Event>, env: MountEnv): Mounted {
  const state = system.initial();
  for (const event of env.replay) system.apply(state, event as Event);
  const ctx: SystemContext<Event> = {
    commit(event) {
      env.append(event);
      system.apply(state, event);
    },
    send: env.send,
    fault: env.fault,
    now: env.now,
    self: env.self,
  };
  return {
    name: system.name,
    handle: async (req) => system.handle(req, state, ctx),
    control: async (req) => (system.control ? system.control(req, state, ctx) : json(404, { status: 'NOT_FOUND' })),
    faultKey: (parts) => (system.faultKey ? system.faultKey(parts) : '*'),
    summary: () => (system.summary ? system.summary(state) : {}),
  };
}

/** A system ready to mount (the server's list holds these: their state types differ). */
export interface SystemFactory {
  readonly name: string;
  mount(env: MountEnv): Mounted;
}
export const defineSystem = <State, Event>(system: SandboxSystem<State, Event>): SystemFactory => ({
  name: system.name,
  mount: (env) => mount(system, env),
});

/** Hex HMAC-SHA256 of `${timestamp}.${raw}`. */
export function signature(secret: string, timestamp: string, raw: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');
}

/** X-Signature = hex HMAC-SHA256 of `${X-Timestamp}.${raw body}`, the timestamp within `windowS` seconds of now. */
export function verify(headers: IncomingHttpHeaders, raw: string, secret: string, nowMs = Date.now(), windowS = 300): boolean {
  const timestamp = String(headers['x-timestamp'] ?? '');
  const given = Buffer.from(String(headers['x-signature'] ?? ''), 'hex');
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > windowS) return false;
  const expected = Buffer.from(signature(secret, timestamp, raw), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function str(value: unknown, max = 128): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : null;
}

export function minor(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** A merchant's webhook registration: where the system's webhooks go and the secret they are signed with. */
export interface Merchant {
  webhookUrl: string;
  secret: string;
}

/**
 * `PUT /control/{system}/merchant {webhookUrl, secret}`, the same for every system that calls a
 * merchant back: 400 for a bad address or secret, else the registration (committed only when it
 * changed) and `{status: SUCCESS, webhookUrl}`.
 */
export function registerMerchant(body: Record<string, unknown>, current: Merchant | null, commit: (merchant: Merchant) => void): Answer {
  const webhookUrl = str(body.webhookUrl, 500);
  const secret = str(body.secret, 200);
  if (!webhookUrl || !/^https?:\/\//.test(webhookUrl) || !secret) return json(400, { status: 'BAD_REQUEST' });
  if (current?.webhookUrl !== webhookUrl || current.secret !== secret) commit({ webhookUrl, secret });
  return json(200, { status: 'SUCCESS', webhookUrl });
}

/** `…/redeliver {times}` (1–100, default 1): the webhook sent again that many times at once; each answer, `{status: 0}` when none came. */
export async function redeliver(body: Record<string, unknown>, send: () => Promise<unknown>): Promise<Answer> {
  const times = typeof body.times === 'number' && Number.isInteger(body.times) && body.times >= 1 && body.times <= 100 ? body.times : 1;
  const deliveries = await Promise.all(Array.from({ length: times }, send));
  return json(200, { deliveries: deliveries.map((d) => d ?? { status: 0 }) });
}
