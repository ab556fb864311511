import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';

/** An operator on a queue item (a withdrawal, slip, deposit, approval, held deposit) until `until` (epoch ms). */
export interface Claim {
  kind: string;
  id: string;
  operator: string;
  until: number;
}

interface LiveSocket {
  on(event: string, listener: (...args: unknown[]) => void): void;
  off(event: string, listener: (...args: unknown[]) => void): void;
  emit(event: string, ...args: unknown[]): void;
  close(): void;
  connected: boolean;
}

const CLAIM_MS = 2 * 60_000;
const RENEW_MS = 60_000;

let socket: LiveSocket | null = null;
let socketToken: string | null = null;
let connected = false;
const claims = new Map<string, Claim>();
const listeners = new Set<() => void>();
let claimsVersion = 0;
const mine = new Map<string, { kind: string; id: string; timer: ReturnType<typeof setInterval> }>();

const keyOf = (kind: string, id: string) => `${kind}:${id}`;

// Lapsed claims (their operator closed the tab without letting go) are swept every 15 s.
let sweeper: ReturnType<typeof setInterval> | null = null;
function sweep(): void {
  const now = Date.now();
  let any = false;
  for (const [key, claim] of claims) {
    if (claim.until <= now) {
      claims.delete(key);
      any = true;
    }
  }
  if (any) changed();
}
function changed(): void {
  claimsVersion += 1;
  for (const listener of listeners) listener();
}

/**
 * The back office's one live connection (socket.io, the operator's session token): `queues`
 * (something changed: refetch what the screen shows), `inbox` (a chat message) and `claim` (who is
 * on which item). Opened by the signed-in frame; a new token (sign-in, sign-out) replaces it.
 */
export function connectLive(token: string | null, onChange: (event: 'queues' | 'inbox') => void): () => void {
  if (socketToken !== token) {
    socket?.close();
    socket = null;
    socketToken = token;
    claims.clear();
    changed();
  }
  if (!token) return () => undefined;
  sweeper ??= setInterval(sweep, 15_000);
  let stopped = false;
  const handlers: Array<[string, (...args: unknown[]) => void]> = [
    ['queues', () => onChange('queues')],
    ['inbox', () => onChange('inbox')],
    ['connect', () => { connected = true; changed(); for (const item of mine.values()) announce(item.kind, item.id, Date.now() + CLAIM_MS); }],
    ['disconnect', (reason) => {
      connected = false;
      changed();
      // The server closed it (a role change, a revocation): try once more in a moment; a revoked
      // session is refused again, and the next call's 401 signs the tab out.
      if (reason === 'io server disconnect') setTimeout(() => { if (socket && socketToken === token) (socket as LiveSocket & { connect(): void }).connect(); }, 1_500);
    }],
    ['claim', (value) => {
      if (!value || typeof value !== 'object') return;
      const claim = value as Claim;
      if (typeof claim.kind !== 'string' || typeof claim.id !== 'string' || typeof claim.operator !== 'string' || typeof claim.until !== 'number') return;
      const key = keyOf(claim.kind, claim.id);
      if (claim.until <= Date.now()) claims.delete(key);
      else claims.set(key, claim);
      changed();
    }],
  ];
  const attach = (s: LiveSocket) => {
    for (const [event, handler] of handlers) s.on(event, handler);
  };
  if (socket) attach(socket);
  else {
    void import('socket.io-client').then(({ io }) => {
      if (stopped || socketToken !== token) return;
      if (!socket) socket = io({ path: '/socket.io', auth: { operatorToken: token }, transports: ['websocket', 'polling'] }) as unknown as LiveSocket;
      attach(socket);
    });
  }
  return () => {
    stopped = true;
    if (socket) for (const [event, handler] of handlers) socket.off(event, handler);
  };
}

function announce(kind: string, id: string, until: number): void {
  socket?.emit('claim', { kind, id, until });
}

/** "I am on this item": the others see it marked as taken, with my name, while I keep it (renewed every minute). */
export function takeClaim(kind: string, id: string): () => void {
  const key = keyOf(kind, id);
  if (!mine.has(key)) {
    announce(kind, id, Date.now() + CLAIM_MS);
    mine.set(key, { kind, id, timer: setInterval(() => announce(kind, id, Date.now() + CLAIM_MS), RENEW_MS) });
  }
  return () => {
    const item = mine.get(key);
    if (!item) return;
    clearInterval(item.timer);
    mine.delete(key);
    announce(kind, id, 0);
  };
}

/** Who else is on an item now (null: nobody, or only me). */
export function useClaim(kind: string, id: string, me: string | undefined): Claim | null {
  useSyncExternalStore(subscribe, () => claimsVersion);
  const claim = claims.get(keyOf(kind, id));
  if (!claim || claim.operator === me) return null;
  return claim;
}

/** Whether the live connection is up (the screens say so when it is not). */
export function useLiveConnected(): boolean {
  useSyncExternalStore(subscribe, () => claimsVersion);
  return connected;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** In the signed-in frame: keeps the live connection and refetches what the screens show when a queue changes. */
export function useLiveQueues(token: string | null): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      connectLive(token, (event) => {
        // Everything on screen but who I am: lists, counts, the member page, the approvals.
        void queryClient.invalidateQueries({ predicate: (query) => !(query.queryKey[0] === 'admin' && query.queryKey[1] === 'me') && (event === 'queues' || query.queryKey[0] === 'chat' || query.queryKey[0] === 'dashboard') });
      }),
    [token, queryClient],
  );
}

/** Holds a claim on an item while `active` (a confirmation dialog open, a row being worked on). */
export function useTakeClaim(kind: string, id: string | null | undefined, active: boolean): void {
  useEffect(() => (active && id ? takeClaim(kind, id) : undefined), [kind, id, active]);
}
