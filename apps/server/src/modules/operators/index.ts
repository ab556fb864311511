import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { adminEndpoints } from '@mw/contract/admin';
import type { Config } from '../../config';
import { contractRoute } from '../../http/contract-route';
import { unauthorized } from '../../lib/errors';
import { SecretBox } from '../../lib/secret-box';
import type { AuditActor } from '../../platform/audit';
import { defineModule } from '../../platform/module';
import { moduleConfig } from '../../platform/module-config';
import { authenticateOperator, operatorGuard, type OperatorIdentity } from '../../platform/operator';
import type { Services } from '../../platform/services';
import type { SettingsService } from '../settings/settings-service';
import { operatorMigrations } from './migrations';
import { OperatorService } from './operator-service';
import { OperatorSessionService, type Clock } from './operator-sessions';
import './tables';
import { moduleDb } from '../../db/database';
import type { OperatorsTables } from './tables';

declare module '../../platform/services' {
  interface Services {
    operators: OperatorService;
  }
}

const operatorEnv = z.object({
  /** A session's whole life in hours. */
  OPERATOR_SESSION_HOURS: z.coerce.number().min(0.1).max(24 * 7).default(8),
  /** Minutes without a call after which a session ends. */
  OPERATOR_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(30),
  /** How long an enrolment link works. */
  OPERATOR_ENROLMENT_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(72),
  /** The address the site is reached at (enrolment links); http://localhost:3000 when unset. */
  PUBLIC_URL: z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http(s):// URL').optional(),
  /** The issuer name an authenticator app shows. */
  OPERATOR_TOTP_ISSUER: z.string().min(1).max(64).default('Golden Wallet'),
  ADMIN_LOGIN_FAILS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(5),
  ADMIN_LOGIN_FAILS_PER_USERNAME_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  ADMIN_LOGIN_FAILS_PER_IP_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
});

/** The key TOTP secrets are sealed with: CREDENTIALS_KEY, or the one generated into the settings (as the game passwords'). */
async function credentialsKey(config: Config, settings: SettingsService): Promise<Buffer> {
  if (config.CREDENTIALS_KEY) return Buffer.from(config.CREDENTIALS_KEY, 'base64');
  await settings.setIfMissing('credentialsKey', randomBytes(32).toString('base64'));
  return Buffer.from(await settings.get<string>('credentialsKey', ''), 'base64');
}

/**
 * Operators of the back office: accounts with roles, login with password and TOTP, sessions of
 * their own, enrolment links; the management of operators and the audit log (owner).
 *   POST /api/admin/login, /api/admin/login/totp, /api/admin/logout; GET /api/admin/me;
 *   PUT /api/admin/password; GET/POST /api/admin/enrol/:token;
 *   GET/POST /api/operator/operators, PUT …/:id/role, POST …/:id/disable|enable|reset-totp;
 *   GET /api/operator/audit.
 */
export const operatorsModule = defineModule({
  name: 'operators',
  migrations: operatorMigrations,
  async setup(services) {
    const { config, database, passwords, limiter, settings } = services;
    const env = moduleConfig(config, operatorEnv);
    const clock: Clock = { now: () => new Date() };
    const sessions = new OperatorSessionService(moduleDb<OperatorsTables>(database), { hours: env.OPERATOR_SESSION_HOURS, idleMinutes: env.OPERATOR_IDLE_MINUTES }, clock);
    services.operatorSessions = sessions;
    services.operators = new OperatorService(moduleDb<OperatorsTables>(database), passwords, limiter, new SecretBox(await credentialsKey(config, settings)), sessions, {
      enrolmentHours: env.OPERATOR_ENROLMENT_HOURS,
      publicUrl: env.PUBLIC_URL ?? 'http://localhost:3000',
      issuer: env.OPERATOR_TOTP_ISSUER,
      loginFailsPerMinute: env.ADMIN_LOGIN_FAILS_PER_MINUTE,
      loginFailsPerUsernameHour: env.ADMIN_LOGIN_FAILS_PER_USERNAME_HOUR,
      loginFailsPerIpMinute: env.ADMIN_LOGIN_FAILS_PER_IP_MINUTE,
    }, clock);
  },
  async seed({ config, operators }) {
    if (config.SEED_DEMO) await operators.seedDemo();
    else await operators.retireDemo();
  },
  routes(app, services) {
    adminRoutes(app, services);
  },
});

function identity(request: FastifyRequest): OperatorIdentity {
  if (!request.operator) throw unauthorized('UNAUTHORIZED');
  return request.operator;
}

function actor(request: FastifyRequest): AuditActor {
  const who = identity(request);
  return { id: who.id, username: who.username, role: who.role, via: who.via };
}

function adminRoutes(app: FastifyInstance, services: Services): void {
  const { operators } = services;
  const e = adminEndpoints;
  // /api/admin/* calls are outside the central /api/operator/* hook: they identify the caller here.
  const anyOperator = async (request: FastifyRequest) => {
    request.operator = await authenticateOperator(services, request.headers.authorization, request.ip);
  };
  const sessionOnly = async (request: FastifyRequest) => {
    await anyOperator(request);
    if (request.operator?.via !== 'session') throw unauthorized('UNAUTHORIZED');
  };
  const guard = operatorGuard(services.config);

  contractRoute(app, e.adminLogin, {}, async ({ body, request }) => operators.login(body.username, body.password, request.ip));
  contractRoute(app, e.adminLoginTotp, {}, async ({ body, request }) => operators.loginTotp(body.challenge, body.code, request.ip));
  contractRoute(app, e.adminLogout, { preHandler: sessionOnly }, async ({ request }) => {
    await operators.logout(identity(request), request.ip);
    return { ok: true as const };
  });
  contractRoute(app, e.adminMe, { preHandler: anyOperator }, async ({ request }) => {
    const who = identity(request);
    return { id: who.id, username: who.username, name: who.name, role: who.role, via: who.via, sessionExpiresAt: who.sessionExpiresAt?.toISOString() ?? null };
  });
  contractRoute(app, e.adminPassword, { preHandler: sessionOnly }, async ({ body, request }) =>
    operators.changePassword(identity(request), body.oldPassword, body.newPassword, request.ip),
  );
  contractRoute(app, e.adminEnrolment, {}, async ({ params }) => operators.enrolment(params.token));
  contractRoute(app, e.adminEnrolmentFinish, {}, async ({ params, body, request }) => {
    await operators.finishEnrolment(params.token, body.password, body.code, request.ip);
    return { ok: true as const };
  });

  // Owner calls: the central hook has authenticated the caller and checked the role.
  contractRoute(app, e.operatorsList, { preHandler: guard }, async () => ({ operators: await operators.list() }));
  contractRoute(app, e.operatorCreate, { preHandler: guard }, async ({ body, request }) => operators.create(body, actor(request)));
  contractRoute(app, e.operatorRole, { preHandler: guard }, async ({ params, body, request }) => operators.changeRole(params.id, body.role, actor(request)));
  contractRoute(app, e.operatorDisable, { preHandler: guard }, async ({ params, request }) => operators.disable(params.id, actor(request)));
  contractRoute(app, e.operatorEnable, { preHandler: guard }, async ({ params, request }) => operators.enable(params.id, actor(request)));
  contractRoute(app, e.operatorResetTotp, { preHandler: guard }, async ({ params, request }) => operators.resetTotp(params.id, actor(request)));
  // GET /api/operator/audit is answered by the backoffice module (its sentences name members and amounts read from the domains).
}
