/**
 * A transfer-wallet game provider API (JOKER-style: the operator calls the provider), for every
 * game code: `POST /games/{CODE}/{action}`, signed; the member's side of it (lobby, login, the
 * demo slot) under the same prefix, unsigned, as a provider's web pages are; and a control API to
 * play rounds and read players. Protocol: docs/sandbox.md.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { defineSystem, json, minor, str, verify, type Answer, type SandboxRequest, type SystemContext } from '../kit';
import { memberPages } from './games-pages';

interface Player {
  username: string;
  password: string;
  balance: number;
  /** The player's currency, set when the operator opens it (THB when a journal from before says none). */
  currency?: 'THB' | 'LAK';
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

/** A settled round of play: its stake left the player's balance and its win came back. */
export interface Round {
  seq: number;
  roundId: string;
  code: string;
  username: string;
  stake: number;
  win: number;
  settledAt: string;
}

/** A member's play session at a game (the launch link's token). */
export interface Session {
  token: string;
  code: string;
  username: string;
  expiresAt: number;
  returnUrl: string | null;
}

export interface GamesState {
  players: Map<string, Player>;
  transfers: Map<string, Transfer>;
  rounds: Round[];
  sessions: Map<string, Session>;
}

export type GamesEvent =
  | { type: 'player'; code: string; player: Player }
  | { type: 'password'; code: string; username: string; password: string }
  | { type: 'transfer'; transfer: Transfer }
  | { type: 'round'; round: Round }
  | { type: 'session'; session: Session };

export type GamesContext = SystemContext<GamesEvent>;

const playerKey = (code: string, username: string): string => `${code}:${username}`;
export const findPlayer = (state: GamesState, code: string, username: string): Player | undefined => state.players.get(playerKey(code, username));
const CODE = /^[A-Z0-9]{1,20}$/;
/** The game whose launch is a login form posted by the member's app (spec section 2), not a link. */
export const FORM_EVENT_GAME = 'UFABET';
const SESSION_MS = 2 * 3_600_000;

function applyEvent(state: GamesState, event: GamesEvent): void {
  if (event.type === 'player') state.players.set(playerKey(event.code, event.player.username), { ...event.player });
  else if (event.type === 'password') {
    const player = findPlayer(state, event.code, event.username);
    if (player) player.password = event.password;
  } else if (event.type === 'transfer') {
    const t = event.transfer;
    state.transfers.set(t.requestId, t);
    const player = findPlayer(state, t.code, t.username);
    if (player && t.status === 'APPLIED') player.balance += t.direction === 'in' ? t.amount : -t.amount;
  } else if (event.type === 'round') {
    state.rounds.push(event.round);
    const player = findPlayer(state, event.round.code, event.round.username);
    if (player) player.balance += event.round.win - event.round.stake;
  } else state.sessions.set(event.session.token, event.session);
}

/**
 * One round: `stake` staked and `stake × multiplier` won, dated `settledAt` (default now). Null
 * when the player is unknown or the balance does not cover the stake.
 */
export function playRound(state: GamesState, ctx: GamesContext, code: string, username: string, stake: number, multiplier: number, settledAt?: string): { balance: number; win: number } | null {
  const player = findPlayer(state, code, username);
  if (!player || player.balance < stake) return null;
  const win = Math.round(stake * multiplier);
  const seq = (state.rounds.at(-1)?.seq ?? 0) + 1;
  const round: Round = { seq, roundId: `${code}-${randomBytes(9).toString('base64url')}`, code, username, stake, win, settledAt: settledAt ?? new Date(ctx.now()).toISOString() };
  ctx.commit({ type: 'round', round });
  return { balance: player.balance, win };
}

/** A new session for the member's browser. */
export function openSession(ctx: GamesContext, code: string, username: string, returnUrl: string | null): string {
  const token = randomBytes(24).toString('base64url');
  ctx.commit({ type: 'session', session: { token, code, username, expiresAt: ctx.now() + SESSION_MS, returnUrl } });
  return token;
}

export function liveSession(state: GamesState, ctx: GamesContext, token: string | null): Session | null {
  const session = token ? state.sessions.get(token) : undefined;
  return session && session.expiresAt > ctx.now() ? session : null;
}

/** Where the member's browser reaches this sandbox: SANDBOX_PUBLIC_URL, or the host the call came to. */
const originOf = (req: SandboxRequest, publicUrl: string | undefined): string => (publicUrl ?? `http://${String(req.headers.host ?? '127.0.0.1:3100')}`).replace(/\/+$/, '');

function launch(req: SandboxRequest, state: GamesState, ctx: GamesContext, code: string, publicUrl: string | undefined): Answer {
  const body = req.body ?? {};
  const username = str(body.username, 100);
  const player = username ? findPlayer(state, code, username) : undefined;
  if (!player || player.password !== body.password) return json(403, { status: 'LOGIN_REFUSED' });
  const origin = originOf(req, publicUrl);
  if (code === FORM_EVENT_GAME) {
    const action = `${origin}/games/${code}/login`;
    return json(200, { status: 'OK', link: `${origin}/games/${code}/lobby`, event: { action, method: 'POST', fields: { username: player.username, password: player.password } } });
  }
  const returnUrl = str(body.returnUrl, 500);
  const token = openSession(ctx, code, player.username, returnUrl && /^https?:\/\//.test(returnUrl) ? returnUrl : null);
  return json(200, { status: 'OK', link: `${origin}/games/${code}/play?t=${token}` });
}

function transfer(body: Record<string, unknown>, state: GamesState, ctx: GamesContext, code: string, player: Player | undefined): Answer {
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
  const at = new Date(ctx.now()).toISOString();
  ctx.commit({ type: 'transfer', transfer: { requestId, code, username: player.username, direction, amount, status: answer.status === 200 ? 'APPLIED' : 'ABSENT', answer, at } });
  return json(answer.status, answer.body);
}

function checkTransfer(body: Record<string, unknown>, state: GamesState, ctx: GamesContext, code: string): Answer {
  const requestId = str(body.requestId, 100);
  if (!requestId) return json(400, { status: 'BAD_REQUEST' });
  const found = state.transfers.get(requestId);
  if (found) return json(200, { status: found.status, requestId, amount: found.amount, direction: found.direction });
  // Asked about before it came: it is ABSENT now and for ever (a late transfer with this id is refused).
  const at = new Date(ctx.now()).toISOString();
  ctx.commit({ type: 'transfer', transfer: { requestId, code, username: '', direction: 'in', amount: 0, status: 'ABSENT', answer: { status: 409, body: { status: 'TRANSFER_CLOSED' } }, at } });
  return json(200, { status: 'ABSENT', requestId });
}

/** The round feed: settled rounds after `cursor` (null: from the start), oldest first, at most `limit` (1–500). */
function rounds(body: Record<string, unknown>, state: GamesState, code: string): Answer {
  const cursor = body.cursor === null || body.cursor === undefined ? 0 : Number(str(body.cursor, 20) ?? Number.NaN);
  const limit = typeof body.limit === 'number' && Number.isInteger(body.limit) && body.limit >= 1 && body.limit <= 500 ? body.limit : null;
  if (!Number.isSafeInteger(cursor) || cursor < 0 || limit === null) return json(400, { status: 'BAD_REQUEST' });
  const page: Array<Omit<Round, 'seq' | 'code'> & { cursor: string }> = [];
  for (const r of state.rounds) {
    if (page.length >= limit) break;
    if (r.code === code && r.seq > cursor) page.push({ roundId: r.roundId, username: r.username, stake: r.stake, win: r.win, settledAt: r.settledAt, cursor: String(r.seq) });
  }
  return json(200, { status: 'OK', rounds: page });
}

/** The provider's own list of transfers applied in [from, to) (ISO times): the other side of reconciliation. */
function report(body: Record<string, unknown>, state: GamesState, code: string): Answer {
  const from = Date.parse(str(body.from, 40) ?? '');
  const to = Date.parse(str(body.to, 40) ?? '');
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) return json(400, { status: 'BAD_REQUEST' });
  const transfers = [...state.transfers.values()]
    .filter((t) => t.code === code && t.status === 'APPLIED' && Date.parse(t.at) >= from && Date.parse(t.at) < to)
    .map((t) => ({ requestId: t.requestId, username: t.username, direction: t.direction, amount: t.amount, at: t.at }));
  return json(200, { status: 'OK', transfers });
}

function api(req: SandboxRequest, state: GamesState, ctx: GamesContext, code: string, action: string, secret: string, publicUrl: string | undefined): Answer {
  if (req.method !== 'POST') return json(404, { status: 'NOT_FOUND' });
  if (!verify(req.headers, req.raw, secret, ctx.now())) return json(401, { status: 'INVALID_SIGNATURE' });
  const body = req.body;
  if (!body) return json(400, { status: 'BAD_REQUEST' });
  if (action === 'players') {
    const username = str(body.username, 100) ?? `${code.toLowerCase()}${randomBytes(4).toString('hex')}`;
    if (body.currency !== undefined && body.currency !== 'THB' && body.currency !== 'LAK') return json(400, { status: 'BAD_REQUEST', field: 'currency' });
    const currency = body.currency === 'LAK' ? 'LAK' : 'THB';
    if (!findPlayer(state, code, username)) ctx.commit({ type: 'player', code, player: { username, password: randomBytes(6).toString('hex'), balance: 0, currency } });
    const player = findPlayer(state, code, username) as Player;
    return json(200, { status: 'OK', username: player.username, password: player.password });
  }
  if (action === 'check-transfer') return checkTransfer(body, state, ctx, code);
  if (action === 'rounds') return rounds(body, state, code);
  if (action === 'report') return report(body, state, code);
  if (action === 'launch') return launch(req, state, ctx, code, publicUrl);
  const username = str(body.username, 100);
  const player = username ? findPlayer(state, code, username) : undefined;
  if (action === 'transfer') return transfer(body, state, ctx, code, player);
  if (!player) return json(404, { status: 'PLAYER_NOT_FOUND' });
  if (action === 'balance') return json(200, { status: 'OK', balance: player.balance });
  if (action === 'password') {
    const password = randomBytes(6).toString('hex');
    ctx.commit({ type: 'password', code, username: player.username, password });
    return json(200, { status: 'OK', username: player.username, password });
  }
  return json(404, { status: 'NOT_FOUND' });
}

/** Wins drawn so that the game pays back about `rtp` of the stakes over many rounds: a few big wins, many small ones, many losses. */
const rtpMultiplier = (rtp: number): number => {
  const r = randomInt(0, 1000) / 1000;
  return Math.round((r < 0.01 ? rtp * 20 : r < 0.1 ? rtp * 4 : r < 0.4 ? rtp * 0.6 : 0) * 100) / 100;
};

/**
 * Control (unsigned, sandbox only): `POST /control/games/{CODE}/spin {username, stake, multiplier,
 * settledAt?}` one round; `POST …/play {username, rounds, stake, rtp?}` many; `GET
 * …/players/{username}` the player as the provider holds it.
 */
function control(req: SandboxRequest, state: GamesState, ctx: GamesContext): Answer {
  const [code, action, name] = req.parts;
  if (!code || !CODE.test(code)) return json(404, { status: 'NOT_FOUND' });
  if (req.method === 'GET' && action === 'players' && name) {
    const player = findPlayer(state, code, name);
    return player ? json(200, { status: 'OK', ...player }) : json(404, { status: 'PLAYER_NOT_FOUND' });
  }
  const body = req.body ?? {};
  const username = str(body.username, 100) ?? '';
  const stake = minor(body.stake);
  if (req.method !== 'POST' || stake === null) return json(400, { status: 'BAD_REQUEST' });
  if (!findPlayer(state, code, username)) return json(404, { status: 'PLAYER_NOT_FOUND' });
  if (action === 'spin') {
    const multiplier = typeof body.multiplier === 'number' && body.multiplier >= 0 && body.multiplier <= 1000 ? body.multiplier : null;
    const settledAt = body.settledAt === undefined ? undefined : str(body.settledAt, 40);
    if (multiplier === null || settledAt === null || (settledAt !== undefined && !Number.isFinite(Date.parse(settledAt)))) return json(400, { status: 'BAD_REQUEST' });
    const played = playRound(state, ctx, code, username, stake, multiplier, settledAt ? new Date(settledAt).toISOString() : undefined);
    return played ? json(200, { status: 'OK', ...played }) : json(409, { status: 'INSUFFICIENT_FUNDS' });
  }
  if (action === 'play') {
    const count = typeof body.rounds === 'number' && Number.isInteger(body.rounds) && body.rounds >= 1 && body.rounds <= 10_000 ? body.rounds : 0;
    const rtp = typeof body.rtp === 'number' && body.rtp >= 0 && body.rtp <= 2 ? body.rtp : 0.96;
    let played = 0;
    let won = 0;
    for (; played < count; played++) {
      const round = playRound(state, ctx, code, username, stake, rtpMultiplier(rtp));
      if (!round) break;
      won += round.win;
    }
    return json(200, { status: 'OK', played, staked: played * stake, won, balance: findPlayer(state, code, username)?.balance ?? 0 });
  }
  return json(404, { status: 'NOT_FOUND' });
}

export function gamesSystem(secret: string, publicUrl?: string) {
  return defineSystem<GamesState, GamesEvent>({
    name: 'games',
    initial: () => ({ players: new Map(), transfers: new Map(), rounds: [], sessions: new Map() }),
    apply: applyEvent,
    faultKey: (parts) => parts[0] ?? '*',
    summary: (state) => ({ players: state.players.size, transfers: state.transfers.size, rounds: state.rounds.length }),
    async handle(req, state, ctx): Promise<Answer> {
      const [code, action] = req.parts;
      if (code === 'assets' || (code && CODE.test(code) && action && ['lobby', 'login', 'play', 'state', 'spin'].includes(action))) return memberPages(req, state, ctx);
      if (!code || !CODE.test(code) || !action || req.parts.length !== 2) return json(404, { status: 'NOT_FOUND' });
      return api(req, state, ctx, code, action, secret, publicUrl);
    },
    control,
  });
}
