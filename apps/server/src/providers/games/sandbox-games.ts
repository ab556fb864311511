import type { GAME_FAULT_MODES } from '@mw/contract/operator/payout';
import { sandboxControl } from '../sandbox-control';
import type { GameProvider } from './game-provider';
import { httpGameProvider } from './http-games';

/** Failure injection per game, as the operator call names it (contract/operator/payout.ts). */
export type FaultMode = (typeof GAME_FAULT_MODES)[number];

export interface Fault {
  mode: FaultMode;
  /** Added to every call. */
  latencyMs: number;
}

export interface SandboxGamesOptions {
  /** The sandbox service (apps/sandbox): SANDBOX_URL, or the one on SANDBOX_PORT. */
  url: string;
  /** Its game API's secret (SANDBOX_GAME_SECRET). */
  secret: string;
  /** Deadline of one call (PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
  /** Where the demo game sends the member back to. */
  returnUrl?: string;
}

/** The sandbox service's own faults (apps/sandbox/src/kit.ts) for the operator's modes: only `transfer` calls hang or lose their answer. */
function sandboxFault({ mode, latencyMs }: Fault): Record<string, unknown> {
  if (mode === 'down') return { mode: 'refuse', latencyMs };
  if (mode === 'timeout') return { mode: 'timeout', latencyMs, on: ['transfer'] };
  if (mode === 'error-after-take') return { mode: 'drop', latencyMs, on: ['transfer'] };
  return latencyMs > 0 ? { mode: 'delay', latencyMs } : { mode: 'none' };
}

const operatorMode = (mode: unknown): FaultMode => (mode === 'refuse' || mode === 'down' ? 'down' : mode === 'timeout' ? 'timeout' : mode === 'drop' ? 'error-after-take' : 'none');

/**
 * The game providers of the sandbox service (its `games` system), over the wire: each game is
 * the HTTP transfer-wallet adapter (http-games.ts) against it, and this is its control API for
 * the operator's fault switch, the tests and the demo (play rounds, read a player's balance).
 * Nothing of it is in our database: the provider's state is the sandbox's.
 */
export class SandboxGames {
  constructor(private readonly options: SandboxGamesOptions) {}

  provider(code: string): GameProvider {
    const { url, secret, timeoutMs, returnUrl } = this.options;
    // The breaker is not left to count a test's or the operator's injected faults as an outage of
    // minutes: it opens after 20 failures in a row, for 2 s.
    return httpGameProvider(code, { url, secret, timeoutMs, breakerFailures: 20, breakerOpenMs: 2_000, ...(returnUrl ? { returnUrl } : {}) });
  }

  private control(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    return sandboxControl(this.options.url, 'games', method, path, body);
  }

  /** Failure injection on one game (`*`: all of them), for every server process using this sandbox. */
  async setFault(code: string, fault: Fault): Promise<void> {
    const res = await this.control('PUT', `${encodeURIComponent(code)}/fault`, sandboxFault(fault));
    if (res.status !== 200) throw new Error(`sandbox fault ${code}: ${res.status}`);
  }

  /** Every game's fault mode (none when none is set). */
  async faults(): Promise<Map<string, FaultMode>> {
    const res = await fetch(`${this.options.url}/control/faults`, { signal: AbortSignal.timeout(5_000) });
    const { faults } = (await res.json()) as { faults: Array<{ system: string; key: string; mode: string }> };
    return new Map(faults.filter((f) => f.system === 'games').map((f) => [f.key, operatorMode(f.mode)]));
  }

  /** One round: `stake` staked, `stake × multiplier` won, dated `settledAt` (default now). The balance after, or null (no player, or not enough). */
  async spin(code: string, username: string, stake: number, multiplier: number, settledAt?: Date): Promise<number | null> {
    const res = await this.control('POST', `${encodeURIComponent(code)}/spin`, { username, stake, multiplier, ...(settledAt ? { settledAt: settledAt.toISOString() } : {}) });
    if (res.status === 409 || res.status === 404) return null;
    if (res.status !== 200) throw new Error(`sandbox spin ${code}: ${res.status}`);
    return Number(res.body.balance);
  }

  /** `rounds` rounds of `stake` (fewer when the balance runs out), paying back about `rtp` over many. */
  async play(code: string, username: string, rounds: number, stake: number, rtp = 0.96): Promise<{ played: number; staked: number; won: number; balance: number | null }> {
    const res = await this.control('POST', `${encodeURIComponent(code)}/play`, { username, rounds, stake, rtp });
    if (res.status === 404) return { played: 0, staked: 0, won: 0, balance: null };
    if (res.status !== 200) throw new Error(`sandbox play ${code}: ${res.status}`);
    return { played: Number(res.body.played), staked: Number(res.body.staked), won: Number(res.body.won), balance: Number(res.body.balance) };
  }

  /** The player's balance as the provider holds it, or null when it has no such player. */
  async accountBalance(code: string, username: string): Promise<number | null> {
    const res = await this.control('GET', `${encodeURIComponent(code)}/players/${encodeURIComponent(username)}`);
    return res.status === 200 ? Number(res.body.balance) : null;
  }
}
