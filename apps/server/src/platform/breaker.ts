// A circuit breaker around calls to an outside service, on cockatiel's circuit breaker
// (ConsecutiveBreaker) and timeout policies. What this file adds is the behaviour the e-wallet
// needs on top of them (tested in ewallet.test.ts):
// - a definite answer of a working service (an error `isFailure` does not count) is a success
//   for the breaker: it resets the count of failures in a row and closes a half-open breaker
//   (cockatiel would leave the count as it was);
// - while the one trial call of a half-open breaker runs, other calls fail at once with
//   BreakerOpen (cockatiel would make them wait for the trial's outcome);
// - errors of our own: BreakerOpen (with how long it stays open) and CallTimeout.
import { BrokenCircuitError, circuitBreaker, CircuitState, ConsecutiveBreaker, handleWhen, TaskCancelledError, timeout, TimeoutStrategy, wrap } from 'cockatiel';

/** The breaker is open: the outside service failed too often lately; calls fail at once. */
export class BreakerOpen extends Error {
  constructor(readonly retryAfterMs: number) {
    super('circuit open');
    this.name = 'BreakerOpen';
  }
}

/** A call that took longer than the breaker's timeout (counted as a failure). */
export class CallTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'CallTimeout';
  }
}

export interface BreakerOptions {
  /** Consecutive failures that open the breaker. */
  failures: number;
  /** How long it stays open; then one trial call is let through (half-open). */
  openMs: number;
  /** A call is given up after this long (and counts as a failure). */
  timeoutMs: number;
  /** Which errors count as the service failing (others — the service's definite answers — do not). */
  isFailure: (error: unknown) => boolean;
}

/** A definite answer carried through the breaker as a success, thrown again outside it. */
class DefiniteAnswer {
  constructor(readonly error: unknown) {}
}

/**
 * A circuit breaker around calls to an outside service, per process: closed, it lets calls through
 * with a timeout and counts consecutive failures; after `failures` of them it opens and every call
 * fails at once with BreakerOpen for `openMs`; then a single trial call goes through — success
 * closes it, failure opens it again. So a member gets a clear answer at once when the service is
 * down, instead of waiting for a timeout on every try.
 */
export class Breaker {
  private readonly breaker;
  private readonly policy;
  private openedAt = 0;

  constructor(private readonly options: BreakerOptions) {
    this.breaker = circuitBreaker(
      handleWhen((error) => error instanceof TaskCancelledError || options.isFailure(error)),
      { halfOpenAfter: options.openMs, breaker: new ConsecutiveBreaker(options.failures) },
    );
    this.breaker.onBreak(() => {
      this.openedAt = Date.now();
    });
    // abortOnReturn off: a call that answered has nothing left to cancel, and aborting its signal
    // anyway cost an AbortError and an abort event per call (issue 35's transfer profile).
    this.policy = wrap(this.breaker, timeout(options.timeoutMs, { strategy: TimeoutStrategy.Aggressive, abortOnReturn: false }));
  }

  get state(): 'closed' | 'open' | 'half-open' {
    switch (this.breaker.state) {
      case CircuitState.Closed:
        return 'closed';
      case CircuitState.HalfOpen:
        return 'half-open';
      default:
        // cockatiel moves to half-open with the next call; the open time is over already.
        return Date.now() - this.openedAt < this.options.openMs ? 'open' : 'half-open';
    }
  }

  private retryAfterMs(): number {
    return Math.max(this.openedAt + this.options.openMs - Date.now(), 0);
  }

  async run<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    // The trial call is running: the others are not held up waiting for it.
    if (this.breaker.state === CircuitState.HalfOpen) throw new BreakerOpen(this.retryAfterMs());
    let outcome: T | DefiniteAnswer;
    try {
      // Each call's own parent signal: without one, cockatiel hangs every running call's abort
      // listener on one shared signal, and more than ten at once warn of a leak (MaxListenersExceeded).
      outcome = await this.policy.execute(async ({ signal }) => {
        try {
          return await call(signal);
        } catch (error) {
          if (error instanceof TaskCancelledError || this.options.isFailure(error)) throw error;
          return new DefiniteAnswer(error);
        }
      }, new AbortController().signal);
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw new BreakerOpen(this.retryAfterMs());
      if (error instanceof TaskCancelledError) throw new CallTimeout(this.options.timeoutMs);
      throw error;
    }
    if (outcome instanceof DefiniteAnswer) throw outcome.error;
    return outcome;
  }
}
