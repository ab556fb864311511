import type { GameLaunchEvent } from '@mw/contract/wallet';

/** A member's login at a game provider. */
export interface GameCredentials {
  username: string;
  password: string;
}

export interface LaunchTarget {
  link: string;
  event?: GameLaunchEvent;
}

export type TransferDirection = 'in' | 'out';

/** A settled round of play at a provider (the base of turnover, refunds and invite earnings). */
export interface GameRound {
  /** The provider's id of the round: a round is imported once by it. */
  roundId: string;
  username: string;
  /** Satang staked and won. */
  stake: number;
  win: number;
  settledAt: Date;
  /** The provider's position of the round in its feed: the next page starts after it. */
  cursor: string;
}

/**
 * One game provider (JOKER, PG, …), as the server sees it. Amounts are satang. Every transfer
 * carries our reference; the provider applies a reference at most once, and `lookupTransfer`
 * answers for a reference authoritatively: once it has answered "absent", that reference will
 * never be applied (so an in-doubt transfer can be settled safely).
 */
export interface GameProvider {
  readonly code: string;
  /** Opens the member's player, in the member's currency (the provider's balance and pages are in it). */
  openAccount(memberId: string, currency: 'THB' | 'LAK'): Promise<GameCredentials>;
  balance(username: string): Promise<number>;
  /** `in` moves money into the game account, `out` takes it out. Answers the new game balance. */
  transfer(direction: TransferDirection, username: string, amount: number, ref: string): Promise<{ balance: number }>;
  resetPassword(username: string): Promise<GameCredentials>;
  /** `returnUrl`: where the provider's pages send the member back to (the member app's home, on the host the member uses). */
  launch(credentials: GameCredentials, returnUrl?: string): Promise<LaunchTarget>;
  lookupTransfer(ref: string): Promise<'applied' | 'absent'>;
  /** Settled rounds after `cursor` (null: from the start), oldest first, at most `limit`. */
  rounds(cursor: string | null, limit: number): Promise<GameRound[]>;
  /** The provider's own list of the transfers it applied in [from, to) (reconciliation); absent when its protocol has none. */
  report?(from: Date, to: Date): Promise<ProviderTransfer[]>;
}

/** A transfer as the provider's report lists it: our reference (its request id), and what it applied. */
export interface ProviderTransfer {
  reference: string;
  username: string;
  direction: TransferDirection;
  amount: number;
  at: Date;
}

/**
 * - unreachable: the request never reached the provider (nothing happened);
 * - rejected: the provider answered no (nothing happened);
 * - unknown: the request may or may not have been applied (timeout, error after sending).
 */
export type ProviderErrorKind = 'unreachable' | 'rejected' | 'unknown';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Gives every provider call a deadline; a transfer past it is in doubt, anything else failed. */
export function withDeadline(provider: GameProvider, timeoutMs: number): GameProvider {
  const limit = <T>(work: Promise<T>, kindOnTimeout: ProviderErrorKind, ms = timeoutMs): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ProviderError(kindOnTimeout, `${provider.code} timed out after ${ms} ms`)), ms);
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof ProviderError ? error : new ProviderError('unknown', String(error)));
        },
      );
    });
  return {
    code: provider.code,
    openAccount: (memberId, currency) => limit(provider.openAccount(memberId, currency), 'unreachable'),
    balance: (username) => limit(provider.balance(username), 'unreachable'),
    transfer: (direction, username, amount, ref) => limit(provider.transfer(direction, username, amount, ref), 'unknown'),
    resetPassword: (username) => limit(provider.resetPassword(username), 'unreachable'),
    launch: (credentials, returnUrl) => limit(provider.launch(credentials, returnUrl), 'unreachable'),
    lookupTransfer: (ref) => limit(provider.lookupTransfer(ref), 'unreachable'),
    rounds: (cursor, max) => limit(provider.rounds(cursor, max), 'unreachable'),
    // A report lists a whole period: a longer deadline than a member's call.
    ...(provider.report ? { report: (from: Date, to: Date) => limit((provider.report as NonNullable<GameProvider['report']>)(from, to), 'unreachable', Math.max(timeoutMs, 30_000)) } : {}),
  };
}
