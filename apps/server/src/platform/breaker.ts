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
  now?: () => number;
}

/**
 * A circuit breaker around calls to an outside service, per process: closed, it lets calls through
 * with a timeout and counts consecutive failures; after `failures` of them it opens and every call
 * fails at once with BreakerOpen for `openMs`; then a single trial call goes through — success
 * closes it, failure opens it again. So a member gets a clear answer at once when the service is
 * down, instead of waiting for a timeout on every try.
 */
export class Breaker {
  private consecutive = 0;
  private openUntil = 0;
  private trial = false;
  private readonly now: () => number;

  constructor(private readonly options: BreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openUntil === 0) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'half-open';
  }

  async run<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.trial)) throw new BreakerOpen(Math.max(this.openUntil - this.now(), 0));
    const isTrial = state === 'half-open';
    if (isTrial) this.trial = true;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new CallTimeout(this.options.timeoutMs));
      }, this.options.timeoutMs);
    });
    try {
      const value = await Promise.race([call(controller.signal), timeout]);
      this.consecutive = 0;
      this.openUntil = 0;
      return value;
    } catch (error) {
      if (error instanceof CallTimeout || this.options.isFailure(error)) {
        this.consecutive += 1;
        if (state === 'half-open' || this.consecutive >= this.options.failures) this.openUntil = this.now() + this.options.openMs;
      } else {
        // A definite answer from a working service.
        this.consecutive = 0;
        this.openUntil = 0;
      }
      throw error;
    } finally {
      clearTimeout(timer);
      if (isTrial) this.trial = false;
    }
  }
}
