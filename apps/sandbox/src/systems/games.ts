/**
 * A transfer-wallet game provider API (JOKER-style: the operator calls the provider), for every
 * game code: `POST /games/{CODE}/{action}`, signed. Protocol: docs/sandbox.md.
 */
import { randomBytes } from 'node:crypto';
import { defineSystem, json, minor, str, verify, type Answer } from '../kit';

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

export interface GamesState {
  players: Map<string, Player>;
  transfers: Map<string, Transfer>;
}

export type GamesEvent =
  | { type: 'player'; code: string; player: Player }
  | { type: 'password'; code: string; username: string; password: string }
  | { type: 'transfer'; transfer: Transfer };

const playerKey = (code: string, username: string): string => `${code}:${username}`;

export function gamesSystem(secret: string) {
  return defineSystem<GamesState, GamesEvent>({
    name: 'games',
    initial: () => ({ players: new Map(), transfers: new Map() }),
    apply(state, event) {
      if (event.type === 'player') state.players.set(playerKey(event.code, event.player.username), { ...event.player });
      else if (event.type === 'password') {
        const player = state.players.get(playerKey(event.code, event.username));
        if (player) player.password = event.password;
      } else {
        const t = event.transfer;
        state.transfers.set(t.requestId, t);
        const player = state.players.get(playerKey(t.code, t.username));
        if (player && t.status === 'APPLIED') player.balance += t.direction === 'in' ? t.amount : -t.amount;
      }
    },
    faultKey: (parts) => parts[0] ?? '*',
    summary: (state) => ({ players: state.players.size, transfers: state.transfers.size }),
    handle(req, state, ctx): Answer {
      const [code, action] = req.parts;
      if (req.method !== 'POST' || !code || !/^[A-Z0-9]{1,20}$/.test(code) || !action || req.parts.length !== 2) return json(404, { status: 'NOT_FOUND' });
      if (!verify(req.headers, req.raw, secret, ctx.now())) return json(401, { status: 'INVALID_SIGNATURE' });
      const body = req.body;
      if (!body) return json(400, { status: 'BAD_REQUEST' });
      const at = new Date(ctx.now()).toISOString();
      if (action === 'players') {
        const username = str(body.username, 100) ?? `${code.toLowerCase()}${randomBytes(4).toString('hex')}`;
        let player = state.players.get(playerKey(code, username));
        if (!player) {
          ctx.commit({ type: 'player', code, player: { username, password: randomBytes(6).toString('hex'), balance: 0 } });
          player = state.players.get(playerKey(code, username)) as Player;
        }
        return json(200, { status: 'OK', username: player.username, password: player.password });
      }
      if (action === 'check-transfer') {
        const requestId = str(body.requestId, 100);
        if (!requestId) return json(400, { status: 'BAD_REQUEST' });
        const found = state.transfers.get(requestId);
        if (found) return json(200, { status: found.status, requestId, amount: found.amount, direction: found.direction });
        // Asked about before it came: it is ABSENT now and for ever (a late transfer with this id is refused).
        ctx.commit({ type: 'transfer', transfer: { requestId, code, username: '', direction: 'in', amount: 0, status: 'ABSENT', answer: { status: 409, body: { status: 'TRANSFER_CLOSED' } }, at } });
        return json(200, { status: 'ABSENT', requestId });
      }
      const username = str(body.username, 100);
      const player = username ? state.players.get(playerKey(code, username)) : undefined;
      if (action === 'balance') return player ? json(200, { status: 'OK', balance: player.balance }) : json(404, { status: 'PLAYER_NOT_FOUND' });
      if (action === 'password') {
        if (!player) return json(404, { status: 'PLAYER_NOT_FOUND' });
        const password = randomBytes(6).toString('hex');
        ctx.commit({ type: 'password', code, username: player.username, password });
        return json(200, { status: 'OK', username: player.username, password });
      }
      if (action === 'transfer') {
        const requestId = str(body.requestId, 100);
        const amount = minor(body.amount);
        const direction = body.direction;
        if (!requestId || amount === null || (direction !== 'in' && direction !== 'out')) return json(400, { status: 'BAD_REQUEST' });
        const seen = state.transfers.get(requestId);
        if (seen) return json(seen.answer.status, seen.answer.body);
        if (!player) return json(404, { status: 'PLAYER_NOT_FOUND' });
        const answer =
          direction === 'out' && player.balance < amount
            ? { status: 409, body: { status: 'INSUFFICIENT_FUNDS', balance: player.balance } }
            : { status: 200, body: { status: 'OK', requestId, balance: player.balance + (direction === 'in' ? amount : -amount) } };
        ctx.commit({ type: 'transfer', transfer: { requestId, code, username: player.username, direction, amount, status: answer.status === 200 ? 'APPLIED' : 'ABSENT', answer, at } });
        return json(answer.status, answer.body);
      }
      return json(404, { status: 'NOT_FOUND' });
    },
  });
}
