import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { storedBannersSchema, type StoredBanners } from '../lib/banners';
import { forbidden } from '../lib/errors';
import { recordChange } from './audit';
import type { Services } from './services';

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

/** Whether a bare token is the automation key (the chat inbox's socket handshake). */
export function operatorTokenValid(config: Pick<Config, 'OPERATOR_TOKEN'>, token: string): boolean {
  const expected = Buffer.from(config.OPERATOR_TOKEN ?? '');
  const given = Buffer.from(token);
  return Boolean(config.OPERATOR_TOKEN) && given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Whether the operator calling holds the owner role. Operators' own accounts and roles come with
 * the operator-accounts work (`request.operator` with its role); until a request carries one, the
 * only operator credential is the shared OPERATOR_TOKEN, which can do everything, so its holder
 * counts as the owner. Calls that need the owner (a manual credit over a member's deposit limit,
 * releasing a held deposit the limit still refuses) ask this and an explicit flag in the body.
 */
export function operatorIsOwner(request: FastifyRequest): boolean {
  const operator = (request as unknown as { operator?: { role?: unknown; roles?: unknown } | null }).operator;
  if (!operator) return true;
  const roles = Array.isArray(operator.roles) ? operator.roles : [operator.role];
  return roles.includes('owner');
}

/**
 * Who made an operator change, as the audit records it: the `X-Operator` header (a name the back
 * office sends, at most 64 characters) or, without it, "operator".
 */
export function operatorName(request: FastifyRequest): string {
  const raw = request.headers['x-operator'];
  const name = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are dropped from a name for the log
  const clean = name.replace(/[\u0000-\u001F\u007F-\u009F]/g, '').slice(0, 64);
  return clean || 'operator';
}

/**
 * GET / PUT of a banner setting (`/api/operator/<name>-banners`): one list for every language or
 * one per language (see lib/banners), each change recorded in the audit.
 */
export function bannerSettingRoutes(app: FastifyInstance, services: Pick<Services, 'config' | 'settings' | 'database'>, name: 'invite' | 'refund'): void {
  const guard = operatorGuard(services.config);
  const key = `${name}Banners`;
  app.get(`/api/operator/${name}-banners`, { preHandler: guard }, async () => services.settings.get<StoredBanners>(key, []));
  app.put(`/api/operator/${name}-banners`, { preHandler: guard, schema: { body: storedBannersSchema } }, async (request) => {
    const before = await services.settings.get<StoredBanners>(key, []);
    await services.settings.set(key, request.body);
    await recordChange(services.database.db, { who: operatorName(request), entity: 'banners', key: name, before, after: request.body });
    return request.body;
  });
}
