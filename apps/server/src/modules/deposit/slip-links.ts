import { z } from 'zod';
import type { Config } from '../../config';
import { moduleConfig } from '../../platform/module-config';
import { secretOf } from '../../platform/secrets';
import { SignedLinks } from '../../platform/signed-links';

/**
 * Private links to slip images. A slip's image is served only at a URL signed for that slip with
 * an expiry (`/api/slips/{id}/image?exp=<unix seconds>&sig=<hex HMAC-SHA256 of "{id}.{exp}">`):
 * it opens in a new window without the member's token, and only someone who was handed it — the
 * slip's owner (slip history, GET /api/statement/slip/reference/{reference}) or an operator (GET
 * /api/operator/slips) — has it. A link lives `ttlSeconds` (SLIP_LINK_TTL_SECONDS, 300 by
 * default); the history's "refresh" makes new ones.
 */
export class SlipLinks extends SignedLinks {
  constructor(secret: string, ttlSeconds: number, now: () => number = Date.now) {
    super(secret, ttlSeconds, (id) => `/api/slips/${encodeURIComponent(id)}/image`, now);
  }
}

const slipLinkEnv = z.object({
  /** Signs the private links to slip images (generated into DATA_DIR/secrets when not set). */
  SLIP_LINK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** How long a link to a slip image works. */
  SLIP_LINK_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
});

const made = new WeakMap<Config, SlipLinks>();

/** The one SlipLinks of a server (slip history and the deposit flows hand them out). */
export function slipLinksFor(config: Config): SlipLinks {
  let links = made.get(config);
  if (!links) {
    const env = moduleConfig(config, slipLinkEnv);
    links = new SlipLinks(secretOf(env.SLIP_LINK_SECRET, config.DATA_DIR, 'slip-link-secret'), env.SLIP_LINK_TTL_SECONDS);
    made.set(config, links);
  }
  return links;
}
