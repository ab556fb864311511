import { Redis } from 'ioredis';

/**
 * Fixed-window counters for rate limits (login failures, OTP sends). In one process a Map is
 * enough; with REDIS_URL the counters live in Redis so every server process shares them.
 */
export interface RateLimiter {
  /** Counts one hit and reports whether the limit was exceeded. */
  hit(key: string, limit: number, windowMs: number): Promise<RateResult>;
  /** Counts `amount` at once (bytes of an upload, say) and reports whether the limit was exceeded. */
  hitBy(key: string, amount: number, limit: number, windowMs: number): Promise<RateResult>;
  /** Reads without counting. */
  peek(key: string, limit: number): Promise<RateResult>;
  reset(key: string): Promise<void>;
  /** Takes back one hit (an attempt that turned out not to count, such as a successful login). */
  undo(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface RateResult {
  allowed: boolean;
  count: number;
  /** Seconds until the window ends. */
  retryAfter: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateResult> {
    return this.hitBy(key, 1, limit, windowMs);
  }

  async hitBy(key: string, amount: number, limit: number, windowMs: number): Promise<RateResult> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
      if (this.windows.size > 100_000) this.sweep(now);
    }
    window.count += amount;
    return { allowed: window.count <= limit, count: window.count, retryAfter: Math.ceil((window.resetAt - now) / 1000) };
  }

  async peek(key: string, limit: number): Promise<RateResult> {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) return { allowed: true, count: 0, retryAfter: 0 };
    return { allowed: window.count < limit, count: window.count, retryAfter: Math.ceil((window.resetAt - now) / 1000) };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async undo(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.count > 0) window.count -= 1;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], tonumber(ARGV[2] or '1'))
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {count, ttl}
`;

const UNDO_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;

  constructor(url: string, private readonly prefix = 'mw:rl:') {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateResult> {
    return this.hitBy(key, 1, limit, windowMs);
  }

  async hitBy(key: string, amount: number, limit: number, windowMs: number): Promise<RateResult> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs), String(Math.max(0, Math.floor(amount))))) as [number, number];
    return { allowed: count <= limit, count, retryAfter: Math.max(0, Math.ceil(ttl / 1000)) };
  }

  async peek(key: string, limit: number): Promise<RateResult> {
    const [value, ttl] = await Promise.all([this.redis.get(this.prefix + key), this.redis.pttl(this.prefix + key)]);
    const count = value === null ? 0 : Number(value);
    return { allowed: count < limit, count, retryAfter: Math.max(0, Math.ceil(ttl / 1000)) };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async undo(key: string): Promise<void> {
    await this.redis.eval(UNDO_SCRIPT, 1, this.prefix + key);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
