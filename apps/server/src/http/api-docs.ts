import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorCodes } from '@mw/contract/errors';
import type { EndpointDef } from '@mw/contract/http';
import type { Config } from '../config';

/**
 * The API's OpenAPI 3.1 document and reference page, generated from the routes as registered:
 * every contract call (its zod schemas: params, body, answer; its Idempotency-Key when it moves
 * money; its name as operationId and its domain as tag) and every other route under /api (operator,
 * admin, webhook and sandbox calls, with the zod schemas they are registered with).
 *
 *   GET /api/docs/openapi.json — the document
 *   GET /api/docs              — the reference page (Swagger UI, served from the package: no CDN)
 *
 * Public in development and test; with NODE_ENV=production only to an operator (the operators'
 * guard: their session or the automation key) unless API_DOCS_PUBLIC=true.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract call a route answers (set by registerEndpoint): what the document says of it. */
    contract?: { name: string; def: EndpointDef };
    /** What a route outside the contract reads, when it parses its body itself (webhooks: signed raw bytes). */
    openapiBody?: z.ZodType;
  }
}

const BUSY_NOTE = 'Member calls may be shed while the server is overloaded: 503 `BUSY`, `Retry-After` seconds (nothing was read or moved).';

const errorBody = {
  $ref: '#/components/schemas/Error',
};

function errorResponse(description: string): Record<string, unknown> {
  return { description, content: { 'application/json': { schema: errorBody } } };
}

/** The error answers every call of a kind can give (the code is in `message`; see components.schemas.ErrorCode). */
function errorResponses(url: string, def: EndpointDef | undefined): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    400: errorResponse('KEY_INVALID (a field is missing or malformed; `fields` names them) or the call\'s own 400 codes'),
  };
  const operator = /^\/api\/(operator|admin)\//.test(url);
  const webhook = url.startsWith('/api/webhooks/');
  if (def?.auth || operator) responses[401] = errorResponse(operator ? 'no valid operator session or key' : '`invalid-token`: no valid member session');
  if (operator) responses[403] = errorResponse('FORBIDDEN_ROLE: the operator\'s role does not allow this call');
  if (webhook) responses[401] = errorResponse('INVALID_SIGNATURE or STALE_WEBHOOK: see the webhook signature scheme');
  if (def?.movesMoney) {
    responses[409] = errorResponse('REQUEST_IN_PROGRESS (the same Idempotency-Key is still running: ask again with it) or IDEMPOTENCY_KEY_REUSED (the key was used for another request)');
  }
  if (!operator && !webhook) {
    responses[410] = errorResponse('`gone`: the site is switched off');
    responses[429] = errorResponse('REQUEST_LIMIT / REQUEST_LIMIT_1MIN: a rate limit (`retryAfter` seconds)');
    responses[503] = errorResponse(BUSY_NOTE);
  }
  return responses;
}

export async function registerApiDocs(app: FastifyInstance, config: Config, guard: (request: FastifyRequest, reply: FastifyReply) => Promise<void>): Promise<void> {
  const zodTransform = createJsonSchemaTransform({});
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Golden Wallet API',
        version: '1',
        description: [
          'The member wallet\'s HTTP API: member calls (spec section 7 and the calls this implementation adds), operator and admin calls, provider webhooks and sandbox calls.',
          '',
          '**Errors** are `{"message": CODE}` (plus detail fields such as `fields`, `retryAfter`, `minimum`); CODE is one of `ErrorCode`.',
          '',
          '**Money calls** (those with an `Idempotency-Key` parameter) run once per key: a retry with the same key and the same request answers the first answer and moves nothing; the same key with another request is `409 IDEMPOTENCY_KEY_REUSED`; while the first is running, `409 REQUEST_IN_PROGRESS`.',
          '',
          '**Webhooks** (`/api/webhooks/*`) are signed: `X-Timestamp` is unix seconds (within 300 s of the server\'s clock, else `401 STALE_WEBHOOK`) and `X-Signature` is the hex HMAC-SHA256, with the provider\'s shared secret, over `${X-Timestamp}.${raw body}` (else `401 INVALID_SIGNATURE`). Each message is applied once by its own id (payment id, sending bank + reference, voucher), whatever the order or repetition.',
          '',
          BUSY_NOTE,
        ].join('\n'),
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          member: { type: 'http', scheme: 'bearer', description: 'A member\'s session token (POST /api/login)' },
          operator: { type: 'http', scheme: 'bearer', description: 'An operator\'s session token (POST /api/admin/login, then /api/admin/login/totp), or the OPERATOR_TOKEN automation key' },
          webhookSignature: { type: 'apiKey', in: 'header', name: 'X-Signature', description: 'hex HMAC-SHA256 over `${X-Timestamp}.${raw body}` with the provider\'s secret' },
        },
        schemas: {
          ErrorCode: { type: 'string', enum: [...errorCodes], description: 'Every error code the API answers in `message`' },
          Error: {
            type: 'object',
            required: ['message'],
            properties: {
              message: { type: 'string', description: 'an ErrorCode' },
              fields: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, code: { type: 'string' } }, required: ['path', 'code'] } },
              retryAfter: { type: 'number', description: 'seconds' },
            },
            additionalProperties: true,
          },
        },
      },
    },
    hideUntagged: false,
    transform: (input) => {
      const route: RouteOptions = input.route;
      const url = input.url;
      // Only the API is documented (not the web app, the sandbox's HTML pages or the docs themselves).
      if (!url.startsWith('/api/') || url.startsWith('/api/docs')) return { schema: { ...input.schema, hide: true } as FastifySchema, url };
      const contract = route.config?.contract;
      const bodyOverride = route.config?.openapiBody;
      const base = { ...(input.schema ?? {}) } as FastifySchema & Record<string, unknown>;
      if (bodyOverride && !base.body) base.body = bodyOverride;
      const transformed = zodTransform({ ...input, schema: base });
      const schema = transformed.schema as FastifySchema & Record<string, unknown>;
      const def = contract?.def;
      const segment = url.split('/')[2] ?? 'api';
      // Member calls by domain; operator calls as `operator: <domain>`; admin, webhook and sandbox calls by their segment.
      const memberCall = def !== undefined && !/^\/api\/(operator|admin|webhooks|sandbox)\//.test(url);
      const tag = segment === 'operator' ? `operator: ${def?.domain ?? url.split('/')[3] ?? ''}` : def ? def.domain : segment;
      const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}), ...errorResponses(url, def) };
      const extra: Record<string, unknown> = {
        tags: [tag],
        ...(contract ? { operationId: contract.name } : {}),
        ...(def?.description ? { description: def.description } : {}),
        ...(def?.added && memberCall ? { summary: `${contract?.name ?? ''} (added to spec section 7)` } : contract ? { summary: contract.name } : {}),
        security: def?.auth ? [{ member: [] }] : /^\/api\/(operator|admin)\//.test(url) && !/^\/api\/admin\/(login|enrol)/.test(url) ? [{ operator: [] }] : url.startsWith('/api/webhooks/') ? [{ webhookSignature: [] }] : [],
        response,
        // The roles that may call an operator call: owner and the contract definition's `roles` (the one roles matrix).
        ...(url.startsWith('/api/operator/') ? { 'x-roles': ['owner', ...(def?.roles ?? [])] } : {}),
      };
      if (def?.movesMoney) {
        extra.headers = {
          type: 'object',
          properties: { 'idempotency-key': { type: 'string', minLength: 1, maxLength: 128, description: 'Once-only key of this money call (a UUID); a retry sends the same key' } },
        };
      }
      if (def?.multipart) extra.consumes = ['multipart/form-data'];
      return { schema: { ...schema, ...extra } as FastifySchema, url };
    },
  });
  const open = config.NODE_ENV !== 'production' || config.env.API_DOCS_PUBLIC === 'true';
  const onRequest = open ? undefined : guard;
  app.get('/api/docs/openapi.json', { ...(onRequest ? { onRequest } : {}), schema: { hide: true } }, async () => app.swagger());
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Swagger UI sets element styles from its script: its page allows inline styles (never scripts).
    transformStaticCSP: (header: string) => header.replace(/style-src ([^;]*)/, "style-src $1 'unsafe-inline'"),
    uiConfig: { url: '/api/docs/openapi.json', deepLinking: true },
    ...(onRequest ? { uiHooks: { onRequest: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void guard(request, reply).then(() => done(), done) } } : {}),
  });
}
