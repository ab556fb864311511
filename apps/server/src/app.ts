import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/database';
import { migrate } from './db/migrations';
import { registerApiDocs } from './http/api-docs';
import { registerModules } from './http/endpoint';
import { createFastify } from './http/fastify';
import type { AuthMember } from './http/handlers';
import { isApiPath, pathOf } from './http/paths';
import { securityHeadersFor } from './http/security-headers';
import { LoadShedder, registerShedding } from './http/shedding';
import { registerWebApp } from './http/web-app';
import { modules as allModules } from './modules';
import { backgroundJobs } from './platform/jobs';
import { migrationsOf, type DomainModule } from './platform/module';
import { operatorAuthentication, registerOperatorHooks } from './platform/operator';
import { createKernel, servicesUnderConstruction, type Services } from './platform/services';

declare module 'fastify' {
  interface FastifyRequest {
    member: AuthMember | null;
  }
  interface FastifyInstance {
    /**
     * Every route as registered (method, URL pattern, and the name of the contract call it answers,
     * if any): what tests walk to hold properties of all of them.
     */
    registeredRoutes: ReadonlyArray<{ method: string; url: string; contract?: string }>;
  }
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
}

const here = dirname(fileURLToPath(import.meta.url));

export { redactUrl } from './http/fastify';

/** Every migration of the server's domains, in order (also for the CLI tools and tests). */
export function allMigrations(modules: readonly DomainModule[] = allModules) {
  return migrationsOf(modules);
}

/**
 * Builds the whole server from the list of domain modules (modules/index.ts): their migrations,
 * services and (once the logger exists) seeds; then the error handler, site state, every call of the contract (each
 * domain's handlers in its own plugin scope; 501 NOT_IMPLEMENTED where no domain answers one
 * yet), each domain's other routes, health, and the built web app with a fallback to index.html.
 */
export async function buildApp(config: Config, database: Database, modules: readonly DomainModule[] = allModules): Promise<BuiltApp> {
  await migrate(database, migrationsOf(modules));
  const services = servicesUnderConstruction(createKernel(config, database));
  for (const module of modules) await module.setup?.(services);

  const { page: securityHeaders, api: apiHeaders } = securityHeadersFor(config);
  const app = createFastify(config, apiHeaders);
  // Seeds run once the logger exists (the demo logs the steps it skips), before any route.
  for (const module of modules) await module.seed?.(services, app.log);

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiPath(pathOf(request)) ? apiHeaders : securityHeaders);
    done();
  });

  // An overloaded process sheds member calls with 503 BUSY before reading them (http/shedding.ts).
  registerShedding(app, new LoadShedder({ lagMs: config.SHED_LAG_MS, poolQueue: config.SHED_POOL_QUEUE, waiting: () => database.waiting() }), isApiPath, pathOf);

  // A terminated site answers every API call 410 gone; operator calls stay open to revive it.
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request);
    // Operator calls (and the operators' login) stay open to revive the site; webhooks, so money that arrives is recorded.
    if (!isApiPath(path) || /^\/+api\/(operator|admin|webhooks)\//i.test(path)) return;
    if (!(await services.settings.siteActive())) {
      return reply.status(410).send({ message: 'gone', active: false });
    }
  });

  // Every /api/operator/* call: who calls (401), the roles matrix (403 FORBIDDEN_ROLE), the audit.
  registerOperatorHooks(app, services);

  // The OpenAPI document of every /api route (it sees the routes as they are registered below).
  await registerApiDocs(app, config, operatorAuthentication(services));

  await registerModules(app, services, modules);

  // Background work (reconcilers, sweeps, imports) runs in the one process holding the jobs'
  // lease (platform/jobs.ts); every process tries to take it once the server is ready.
  const jobs = backgroundJobs(app, config, database, services, modules);

  app.get('/healthz', async () => {
    await database.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    return { status: 'ok', database: database.kind, pid: process.pid, jobs: jobs.held ? 'running' : 'standby' };
  });

  await registerWebApp(app, config, services, resolve(here, '../../web/dist'));
  app.addHook('onReady', async () => {
    await jobs.start();
  });
  app.addHook('onClose', async () => {
    await jobs.close();
    for (const module of [...modules].reverse()) await module.close?.(services);
    await services.limiter.close();
  });
  return { app, services };
}

/** Re-exported for the tests and tools that knew them here. */
export { isAdminPath, isApiPath, normalisedPath } from './http/paths';
