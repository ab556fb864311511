import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Links that work without a token for a while: `{path}?exp=<unix seconds>&sig=<hex HMAC-SHA256 of
 * "{id}.{exp}">`, signed with a secret of their own (so a link of one kind never opens another).
 */
export class SignedLinks {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
    private readonly pathOf: (id: string) => string,
    private readonly now: () => number = Date.now,
  ) {}

  private sign(id: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`${id}.${exp}`).digest('hex');
  }

  url(id: string): string {
    const exp = Math.floor(this.now() / 1000) + this.ttlSeconds;
    return `${this.pathOf(id)}?exp=${exp}&sig=${this.sign(id, exp)}`;
  }

  /** Whether `sig` was made by `url` for this id and `exp` has not passed. */
  verify(id: string, exp: string, sig: string): boolean {
    if (!/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return false;
    const expiry = Number(exp);
    if (expiry * 1000 < this.now()) return false;
    return timingSafeEqual(Buffer.from(this.sign(id, expiry), 'hex'), Buffer.from(sig, 'hex'));
  }
}
