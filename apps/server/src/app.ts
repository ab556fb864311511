import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from 'helmet';
import type { MultipartFile } from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { endpointList } from '@mw/contract/endpoints';
import { breakRuleOf, type EndpointDef } from '@mw/contract/http';
import { WALLET_CODE } from '@mw/contract/constants';
import type { Config } from './config';
import type { Database } from './db/database';
import { migrate } from './db/migrations';
import { registerApiDocs } from './http/api-docs';
import { deviceIdOf } from './http/device-id';
import { appDocuments } from './http/app-document';
import { registerErrorHandler } from './http/error-handler';
import { LoadShedder, registerShedding } from './http/shedding';
import { clientErrorHandlerWith, frameworkErrorAnswer, registerHygiene } from './http/hygiene';
import { localeOf, type AuthMember, type Handler, type Handlers, type RequestContext } from './http/handlers';
import { AppError } from './lib/errors';
import { modules as allModules } from './modules';
import { idempotencyOf } from './money/idempotency';
import { Lease } from './platform/leader';
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

/** Auto-login paths carry a game password (spec section 7); it never reaches the logs. */
export function redactUrl(url: string): string {
  return url.replace(/^(\/api\/autoLogin\/[^/]+\/[^/?]+\/)[^/?]+/, '$1***');
}

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

  // Security headers (helmet's), worked out once: they are the same for every answer.
  const securityHeaders = staticHeaders(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          mediaSrc: ["'self'", 'blob:', 'https:'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      strictTransportSecurity: config.HSTS_MAX_AGE > 0 ? { maxAge: config.HSTS_MAX_AGE, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    }),
  );
  // Powerful browser features the app never uses are switched off for it and anything it embeds
  // (only features Chromium knows: an unknown one, such as `bluetooth`, is an error in its console).
  securityHeaders['permissions-policy'] = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), interest-cohort=()';
  // API answers carry members' data (game passwords, balances): no cache keeps them.
  const apiHeaders = { ...securityHeaders, 'cache-control': 'no-store' };
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ['req.headers.authorization'],
            serializers: {
              req: (request: { method: string; url: string; ip?: string }) => ({ method: request.method, url: redactUrl(request.url), remoteAddress: request.ip }),
            },
          },
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (off by default).
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Node's own ceiling for a whole request to arrive; non-upload routes get REQUEST_TIMEOUT_MS (hygiene.ts).
    requestTimeout: config.UPLOAD_TIMEOUT_MS,
    routerOptions: { ignoreTrailingSlash: true },
    // Node checks its request and header timeouts this often (30 s by default: far too coarse).
    http: { connectionsCheckingInterval: Math.min(1_000, config.REQUEST_TIMEOUT_MS) },
    clientErrorHandler: clientErrorHandlerWith(apiHeaders),
    frameworkErrors: (error, _request, reply) => {
      const answer = frameworkErrorAnswer(error);
      // The option is typed for every route generic; this answer is the same for all of them.
      void (reply as unknown as FastifyReply).status(answer.status).headers(apiHeaders).send(answer.body);
    },
  });
  // Seeds run once the logger exists (the demo logs the steps it skips), before any route.
  for (const module of modules) await module.seed?.(services, app.log);
  app.server.headersTimeout = Math.min(config.REQUEST_TIMEOUT_MS, config.UPLOAD_TIMEOUT_MS);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const registeredRoutes: Array<{ method: string; url: string; contract?: string }> = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    const contract = route.config?.contract?.name;
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) registeredRoutes.push({ method, url: route.url, ...(contract ? { contract } : {}) });
  });
  app.decorateRequest('member', null);
  app.decorateRequest('bodyTimer', null);
  registerErrorHandler(app);
  registerHygiene(app, { requestTimeoutMs: config.REQUEST_TIMEOUT_MS });

  // An empty JSON body is no body; broken JSON is KEY_INVALID (see the error handler).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      done(new AppError(400, 'KEY_INVALID'), undefined);
    }
  });

  // HTML forms (the sandbox providers' login pages).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });

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

  // Each domain's contract calls and other routes, in a plugin scope of its own. A call no
  // domain answers is 501 NOT_IMPLEMENTED; `null` leaves the route out (404).
  const answered = new Map<string, string>();
  for (const module of modules) {
    const handlers: Handlers = module.handlers?.(services) ?? {};
    for (const name of Object.keys(handlers)) {
      const other = answered.get(name);
      if (other) throw new Error(`call ${name} is answered by both ${other} and ${module.name}`);
      answered.set(name, module.name);
    }
    await app.register(async (scope) => {
      await module.prepare?.(scope, services);
      for (const [name, def] of endpointList) {
        if (!(name in handlers)) continue;
        const handler = handlers[name] as Handler<EndpointDef> | null | undefined;
        if (handler) registerEndpoint(scope, services, name, def, handler);
      }
      await module.routes?.(scope, services);
    });
  }
  for (const [name, def] of endpointList) {
    if (!answered.has(name)) registerEndpoint(app, services, name, def, undefined);
  }

  // Background work (reconcilers, sweeps, imports) runs in the one process holding the jobs'
  // lease (platform/leader.ts); every process tries to take it once the server is ready.
  const stops: Array<() => Promise<void> | void> = [];
  const jobs = new Lease(database.db, 'background-jobs', {
    ttlMs: config.JOB_LEASE_MS,
    onGain: () => {
      app.log.info('background jobs: this process runs them');
      for (const module of modules) {
        const stop = module.start?.(services, app.log);
        if (stop) stops.push(stop);
      }
    },
    onLose: async () => {
      app.log.warn('background jobs: the lease went to another process; they stop here');
      for (const stop of stops.splice(0)) await stop();
    },
    onError: (error) => app.log.warn({ err: error }, 'background jobs: the lease could not be renewed'),
  });

  app.get('/healthz', async () => {
    await database.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    return { status: 'ok', database: database.kind, pid: process.pid, jobs: jobs.held ? 'running' : 'standby' };
  });

  await registerWebApp(app, config, services);
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

/**
 * Money calls whose own steps record the Idempotency-Key with their money (the money core's
 * `once` / `composite`): the route layer keeps their first answer but does not claim the key
 * before they run (see MoneyCore.call). Every other `movesMoney` call is claimed first.
 * `walletTruelink` is claimed first too although its credit records the key: its first step
 * claims the voucher, and a concurrent request of the same key found it claimed and answered
 * TRUELINK_DUPLICATE (a contract-walking test, idempotency.contract.test.ts, on PostgreSQL);
 * claimed first, it answers REQUEST_IN_PROGRESS.
 */
const KEYED_INSIDE: ReadonlySet<string> = new Set(['walletAdd', 'walletTransfer', 'walletTransferAll', 'walletWithdraw', 'walletWithdrawAll']);

/**
 * A multipart money call (the slip upload) as its Idempotency-Key's hash sees it: the file's field
 * name and the SHA-256 of its bytes (the same file in another multipart envelope is the same
 * request; another file under a used key is IDEMPOTENCY_KEY_REUSED). The file is read here once;
 * the handler's `request.file()` then answers this same part (its `toBuffer()` keeps the bytes),
 * or the error reading it raised (a file over the size limit), so the handler sees what it would
 * have read itself.
 */
async function multipartRequest(request: FastifyRequest): Promise<unknown> {
  let part: MultipartFile | undefined;
  let failure: Error | null = null;
  let digest: { field: string; sha256: string } | null = null;
  try {
    part = await request.file();
    if (part) digest = { field: part.fieldname, sha256: createHash('sha256').update(await part.toBuffer()).digest('hex') };
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
  }
  request.file = async () => {
    if (failure) throw failure;
    return part;
  };
  return { file: failure ? { unreadable: (failure as Error & { code?: unknown }).code ?? failure.name } : digest };
}

function registerEndpoint(app: FastifyInstance, services: Services, name: string, def: EndpointDef, handler: Handler<EndpointDef> | undefined): void {
  const rule = breakRuleOf(def);
  app.route({
    method: def.method,
    url: def.path,
    config: { contract: { name, def } },
    schema: {
      ...(def.params ? { params: def.params } : {}),
      ...(def.body && !def.multipart ? { body: def.body } : {}),
      response: { 200: def.response },
    },
    preValidation: def.auth
      ? async (request: FastifyRequest) => {
          request.member = await services.sessions.authenticate(request.headers.authorization);
          // Responsible play: during a member's time-out or self-exclusion the calls the contract
          // marks (every money call but withdrawals and money coming home, game launches,
          // marketing) answer 403 TIME_OUT / SELF_EXCLUDED {until} before their body is even checked.
          if (rule !== 'allowed' && 'responsible' in services) {
            // Before validation the body is whatever came: only a JSON object's `to` counts.
            const body: unknown = request.body;
            const homeward = rule === 'toWalletOnly' && typeof body === 'object' && body !== null && 'to' in body && body.to === WALLET_CODE;
            if (!homeward) await services.responsible.assertNoBreak(request.member.memberId, request.member.sessionId);
          }
        }
      : def.domain === 'chat'
        ? // Chat is for guests and members: a token, when one comes, says which member (and must be valid).
          async (request: FastifyRequest) => {
            if (request.headers.authorization) request.member = await services.sessions.authenticate(request.headers.authorization);
          }
        : def.domain === 'lookup'
          ? // Lookups answer guests and members: a valid token says whose figures (a member's currency); any other is a guest.
            async (request: FastifyRequest) => {
              if (request.headers.authorization) request.member = await services.sessions.authenticate(request.headers.authorization).catch(() => null);
            }
          : undefined,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      if (!handler) throw new AppError(501, 'NOT_IMPLEMENTED');
      const ctx: RequestContext<EndpointDef> = {
        body: request.body,
        params: request.params,
        member: request.member,
        locale: localeOf(request.headers['accept-language']),
        ip: request.ip,
        deviceId: deviceIdOf(request.headers['x-device-id']),
        // Money calls: the key and a hash of this call and its body (the same key must come with the same request).
        // A multipart call's body is its file (read once here when a key comes with it).
        idem: def.movesMoney
          ? idempotencyOf(
              request.headers['idempotency-key'],
              name,
              def.multipart && request.headers['idempotency-key'] !== undefined && request.isMultipart() ? await multipartRequest(request) : request.body,
              request.params,
            )
          : null,
        request,
        reply,
      };
      // Every money call runs once per Idempotency-Key, whatever its handler does (money/core.ts `call`).
      if (def.movesMoney && ctx.member && ctx.idem) {
        return services.money.call(ctx.member.memberId, ctx.idem, KEYED_INSIDE.has(name), () => handler(ctx));
      }
      return handler(ctx);
    },
  });
}

async function registerWebApp(app: FastifyInstance, config: Config, services: Services): Promise<void> {
  const root = config.WEB_DIST ? resolve(config.WEB_DIST) : resolve(here, '../../web/dist');
  const hasWeb = existsSync(join(root, 'index.html'));
  // index.html, and the guest pages prerendered in each locale, with the site's state in them
  // (http/app-document.ts); read once (each prerendered page when first asked for).
  const prerendered = join(root, 'prerendered', config.LAOS_MODE ? 'laos' : 'default');
  const document = hasWeb
    ? appDocuments(
        readFileSync(join(root, 'index.html'), 'utf8'),
        (locale, route) => {
          const file = join(prerendered, locale, `${route.slice(1)}.html`);
          return existsSync(file) ? readFileSync(file, 'utf8') : null;
        },
        { laos: config.LAOS_MODE },
      )
    : null;
  // The back office's page (its own build: dist/admin/index.html) for /admin and every /admin/… route.
  const adminIndex = join(root, 'admin', 'index.html');
  const adminDocument = existsSync(adminIndex) ? readFileSync(adminIndex) : null;
  if (hasWeb) {
    // The installed app's name is the site's name from its settings (as the tab title and every
    // screen): the built manifests (apps/web/pwa) are sent with `name` and `short_name` replaced.
    app.addHook('onRequest', async (request, reply) => {
      const manifest = /^\/manifest\.(th|la|en)\.webmanifest$/.exec(request.url.split('?')[0] ?? '');
      if (!manifest || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      const file = join(root, `manifest.${manifest[1]}.webmanifest`);
      if (!existsSync(file)) return;
      const built = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const info = await services.settings.get<{ name?: string }>('info', {}).catch(() => ({ name: undefined }));
      const name = typeof info.name === 'string' && info.name.trim() !== '' ? info.name.trim() : null;
      const body = name ? { ...built, name, short_name: name } : built;
      return reply.header('cache-control', 'no-cache').type('application/manifest+json').send(JSON.stringify(body));
    });
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset; they are sent to clients that accept them.
      preCompressed: true,
      setHeaders: (res, path) => {
        void res.header('cache-control', path.includes(join(root, 'assets')) || path.includes(join(root, 'admin', 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The service worker (the installable app, apps/web/pwa): checked with the server on every
        // update check, never kept as immutable, and allowed the whole site as its scope.
        if (path.replace(/\.(br|gz)$/, '') === join(root, 'sw.js')) void res.header('service-worker-allowed', '/');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url;
    const path = normalisedPath(url);
    if (isApiPath(path) || /^\/+(admin\/+)?assets\//i.test(path) || (request.method !== 'GET' && request.method !== 'HEAD') || !document) {
      return reply.status(404).header('cache-control', 'no-store').send({ message: 'NOT_FOUND' });
    }
    if (isAdminPath(path)) {
      if (!adminDocument) return reply.status(404).header('cache-control', 'no-store').send({ message: 'NOT_FOUND' });
      return reply.header('cache-control', 'no-cache').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(adminDocument);
    }
    // History-style routes: every other GET gets the app, which shows its own 404 page.
    // Without an answer from the database the page still goes out, without the state in it.
    const active = await services.settings.siteActive().catch((error: unknown) => {
      request.log.warn({ err: error }, 'site state unknown: the page goes out without it');
      return null;
    });
    const { body, encoding, prerendered: guestPage } = document.pick({
      path,
      cookie: request.headers.cookie,
      active,
      acceptEncoding: request.headers['accept-encoding'],
    });
    if (encoding) void reply.header('content-encoding', encoding);
    // A guest page's language follows the language cookie.
    const vary = guestPage ? 'Accept-Encoding, Cookie' : 'Accept-Encoding';
    return reply.header('cache-control', 'no-cache').header('vary', vary).type('text/html; charset=utf-8').send(body);
  });
}

/** TRUST_PROXY as a hop count: the nearest `hops` addresses of the chain are proxies (as Fastify does with a number). */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/**
 * Whether a path is the API's: /api, /api/…, /api;… in any letter case, however it was written
 * (the router decodes %-escapes and takes absolute-form targets, so the checks must too).
 */
export function isApiPath(path: string): boolean {
  return /^\/+api(?![a-z0-9_.~-])/i.test(path);
}

/** Whether a path is the back office's (/admin, /admin/…), in any letter case. */
export function isAdminPath(path: string): boolean {
  return /^\/+admin(?:\/|$)/i.test(path);
}

/** The path a request target means: absolute form, dot segments, %-escapes and backslashes resolved. */
export function normalisedPath(url: string): string {
  let path = url;
  try {
    // Leading slashes collapsed first: "//api/x" is a path here, not a host.
    path = new URL(url.replace(/\\/g, '/').replace(/^\/{2,}/, '/'), 'http://localhost').pathname;
  } catch {
    // not a URL: keep the text
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // a broken escape: keep it escaped
  }
  return path.replace(/\\/g, '/');
}

/** The route a request matched (its pattern), or the path it means when none did. */
function pathOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? normalisedPath(request.url);
}

/** The headers a connect-style middleware sets (helmet's are static: no nonces, nothing per request). */
function staticHeaders(middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void): Record<string, string> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader: (name: string) => {
      headers.delete(name.toLowerCase());
    },
  };
  middleware({ headers: {} } as IncomingMessage, res as unknown as ServerResponse, (error) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  return Object.fromEntries(headers);
}
