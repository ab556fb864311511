import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import { AppError } from '../lib/errors';
import { registerErrorHandler } from './error-handler';
import { clientErrorHandlerWith, frameworkErrorAnswer, registerHygiene } from './hygiene';

/** Auto-login paths carry a game password (spec section 7); it never reaches the logs. */
export function redactUrl(url: string): string {
  return url.replace(/^(\/api\/autoLogin\/[^/]+\/[^/?]+\/)[^/?]+/, '$1***');
}

/** TRUST_PROXY as a hop count: the nearest `hops` addresses of the chain are proxies (as Fastify does with a number). */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/**
 * The Fastify instance with what every route shares: logging (auto-login passwords redacted),
 * proxies, limits and timeouts, zod schemas, the list of registered routes, the error handler,
 * request hygiene, and the JSON and form body parsers. No route yet.
 */
export function createFastify(config: Config, apiHeaders: Record<string, string>): FastifyInstance {
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
  return app;
}
