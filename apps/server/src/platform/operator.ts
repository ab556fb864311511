import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { forbidden } from '../lib/errors';

/**
 * The guard of operator calls (until the back office exists): `Authorization: Bearer
 * OPERATOR_TOKEN`, compared in constant time; closed when OPERATOR_TOKEN is not configured.
 * Operator calls keep working on a terminated site, so the site can be brought back. Each domain
 * registers its own operator calls under /api/operator/ with this guard.
 */
export function operatorGuard(config: Pick<Config, 'OPERATOR_TOKEN'>): (request: FastifyRequest) => Promise<void> {
  const token = config.OPERATOR_TOKEN;
  const expected = Buffer.from(`Bearer ${token ?? ''}`);
  return async (request) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (!token || given.length !== expected.length || !timingSafeEqual(given, expected)) throw forbidden('FORBIDDEN');
  };
}
