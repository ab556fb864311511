import { createHmac } from 'node:crypto';
import { Breaker, BreakerOpen, CallTimeout } from '../../platform/breaker';
import { neverLeft, postText } from '../http-post';
import { ProviderError, type GameCredentials, type GameProvider, type GameRound, type LaunchTarget, type ProviderTransfer, type TransferDirection } from './game-provider';

export interface HttpGameOptions {
  /** The provider's API base, e.g. http://127.0.0.1:3100 (GAME_API_URL). */
  url: string;
  /** The HMAC secret both sides hold (GAME_API_SECRET). */
  secret: string;
  /** Deadline of one call (PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
  /** Consecutive failures that open the provider's breaker, and how long it stays open. */
  breakerFailures?: number;
  breakerOpenMs?: number;
  /** Where the provider's pages send the member back to (the member app's home). */
  returnUrl?: string;
}

/** The provider answered with a status of its protocol (not OK). */
class Answered extends Error {
  constructor(
    readonly httpStatus: number,
    readonly status: string,
  ) {
    super(`provider answered ${httpStatus} ${status}`);
  }
}

/**
 * A transfer-wallet game provider over HTTP (the sandbox service's protocol, docs/sandbox.md):
 * every call is a signed JSON POST (X-Timestamp, X-Signature = hex HMAC-SHA256 of
 * `${timestamp}.${body}`), under a deadline and a circuit breaker per provider. Errors map onto
 * what the transfer service needs to stay exact:
 * - no connection, an open breaker, a refusal (4xx, 503 before anything): nothing happened
 *   (`unreachable` / `rejected`);
 * - a transfer whose answer did not come (deadline, reset socket, a 5xx other than 503) or came
 *   as a redirect (3xx: not an answer of the protocol, and a POST is never followed): in doubt
 *   (`unknown`), settled by "check transfer" (`lookupTransfer`). A transfer is never retried
 *   blindly; its request id makes a repeat safe, but the service asks instead.
 */
/** Deadline of a report call (the provider lists a whole period's transfers). */
const REPORT_TIMEOUT_MS = 30_000;

/** A status that says nothing about the request's outcome: a server error, or a redirect (never followed). */
function notAnAnswer(httpStatus: number): boolean {
  return httpStatus >= 500 || (httpStatus >= 300 && httpStatus < 400);
}

export function httpGameProvider(code: string, options: HttpGameOptions): GameProvider {
  const base = options.url.replace(/\/+$/, '');
  const breaker = new Breaker({
    failures: options.breakerFailures ?? 5,
    openMs: options.breakerOpenMs ?? 10_000,
    timeoutMs: options.timeoutMs,
    isFailure: (error) => !(error instanceof Answered) || notAnAnswer(error.httpStatus),
  });
  // The reconciliation's report call: its own breaker and a longer deadline (a long list), so a
  // slow or failing report never opens the breaker members' transfers go through.
  const reportBreaker = new Breaker({
    failures: options.breakerFailures ?? 5,
    openMs: options.breakerOpenMs ?? 10_000,
    timeoutMs: Math.max(options.timeoutMs, REPORT_TIMEOUT_MS),
    isFailure: (error) => !(error instanceof Answered) || notAnAnswer(error.httpStatus),
  });

  async function post(action: string, body: Record<string, unknown>, inDoubt: boolean): Promise<Record<string, unknown>> {
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', options.secret).update(`${timestamp}.${raw}`).digest('hex');
    let sent = false;
    try {
      return await (action === 'report' ? reportBreaker : breaker).run(async (signal) => {
        sent = true;
        const response = await postText(`${base}/games/${code}/${action}`, raw, { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature }, signal);
        const answer = parseObject(response.text);
        if (response.status < 200 || response.status > 299) throw new Answered(response.status, typeof answer.status === 'string' ? answer.status : 'ERROR');
        return answer;
      });
    } catch (error) {
      if (error instanceof BreakerOpen) throw new ProviderError('unreachable', `${code}: circuit open`);
      if (error instanceof Answered) {
        // 503: refused before anything was done; other 5xx and a redirect: the state is unknown.
        if (notAnAnswer(error.httpStatus) && error.httpStatus !== 503) throw new ProviderError(inDoubt ? 'unknown' : 'unreachable', `${code}: ${error.message}`);
        throw new ProviderError(error.httpStatus === 503 ? 'unreachable' : 'rejected', `${code}: ${error.status}`);
      }
      if (!sent || isRefused(error)) throw new ProviderError('unreachable', `${code}: not reached (${String(error)})`);
      throw new ProviderError(inDoubt ? 'unknown' : 'unreachable', `${code}: no answer (${error instanceof CallTimeout ? 'deadline' : String(error)})`);
    }
  }

  const credentials = (answer: Record<string, unknown>): GameCredentials => ({ username: String(answer.username), password: String(answer.password) });
  return {
    code,
    openAccount: async (_memberId, currency) => credentials(await post('players', { currency }, false)),
    balance: async (username) => Number((await post('balance', { username }, false)).balance),
    transfer: async (direction, username, amount, ref) => ({ balance: Number((await post('transfer', { username, direction, amount, requestId: ref }, true)).balance) }),
    resetPassword: async (username) => credentials(await post('password', { username }, false)),
    launch: async (login: GameCredentials, returnUrl?: string): Promise<LaunchTarget> => {
      const back = returnUrl ?? options.returnUrl;
      return launchTarget(await post('launch', { username: login.username, password: login.password, ...(back ? { returnUrl: back } : {}) }, false));
    },
    lookupTransfer: async (ref) => ((await post('check-transfer', { requestId: ref }, false)).status === 'APPLIED' ? 'applied' : 'absent'),
    rounds: async (cursor, limit) => roundsOf(await post('rounds', { cursor, limit }, false)),
    report: async (from, to) => reportOf(await post('report', { from: from.toISOString(), to: to.toISOString() }, false)),
  };
}

/** A connection refused or a name not found: the request never left. */
const isRefused = neverLeft;

/** An answer's JSON object ({} when the body is not one). */
function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The launch call's answer: a link, and for a form-state game the form the app posts. */
function launchTarget(answer: Record<string, unknown>): LaunchTarget {
  const link = answer.link;
  if (typeof link !== 'string' || !/^https?:\/\//.test(link)) throw new ProviderError('rejected', 'launch: no link in the answer');
  const event = answer.event as { action?: unknown; method?: unknown; fields?: unknown } | undefined;
  if (!event || typeof event.action !== 'string' || typeof event.fields !== 'object' || event.fields === null) return { link };
  const fields = Object.fromEntries(Object.entries(event.fields as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  return { link, event: { action: event.action, method: 'POST', fields } };
}

/** The transfer report, each line checked: a malformed one fails the whole report (nothing is guessed). */
function reportOf(answer: Record<string, unknown>): ProviderTransfer[] {
  if (!Array.isArray(answer.transfers)) throw new ProviderError('rejected', 'report: no list in the answer');
  return answer.transfers.map((t: Record<string, unknown>) => {
    const at = new Date(String(t.at));
    const ok = typeof t.requestId === 'string' && typeof t.username === 'string' && (t.direction === 'in' || t.direction === 'out') && Number.isSafeInteger(t.amount) && Number.isFinite(at.getTime());
    if (!ok) throw new ProviderError('rejected', `report: malformed transfer ${JSON.stringify(t).slice(0, 200)}`);
    return { reference: t.requestId as string, username: t.username as string, direction: t.direction as TransferDirection, amount: t.amount as number, at };
  });
}

/** The round feed's page, each round checked: a malformed one stops the import (nothing is guessed). */
function roundsOf(answer: Record<string, unknown>): GameRound[] {
  if (!Array.isArray(answer.rounds)) throw new ProviderError('rejected', 'rounds: no list in the answer');
  return answer.rounds.map((r: Record<string, unknown>) => {
    const settledAt = new Date(String(r.settledAt));
    const ok = typeof r.roundId === 'string' && typeof r.username === 'string' && Number.isSafeInteger(r.stake) && Number.isSafeInteger(r.win) && typeof r.cursor === 'string' && Number.isFinite(settledAt.getTime());
    if (!ok) throw new ProviderError('rejected', `rounds: malformed round ${JSON.stringify(r).slice(0, 200)}`);
    return { roundId: r.roundId as string, username: r.username as string, stake: r.stake as number, win: r.win as number, settledAt, cursor: r.cursor as string };
  });
}
