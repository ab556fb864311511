import type { QueryClient } from '@tanstack/react-query';
import { io } from 'socket.io-client';
// Types only: the contract's schema module would bring zod into this chunk.
import type { BalanceEvent } from '@mw/contract/balance-push';
import type { WalletResponse } from '@mw/contract/wallet';
import { reloadWallet, walletQueryKey } from '../../shared/api/wallet';

export type BalanceSocketState = 'connecting' | 'live' | 'down';

/** A `balance` event as it came off the socket: checked by hand (no zod in this small chunk). */
function isBalanceEvent(value: unknown): value is BalanceEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  const numbers = (record: unknown) => typeof record === 'object' && record !== null && Object.values(record).every((n) => typeof n === 'number');
  return (
    typeof event.reason === 'string' &&
    numbers(event.versions) &&
    (event.wallet === undefined || typeof event.wallet === 'number') &&
    (event.amount === undefined || typeof event.amount === 'number') &&
    (event.games === undefined || numbers(event.games))
  );
}

/**
 * Puts a pushed balance into the cached wallet (GET /api/wallet), account by account, only when
 * its version is above the last one applied: events from several server processes can arrive out
 * of order, and a replay after a reconnection repeats some. A wallet read under way may have read
 * the balances before this change: it is asked again.
 */
export function applyBalanceEvent(queryClient: QueryClient, applied: Map<string, number>, event: BalanceEvent): void {
  const newer = (key: string) => {
    const version = event.versions[key];
    if (version === undefined || version <= (applied.get(key) ?? 0)) return false;
    applied.set(key, version);
    return true;
  };
  const wallet = event.wallet !== undefined && newer('wallet') ? event.wallet : undefined;
  const games = Object.entries(event.games ?? {}).filter(([code]) => newer(code));
  if (wallet === undefined && games.length === 0) return;
  const state = queryClient.getQueryState<WalletResponse>(walletQueryKey);
  if (state?.fetchStatus === 'fetching') {
    void queryClient.invalidateQueries({ queryKey: walletQueryKey, exact: true });
    return;
  }
  const amounts = new Map(games);
  queryClient.setQueryData<WalletResponse>(walletQueryKey, (current) =>
    current && {
      ...current,
      wallet: wallet === undefined ? current.wallet : { ...current.wallet, amount: wallet },
      slots: amounts.size === 0 ? current.slots : current.slots.map((slot) => (amounts.has(slot.code) ? { ...slot, amount: amounts.get(slot.code) ?? slot.amount } : slot)),
    },
  );
}

/**
 * The member's socket for balance pushes (the server's socket.io, `auth: {token}`: the socket is
 * in the member's room from its connection on). Each `balance` event updates the cached wallet and
 * is handed to `onEvent` (the toast); a reconnection reads the wallet again once, since events sent
 * while it was down may be lost. Answers the close function.
 */
export function openBalanceSocket(token: string, queryClient: QueryClient, handlers: { onEvent: (event: BalanceEvent) => void; onState: (state: BalanceSocketState) => void }): () => void {
  const socket = io({ path: '/socket.io', transports: ['websocket', 'polling'], auth: { token } });
  const applied = new Map<string, number>();
  let connectedBefore = false;
  socket.on('connect', () => {
    if (connectedBefore) void reloadWallet(queryClient);
    connectedBefore = true;
    handlers.onState('live');
  });
  socket.on('disconnect', () => handlers.onState('down'));
  socket.on('connect_error', () => handlers.onState('down'));
  socket.on('balance', (raw: unknown) => {
    if (!isBalanceEvent(raw)) return;
    applyBalanceEvent(queryClient, applied, raw);
    handlers.onEvent(raw);
  });
  handlers.onState('connecting');
  return () => {
    socket.close();
  };
}
