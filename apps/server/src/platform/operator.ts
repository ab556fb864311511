import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperatorRole } from '@mw/contract/admin';
import type { Config } from '../config';
import { promotionOperatorCalls } from '@mw/contract/operator/promotions';
import { contractRoute } from '../http/contract-route';
import type { StoredBanners } from '../lib/banners';
import { AppError, unauthorized } from '../lib/errors';
import { isOperatorRoute, recordAudit, recordChange, registerAuditHooks } from './audit';
import { roleAllows } from './operator-roles';
import type { Services } from './services';

/** Who makes an operator call: an operator's session, or the OPERATOR_TOKEN automation key (role owner). */
export interface OperatorIdentity {
  /** The operator's id; `api-key` for OPERATOR_TOKEN. */
  id: string;
  username: string;
  name: string;
  role: OperatorRole;
  via: 'session' | 'api-key';
  sessionId: string | null;
  sessionExpiresAt: Date | null;
}

/** Checks an operator session's token (the operators module provides it). Throws 401 when it is not good. */
export interface OperatorSessionCheck {
  authenticate(token: string, ip: string): Promise<OperatorIdentity>;
  /** Told of each revocation in this process: one session's (logout) or an operator's (disable, password, TOTP reset, role change). */
  onRevoke(listener: (revocation: { sessionId?: string; operatorId?: string }) => void): () => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of an /api/operator/* call (set before anything else runs), else null. */
    operator: OperatorIdentity | null;
  }
}

declare module './services' {
  interface Services {
    operatorSessions: OperatorSessionCheck;
  }
}

export const API_KEY_IDENTITY: OperatorIdentity = {
  id: 'api-key',
  username: 'api-key',
  name: 'api-key',
  role: 'owner',
  via: 'api-key',
  sessionId: null,
  sessionExpiresAt: null,
};

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who an `Authorization: Bearer …` header names: OPERATOR_TOKEN (compared in constant time) is
 * the api-key identity; anything else is an operator session's token. 401 UNAUTHORIZED without
 * one, SESSION_EXPIRED for a session past its life or idle time (see OperatorSessionService).
 */
export async function authenticateOperator(services: Services, authorization: string | undefined, ip: string): Promise<OperatorIdentity> {
  const match = /^Bearer (\S{16,200})$/.exec(authorization ?? '');
  const token = match?.[1];
  if (!token) throw unauthorized('UNAUTHORIZED');
  const apiKey = services.config.OPERATOR_TOKEN;
  if (apiKey && timingSafeEqual(digest(token), digest(apiKey))) return API_KEY_IDENTITY;
  if (!('operatorSessions' in services)) throw unauthorized('UNAUTHORIZED');
  return services.operatorSessions.authenticate(token, ip);
}

const registered = new WeakMap<FastifyInstance, ReadonlyArray<{ method: string; url: string }>>();

/** Every /api/operator/* route the app registered (its method and pattern; HEAD left out). */
export function operatorRoutesOf(app: FastifyInstance): ReadonlyArray<{ method: string; url: string }> {
  return registered.get(app) ?? [];
}

/** Whether a bare token is the automation key. */
export function operatorTokenValid(config: Pick<Config, 'OPERATOR_TOKEN'>, token: string): boolean {
  return Boolean(config.OPERATOR_TOKEN) && timingSafeEqual(digest(token), digest(config.OPERATOR_TOKEN ?? ''));
}

/**
 * Whether a bare token (the automation key or an operator session's) may make a call of the
 * matrix, e.g. the chat inbox's socket handshake for `GET /api/operator/chat/conversations`.
 */
export async function operatorTokenMay(services: Services, token: string, method: string, url: string): Promise<boolean> {
  try {
    const operator = await authenticateOperator(services, `Bearer ${token}`, '');
    return roleAllows(operator.role, method, url);
  } catch {
    return false;
  }
}

/** Who a bare token belongs to (a live session or the automation key): name, operator and session, or null. */
export async function operatorOfToken(services: Services, token: string): Promise<{ name: string; operatorId: string; sessionId: string | null } | null> {
  try {
    const operator = await authenticateOperator(services, `Bearer ${token}`, '');
    return { name: operator.username, operatorId: operator.id, sessionId: operator.sessionId };
  } catch {
    return null;
  }
}

/**
 * A preHandler that identifies the operator (session or automation key, 401 otherwise) on a
 * route outside /api/operator/ (the admin calls, the API documentation).
 */
export function operatorAuthentication(services: Services): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    request.operator = await authenticateOperator(services, request.headers.authorization, request.ip);
  };
}

/**
 * Every /api/operator/* call, centrally, before its body is read: the caller is authenticated
 * (401) and their role checked against the matrix of operator-roles.ts (403 FORBIDDEN_ROLE,
 * recorded in the audit as `denied`); `request.operator` then says who calls. Then the audit's
 * hooks (platform/audit.ts). Registered by app.ts before any module's routes.
 */
export function registerOperatorHooks(app: FastifyInstance, services: Services): void {
  app.decorateRequest('operator', null);
  const routes: Array<{ method: string; url: string }> = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/operator/')) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  app.addHook('onRequest', async (request) => {
    if (!isOperatorRoute(request)) return;
    const operator = await authenticateOperator(services, request.headers.authorization, request.ip);
    request.operator = operator;
    const url = request.routeOptions.url ?? '';
    if (!roleAllows(operator.role, request.method, url)) {
      await recordAudit(services.database.db, { actor: operator, action: 'denied', target: `${request.method} ${url}` }, request);
      throw new AppError(403, 'FORBIDDEN_ROLE');
    }
  });
  registerAuditHooks(app, services.database.db);
}

/**
 * Whether the operator calling holds the owner role (the automation key counts as the owner).
 * Calls that need the owner inside a wider role's route (a manual credit over a member's deposit
 * limit, releasing a held deposit the limit still refuses) ask this and an explicit flag in the body.
 */
export function operatorIsOwner(request: FastifyRequest): boolean {
  return request.operator?.role === 'owner';
}

/**
 * The guard each domain puts on its operator calls (`preHandler: operatorGuard(config)`). The
 * checks themselves run centrally for every /api/operator/* route (registerOperatorHooks); this
 * guard only refuses a call that reached it without an identity (a route registered outside
 * /api/operator/, say), so a guarded route is never open.
 */
export function operatorGuard(_config?: Pick<Config, 'OPERATOR_TOKEN'>): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    if (!request.operator) throw unauthorized('UNAUTHORIZED');
  };
}

/**
 * Who made an operator call, by name (notes' authors, the makers and checkers of four eyes): the
 * operator's username; for the automation key always `api-key`. What the key sends in
 * `X-Operator` is a free-text note the audit log keeps beside it (`onBehalfOf`), never an identity.
 */
export function operatorName(request: FastifyRequest): string {
  const operator = request.operator;
  if (!operator) return 'operator';
  // The automation key is one identity, `api-key`, whatever X-Operator says (that header is only a
  // note in the audit log, on_behalf_of): a typed name is nobody's second pair of eyes.
  return operator.via === 'api-key' ? API_KEY_IDENTITY.username : operator.username;
}

/**
 * GET / PUT of a banner setting (`/api/operator/<name>-banners`): one list for every language or
 * one per language (see lib/banners), each change recorded in the audit.
 */
export function bannerSettingRoutes(app: FastifyInstance, services: Pick<Services, 'config' | 'settings' | 'database'>, name: 'invite' | 'refund'): void {
  const guard = operatorGuard(services.config);
  const key = `${name}Banners`;
  const calls = name === 'invite'
    ? { get: promotionOperatorCalls.inviteBannersGet, put: promotionOperatorCalls.inviteBannersPut }
    : { get: promotionOperatorCalls.refundBannersGet, put: promotionOperatorCalls.refundBannersPut };
  contractRoute(app, calls.get, { preHandler: guard }, async () => services.settings.get<StoredBanners>(key, []));
  contractRoute(app, calls.put, { preHandler: guard }, async ({ body, request }) => {
    const before = await services.settings.get<StoredBanners>(key, []);
    await services.settings.set(key, body);
    await recordChange(services.database.db, { who: operatorName(request), entity: 'banners', key: name, before, after: body });
    return body;
  });
}
