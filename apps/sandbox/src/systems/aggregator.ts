/**
 * A seamless-wallet game aggregator (AMB-style): its games never hold the player's money; every
 * bet, win and rollback is a call from the aggregator to the operator's seamless API
 * (`POST {url}/{code}/{balance|bet|win|rollback}`, signed with the game's secret, docs/seamless-wallet.md).
 * As aggregators do, a bet that got no answer is rolled back, and a rollback or a win is sent again
 * until it gets a 200 (with the same transaction id: the operator answers the first answer). Its
 * book keeps every transaction with the first answer it got (the other side of the reconciliation).
 *
 * Control (unsigned): `PUT /control/aggregator/merchant {url, secrets: {CODE: secret}}` (the
 * operator's seamless API and the games' secrets, as the operator's back office registers them);
 * `POST /control/aggregator/{code}/round {playerId, currency, stake, win?, rollback?, repeat?}` (a
 * player's round: the bet, then the win or its rollback; `repeat` sends each call that many times at
 * once); `POST /control/aggregator/{code}/balance {playerId, currency}`; `POST
 * /control/aggregator/{code}/settle` (finish what is open: unanswered bets rolled back, unanswered
 * wins and rollbacks sent again); `GET /control/aggregator/{code}/transactions` (the book). Outbound faults (key: the game code) drop,
 * delay, duplicate or reorder its calls.
 */
import { randomBytes } from 'node:crypto';
import { defineSystem, json, minor, str, verify, type Answer, type SandboxRequest, type SystemContext } from '../kit';

interface Txn {
  code: string;
  transactionId: string;
  action: 'bet' | 'win' | 'rollback';
  playerId: string;
  currency: 'THB' | 'LAK';
  amount: number;
  roundId: string;
  referenceTransactionId: string | null;
  /** The first 200 answer's status and balance (null: none came). */
  answer: { status: string; balance: number } | null;
  attempts: number;
  at: string;
}

export interface AggregatorState {
  merchant: { url: string; secrets: Record<string, string> } | null;
  transactions: Map<string, Txn>;
}

export type AggregatorEvent = { type: 'merchant'; url: string; secrets: Record<string, string> } | { type: 'txn'; txn: Txn };

type Ctx = SystemContext<AggregatorEvent>;

/** How often a rollback or a win is sent before the aggregator gives up for now (its book says so). */
const ATTEMPTS = 6;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const id = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${randomBytes(5).toString('hex').toUpperCase()}`;

/** Sends one call `repeat` times at once; the first 200 answer (or null). */
async function call(state: AggregatorState, ctx: Ctx, code: string, action: string, body: Record<string, unknown>, repeat: number): Promise<{ status: string; balance: number } | null> {
  const merchant = state.merchant;
  const secret = merchant?.secrets[code];
  if (!merchant || !secret) return null;
  const answers = await Promise.all(Array.from({ length: repeat }, () => ctx.send(`${merchant.url}/${code}/${action}`, { requestId: id('REQ'), ...body }, secret, code)));
  for (const answer of answers) {
    const b = answer?.body as { status?: unknown; balance?: unknown } | undefined;
    if (answer?.status === 200 && typeof b?.status === 'string') return { status: b.status, balance: Number(b.balance) };
  }
  return null;
}

/** A money call as the aggregator makes it, recorded in its book with its first answer; `persist` sends again until a 200. */
async function transact(state: AggregatorState, ctx: Ctx, txn: Omit<Txn, 'answer' | 'attempts' | 'at'>, repeat: number, persist: boolean): Promise<Txn> {
  const body = { playerId: txn.playerId, currency: txn.currency, amount: txn.amount, transactionId: txn.transactionId, roundId: txn.roundId, ...(txn.referenceTransactionId ? { referenceTransactionId: txn.referenceTransactionId } : {}) };
  // In the book before it is sent: a kill mid-call leaves it open, and `settle` finishes it. Its time is its first send's.
  const at = state.transactions.get(`${txn.code}:${txn.transactionId}`)?.at ?? new Date(ctx.now()).toISOString();
  ctx.commit({ type: 'txn', txn: { ...txn, answer: null, attempts: 0, at } });
  let answer: Txn['answer'] = null;
  let attempts = 0;
  while (answer === null && attempts < (persist ? ATTEMPTS : 1)) {
    if (attempts > 0) await sleep(200 * attempts);
    attempts += 1;
    answer = await call(state, ctx, txn.code, txn.action, body, repeat);
  }
  const recorded: Txn = { ...txn, answer, attempts, at };
  ctx.commit({ type: 'txn', txn: recorded });
  return recorded;
}

async function round(req: SandboxRequest, state: AggregatorState, ctx: Ctx, code: string): Promise<Answer> {
  const body = req.body ?? {};
  const playerId = str(body.playerId, 64);
  const currency = body.currency === 'THB' || body.currency === 'LAK' ? body.currency : null;
  const stake = minor(body.stake);
  const win = body.win === undefined || body.win === 0 ? 0 : minor(body.win);
  const repeat = typeof body.repeat === 'number' && Number.isInteger(body.repeat) && body.repeat >= 1 && body.repeat <= 10 ? body.repeat : 1;
  if (!playerId || !currency || !stake || win === null) return json(400, { status: 'BAD_REQUEST' });
  if (!state.merchant?.secrets[code]) return json(409, { status: 'NOT_REGISTERED' });
  const roundId = id('RND');
  const base = { code, playerId, currency, roundId } as const;
  const bet = await transact(state, ctx, { ...base, transactionId: id('BET'), action: 'bet', amount: stake, referenceTransactionId: null }, repeat, false);
  // No answer to the bet (or told so): it is rolled back, and the rollback is sent until it is answered.
  if (bet.answer === null || body.rollback === true) {
    const rollback = await transact(state, ctx, { ...base, transactionId: id('RBK'), action: 'rollback', amount: stake, referenceTransactionId: bet.transactionId }, repeat, true);
    return json(200, { roundId, bet, rollback });
  }
  if (bet.answer.status !== 'OK' || win === 0) return json(200, { roundId, bet });
  const paid = await transact(state, ctx, { ...base, transactionId: id('WIN'), action: 'win', amount: win, referenceTransactionId: null }, repeat, true);
  return json(200, { roundId, bet, win: paid });
}

/** Bets of the book with an answered rollback (in doubt no more). */
function rolledBack(state: AggregatorState, code: string): Set<string> {
  return new Set([...state.transactions.values()].filter((t) => t.code === code && t.action === 'rollback' && t.answer?.status === 'OK' && t.referenceTransactionId).map((t) => t.referenceTransactionId ?? ''));
}

/**
 * Finishes what the book leaves open (the aggregator was killed mid-round, or the operator did
 * not answer): a bet without an answer is rolled back; a win or rollback without one is sent again
 * with its own transaction id. Answers how many were open and how many still are.
 */
async function settle(state: AggregatorState, ctx: Ctx, code: string): Promise<Answer> {
  const open = [...state.transactions.values()].filter((t) => t.code === code && t.answer === null);
  for (const t of open) {
    const base = { code, playerId: t.playerId, currency: t.currency, roundId: t.roundId } as const;
    if (t.action !== 'bet') await transact(state, ctx, { ...base, transactionId: t.transactionId, action: t.action, amount: t.amount, referenceTransactionId: t.referenceTransactionId }, 1, true);
    else if (![...state.transactions.values()].some((r) => r.action === 'rollback' && r.referenceTransactionId === t.transactionId)) {
      await transact(state, ctx, { ...base, transactionId: id('RBK'), action: 'rollback', amount: t.amount, referenceTransactionId: t.transactionId }, 1, true);
    }
  }
  const done = rolledBack(state, code);
  const still = [...state.transactions.values()].filter((t) => t.code === code && t.answer === null && !(t.action === 'bet' && done.has(t.transactionId)));
  return json(200, { open: open.length, stillOpen: still.length });
}

/**
 * Its one call of its own, for the operator's reconciliation: `POST /aggregator/{code}/report
 * {from, to}`, signed with the game's secret → `{status: "SUCCESS", transfers: [{requestId,
 * username, direction, amount, at}]}`: the transactions answered OK in [from, to) — a bet money
 * into the game (`in`), a win out of it — in the transfer-wallet report's shape. A bet that a
 * rollback answered OK undid is left out (whether its own answer came or not), and so are rollbacks.
 */
function report(req: SandboxRequest, state: AggregatorState, ctx: Ctx): Answer {
  const [code, action] = req.parts;
  const secret = code ? state.merchant?.secrets[code] : undefined;
  if (req.method !== 'POST' || action !== 'report' || req.parts.length !== 2 || !code) return json(404, { status: 'NOT_FOUND' });
  if (!secret || !verify(req.headers, req.raw, secret, ctx.now())) return json(401, { status: 'INVALID_SIGNATURE' });
  const from = Date.parse(String(req.body?.from));
  const to = Date.parse(String(req.body?.to));
  if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) return json(400, { status: 'BAD_REQUEST' });
  // A bet its rollback undid (answered or not: it was in doubt) and the rollbacks are left out: the
  // pair nets to nothing, and whether the rollback moved money depends on whether the bet reached the operator.
  const undone = rolledBack(state, code);
  const transfers = [...state.transactions.values()]
    .filter((t) => t.code === code && t.answer?.status === 'OK' && t.action !== 'rollback' && !(t.action === 'bet' && undone.has(t.transactionId)) && Date.parse(t.at) >= from && Date.parse(t.at) < to)
    .map((t) => ({ requestId: t.transactionId, username: t.playerId, direction: t.action === 'bet' ? 'in' : 'out', amount: t.amount, at: t.at }));
  return json(200, { status: 'SUCCESS', transfers });
}

async function control(req: SandboxRequest, state: AggregatorState, ctx: Ctx): Promise<Answer> {
  const body = req.body ?? {};
  const [first, action] = req.parts;
  if (req.method === 'PUT' && first === 'merchant' && req.parts.length === 1) {
    const url = str(body.url, 500);
    const given = body.secrets;
    const secrets = typeof given === 'object' && given !== null && !Array.isArray(given) ? Object.fromEntries(Object.entries(given).filter((e): e is [string, string] => /^[A-Z0-9_]{1,16}$/.test(e[0]) && typeof e[1] === 'string' && e[1].length >= 16)) : null;
    if (!url || !/^https?:\/\//.test(url) || !secrets) return json(400, { status: 'BAD_REQUEST' });
    if (JSON.stringify(state.merchant) !== JSON.stringify({ url, secrets })) ctx.commit({ type: 'merchant', url, secrets });
    return json(200, { status: 'SUCCESS', codes: Object.keys(secrets) });
  }
  const code = first && /^[A-Z0-9_]{1,16}$/.test(first) ? first : null;
  // Whether it plays this game (the operator registered its secret): the game pages ask.
  if (code && req.method === 'GET' && req.parts.length === 1) return json(200, { code, registered: Boolean(state.merchant?.secrets[code]) });
  if (!code || req.parts.length !== 2) return json(404, { status: 'NOT_FOUND' });
  if (req.method === 'POST' && action === 'round') return round(req, state, ctx, code);
  if (req.method === 'POST' && action === 'balance') {
    const playerId = str(body.playerId, 64);
    if (!playerId || (body.currency !== 'THB' && body.currency !== 'LAK')) return json(400, { status: 'BAD_REQUEST' });
    const answer = await call(state, ctx, code, 'balance', { playerId, currency: body.currency }, 1);
    return answer ? json(200, answer) : json(502, { status: 'NO_ANSWER' });
  }
  if (req.method === 'POST' && action === 'settle') return settle(state, ctx, code);
  if (req.method === 'GET' && action === 'transactions') return json(200, { transactions: [...state.transactions.values()].filter((t) => t.code === code) });
  return json(404, { status: 'NOT_FOUND' });
}

export function aggregatorSystem() {
  return defineSystem<AggregatorState, AggregatorEvent>({
    name: 'aggregator',
    initial: () => ({ merchant: null, transactions: new Map() }),
    apply(state, event) {
      if (event.type === 'merchant') state.merchant = { url: event.url, secrets: event.secrets };
      else state.transactions.set(`${event.txn.code}:${event.txn.transactionId}`, event.txn);
    },
    handle: (req, state, ctx) => report(req, state, ctx),
    control: (req, state, ctx) => control(req, state, ctx),
    summary: (state) => ({ transactions: state.transactions.size }),
  });
}
