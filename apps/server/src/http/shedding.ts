import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Load shedding: while this process is overloaded, member API calls answer at once
 * `503 {message: 'BUSY', retryAfter}` with a `Retry-After` header, instead of queueing until they
 * time out. Overloaded means either:
 * - the event loop lags: a timer due every 100 ms fires, smoothed over about a second, more than
 *   `lagMs` late; or
 * - more than `poolQueue` queries wait for a database connection.
 *
 * What is shed: calls under /api except the operator and admin calls (the people who clear the
 * queues must reach the service), provider webhooks (money that arrived is recorded; the sender
 * would only retry) and health. The refusal comes before anything is read or claimed, so a shed
 * money call has moved nothing and its Idempotency-Key is still free: the client retries with the
 * same key. The web app shows BUSY as "the service is busy, try again in a moment".
 */
export interface SheddingOptions {
  /** Mean event-loop delay (ms) above which calls are shed; 0 switches the check off. */
  lagMs: number;
  /** Queries waiting for a connection above which calls are shed; 0 switches the check off. */
  poolQueue: number;
  /** How many queries wait for a database connection now. */
  waiting: () => number;
  /** Seconds a shed client is told to wait. */
  retryAfterSeconds?: number;
  /** How often the event loop's lag is sampled (ms). */
  sampleMs?: number;
}

export class LoadShedder {
  /**
   * The event loop's lag in ms: how late the sampler's timer fires, smoothed over about a second
   * (each sample weighs 30 %), so one long task does not shed and a loop that stays late does.
   */
  lag = 0;
  private readonly timer: NodeJS.Timeout | null;
  private last = performance.now();

  constructor(private readonly options: SheddingOptions) {
    const every = options.sampleMs ?? 100;
    if (options.lagMs > 0) {
      this.timer = setInterval(() => this.sample(every), every);
      this.timer.unref();
    } else {
      this.timer = null;
    }
  }

  /** One sample: how much later than `every` ms after the previous one this runs. */
  private sample(every: number): void {
    const now = performance.now();
    const late = Math.max(0, now - this.last - every);
    this.last = now;
    this.lag = this.lag * 0.7 + late * 0.3;
  }

  /** Why calls are shed now, or null. */
  overloaded(): 'event-loop' | 'database-pool' | null {
    if (this.options.lagMs > 0 && this.lag > this.options.lagMs) return 'event-loop';
    if (this.options.poolQueue > 0 && this.options.waiting() > this.options.poolQueue) return 'database-pool';
    return null;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

/** Calls that are never shed: operators, admin, provider webhooks (see LoadShedder). */
const NEVER_SHED = /^\/+api\/+(operator|admin|webhooks)(\/|$)/i;

export function registerShedding(app: FastifyInstance, shedder: LoadShedder, isApiPath: (path: string) => boolean, pathOf: (request: FastifyRequest) => string, retryAfterSeconds = 2): void {
  let shedCount = 0;
  let lastLog = 0;
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request);
    if (!isApiPath(path) || NEVER_SHED.test(path)) return;
    const reason = shedder.overloaded();
    if (!reason) return;
    shedCount += 1;
    const now = Date.now();
    if (now - lastLog > 5_000) {
      lastLog = now;
      request.log.warn({ reason, lagMs: Math.round(shedder.lag), shed: shedCount }, 'overloaded: calls are shed with 503 BUSY');
      shedCount = 0;
    }
    return reply.status(503).header('retry-after', String(retryAfterSeconds)).send({ message: 'BUSY', retryAfter: retryAfterSeconds });
  });
  app.addHook('onClose', async () => shedder.close());
}
