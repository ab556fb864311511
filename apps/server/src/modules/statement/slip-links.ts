import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Private links to slip images. A slip's image is served only at a URL signed for that slip with
 * an expiry (`/api/slips/{id}/image?exp=<unix seconds>&sig=<hex HMAC-SHA256 of "{id}.{exp}">`):
 * it opens in a new window without the member's token, and only someone who was handed it — the
 * slip's owner (slip history, GET /api/statement/slip/reference/{reference}) or an operator (GET
 * /api/operator/slips) — has it. A link lives `ttlSeconds` (SLIP_LINK_TTL_SECONDS, 300 by
 * default); the history's "refresh" makes new ones.
 */
export class SlipLinks {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  private sign(id: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`${id}.${exp}`).digest('hex');
  }

  url(slipId: string): string {
    const exp = Math.floor(this.now() / 1000) + this.ttlSeconds;
    return `/api/slips/${encodeURIComponent(slipId)}/image?exp=${exp}&sig=${this.sign(slipId, exp)}`;
  }

  /** Whether `sig` was made by `url` for this slip and `exp` has not passed. */
  verify(slipId: string, exp: string, sig: string): boolean {
    if (!/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return false;
    const expiry = Number(exp);
    if (expiry * 1000 < this.now()) return false;
    return timingSafeEqual(Buffer.from(this.sign(slipId, expiry), 'hex'), Buffer.from(sig, 'hex'));
  }
}
